// QCTools documents in the timeline: one written by ffprobe's signalstats and ebur128 on a
// clip the test makes, gzipped by the test, read back with the numbers in its XML (parsed
// here on their own, by regular expression); the document beside a video picked up without
// a pass; and bad documents, each a one-sentence error naming the file. (qc's own
// NAME.qctools.xml.gz against its NAME.qc.json: test_gui_timecode, which runs qc anyway.)
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <zlib.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "ui/timeline/QcToolsDocument.h"
#include "ui/timeline/TimelinePass.h"

namespace cs::timeline {
namespace {

// TimelinePass's poll timer and its program lookup want an application object.
struct App {
    int argc = 1;
    char name[9] = "ui_units";
    char* argv[2] = {name, nullptr};
    QCoreApplication app{argc, argv};
};

bool run(const QString& command) { return std::system(command.toLocal8Bit().constData()) == 0; }
QString quoted(const QString& s) { return QLatin1Char('\'') + s + QLatin1Char('\''); }

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
void writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}
// `bytes` gzip-compressed into `path` (zlib's gzip writer, as QCTools compresses).
void writeGzip(const QString& path, const QByteArray& bytes) {
    gzFile gz = gzopen(QFile::encodeName(path).constData(), "wb");
    ASSERT_NE(gz, nullptr);
    EXPECT_EQ(gzwrite(gz, bytes.constData(), unsigned(bytes.size())), int(bytes.size()));
    gzclose(gz);
}

// A 32x18 clip of 20 frames at 25 fps with a -18 dBFS tone: `name` in `dir`.
QString makeClip(const QTemporaryDir& dir, const QString& name) {
    const QString clip = dir.filePath(name);
    const bool ok = run(QStringLiteral(CS_TEST_FFMPEG) + QStringLiteral(" -v error -y -f lavfi -i testsrc2=s=32x18:r=25:d=0.8"
                                                                           " -f lavfi -i sine=f=440:d=0.8 -c:v ffv1 -pix_fmt yuv420p"
                                                                           " -c:a pcm_s16le -shortest ") +
                        quoted(clip));
    return ok ? clip : QString();
}

// ffprobe's document of `clip`: signalstats (with BRNG, as QCTools asks for it) on the
// video, ebur128 with true peaks on the audio.
QByteArray ffprobeDocument(const QString& clip, const QString& out) {
    const QString graph = QStringLiteral("movie=%1:s=dv+da[v][a];[v]signalstats=stat=brng[out0];[a]ebur128=metadata=1:peak=true[out1]").arg(clip);
    if (!run(QStringLiteral(CS_TEST_FFPROBE) + QStringLiteral(" -v error -f lavfi ") + quoted(graph) +
             QStringLiteral(" -show_frames -of xml > ") + quoted(out)))
        return {};
    return readAll(out);
}

struct Parsed {
    double pts = 0;
    std::map<std::string, double> tags;
};
// The frames of one media type in an ffprobe XML document, by regular expression.
std::vector<Parsed> parseFrames(const QByteArray& xml, const char* mediaType) {
    std::vector<Parsed> frames;
    static const QRegularExpression frame(QStringLiteral("<frame media_type=\"(\\w+)\"[^>]* pts_time=\"([0-9.]+)\"[^>]*>(.*?)</frame>"),
                                          QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression tag(QStringLiteral("<tag key=\"([^\"]+)\" value=\"([^\"]+)\"/>"));
    for (auto it = frame.globalMatch(QString::fromUtf8(xml)); it.hasNext();) {
        const auto m = it.next();
        if (m.captured(1) != QLatin1String(mediaType)) continue;
        Parsed p;
        p.pts = m.captured(2).toDouble();
        for (auto t = tag.globalMatch(m.captured(3)); t.hasNext();) {
            const auto tm = t.next();
            p.tags[tm.captured(1).toStdString()] = tm.captured(2).toDouble();
        }
        frames.push_back(p);
    }
    return frames;
}

TEST(QcToolsDocument, FfprobeSignalstatsDocumentShowsItsValues) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString clip = makeClip(dir, QStringLiteral("tone.mkv"));
    ASSERT_FALSE(clip.isEmpty());
    const QByteArray xml = ffprobeDocument(clip, dir.filePath(QStringLiteral("probe.xml")));
    const std::vector<Parsed> video = parseFrames(xml, "video"), audio = parseFrames(xml, "audio");
    ASSERT_EQ(video.size(), 20u);
    ASSERT_FALSE(audio.empty());
    const QString doc = dir.filePath(QStringLiteral("tone.mkv.qctools.xml.gz"));
    writeGzip(doc, xml);

    auto read = readQcToolsDocument(doc);
    ASSERT_TRUE(read.ok()) << read.message();
    const TimelineData& d = *read;
    ASSERT_EQ(d.frames(), 20);
    EXPECT_EQ(d.expectedFrames(), 20);
    EXPECT_NEAR(d.frameRate(), 25.0, 1e-6);
    const std::pair<Series, const char*> shared[] = {
        {Series::YMin, "YMIN"}, {Series::YAvg, "YAVG"},     {Series::YMax, "YMAX"}, {Series::UAvg, "UAVG"},
        {Series::VAvg, "VAVG"}, {Series::SatAvg, "SATAVG"}, {Series::Ydif, "YDIF"}, {Series::OutOfLegal, "BRNG"}};
    for (int64_t i = 0; i < d.frames(); ++i) {
        const Parsed& p = video[size_t(i)];
        EXPECT_DOUBLE_EQ(d.pts(i), p.pts) << i;
        EXPECT_EQ(d.timecode(i), "00:00:00:" + std::string(i < 10 ? "0" : "") + std::to_string(i));
        for (const auto& [series, key] : shared) {
            ASSERT_TRUE(p.tags.count(std::string("lavfi.signalstats.") + key)) << key;
            EXPECT_EQ(d.value(series, i), float(p.tags.at(std::string("lavfi.signalstats.") + key))) << key << " frame " << i;
        }
        // Loudness: the last audio frame that starts before this video frame ends.
        const double end = p.pts + 0.04;
        const Parsed* last = nullptr;
        for (const Parsed& a : audio)
            if (a.pts < end - 1e-9) last = &a;
        ASSERT_NE(last, nullptr);
        EXPECT_EQ(d.value(Series::Momentary, i), std::max(float(last->tags.at("lavfi.r128.M")), kLoudnessFloor)) << i;
        EXPECT_EQ(d.value(Series::ShortTerm, i), std::max(float(last->tags.at("lavfi.r128.S")), kLoudnessFloor)) << i;
    }
    // A -18 dBFS tone: its true peak (ebur128 writes it linear) near -18 dBTP, its momentary
    // loudness once 400 ms have passed near -21 LUFS (a 440 Hz sine's K-weighting adds little).
    EXPECT_NEAR(d.value(Series::TruePeak, 19), 20 * std::log10(0.125), 0.3);
    EXPECT_NEAR(d.value(Series::Momentary, 19), -21.0, 1.0);
    EXPECT_TRUE(d.has(Series::Momentary) && d.has(Series::TruePeak));
    // What signalstats does not measure stays absent, never invented.
    EXPECT_FALSE(d.has(Series::OutsideTarget));
    EXPECT_FALSE(d.has(Series::MaxNits));
    EXPECT_FALSE(d.has(Series::AvgNits));
    EXPECT_TRUE(d.events().empty());

    // The same document plain (QCTools' .xml) reads the same.
    const QString plain = dir.filePath(QStringLiteral("tone.xml"));
    writeAll(plain, xml);
    auto again = readQcToolsDocument(plain);
    ASSERT_TRUE(again.ok()) << again.message();
    ASSERT_EQ(again->frames(), 20);
    for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(again->value(Series::YAvg, i), d.value(Series::YAvg, i));

    // Beside the video: the pass reads it and runs nothing (no program is set here).
    App app;
    TimelinePass pass;
    TimelineData data;
    bool finished = false;
    QObject::connect(&pass, &TimelinePass::finished, [&] { finished = true; });
    pass.start(clip, "cpu", &data);
    EXPECT_TRUE(pass.reading());
    pass.waitForDocument();
    EXPECT_TRUE(finished);
    EXPECT_FALSE(pass.running());
    EXPECT_EQ(data.frames(), 20);
    EXPECT_TRUE(pass.origin().contains(QStringLiteral("tone.mkv.qctools.xml.gz"))) << pass.origin().toStdString();
}

TEST(QcToolsDocument, BadDocumentsAreOneSentenceNamingTheFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto expectError = [&](const QString& name, const QByteArray& bytes, bool gzip, const char* reason) {
        const QString path = dir.filePath(name);
        if (gzip) writeGzip(path, bytes);
        else writeAll(path, bytes);
        auto read = readQcToolsDocument(path);
        ASSERT_FALSE(read.ok()) << name.toStdString();
        const std::string message = read.message();
        EXPECT_EQ(message.rfind(path.toStdString() + ": ", 0), 0u) << message;
        EXPECT_NE(message.find(reason), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    };
    expectError(QStringLiteral("garbage.qctools.xml.gz"), QByteArray("\x00\x01garbage, not a document", 25), false,
                "neither gzip-compressed nor XML");
    expectError(QStringLiteral("empty.xml"), QByteArray(), false, "is empty");
    // A real document's gzip stream cut in half.
    QByteArray xml = "<?xml version=\"1.0\"?>\n<ffprobe>\n<frames>\n";
    for (int i = 0; i < 400; ++i)
        xml += "<frame media_type=\"video\" stream_index=\"0\" pts_time=\"" + QByteArray::number(i * 0.04) +
               "\"><tag key=\"lavfi.signalstats.YAVG\" value=\"" + QByteArray::number(i) + "\"/></frame>\n";
    xml += "</frames>\n</ffprobe>\n";
    writeGzip(dir.filePath(QStringLiteral("whole.xml.gz")), xml);
    const QByteArray gz = readAll(dir.filePath(QStringLiteral("whole.xml.gz")));
    ASSERT_GT(gz.size(), 100);
    expectError(QStringLiteral("cut.qctools.xml.gz"), gz.left(gz.size() / 2), false, "gzip stream is damaged or cut short");
    expectError(QStringLiteral("cut.xml"), xml.left(xml.size() / 2), false, "cut short");
    expectError(QStringLiteral("noframes.qctools.xml.gz"), "<?xml version=\"1.0\"?>\n<ffprobe>\n<frames>\n</frames>\n</ffprobe>\n", true,
                "no video frames");
    expectError(QStringLiteral("audio.qctools.xml.gz"),
                "<ffprobe><frames><frame media_type=\"audio\" pts_time=\"0\"><tag key=\"lavfi.r128.M\" value=\"-20\"/></frame>"
                "</frames></ffprobe>",
                true, "no video frames");
    expectError(QStringLiteral("other.xml"), "<?xml version=\"1.0\"?>\n<html><body/></html>\n", false, "root element is <html>");
    expectError(QStringLiteral("broken.xml"), "<ffprobe><frames><frame></frames></ffprobe>", false, "XML error at line 1");
    // The whole one reads: 400 frames, its values.
    auto whole = readQcToolsDocument(dir.filePath(QStringLiteral("whole.xml.gz")));
    ASSERT_TRUE(whole.ok()) << whole.message();
    EXPECT_EQ(whole->frames(), 400);
    EXPECT_EQ(whole->value(Series::YAvg, 399), 399.0f);
    EXPECT_FALSE(whole->has(Series::YMin));
    // Beside a video: a bad document is passed over, its reason kept for the status line.
    writeAll(dir.filePath(QStringLiteral("v.mov")), "not a video either");
    writeAll(dir.filePath(QStringLiteral("v.mov.qctools.xml.gz")), "garbage");
    EXPECT_EQ(qcToolsBesideInput(dir.filePath(QStringLiteral("v.mov"))).first(), dir.filePath(QStringLiteral("v.mov.qctools.xml.gz")));
    EXPECT_EQ(qcToolsBesideInput(dir.filePath(QStringLiteral("v.mov")))[1], dir.filePath(QStringLiteral("v.qctools.xml.gz")));
    TimelinePass::setCacheFolder(dir.filePath(QStringLiteral("cache")));
    TimelinePass::setProgram(QString());
    qunsetenv("CS_QC_PROGRAM");   // no pass to run: it fails at once, after the document
    App app;
    TimelinePass pass;
    TimelineData data;
    QString failure;
    QObject::connect(&pass, &TimelinePass::failed, [&](const QString& m) { failure = m; });
    pass.start(dir.filePath(QStringLiteral("v.mov")), "cpu", &data);
    pass.waitForDocument();
    EXPECT_TRUE(failure.contains(QStringLiteral("no background pass"))) << failure.toStdString();   // tried after the document
    EXPECT_TRUE(pass.problem().startsWith(dir.filePath(QStringLiteral("v.mov.qctools.xml.gz")) + QStringLiteral(": not a QCTools document")))
        << pass.problem().toStdString();
    EXPECT_EQ(data.frames(), 0);
    pass.stop();
    TimelinePass::setCacheFolder({});
}

// A document opened by hand stops a running pass; when it cannot be read the pass starts
// again, and its reason is kept for the status line. With no pass running, nothing starts.
TEST(QcToolsDocument, AFailedOpenStartsTheStoppedPassAgain) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString program = dir.filePath(QStringLiteral("slow-qc"));   // a pass that runs until stopped
    writeAll(program, "#!/bin/sh\nexec sleep 30\n");
    ASSERT_TRUE(QFile::setPermissions(program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    writeAll(dir.filePath(QStringLiteral("v.mov")), "a video");
    writeAll(dir.filePath(QStringLiteral("bad.xml")), "garbage");
    TimelinePass::setCacheFolder(dir.filePath(QStringLiteral("cache")));
    TimelinePass::setProgram(program);
    App app;
    TimelinePass pass;
    TimelineData data;
    QString failure;
    QObject::connect(&pass, &TimelinePass::failed, [&](const QString& m) { failure = m; });
    pass.start(dir.filePath(QStringLiteral("v.mov")), "cpu", &data);
    ASSERT_TRUE(pass.running());
    pass.open(dir.filePath(QStringLiteral("bad.xml")), &data);
    EXPECT_FALSE(pass.running());   // stopped while the document is read
    pass.waitForDocument();
    EXPECT_TRUE(failure.startsWith(dir.filePath(QStringLiteral("bad.xml")) + QStringLiteral(": "))) << failure.toStdString();
    EXPECT_TRUE(pass.running());
    EXPECT_EQ(pass.problem(), failure);
    pass.stop();
    failure.clear();
    pass.open(dir.filePath(QStringLiteral("bad.xml")), &data);   // no pass to resume
    pass.waitForDocument();
    EXPECT_FALSE(failure.isEmpty());
    EXPECT_FALSE(pass.running());
    TimelinePass::setProgram(QString());
    TimelinePass::setCacheFolder({});
}

}  // namespace
}  // namespace cs::timeline
