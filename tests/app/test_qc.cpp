// `cudascope qc` end to end: its statistics against export's, its signalstats against
// ffprobe's on the same clip, YDIF against a computation on frames the ffmpeg CLI decodes,
// black and freeze events where FFmpeg's blackdetect/freezedetect put them, atomic output
// and skipping on re-run, --shard and --list-inputs, bad inputs and usage errors.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <zlib.h>

#include "CliRunner.h"

using namespace cs::testing;

namespace {

const QString kSize = "size=96x64:rate=25";

// A lossless clip (ffv1) from a lavfi graph.
QString makeClip(const QTemporaryDir& dir, const QString& name, const QString& graph) {
    const QString path = dir.path() + "/" + name;
    const RunResult r = ffmpeg({"-f", "lavfi", "-i", graph, "-c:v", "ffv1", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}
QString movingClip(const QTemporaryDir& dir, const QString& name = "moving.mkv", double seconds = 1.0) {
    return makeClip(dir, name, "testsrc2=" + kSize + ":d=" + QString::number(seconds) + ",noise=alls=20:allf=t,format=yuv420p");
}
// Moving 3 s, black 3 s (frames 75-149), moving 3 s, one frame frozen for 3 s (225-299), moving 2 s.
QString segmentsClip(const QTemporaryDir& dir) {
    const QString s = kSize;
    return makeClip(dir, "segments.mkv",
                    "testsrc2=" + s + ":d=3[a];color=black:" + s + ":d=3[b];testsrc2=" + s + ":d=3[c];testsrc2=" + s +
                        ",trim=start_frame=10:end_frame=11,setpts=N,loop=loop=74:size=1,setpts=N/25/TB[d];testsrc2=" + s +
                        ":d=2[e];[a][b][c][d][e]concat=n=5,format=yuv420p");
}

std::string gunzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return {};
    std::string out;
    char buf[65536];
    for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    gzclose(f);
    return out;
}

// The lavfi.signalstats.* tags of each <frame> of an ffprobe-schema document.
std::vector<std::map<std::string, std::string>> signalstatsTags(const std::string& xml) {
    std::vector<std::map<std::string, std::string>> frames;
    static const QRegularExpression tag(R"re(<tag key="lavfi\.signalstats\.(\w+)" value="([^"]*)"/>)re");
    for (const QString& line : QString::fromStdString(xml).split('\n')) {
        if (line.contains("<frame ")) frames.emplace_back();
        const auto m = tag.match(line);
        if (m.hasMatch() && !frames.empty()) frames.back()[m.captured(1).toStdString()] = m.captured(2).toStdString();
    }
    return frames;
}

QStringList lines(const std::string& text) { return QString::fromStdString(text).split('\n', Qt::SkipEmptyParts); }

}  // namespace

TEST(Qc, StatsEqualExport) {
    QTemporaryDir dir;
    const QString clip = movingClip(dir);
    const RunResult ex = cudascope({"export", clip, "--out", dir.path() + "/export", "--scopes", "stats", "--engine", "cpu"});
    ASSERT_EQ(ex.exitCode, 0) << ex.err;
    const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonArray exported = readJson((dir.path() + "/export/report.json").toStdString())["frames"].toArray();
    const QJsonObject report = readJson((dir.path() + "/qc/moving.mkv.qc.json").toStdString());
    const QJsonArray checked = report["frames"].toArray();
    ASSERT_EQ(checked.size(), 25);
    ASSERT_EQ(checked.size(), exported.size());
    for (qsizetype i = 0; i < checked.size(); ++i) {
        EXPECT_EQ(checked[i].toObject()["index"], exported[i].toObject()["index"]);
        EXPECT_EQ(checked[i].toObject()["pts"], exported[i].toObject()["pts"]);
        EXPECT_EQ(checked[i].toObject()["stats"], exported[i].toObject()["stats"]) << "frame " << i;
    }
    EXPECT_EQ(report["source"].toObject()["width"].toInt(), 96);
    // The CSV holds the same table: a header and one row per frame.
    const QStringList csv = lines(readFile((dir.path() + "/qc/moving.mkv.qc.csv").toStdString()));
    ASSERT_EQ(csv.size(), 26);
    const QStringList header = csv[0].split(',');
    const qsizetype avg = header.indexOf("stats_y_avg");
    ASSERT_GE(avg, 0);
    EXPECT_DOUBLE_EQ(csv[3].split(',')[avg].toDouble(), checked[2].toObject()["stats"].toObject()["y"].toObject()["avg"].toDouble());
}

TEST(Qc, SignalstatsEqualFfprobe) {
    QTemporaryDir dir;
    for (const QString format : {"yuv420p", "yuv422p10le"}) {
        const QString clip = makeClip(dir, format + ".mkv",
                                      "testsrc2=" + kSize + ":d=0.4,noise=alls=40:allf=t,format=" + format);
        const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu"});
        ASSERT_EQ(qc.exitCode, 0) << qc.err;
        const auto ours = signalstatsTags(gunzip((dir.path() + "/qc/" + format + ".mkv.qctools.xml.gz").toStdString()));
        const RunResult probe = runProgram(CS_TEST_FFPROBE, {"-hide_banner", "-loglevel", "error", "-f", "lavfi",
                                                             "movie=" + clip + ",signalstats=stat=tout+vrep+brng",
                                                             "-show_frames", "-of", "xml"});
        ASSERT_EQ(probe.exitCode, 0) << probe.err;
        const auto theirs = signalstatsTags(probe.out);
        ASSERT_EQ(ours.size(), 10u);
        ASSERT_EQ(ours.size(), theirs.size());
        for (size_t i = 0; i < ours.size(); ++i) {
            EXPECT_EQ(theirs[i].size(), 31u);
            for (const auto& [key, value] : theirs[i])   // the same text: FFmpeg's %d and %g
                EXPECT_EQ(ours[i].count(key) ? ours[i].at(key) : "(missing)", value) << format.toStdString() << " frame " << i << " " << key;
        }
    }
}

TEST(Qc, YdifEqualsReference) {
    QTemporaryDir dir;
    const QString clip = movingClip(dir);
    ASSERT_EQ(cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"}).exitCode, 0);
    const QString raw = dir.path() + "/y.raw";
    ASSERT_EQ(ffmpeg({"-i", clip, "-f", "rawvideo", "-pix_fmt", "yuv420p", raw}).exitCode, 0);
    const std::string y = readFile(raw.toStdString());
    const size_t plane = 96 * 64, frame = plane * 3 / 2;   // Y, then Cb and Cr at 48x32
    ASSERT_EQ(y.size(), 25 * frame);
    const QJsonArray frames = readJson((dir.path() + "/qc/moving.mkv.qc.json").toStdString())["frames"].toArray();
    ASSERT_EQ(frames.size(), 25);
    for (size_t f = 0; f < 25; ++f) {
        double sum = 0;   // numpy: np.abs(y[f].astype(int) - y[f-1]).mean(), 0 for the first frame
        for (size_t i = 0; f > 0 && i < plane; ++i) sum += std::abs(int(uint8_t(y[f * frame + i])) - int(uint8_t(y[(f - 1) * frame + i])));
        EXPECT_DOUBLE_EQ(frames[qsizetype(f)].toObject()["ydif"].toDouble(), sum / double(plane)) << "frame " << f;
    }
    EXPECT_GT(frames[5].toObject()["ydif"].toDouble(), 1.0);
}

TEST(Qc, BlackAndFreezeEventsWhereFfmpegFindsThem) {
    QTemporaryDir dir;
    const QString clip = segmentsClip(dir);
    const RunResult qc = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;
    const QJsonObject report = readJson((dir.path() + "/qc/segments.mkv.qc.json").toStdString());
    ASSERT_EQ(report["frames"].toArray().size(), 350);
    const auto black = eventsOf(report, "black");
    ASSERT_EQ(black.size(), 1u);
    EXPECT_EQ(black[0]["first_frame"].toInt(), 75);
    EXPECT_EQ(black[0]["last_frame"].toInt(), 149);
    EXPECT_DOUBLE_EQ(black[0]["first_pts"].toDouble(), 3.0);
    EXPECT_DOUBLE_EQ(black[0]["last_pts"].toDouble(), 5.96);
    // freezedetect: the black stretch is frozen too; the frozen frame from its first copy.
    const auto freeze = eventsOf(report, "freeze");
    ASSERT_EQ(freeze.size(), 2u);
    EXPECT_EQ(freeze[0]["first_frame"].toInt(), 75);
    EXPECT_EQ(freeze[0]["last_frame"].toInt(), 149);
    EXPECT_EQ(freeze[1]["first_frame"].toInt(), 225);
    EXPECT_EQ(freeze[1]["last_frame"].toInt(), 299);
    EXPECT_DOUBLE_EQ(freeze[1]["first_pts"].toDouble(), 9.0);
    // FFmpeg's own filters on the same file say the same.
    const RunResult ff = runProgram(CS_TEST_FFMPEG, {"-hide_banner", "-nostats", "-i", clip, "-vf", "blackdetect,freezedetect", "-f", "null", "-"});
    EXPECT_NE(ff.err.find("black_start:3 black_end:6"), std::string::npos) << ff.err;
    EXPECT_NE(ff.err.find("freeze_start: 9"), std::string::npos) << ff.err;
    EXPECT_NE(ff.err.find("freeze_end: 12"), std::string::npos) << ff.err;
    // The graph exists and is a PNG.
    EXPECT_EQ(readFile((dir.path() + "/qc/segments.mkv.qc.png").toStdString()).substr(1, 3), "PNG");

    // A longer minimum from --thresholds: no black event (3 s < 4 s), freezes unchanged.
    const QString thresholds = dir.path() + "/t.json";
    QFile t(thresholds);
    ASSERT_TRUE(t.open(QIODevice::WriteOnly));
    t.write(R"({"black": {"min_duration": 4}})");
    t.close();
    ASSERT_EQ(cudascope({"qc", clip, "--out", dir.path() + "/qc2", "--engine", "cpu", "--no-qctools", "--thresholds", thresholds}).exitCode, 0);
    const QJsonObject longer = readJson((dir.path() + "/qc2/segments.mkv.qc.json").toStdString());
    EXPECT_TRUE(eventsOf(longer, "black").empty());
    EXPECT_EQ(eventsOf(longer, "freeze").size(), 2u);
    EXPECT_EQ(longer["thresholds"].toObject()["black"].toObject()["min_duration"].toDouble(), 4.0);
}

TEST(Qc, NoEventsOnMovingContent) {
    QTemporaryDir dir;
    const QString clip = movingClip(dir, "moving.mkv", 5.0);
    ASSERT_EQ(cudascope({"qc", clip, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"}).exitCode, 0);
    const QJsonObject report = readJson((dir.path() + "/qc/moving.mkv.qc.json").toStdString());
    ASSERT_EQ(report["frames"].toArray().size(), 125);
    EXPECT_TRUE(eventsOf(report, "black").empty());
    EXPECT_TRUE(eventsOf(report, "freeze").empty());
    EXPECT_TRUE(eventsOf(report, "decode_error").empty());
}

TEST(Qc, AtomicOutputAndSkipOnRerun) {
    QTemporaryDir dir;
    const QString clip = movingClip(dir);
    const QString out = dir.path() + "/qc";
    // --only-json (the window's Timeline pass) writes the report alone; a run without it finds
    // that incomplete, checks the input again and writes every file.
    ASSERT_EQ(cudascope({"qc", clip, "--out", out, "--engine", "cpu", "--only-json"}).exitCode, 0);
    EXPECT_EQ(QDir(out).entryList(QDir::Files, QDir::Name), QStringList{"moving.mkv.qc.json"});
    EXPECT_EQ(readJson((out + "/moving.mkv.qc.json").toStdString())["frames"].toArray().size(), 25);
    const RunResult whole = cudascope({"qc", clip, "--out", out, "--engine", "cpu"});
    ASSERT_EQ(whole.exitCode, 0);
    EXPECT_NE(whole.err.find("its report has no moving.mkv.qc.csv"), std::string::npos) << whole.err;
    const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
    EXPECT_EQ(files, (QStringList{"moving.mkv.qc.csv", "moving.mkv.qc.html", "moving.mkv.qc.json", "moving.mkv.qc.pdf", "moving.mkv.qc.png", "moving.mkv.qctools.xml.gz"}));
    // A re-run skips the complete report and writes nothing.
    const QString json = out + "/moving.mkv.qc.json";
    const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 365);
    std::filesystem::last_write_time(json.toStdString(), old);
    const RunResult again = cudascope({"qc", clip, "--out", out, "--engine", "cpu"});
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_NE(again.err.find("its report is complete"), std::string::npos) << again.err;
    EXPECT_TRUE(std::filesystem::last_write_time(json.toStdString()) == old);
    // --host-detectors is another setting (NVDEC's frames measured on the host too): checked
    // again, and the report says so.
    const RunResult host = cudascope({"qc", clip, "--out", out, "--engine", "cpu", "--host-detectors"});
    EXPECT_EQ(host.exitCode, 0);
    EXPECT_NE(host.err.find("its report was made with other settings"), std::string::npos) << host.err;
    EXPECT_TRUE(readJson(json.toStdString())["made_from"].toObject()["settings"].toObject()["host_detectors"].toBool());
    std::filesystem::last_write_time(json.toStdString(), old);
    // --force checks it again.
    const RunResult forced = cudascope({"qc", clip, "--out", out, "--engine", "cpu", "--force"});
    EXPECT_EQ(forced.exitCode, 0);
    EXPECT_EQ(forced.err.find("its report is complete"), std::string::npos) << forced.err;
    EXPECT_TRUE(std::filesystem::last_write_time(json.toStdString()) != old);
    // What a killed run leaves (files without NAME.qc.json, a .part) is not complete: checked again.
    ASSERT_TRUE(QFile::remove(json));
    QFile part(json + ".part");
    ASSERT_TRUE(part.open(QIODevice::WriteOnly));
    part.write("{\"engine\":\"cpu\",\n");
    part.close();
    const RunResult resumed = cudascope({"qc", clip, "--out", out, "--engine", "cpu"});
    EXPECT_EQ(resumed.exitCode, 0);
    EXPECT_EQ(resumed.err.find("its report is complete"), std::string::npos) << resumed.err;
    EXPECT_EQ(readJson(json.toStdString())["frames"].toArray().size(), 25);
    EXPECT_FALSE(QFile::exists(json + ".part"));
}

TEST(Qc, ShardCoversEveryInputOnce) {
    QTemporaryDir dir;
    QDir(dir.path()).mkpath("media/sub");
    QDir(dir.path()).mkpath("media/.hidden");
    std::set<std::string> expected;
    for (int i = 0; i < 11; ++i) {
        const QString name = dir.path() + (i % 2 ? "/media/sub/" : "/media/") + QString("clip%1.mp4").arg(i);
        QFile f(name);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        expected.insert(name.toStdString());
    }
    for (const QString other : {"/media/notes.txt", "/media/.hidden/x.mp4"}) {
        QFile f(dir.path() + other);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    }
    const RunResult all = cudascope({"qc", "--list-inputs", dir.path() + "/media"});
    ASSERT_EQ(all.exitCode, 0) << all.err;
    const QStringList allLines = lines(all.out);
    EXPECT_EQ(std::set<std::string>(), [&] {
        std::set<std::string> missing = expected;
        for (const auto& l : allLines) missing.erase(l.toStdString());
        return missing;
    }());
    EXPECT_EQ(allLines.size(), 11);
    QStringList sorted = allLines;
    sorted.sort();
    EXPECT_EQ(sorted, allLines);
    for (int n : {1, 3, 4, 20}) {
        std::multiset<std::string> seen;
        for (int k = 0; k < n; ++k) {
            const RunResult shard = cudascope({"qc", "--list-inputs", dir.path() + "/media", "--shard", QString("%1/%2").arg(k).arg(n)});
            ASSERT_EQ(shard.exitCode, 0) << shard.err;
            for (const auto& l : lines(shard.out)) seen.insert(l.toStdString());
        }
        EXPECT_EQ(seen, std::multiset<std::string>(expected.begin(), expected.end())) << n << " shards";
    }
}

TEST(Qc, BadInputFailsOthersChecked) {
    QTemporaryDir dir;
    const QString clip = movingClip(dir);
    const QString missing = dir.path() + "/missing.mp4";
    const QString garbage = dir.path() + "/garbage.mkv";
    QFile g(garbage);
    ASSERT_TRUE(g.open(QIODevice::WriteOnly));
    g.write("not a video at all");
    g.close();
    const RunResult r = cudascope({"qc", missing, clip, garbage, "udp://127.0.0.1:9", "--out", dir.path() + "/qc", "--engine", "cpu", "--jobs", "2"});
    EXPECT_EQ(r.exitCode, 1) << r.err;
    const QStringList err = lines(r.err);
    EXPECT_EQ(err.filter("missing.mp4").size(), 1) << r.err;
    EXPECT_EQ(err.filter("garbage.mkv").size(), 1) << r.err;
    EXPECT_EQ(err.filter("udp://127.0.0.1:9: a live input has no end").size(), 1) << r.err;
    EXPECT_NE(r.err.find("1 checked, 0 skipped, 3 failed of 4 inputs"), std::string::npos) << r.err;
    EXPECT_TRUE(QFile::exists(dir.path() + "/qc/moving.mkv.qc.json"));
    EXPECT_FALSE(QFile::exists(dir.path() + "/qc/missing.mp4.qc.json"));
    EXPECT_FALSE(QFile::exists(dir.path() + "/qc/garbage.mkv.qc.json"));
    EXPECT_EQ(QDir(dir.path() + "/qc").entryList({"*.part"}, QDir::Files).size(), 0);
}

TEST(Qc, UsageErrors) {
    QTemporaryDir dir;
    const QString thresholds = dir.path() + "/bad.json";
    QFile t(thresholds);
    ASSERT_TRUE(t.open(QIODevice::WriteOnly));
    t.write(R"({"black": {"pixel_ratio": 2}})");
    t.close();
    const std::vector<std::pair<QStringList, std::string>> cases{
        {{"qc", "a.mp4"}, "missing --out DIR"},
        {{"qc", "--out", dir.path()}, "missing INPUT"},
        {{"qc", "a.mp4", "--out", dir.path(), "--jobs", "0"}, "--jobs"},
        {{"qc", "a.mp4", "--out", dir.path(), "--shard", "3/3"}, "--shard must be K/N"},
        {{"qc", "a.mp4", "--out", dir.path(), "--devices", "0,0"}, "--devices names device 0 twice"},
        {{"qc", "a.mp4", "--out", dir.path(), "--qctools", "--no-qctools"}, "contradict"},
        {{"qc", "a.mp4", "--out", dir.path(), "--only-json", "--qctools"}, "--qctools contradicts it"},
        {{"qc", "a.mp4", "--out", dir.path(), "--thresholds", thresholds}, "black.pixel_ratio must be a number from 0 to 1"},
        {{"qc", "a.mp4", "--out", dir.path(), "--bogus"}, "unknown option --bogus"},
        {{"qc", "x/a.mp4", "y/a.mp4", "--out", dir.path()}, "would write the same report"}};
    for (const auto& [args, message] : cases) {
        const RunResult r = cudascope(args);
        EXPECT_EQ(r.exitCode, 2) << args.join(' ').toStdString() << "\n" << r.err;
        EXPECT_NE(r.err.find("cudascope qc: "), std::string::npos);
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("usage: cudascope qc"), std::string::npos);
    }
}

TEST(Qc, TruncatedFileGivesDecodeErrorEvents) {
    QTemporaryDir dir;
    const QString full = dir.path() + "/full.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "testsrc2=" + kSize + ":d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", full}).exitCode, 0);
    const std::string bytes = readFile(full.toStdString());
    const QString cut = dir.path() + "/cut.mkv";
    QFile f(cut);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), qint64(bytes.size() * 6 / 10));
    f.close();
    // Damage is a finding: every frame that decodes is checked, exit 0.
    const RunResult r = cudascope({"qc", cut, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QJsonObject report = readJson((dir.path() + "/qc/cut.mkv.qc.json").toStdString());
    const qsizetype frames = report["frames"].toArray().size();
    EXPECT_GT(frames, 5);
    EXPECT_LT(frames, 50);
    const auto errors = eventsOf(report, "decode_error");
    ASSERT_FALSE(errors.empty());
    EXPECT_TRUE(errors[0]["message"].toString().contains("cut.mkv")) << errors[0]["message"].toString().toStdString();
    EXPECT_GE(errors[0]["first_frame"].toInt(), 0);
    EXPECT_LE(errors[0]["first_frame"].toInt(), frames - 1);
    // The moving content has neither black nor freeze.
    EXPECT_TRUE(eventsOf(report, "black").empty());
    EXPECT_TRUE(eventsOf(report, "freeze").empty());
}
