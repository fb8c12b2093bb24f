// `cudascope record` of a live stream, end to end: the binary against an ffmpeg CLI sender on
// 127.0.0.1 (a port found free at run time). The sender declares 25 fps but sends at half
// that rate (-readrate 0.5): the recording has the frames asked for, and its timestamps are
// the wall clock's (rising, spread over the ~1.5 s the frames took to arrive), not the
// declared frame periods (which would span 0.76 s).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../decode/DecodeTestUtil.h"
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

}  // namespace
}  // namespace cs
