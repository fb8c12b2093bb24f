// `cudascope qc --policy`: delivery rules as data (app/qc/QcPolicy.h) on clips made here with
// the ffmpeg CLI. EBU R 103 on 100x100 frames with 90 and 110 pixels (0.9% and 1.1% of the
// area) beyond its luma limit (code 245: 104.6%, inside the R'G'B' limit, so out_of_gamut
// stays 0) and 110 pixels below it (code 12); the loudness presets on a sine of known
// level; --fail-on's exit code; bad policies; NAME.qc.html read back by Python's HTML parser
// (tests/app/check_qc_html.py) and NAME.qc.pdf's text (check_qc_pdf.py) against NAME.qc.json,
// and the run's index.html and summary.csv;
// ITU-R BT.1702's flash rules (the bt1702 preset) on flashing clips; `qc --summary DIR`
// over the reports of a run split into shards.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>

#include "CliRunner.h"
#include "app/qc/QcRun.h"

namespace cs::testing {
namespace {

// Frame 0: 90 pixels of Y 245 (0.9%), frame 1: 110 (1.1%), frame 2: 110 pixels of Y 12,
// frame 3: clean; the rest grey 126, chroma neutral.
QString r103Clip(const QTemporaryDir& dir) {
    const QString path = dir.path() + "/limits.mkv";
    const RunResult r = ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=100x100:rate=25:d=0.16,format=yuv420p,"
                                "geq=lum='if(lt(X,10)*lt(Y,if(eq(N,0),9,if(eq(N,3),0,11))),if(eq(N,2),12,245),126)':cb=128:cr=128",
                                "-c:v", "ffv1", "-color_range", "tv", "-colorspace", "bt709", path});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return path;
}

TEST(QcPolicy, R103VerdictsInTheJsonTheHtmlAndTheIndex) {
    QTemporaryDir dir;
    const QString clip = r103Clip(dir);
    const QString black = dir.path() + "/black.mkv";   // 4 white frames, then 2.2 s of black: a black event from frame 4
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=c=white:size=32x32:rate=25:d=0.16[w];color=c=black:size=32x32:rate=25:d=2.2[b];"
                      "[w][b]concat=n=2:v=1", "-c:v", "ffv1", black}).exitCode, 0);
    const QString out = dir.path() + "/qc";
    const RunResult qc = cudascope({"qc", clip, black, "--out", out, "--engine", "cpu", "--no-qctools", "--policy", "r103,detectors"});
    ASSERT_EQ(qc.exitCode, 0) << qc.err;   // --fail-on never: verdicts do not change the exit code
    const QJsonObject report = readJson((dir.path() + "/qc/limits.mkv.qc.json").toStdString());
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 4);
    const double shares[] = {0.009, 0.011, 0.011, 0.0};
    for (int i = 0; i < 4; ++i) {
        const QJsonObject stats = frames[i].toObject()["stats"].toObject();
        EXPECT_DOUBLE_EQ(stats["out_of_r103"].toDouble(-1), shares[i]) << i;
        EXPECT_DOUBLE_EQ(stats["out_of_gamut"].toDouble(-1), 0.0) << i;   // 104.6% and -1.8%: inside -5%..105%
    }
    const QJsonObject v = verdictOf(report, "r103", "video_limits");
    EXPECT_EQ(v["verdict"].toString(), "fail");
    const QJsonObject ev = v["evidence"].toObject();
    EXPECT_EQ(ev["error_frames"].toInt(), 2);
    EXPECT_EQ(ev["error_runs"].toInt(), 1);
    const QJsonObject run = ev["runs"].toArray()[0].toObject();
    EXPECT_EQ(run["first_frame"].toInt(), 1);
    EXPECT_EQ(run["last_frame"].toInt(), 2);
    EXPECT_EQ(run["first_timecode"].toString(), frames[1].toObject()["timecode"].toString());
    EXPECT_DOUBLE_EQ(ev["worst_share"].toDouble(), 0.011);
    EXPECT_EQ(report["verdict"].toString(), "fail");
    EXPECT_EQ(report["policies"].toArray()[0].toObject()["name"].toString(), "r103");
    // The CSV's column.
    const QStringList csv = QString::fromStdString(readFile((dir.path() + "/qc/limits.mkv.qc.csv").toStdString())).split('\n');
    const qsizetype col = csv[0].split(',').indexOf("stats_out_of_r103");
    ASSERT_GE(col, 0) << csv[0].toStdString();
    EXPECT_EQ(csv[2].split(',')[col], "0.011");

    // NAME.qc.html read back by Python's own HTML parser against NAME.qc.json; the run's
    // index.html and summary.csv.
    const RunResult check = runProgram("python3", {QString(CS_TEST_SOURCE_DIR) + "/tests/app/check_qc_html.py",
                                                   out + "/limits.mkv.qc.html", out + "/limits.mkv.qc.json",
                                                   out + "/black.mkv.qc.html", out + "/black.mkv.qc.json"});
    EXPECT_EQ(check.exitCode, 0) << check.out << check.err;
    // NAME.qc.pdf's text, read back with zlib alone (tests/app/check_qc_pdf.py), against NAME.qc.json.
    for (const QString n : {"/limits.mkv", "/black.mkv"}) {
        const RunResult pdf = runProgram("python3", {QString(CS_TEST_SOURCE_DIR) + "/tests/app/check_qc_pdf.py", out + n + ".qc.pdf",
                                                     out + n + ".qc.json"});
        EXPECT_EQ(pdf.exitCode, 0) << pdf.out << pdf.err;
    }
    const std::string html = readFile((out + "/black.mkv.qc.html").toStdString());
    EXPECT_NE(html.find("<svg"), std::string::npos);
    // The black event's picture is its first frame, black, not the white one before it.
    const size_t alt = html.find("alt=\"frame 4\""), data = html.rfind("data:image/png;base64,", alt);
    ASSERT_NE(alt, std::string::npos);
    ASSERT_NE(data, std::string::npos);
    const size_t from = data + std::string("data:image/png;base64,").size();
    const QImage picture = QImage::fromData(QByteArray::fromBase64(QByteArray::fromStdString(html.substr(from, html.find('"', from) - from))));
    ASSERT_EQ(picture.size(), QSize(90, 90));   // 32x32 fitted into 160x90
    EXPECT_LT(qGray(picture.pixel(45, 45)), 24);
    EXPECT_EQ(html.find("http://", html.find("<body")), html.find("http://www.w3.org/2000/svg"));   // nothing fetched
    const QStringList summary = QString::fromStdString(readFile((out + "/summary.csv").toStdString())).split('\n');
    ASSERT_GE(summary.size(), 3);
    const QStringList header = summary[0].split(',');
    EXPECT_EQ(header.mid(0, 5), (QStringList{"input", "name", "status", "verdict", "frames"}));
    const qsizetype blackCol = header.indexOf("detectors/black"), limitsCol = header.indexOf("r103/video_limits");
    ASSERT_GE(blackCol, 0);
    ASSERT_GE(limitsCol, 0);
    EXPECT_EQ(summary[1].split(',')[1], "black.mkv");   // the inputs in sorted order
    EXPECT_EQ(summary[1].split(',')[blackCol], "fail");
    EXPECT_EQ(summary[1].split(',')[limitsCol], "pass");
    EXPECT_EQ(summary[2].split(',')[limitsCol], "fail");
    EXPECT_EQ(summary[2].split(',')[4], "4");
    EXPECT_NE(readFile((out + "/index.html").toStdString()).find("<a href=\"limits.mkv.qc.html\">"), std::string::npos);

    // --fail-on fail: exit 3; a policy file with a 0.5% area takes frame 0 too; a minimum
    // duration longer than the run passes.
    QFile file(dir.path() + "/strict.json");
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"({"name": "strict", "source": "test", "rules": [
        {"id": "half", "check": "r103_limits", "area": 0.005},
        {"id": "long", "check": "r103_limits", "min_duration": 0.2}]})");
    file.close();
    const RunResult strict = cudascope({"qc", clip, "--out", dir.path() + "/strict", "--engine", "cpu", "--no-qctools",
                                        "--policy", "r103," + file.fileName(), "--fail-on", "fail"});
    ASSERT_EQ(strict.exitCode, 3) << strict.err;
    const QJsonObject s = readJson((dir.path() + "/strict/limits.mkv.qc.json").toStdString());
    EXPECT_EQ(verdictOf(s, "strict", "half")["evidence"].toObject()["error_frames"].toInt(), 3);
    EXPECT_EQ(verdictOf(s, "strict", "long")["verdict"].toString(), "pass");
    EXPECT_EQ(verdictOf(s, "r103", "video_limits")["verdict"].toString(), "fail");
}

TEST(QcPolicy, LoudnessPresetsJudgeTheAudioSummary) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/tone.mkv";
    // A 997 Hz sine at amplitude 1/8 (-18.1 dBFS), mono: about -21 LUFS, true peak about -18 dBTP.
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=32x32:rate=25:d=1", "-f", "lavfi", "-i",
                      "sine=f=997:sample_rate=48000:d=1", "-c:v", "ffv1", "-c:a", "pcm_s16le", "-shortest", clip})
                  .exitCode,
              0);
    // Without audio the loudness rules do not apply, which --fail-on any counts as failing.
    const QString silent = dir.path() + "/picture.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=32x32:rate=25:d=0.2", "-c:v", "ffv1", silent}).exitCode, 0);
    const RunResult qc = cudascope({"qc", clip, silent, "--out", dir.path() + "/qc", "--engine", "cpu", "--no-qctools",
                                    "--policy", "r128,a85,r103,detectors", "--fail-on", "any"});
    ASSERT_EQ(qc.exitCode, 3) << qc.err;
    const QJsonObject report = readJson((dir.path() + "/qc/tone.mkv.qc.json").toStdString());
    const double integrated = report["audio_summary"].toObject()["integrated"].toDouble();
    EXPECT_NEAR(integrated, -21.1, 0.3);
    const QJsonObject r128 = verdictOf(report, "r128", "integrated_loudness");
    EXPECT_EQ(r128["verdict"].toString(), "fail");
    EXPECT_DOUBLE_EQ(r128["evidence"].toObject()["integrated"].toDouble(), integrated);
    EXPECT_EQ(verdictOf(report, "a85", "integrated_loudness")["verdict"].toString(), "fail");   // -24 +- 2
    EXPECT_EQ(verdictOf(report, "r128", "true_peak")["verdict"].toString(), "pass");
    EXPECT_EQ(verdictOf(report, "a85", "true_peak")["verdict"].toString(), "pass");
    EXPECT_EQ(verdictOf(report, "r103", "video_limits")["verdict"].toString(), "pass");

    const QJsonObject n = readJson((dir.path() + "/qc/picture.mkv.qc.json").toStdString());
    EXPECT_EQ(verdictOf(n, "r128", "integrated_loudness")["verdict"].toString(), "not_applicable");
    EXPECT_EQ(verdictOf(n, "detectors", "silence")["verdict"].toString(), "not_applicable");
    EXPECT_EQ(verdictOf(n, "detectors", "black")["verdict"].toString(), "pass");
    EXPECT_EQ(n["verdict"].toString(), "pass");   // not applicable is not a failure of the input
}

// ITU-R BT.1702 (the bt1702 preset, analysis/Flashes.h): full-frame black/white at 5 Hz
// (10 changes a second: five flashes) fails the general rule; red (R'G'B' 255, 0, 0) against
// a grey of its luminance at 5 Hz fails the red rule alone; an R'G'B' source is not
// measured. 64x36 at 25 fps, 2 s, made by one ffmpeg run. (3 Hz and the other boundaries:
// tests/core/test_flashes.cpp.)
TEST(QcPolicy, Bt1702FlashVerdicts) {
    QTemporaryDir dir;
    const QString five = dir.path() + "/five.mkv", red = dir.path() + "/red.mkv", rgb = dir.path() + "/rgb.mkv";
    const QString on = "mod(floor(N*10/25),2)";   // light at frames 3-4, 8-9, 13-14, ...
    // BT.709 limited red: Y 63, Cb 102, Cr 240; the grey of the same luminance (42.6 cd/m2): Y 131.
    const QString graph = "[0]format=yuv420p,split=3[a][b][c];[a]geq=lum='if(" + on + ",235,16)':cb=128:cr=128[five];"
                          "[b]geq=lum='if(" + on + ",63,131)':cb='if(" + on + ",102,128)':cr='if(" + on + ",240,128)'[red];"
                          "[c]geq=lum='if(" + on + ",235,16)':cb=128:cr=128,format=bgr0[rgb]";
    const RunResult made = ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=64x36:rate=25:d=2", "-filter_complex", graph,
                                   "-map", "[five]", "-c:v", "ffv1", "-color_range", "tv", "-colorspace", "bt709", five,
                                   "-map", "[red]", "-c:v", "ffv1", "-color_range", "tv", "-colorspace", "bt709", red,
                                   "-map", "[rgb]", "-c:v", "ffv1", rgb});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const QString out = dir.path() + "/qc";
    const RunResult qc = cudascope({"qc", five, red, rgb, "--out", out, "--engine", "cpu", "--no-qctools", "--jobs", "3",
                                    "--policy", "bt1702", "--fail-on", "fail"});
    ASSERT_EQ(qc.exitCode, 3) << qc.err;
    const QJsonObject f = readJson((out + "/five.mkv.qc.json").toStdString());
    const QJsonObject general = verdictOf(f, "bt1702", "general_flashes");
    EXPECT_EQ(general["verdict"].toString(), "fail");
    EXPECT_EQ(verdictOf(f, "bt1702", "red_flashes")["verdict"].toString(), "pass");
    const QJsonArray events = general["evidence"].toObject()["events"].toArray();
    ASSERT_EQ(events.size(), 1);
    const QJsonObject e = events[0].toObject();
    // Changes at frames 3, 5, 8, 10, 13, 15, 18, 20: the second of frames 0..20 holds eight.
    EXPECT_EQ(e["first_frame"].toInt(), 0);
    EXPECT_EQ(e["last_frame"].toInt(), 49);
    EXPECT_EQ(e["flashes"].toInt(), 5);
    EXPECT_DOUBLE_EQ(e["area"].toDouble(), 1.0);
    const QJsonArray frames = f["frames"].toArray();
    ASSERT_EQ(frames.size(), 50);
    EXPECT_EQ(e["first_timecode"].toString(), frames[0].toObject()["timecode"].toString());
    EXPECT_EQ(frames[19].toObject()["flash"].toObject()["count_1s"].toInt(), 3);
    EXPECT_EQ(frames[20].toObject()["flash"].toObject()["count_1s"].toInt(), 4);
    EXPECT_DOUBLE_EQ(frames[20].toObject()["flash"].toObject()["luminance_area"].toDouble(), 1.0);
    EXPECT_DOUBLE_EQ(frames[21].toObject()["flash"].toObject()["luminance_area"].toDouble(), 0.0);
    EXPECT_NEAR(frames[18].toObject()["flash"].toObject()["luminance"].toDouble(), 200.0, 1e-6);   // light
    EXPECT_NEAR(frames[20].toObject()["flash"].toObject()["luminance"].toDouble(), 0.0, 1e-6);     // dark
    const QStringList csv = QString::fromStdString(readFile((out + "/five.mkv.qc.csv").toStdString())).split('\n');
    const qsizetype col = csv[0].split(',').indexOf("flash_count_1s");
    ASSERT_GE(col, 0) << csv[0].toStdString();
    EXPECT_EQ(csv[21].split(',')[col], "4");   // frame 20 (row 0 is the header)

    const QJsonObject r = readJson((out + "/red.mkv.qc.json").toStdString());
    EXPECT_EQ(verdictOf(r, "bt1702", "general_flashes")["verdict"].toString(), "pass");
    const QJsonObject redVerdict = verdictOf(r, "bt1702", "red_flashes");
    EXPECT_EQ(redVerdict["verdict"].toString(), "fail");
    EXPECT_EQ(redVerdict["evidence"].toObject()["events"].toArray()[0].toObject()["flashes"].toInt(), 5);
    EXPECT_EQ(r["verdict"].toString(), "fail");
    const QJsonObject g = readJson((out + "/rgb.mkv.qc.json").toStdString());
    EXPECT_EQ(verdictOf(g, "bt1702", "general_flashes")["verdict"].toString(), "not_applicable");
    EXPECT_NE(verdictOf(g, "bt1702", "general_flashes")["reason"].toString().indexOf("Y'CbCr"), -1);

    // The report's verdict table lists the failing run (check_qc_html.py's reading of the
    // tables is exercised by the R 103 case above).
    const std::string html = readFile((out + "/five.mkv.qc.html").toStdString());
    EXPECT_NE(html.find("up to 5 flashes in one second (BT.1702: at most 3); transitions over up to 100.0% of the screen"), std::string::npos);
    EXPECT_NE(html.find("ITU-R BT.1702"), std::string::npos);
}

// The detectors that read host frames run on NVDEC's frames too (copied to the host) when
// asked for, or when a policy has a rule on their events.
TEST(QcPolicy, HostDetectorsWhenAPolicyNeedsTheirEvents) {
    QcRunOptions o;
    EXPECT_FALSE(qcNeedsHostDetectors(o));
    // The presets' files (qc finds them beside its binary, not the tests').
    const auto preset = [](const std::string& names) {
        std::string files;
        for (const QString& n : QString::fromStdString(names).split(','))
            files += (files.empty() ? "" : ",") + std::string(CS_TEST_SOURCE_DIR) + "/app/qc/policies/" + n.toStdString() + ".json";
        return loadQcPolicies(files);
    };
    for (const char* spec : {"r103", "r128", "metadata"}) {
        auto p = preset(spec);
        ASSERT_TRUE(p.ok()) << p.message();
        o.policies = *p;
        EXPECT_FALSE(qcNeedsHostDetectors(o)) << spec;
    }
    for (const char* spec : {"bt1702", "detectors", "r103,bt1702"}) {
        auto p = preset(spec);
        ASSERT_TRUE(p.ok()) << p.message();
        o.policies = *p;
        EXPECT_TRUE(qcNeedsHostDetectors(o)) << spec;
    }
    o.policies.clear();
    o.hostDetectors = true;
    EXPECT_TRUE(qcNeedsHostDetectors(o));
}

TEST(QcPolicy, BadPoliciesAreUsageErrorsNamingTheFile) {
    QTemporaryDir dir;
    const QString clip = dir.path() + "/a.mkv";   // never read: the policy is refused first
    const auto firstLine = [](const std::string& s) { return s.substr(0, s.find('\n')); };
    RunResult r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--policy", "r104"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(firstLine(r.err).find("--policy r104: no such preset (presets: a85, bt1702, detectors, metadata, r103, r128"), std::string::npos) << r.err;
    const QString bad = dir.path() + "/bad.json";
    // Each run is a process start: the cases that reach the most code.
    const std::pair<const char*, const char*> cases[] = {
        {"{\"name\": \"x\", \"source\": \"s\", \"rules\": [{\"id\": \"a\", \"check\": \"r103_limits\", \"area\": 2}]}",
         "rule a: area must be a number from 0 to 1"},
        {"{\"name\": \"x\", \"source\": \"s\", \"rules\": [{\"id\": \"a\", \"check\": \"event\", \"type\": \"blak\"}]}",
         "rule a: type 'blak' is not one of qc's events"}};
    for (const auto& [text, reason] : cases) {
        QFile f(bad);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--policy", bad});
        EXPECT_EQ(r.exitCode, 2) << text;
        EXPECT_NE(firstLine(r.err).find(bad.toStdString() + ": " + reason), std::string::npos) << r.err;
    }
    r = cudascope({"qc", clip, "--out", dir.path() + "/qc", "--fail-on", "fail"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(firstLine(r.err).find("--fail-on fail needs --policy"), std::string::npos) << r.err;
}

TEST(QcPolicy, SummaryIndexesTheReportsOfEveryShard) {
    QTemporaryDir dir;
    const QString limits = r103Clip(dir), grey = dir.path() + "/grey.mkv";
    ASSERT_EQ(ffmpeg({"-f", "lavfi", "-i", "color=c=gray:size=32x32:rate=25:d=0.12", "-c:v", "ffv1", grey}).exitCode, 0);
    const QString out = dir.path() + "/qc";
    for (const char* shard : {"0/2", "1/2"}) {   // one input each, into one folder
        const RunResult r = cudascope({"qc", limits, grey, "--out", out, "--engine", "cpu", "--no-qctools", "--policy", "r103",
                                       "--shard", shard});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.err.find("writes no index; once every shard is done: cudascope qc --summary " + out.toStdString()),
                  std::string::npos) << r.err;
    }
    EXPECT_FALSE(QFile::exists(out + "/index.html"));
    EXPECT_FALSE(QFile::exists(out + "/summary.csv"));

    RunResult r = cudascope({"qc", "--summary", out, "--fail-on", "fail"});
    EXPECT_EQ(r.exitCode, 3) << r.err;   // limits.mkv fails R 103
    EXPECT_NE(r.err.find("2 reports (2 with verdicts, 0 not whole)"), std::string::npos) << r.err;
    QStringList csv = QString::fromStdString(readFile((out + "/summary.csv").toStdString())).split('\n');
    ASSERT_EQ(csv.size(), 4) << csv.join('|').toStdString();   // the header, both inputs, the last newline
    EXPECT_EQ(csv[0], "input,name,status,verdict,frames,r103/video_limits");
    EXPECT_EQ(csv[1], grey + ",grey.mkv,checked,pass,3,pass");   // sorted by input, named by made_from
    EXPECT_EQ(csv[2], limits + ",limits.mkv,checked,fail,4,fail");
    EXPECT_NE(readFile((out + "/index.html").toStdString()).find("<a href=\"grey.mkv.qc.html\">"), std::string::npos);

    // A report cut short is listed as failed, named, and fails the summary.
    QFile cut(out + "/cut.mkv.qc.json");
    ASSERT_TRUE(cut.open(QIODevice::WriteOnly));
    cut.write("{\"frames\": [");
    cut.close();
    r = cudascope({"qc", "--summary", out});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.err.find(cut.fileName().toStdString() + " is not a whole report"), std::string::npos) << r.err;
    csv = QString::fromStdString(readFile((out + "/summary.csv").toStdString())).split('\n');
    ASSERT_EQ(csv.size(), 5);
    EXPECT_TRUE(csv[3].startsWith(cut.fileName() + ",cut.mkv,failed,")) << csv[3].toStdString();   // by its own path

    // Bad uses: each one line naming what is wrong.
    const auto firstLine = [](const std::string& s) { return s.substr(0, s.find('\n')); };
    r = cudascope({"qc", "--summary", out, limits});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(firstLine(r.err).find("--summary takes no INPUT"), std::string::npos) << r.err;
    ASSERT_TRUE(QDir(dir.path()).mkdir("empty"));
    r = cudascope({"qc", "--summary", dir.path() + "/empty"});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(firstLine(r.err), "cudascope qc: --summary " + dir.path().toStdString() + "/empty: holds no NAME.qc.json report");
}

}  // namespace
}  // namespace cs::testing
