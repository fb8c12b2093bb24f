// `cudascope record` of a live stream, end to end: the binary against an ffmpeg CLI sender on
// 127.0.0.1 (a port found free at run time). The sender declares 25 fps but sends at half
// that rate (-readrate 0.5): the recording has the frames asked for, and its timestamps are
// the wall clock's (rising, spread over the ~1.5 s the frames took to arrive), not the
// declared frame periods (which would span 0.76 s). A sender that goes away and comes back:
// the recording goes on across the outage, the gap shows in its timestamps, and the closing
// lines count the gap, the reconnect, every frame and why it ended.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
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

std::string ffprobeExecutable() {
    std::string p = test::ffmpegExecutable();
    const size_t at = p.rfind("ffmpeg");
    return at == std::string::npos ? "ffprobe" : p.replace(at, 6, "ffprobe");
}

TEST(LiveRecord, RecordsTheFramesAskedForWithWallClockTimestamps) {
    TempDir dir;
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    Sender sender({"-readrate", "0.5", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-c:v", "libx264", "-preset",
                   "ultrafast", "-tune", "zerolatency", "-g", "10", "-bf", "0", "-pix_fmt", "yuv420p", "-threads", "1",
                   "-f", "mpegts", url + "?pkt_size=1316"},
                  dir.file("sender.log"));
    ASSERT_TRUE(sender.start());
    const std::string out = dir.file("live.mp4");
    ChildProcess record(CS_TEST_CUDASCOPE, {"record", url, "--out", out, "--frames", "20", "--engine", "cpu"},
                        dir.file("record.log"));
    ASSERT_TRUE(record.start());
    ASSERT_EQ(record.wait(60s), 0) << record.output() << "\nsender: " << sender.log();
    EXPECT_NE(record.output().find("20 frames from " + url), std::string::npos) << record.output();

    ChildProcess probe(ffprobeExecutable(),
                       {"-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", out},
                       dir.file("probe.log"));
    ASSERT_TRUE(probe.start());
    ASSERT_EQ(probe.wait(30s), 0) << probe.output();
    std::vector<double> pts;
    std::istringstream lines(probe.output());
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) pts.push_back(std::strtod(line.c_str(), nullptr));
    ASSERT_EQ(pts.size(), 20u) << probe.output();
    for (size_t i = 1; i < pts.size(); ++i) EXPECT_GT(pts[i], pts[i - 1]) << "frame " << i << "\n" << probe.output();
    // 19 intervals of 80 ms on the wall clock (1.52 s); the declared rate would give 0.76 s.
    const double span = pts.back() - pts.front();
    EXPECT_GT(span, 1.2) << probe.output();
    EXPECT_LT(span, 10.0) << probe.output();
}

// The frames' pts_time of the file's first video stream.
std::vector<double> framePts(const std::string& file, const TempDir& dir) {
    ChildProcess probe(ffprobeExecutable(),
                       {"-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file},
                       dir.file("probe.log"));
    std::vector<double> pts;
    if (!probe.start() || probe.wait(30s) != 0) return pts;
    std::istringstream lines(probe.output());
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) pts.push_back(std::strtod(line.c_str(), nullptr));
    return pts;
}

TEST(LiveRecord, AnOutageIsCountedAndTheRecordingGoesOn) {
    TempDir dir;
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    Sender sender(test::testPictureSender(160, 120, {"-f", "mpegts", url + "?pkt_size=1316"}), dir.file("sender.log"));
    const std::string out = dir.file("outage.mkv");
    ChildProcess record(CS_TEST_CUDASCOPE, {"record", url, "--out", out, "--frames", "60", "--engine", "cpu"},
                        dir.file("record.log"));
    ASSERT_TRUE(record.start());
    ASSERT_TRUE(sender.start());
    const auto says = [&](const std::string& part, std::chrono::milliseconds timeout) {
        return test::waitUntil([&] { return record.output().find(part) != std::string::npos; }, timeout);
    };
    // Pictures come; the sender dies; the recorder sees the stream lost (2 s without a picture)
    // and waits for it; the sender comes back.
    ASSERT_TRUE(says("receiving pictures", 20s)) << record.output() << "\nsender: " << sender.log();
    sender.stop();
    ASSERT_TRUE(says("stream lost (", 10s)) << record.output();
    ASSERT_TRUE(sender.start());
    ASSERT_EQ(record.wait(60s), 0) << record.output() << "\nsender: " << sender.log();
    const std::string log = record.output();
    EXPECT_NE(log.find("stream: 1 gap ("), std::string::npos) << log;
    EXPECT_NE(log.find(", 1 reconnect\n"), std::string::npos) << log;
    EXPECT_NE(log.find("the stream restarted at frame"), std::string::npos) << log;
    EXPECT_NE(log.find("ended: --frames"), std::string::npos) << log;
    EXPECT_NE(log.find("60 frames from " + url), std::string::npos) << log;
    // delivered = recorded + dropped, with 60 recorded.
    const size_t at = log.find("frames: ");
    ASSERT_NE(at, std::string::npos) << log;
    long long delivered = -1, recorded = -1, dropped = -1;
    ASSERT_EQ(std::sscanf(log.c_str() + at, "frames: %lld delivered = %lld recorded + %lld dropped", &delivered, &recorded, &dropped), 3)
        << log;
    EXPECT_EQ(recorded, 60) << log;
    EXPECT_EQ(delivered, recorded + dropped) << log;
    EXPECT_EQ(log.find("do not balance"), std::string::npos) << log;

    // The file: 60 frames on the wall clock, rising, with the outage (at least the 2 s stall
    // limit) as one gap between two of them.
    const std::vector<double> pts = framePts(out, dir);
    ASSERT_EQ(pts.size(), 60u) << log;
    double widest = 0;
    for (size_t i = 1; i < pts.size(); ++i) {
        EXPECT_GT(pts[i], pts[i - 1]) << "frame " << i;
        widest = std::max(widest, pts[i] - pts[i - 1]);
    }
    EXPECT_GT(widest, 1.5) << log;
}

}  // namespace
}  // namespace cs
