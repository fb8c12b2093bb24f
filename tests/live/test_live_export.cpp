// `cudascope export` of a live stream, end to end: the binary against ffmpeg CLI senders on
// 127.0.0.1 (ports found free at run time). A sender killed mid-export and started again:
// the export reconnects and goes on, the first frame after the outage is marked, a warning
// says so and pts keep rising (UDP and SRT). A stream whose keyframes are 10 s apart is
// joined (the open waits while data arrives). No sender at all, or one that never comes
// back: exit 1 after --timeout with a valid report of the frames done. --all-frames keeps
// every frame of a burst that the default (newest frame) drops and counts.
//
// Every wait is on something observable (the export's stderr, the files it writes, a port
// being bound, the sender's progress), with a deadline.
#include <gtest/gtest.h>

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <sys/socket.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/decode/DecodeTestUtil.h"
#include "ChildProcess.h"
#include "LiveTestUtil.h"

namespace cs {
namespace {

using namespace std::chrono_literals;
using test::ChildProcess;
using test::Sender;
using test::TempDir;

int countFiles(const std::string& dir, const std::string& suffix) {
    int n = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) ++n;
    }
    return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// report.json, parsed; fails the calling test when it is not one valid JSON object.
QJsonObject readReport(const std::string& dir) {
    const std::string text = test::readText(dir + "/report.json");
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString() << "\n" << text;
    EXPECT_TRUE(doc.isObject());
    return doc.object();
}

bool anyWarningContains(const QJsonObject& report, const std::string& part) {
    for (const auto& w : report["warnings"].toArray())
        if (contains(w.toString().toStdString(), part)) return true;
    return false;
}

// Checks pts rise strictly over the frames and returns how many frames carry the flag.
int expectRisingPtsAndCountDiscontinuities(const QJsonArray& frames) {
    double previous = -1e9;
    int marked = 0;
    for (const auto& value : frames) {
        const QJsonObject f = value.toObject();
        EXPECT_GT(f["pts"].toDouble(), previous) << "frame " << f["index"].toInteger();
        previous = f["pts"].toDouble();
        EXPECT_TRUE(f.contains("source_pts"));
        if (f["discontinuity"].toBool()) ++marked;
    }
    return marked;
}

struct Export {
    TempDir dir;
    std::string out = dir.file("out");
    std::unique_ptr<ChildProcess> process;

    bool start(const std::string& url, std::vector<std::string> extra) {
        std::vector<std::string> args = {"export", url, "--out", out};
        args.insert(args.end(), extra.begin(), extra.end());
        process = std::make_unique<ChildProcess>(CS_TEST_CUDASCOPE, args, dir.file("export.log"));
        return process->start();
    }
    std::string log() const { return process->output(); }
    bool logSays(const std::string& part, std::chrono::milliseconds timeout) const {
        return test::waitUntil([&] { return contains(log(), part); }, timeout);
    }
};

// A sender of the test picture to `url` in the given muxer. UDP: the export listens, the
// CLI sends. SRT: the CLI listens, the export calls.
enum class Transport { Udp, Srt };

struct Stream {
    Transport transport;
    int port;
    std::string exportUrl;
    std::vector<std::string> senderOutput;
};

Stream makeStream(Transport transport) {
    Stream s{transport, 0, {}, {}};
    s.port = test::freeUdpPort();
    const std::string where = "127.0.0.1:" + std::to_string(s.port);
    if (transport == Transport::Udp) {
        s.exportUrl = "udp://" + where;
        s.senderOutput = {"-f", "mpegts", "udp://" + where + "?pkt_size=1316"};
    } else {
        s.exportUrl = "srt://" + where;
        s.senderOutput = {"-f", "mpegts", "srt://" + where + "?mode=listener&latency=50000&pkt_size=1316"};
    }
    return s;
}

class LiveExportOutage : public ::testing::TestWithParam<Transport> {};

TEST_P(LiveExportOutage, ReconnectsAndMarksTheRestart) {
    const Stream stream = makeStream(GetParam());
    ASSERT_GT(stream.port, 0);
    Export ex;
    Sender sender(test::testPictureSender(160, 120, stream.senderOutput), ex.dir.file("sender.log"));
    if (stream.transport == Transport::Srt) {
        // The export calls: the listener must be up first (a first open that fails is final).
        ASSERT_TRUE(sender.start());
        ASSERT_TRUE(test::waitUntil([&] { return test::loopbackPortBusy(SOCK_DGRAM, stream.port); }, 10s))
            << sender.log();
    }
    ASSERT_TRUE(ex.start(stream.exportUrl, {"--scopes", "histogram", "--max-frames", "40", "--timeout", "20"}));
    if (stream.transport == Transport::Udp) {
        ASSERT_TRUE(sender.start());
    }

    // Frames come; then the sender dies before the export has its 40.
    ASSERT_TRUE(test::waitUntil([&] { return countFiles(ex.out, "-histogram.png") >= 8; }, 20s)) << ex.log();
    sender.stop();
    ASSERT_TRUE(ex.logSays("stream lost (", 10s)) << ex.log();
    EXPECT_TRUE(contains(ex.log(), "waiting for stream")) << ex.log();
    const int before = countFiles(ex.out, "-histogram.png");
    ASSERT_LT(before, 40) << ex.log();
    ASSERT_TRUE(sender.start());

    ASSERT_EQ(ex.process->wait(30s), 0) << ex.log() << "\nsender: " << sender.log();
    const QJsonObject report = readReport(ex.out);
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 40);
    EXPECT_GE(expectRisingPtsAndCountDiscontinuities(frames), 1);
    // The first frame after the outage is the marked one, and later frames follow it.
    int firstMarked = -1;
    for (int i = 0; i < frames.size(); ++i)
        if (frames[i].toObject()["discontinuity"].toBool()) {
            firstMarked = i;
            break;
        }
    // Every frame counted came before the outage; one or two more may have been on their way
    // (the one being written, the one waiting).
    EXPECT_GE(firstMarked, before);
    EXPECT_LE(firstMarked, before + 2);
    EXPECT_TRUE(anyWarningContains(report, "the stream restarted at frame")) << ex.log();
    const QJsonArray restarts = report["restarts"].toArray();
    ASSERT_GE(restarts.size(), 1);
    EXPECT_TRUE(contains(restarts[0].toObject()["reason"].toString().toStdString(), "reconnected after"));
    EXPECT_EQ(restarts[0].toObject()["index"].toInteger(), frames[firstMarked].toObject()["index"].toInteger());
    EXPECT_TRUE(report.contains("dropped_frames"));
}

INSTANTIATE_TEST_SUITE_P(Transports, LiveExportOutage, ::testing::Values(Transport::Udp, Transport::Srt),
                         [](const ::testing::TestParamInfo<Transport>& p) { return p.param == Transport::Udp ? "Udp" : "Srt"; });

// Keyframes 10 s apart, joined after the first one: the next comes more than 5 s (the open
// limit while nothing arrives) later, and the export waits for it while data arrives.
TEST(LiveExport, JoinsAStreamWhoseKeyframesAreTenSecondsApart) {
    TempDir dir;
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    const std::string progress = dir.file("progress.txt");
    Sender sender({"-re", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-c:v", "libx264", "-preset", "ultrafast",
                   "-tune", "zerolatency", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0", "-bf", "0",
                   "-pix_fmt", "yuv420p", "-threads", "1", "-progress", progress, "-stats_period", "0.1", "-f",
                   "mpegts", url + "?pkt_size=1316"},
                  dir.file("sender.log"));
    ASSERT_TRUE(sender.start());
    // The first keyframe (frame 0) is gone once the sender reports a few frames sent.
    auto framesSent = [&] {
        const std::string text = test::readText(progress);
        const size_t at = text.rfind("frame=");
        return at == std::string::npos ? 0 : std::atoi(text.c_str() + at + 6);
    };
    ASSERT_TRUE(test::waitUntil([&] { return framesSent() >= 5; }, 20s)) << sender.log();
    const int sentAtJoin = framesSent();
    Export ex;
    ASSERT_TRUE(ex.start(url, {"--scopes", "stats", "--max-frames", "3", "--timeout", "20"}));
    ASSERT_EQ(ex.process->wait(40s), 0) << ex.log() << "\nsender: " << sender.log();
    // Frame 250 is the next keyframe: at 25 fps, more than 5 s after the join.
    EXPECT_LT(sentAtJoin, 120) << "the sender ran ahead: the join came too close to the keyframe to prove anything";
    EXPECT_TRUE(contains(ex.log(), "receiving data, waiting for a keyframe")) << ex.log();
    const QJsonObject report = readReport(ex.out);
    EXPECT_EQ(report["frames"].toArray().size(), 3);
    EXPECT_TRUE(anyWarningContains(report, "joined between keyframes: waited")) << ex.log();
    EXPECT_EQ(report["restarts"].toArray().size(), 0);
}

TEST(LiveExport, NoSenderEndsAfterTheTimeoutWithExitOneAndAValidReport) {
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    Export ex;
    ASSERT_TRUE(ex.start(url, {"--timeout", "2"}));
    ASSERT_EQ(ex.process->wait(30s), 1) << ex.log();
    EXPECT_TRUE(contains(ex.log(), url + ": waiting for stream")) << ex.log();
    EXPECT_TRUE(contains(ex.log(), url + ": no stream arrived within 2.0 s")) << ex.log();
    // The closing line says that no decoder was opened (no empty decoder name).
    EXPECT_TRUE(contains(ex.log(), "0 frames from " + url)) << ex.log();
    EXPECT_TRUE(contains(ex.log(), ", no decoder opened)")) << ex.log();
    EXPECT_FALSE(contains(ex.log(), "decoder )")) << ex.log();
    const QJsonObject report = readReport(ex.out);
    EXPECT_EQ(report["frames"].toArray().size(), 0);
    EXPECT_TRUE(anyWarningContains(report, "no stream arrived within 2.0 s"));
    EXPECT_EQ(report["source"].toObject()["input"].toString().toStdString(), url);
}

TEST(LiveExport, ASenderThatNeverComesBackEndsWithTheFramesDone) {
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    Export ex;
    Sender sender(test::testPictureSender(160, 120, {"-f", "mpegts", url + "?pkt_size=1316"}), ex.dir.file("sender.log"));
    ASSERT_TRUE(ex.start(url, {"--scopes", "histogram", "--timeout", "3"}));
    ASSERT_TRUE(sender.start());
    ASSERT_TRUE(test::waitUntil([&] { return countFiles(ex.out, "-histogram.png") >= 5; }, 20s)) << ex.log();
    sender.stop();
    ASSERT_EQ(ex.process->wait(30s), 1) << ex.log();
    EXPECT_TRUE(contains(ex.log(), url + ": the stream did not come back within 3.0 s (lost: no picture for")) << ex.log();
    const QJsonObject report = readReport(ex.out);
    const QJsonArray frames = report["frames"].toArray();
    EXPECT_GE(frames.size(), 5);
    EXPECT_EQ(frames.size(), countFiles(ex.out, "-histogram.png"));
    EXPECT_EQ(expectRisingPtsAndCountDiscontinuities(frames), 0);
    EXPECT_TRUE(anyWarningContains(report, "did not come back within 3.0 s"));
}

TEST(LiveExport, TimeoutNeedsAPositiveNumberOfSeconds) {
    for (const std::string value : {"0", "-1", "abc", "", "nan", "inf", "5s"}) {
        Export ex;
        ASSERT_TRUE(ex.start("udp://127.0.0.1:9", {"--timeout", value}));
        EXPECT_EQ(ex.process->wait(20s), 2) << value << ": " << ex.log();
        EXPECT_TRUE(contains(ex.log(), "cudascope export: --timeout must be a number of seconds above 0 and up to 604800 (30 or 2.5), not '" +
                                         value + "'")) << ex.log();
    }
}

// A burst: 100 frames sent as fast as the CLI encodes them (no -re), far faster than the
// export writes its images. The export listens first (its port is bound); what it reads
// while it learns the stream's layout is not kept (low-latency opening), so its first
// picture is a keyframe a little into the burst, and every frame after it arrives.
struct Burst {
    int port = test::freeUdpPort();
    std::string url = "udp://127.0.0.1:" + std::to_string(port);
    std::vector<std::string> sender() const {
        return {"-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:d=4", "-c:v", "libx264", "-preset", "ultrafast",
                "-tune", "zerolatency", "-g", "10", "-bf", "0", "-pix_fmt", "yuv420p", "-threads", "1", "-f", "mpegts",
                url + "?pkt_size=1316"};
    }
};

TEST(LiveExport, AllFramesKeepsEveryFrameOfABurst) {
    Burst burst;
    ASSERT_GT(burst.port, 0);
    Export ex;
    ASSERT_TRUE(ex.start(burst.url, {"--all-frames", "--scopes", "histogram,stats", "--max-frames", "50", "--timeout", "10"}));
    ASSERT_TRUE(test::waitUntil([&] { return test::loopbackPortBusy(SOCK_DGRAM, burst.port); }, 10s)) << ex.log();
    Sender sender(burst.sender(), ex.dir.file("sender.log"));
    ASSERT_TRUE(sender.start());
    ASSERT_EQ(ex.process->wait(60s), 0) << ex.log() << "\nsender: " << sender.log();
    const QJsonObject report = readReport(ex.out);
    const QJsonArray frames = report["frames"].toArray();
    ASSERT_EQ(frames.size(), 50);
    for (int i = 0; i < frames.size(); ++i) {
        EXPECT_EQ(frames[i].toObject()["index"].toInteger(), i);
        EXPECT_NEAR(frames[i].toObject()["pts"].toDouble() - frames[0].toObject()["pts"].toDouble(), i * 0.04, 1e-6);
    }
    EXPECT_EQ(report["dropped_frames"].toInteger(), 0);
    EXPECT_EQ(report["restarts"].toArray().size(), 0);
}

TEST(LiveExport, TheNewestFrameIsTakenAndTheDropsAreCounted) {
    Burst burst;
    ASSERT_GT(burst.port, 0);
    Export ex;
    ASSERT_TRUE(ex.start(burst.url, {"--scopes", "histogram,stats", "--timeout", "3"}));
    ASSERT_TRUE(test::waitUntil([&] { return test::loopbackPortBusy(SOCK_DGRAM, burst.port); }, 10s)) << ex.log();
    Sender sender(burst.sender(), ex.dir.file("sender.log"));
    ASSERT_TRUE(sender.start());
    ASSERT_EQ(ex.process->wait(60s), 1) << ex.log();   // the stream ends with the burst: the timeout
    const QJsonObject report = readReport(ex.out);
    const QJsonArray frames = report["frames"].toArray();
    const qint64 dropped = report["dropped_frames"].toInteger();
    EXPECT_GT(dropped, 0) << "a histogram image per frame cannot be written as fast as a burst of small frames decodes";
    const qint64 arrived = report["frames_arrived"].toInteger();
    EXPECT_GE(arrived, 50);
    EXPECT_LE(arrived, 100);
    EXPECT_EQ(frames.size() + dropped, arrived);
    // The gaps in the indices are the drops.
    qint64 gaps = frames.isEmpty() ? 0 : frames[0].toObject()["index"].toInteger();
    for (int i = 1; i < frames.size(); ++i)
        gaps += frames[i].toObject()["index"].toInteger() - frames[i - 1].toObject()["index"].toInteger() - 1;
    EXPECT_EQ(gaps, dropped);
    EXPECT_TRUE(anyWarningContains(report, "the newest frame is taken and the others are dropped"));
}

}  // namespace
}  // namespace cs
