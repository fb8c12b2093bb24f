// Live network sources against a real sender: the ffmpeg CLI started by the test, sending
// on 127.0.0.1 to ports found free at run time. UDP MPEG-TS, RTP with an SDP file, RTSP
// (FFmpeg 5.1 has no RTSP server to pull from, so cudascope listens and the CLI pushes, over
// TCP and UDP), SRT (the CLI listens, cudascope calls). Checked: frames arrive with the
// sender's size and rising timestamps; a slow consumer gets fresh frames (others dropped,
// no backlog: each take gets the newest frame); a killed sender makes the reader say
// "reconnecting" and a restarted one brings frames back; a size change mid-stream is
// followed without reconnecting; refused and silent addresses fail with a sentence naming
// the URL, before their time limits.
//
// Waiting is on events (the reader's wake callback, the mailbox, a sender's exit, the SDP
// file being written), each with a generous bound that only fails the test: the suite runs
// beside CPU-heavy ones under `ctest -j`, so nothing here asserts a latency. Printed for
// reading, not asserted: the arrival-to-take latency with a prompt consumer, how long a lost
// stream takes to be noticed, and the reconnect time.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "tests/decode/DecodeTestUtil.h"
#include "LiveTestUtil.h"
#include "decode/LiveReader.h"

extern "C" {
#include <libavformat/avio.h>
#include <libavutil/log.h>
}

namespace cs {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using test::Sender;
using test::TempDir;

// FFmpeg's own printing off: a stream joined mid-GOP makes the decoder complain until the
// next keyframe. (Messages still reach the sources' warnings and errors.)
const bool kQuietFFmpeg = [] {
    av_log_set_level(AV_LOG_FATAL);
    return true;
}();

// Generous for a loaded 2-core CI machine (the product's 2 s stall limit, twice its open limit).
LiveReader::Options testOptions() {
    LiveReader::Options options;
    options.open.liveOpenTimeout = 10.0;
    options.open.liveStallTimeout = 2.0;
    options.maxRetryDelay = 1.0;
    return options;
}

double milliseconds(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

std::string describe(const LiveReader& reader, const Sender& sender) {
    const LiveStatus s = reader.status();
    return std::string("reader ") + liveStateName(s.state) + (s.message.empty() ? "" : ": " + s.message) +
           "; sender log: " + sender.log();
}

// Waits until the reader plays; a sender that exits early (an RTSP push that came before
// the listener was up) is started again. `events` gets the reader's wakes and the sender's exits.
bool waitForPlaying(LiveReader& reader, Sender& sender, test::Events& events, std::chrono::seconds timeout) {
    const auto end = Clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
        if (left.count() <= 0) return false;
        const bool settled = events.waitUntil(
            [&] {
                const LiveState s = reader.state();
                return s == LiveState::Playing || s == LiveState::Failed || !sender.running();
            },
            left);
        if (!settled) return false;
        if (reader.state() == LiveState::Playing) return true;
        if (reader.state() == LiveState::Failed) return false;
        if (!sender.start()) return false;
    }
}

// Generous for a loaded machine: reaching these bounds only fails the test.
constexpr auto kPlayingWithin = 60s;
constexpr auto kStateWithin = 30s;

struct Taken {
    LiveFrame frame;
    double ageMs;   // take time - arrival
};

// Takes `count` frames as they come; fails the test when one does not come within 5 s.
std::vector<Taken> takeFrames(LiveReader& reader, int count) {
    std::vector<Taken> frames;
    for (int i = 0; i < count; ++i) {
        auto f = reader.take(5000ms);
        const auto now = Clock::now();
        if (!f) {
            ADD_FAILURE() << "frame " << i << " did not come: " << liveStateName(reader.state()) << " "
                          << reader.status().message;
            break;
        }
        const double age = milliseconds(now - f->arrival);
        frames.push_back({std::move(*f), age});
    }
    return frames;
}

void expectSenderFrames(const std::vector<Taken>& frames, int width, int height) {
    double previousPts = -1e9;
    for (const auto& t : frames) {
        EXPECT_EQ(t.frame.frame.view.width, width);
        EXPECT_EQ(t.frame.frame.view.height, height);
        EXPECT_EQ(t.frame.frame.view.format, PixelFormat::Yuv420p);
        EXPECT_GT(t.frame.frame.view.pts, previousPts) << "timestamps must rise";
        previousPts = t.frame.frame.view.pts;
    }
}

TEST(Network, UdpMpegTsNewestFrameDropsAndReconnect) {
    TempDir dir;
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    test::Events events;
    Sender sender(test::testPictureSender(320, 240, {"-f", "mpegts", url + "?pkt_size=1316"}), dir.file("sender.log"),
                  events.poster());
    LiveReader reader(url, testOptions(), events.poster());   // listening before the sender starts
    ASSERT_TRUE(sender.start());
    ASSERT_TRUE(waitForPlaying(reader, sender, events, kPlayingWithin)) << describe(reader, sender);
    const SourceInfo info = reader.info();
    EXPECT_TRUE(info.live);
    EXPECT_FALSE(info.seekable);
    EXPECT_EQ(info.container, "mpegts");
    EXPECT_EQ(info.codec, "h264");
    EXPECT_NEAR(info.frameRate, 25.0, 0.5);

    // A prompt consumer: frames of the sender's size, timestamps rising, taken at once.
    const auto prompt = takeFrames(reader, 25);
    ASSERT_EQ(prompt.size(), 25u);
    expectSenderFrames(prompt, 320, 240);
    std::vector<double> promptAges;
    for (const auto& t : prompt) promptAges.push_back(t.ageMs);
    std::printf("[ measure  ] UDP MPEG-TS on loopback, prompt consumer: arrival-to-take median %.3f ms, max %.3f ms\n",
                median(promptAges), *std::max_element(promptAges.begin(), promptAges.end()));

    // A slow consumer (busy elsewhere for 200 ms between takes, against 25 fps): each take
    // gets the newest frame that had arrived before it (a queue would hand out the oldest),
    // and every frame skipped between two takes was dropped and counted.
    const uint64_t droppedBefore = reader.framesDropped();
    uint64_t previous = 0, skipped = 0;
    for (int i = 0; i < 12; ++i) {
        std::this_thread::sleep_for(200ms);   // the consumer's own work, not a wait for the reader
        const uint64_t arrived = reader.framesArrived();
        auto f = reader.take(10s);
        ASSERT_TRUE(f.has_value()) << describe(reader, sender);
        EXPECT_GE(f->sequence, arrived) << "take " << i << " was handed an older frame than the newest";
        if (previous) skipped += f->sequence - previous - 1;
        previous = f->sequence;
    }
    const uint64_t dropped = reader.framesDropped() - droppedBefore;
    std::printf("[ measure  ] slow consumer (200 ms a take): %llu frames skipped between takes, %llu dropped\n",
                static_cast<unsigned long long>(skipped), static_cast<unsigned long long>(dropped));
    EXPECT_GT(skipped, 0u) << "a consumer slower than the stream must skip frames";
    EXPECT_GE(dropped, skipped) << "every frame skipped between takes was dropped in the mailbox";

    // The sender dies: "reconnecting", saying why. It comes back: so do the frames.
    sender.stop();
    const auto killed = Clock::now();
    ASSERT_TRUE(events.waitUntil([&] { return reader.state() == LiveState::Reconnecting; }, kStateWithin))
        << describe(reader, sender);
    const double noticed = test::secondsSince(killed);
    EXPECT_NE(reader.status().message.find(url + ": no picture for 2.0 s"), std::string::npos)
        << reader.status().message;
    ASSERT_TRUE(sender.start());
    const auto restarted = Clock::now();
    bool back = false;
    while (!back && test::secondsSince(restarted) < 60.0) {
        auto f = reader.take(1s);
        back = f && f->generation == 2;
        if (back) {
            EXPECT_EQ(f->frame.view.width, 320);
        }
    }
    ASSERT_TRUE(back) << describe(reader, sender);
    const double reconnect = test::secondsSince(restarted);
    std::printf("[ measure  ] UDP sender killed: reconnecting after %.2f s (stall limit 2.0 s); "
                "restarted sender: frames again after %.2f s\n",
                noticed, reconnect);
    EXPECT_EQ(reader.state(), LiveState::Playing);
    EXPECT_EQ(reader.status().reconnects, 1u);
}

TEST(Network, UdpSizeChangeIsFollowedWithoutReconnecting) {
    TempDir dir;
    // Two H.264 clips of different sizes, sent back to back as one MPEG-TS stream.
    ASSERT_TRUE(test::runFfmpeg("-f lavfi -i testsrc2=size=320x240:rate=25:d=3 -c:v libx264 -preset ultrafast "
                                "-tune zerolatency -g 10 -bf 0 -pix_fmt yuv420p \"" + dir.file("a.ts") + "\""));
    ASSERT_TRUE(test::runFfmpeg("-f lavfi -i testsrc2=size=176x144:rate=25:d=3 -c:v libx264 -preset ultrafast "
                                "-tune zerolatency -g 10 -bf 0 -pix_fmt yuv420p \"" + dir.file("b.ts") + "\""));
    std::ofstream(dir.file("list.txt")) << "file '" << dir.file("a.ts") << "'\nfile '" << dir.file("b.ts") << "'\n";

    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    Sender sender({"-re", "-f", "concat", "-safe", "0", "-i", dir.file("list.txt"), "-c", "copy", "-f", "mpegts",
                   url + "?pkt_size=1316"},
                  dir.file("sender.log"));
    test::Events wakes;
    // Packets sent before the reader listens are lost, which only shortens the first clip.
    LiveReader reader(url, testOptions(), wakes.poster());
    ASSERT_TRUE(sender.start());

    std::vector<std::pair<int, int>> sizes;
    std::vector<std::string> warnings;
    const auto start = Clock::now();
    while (test::secondsSince(start) < 60.0) {
        auto f = reader.take(500ms);
        for (auto& w : reader.takeWarnings()) warnings.push_back(std::move(w));
        if (!f) continue;
        EXPECT_EQ(f->generation, 1u) << "the size change must not need a reconnect";
        const std::pair size(f->frame.view.width, f->frame.view.height);
        if (sizes.empty() || sizes.back() != size) sizes.push_back(size);
        if (size == std::pair(176, 144) && reader.info().width == 176) break;
    }
    // The warning is collected just after the frame is handed over (and wakes).
    wakes.waitUntil(
        [&] {
            for (auto& w : reader.takeWarnings()) warnings.push_back(std::move(w));
            return test::anyContains(warnings, "frame size changed");
        },
        kStateWithin);
    ASSERT_EQ(sizes.size(), 2u) << describe(reader, sender);
    EXPECT_EQ(sizes[0], std::pair(320, 240));
    EXPECT_EQ(sizes[1], std::pair(176, 144));
    EXPECT_EQ(reader.info().height, 144);
    EXPECT_EQ(reader.status().reconnects, 0u);
    EXPECT_TRUE(test::anyContains(warnings, "frame size changed from 320x240 to 176x144")) << test::joined(warnings);
}

TEST(Network, RtpWithSdpFile) {
    TempDir dir;
    const int port = test::freeRtpPort();
    ASSERT_GT(port, 0);
    const std::string sdp = dir.file("stream.sdp");
    Sender sender(test::testPictureSender(320, 240, {"-f", "rtp", "-sdp_file", sdp,
                                                     "rtp://127.0.0.1:" + std::to_string(port)}),
                  dir.file("sender.log"));
    ASSERT_TRUE(sender.start());
    ASSERT_TRUE(test::waitForWrittenFile(sdp, 30s)) << sender.log();
    test::Events wakes;
    LiveReader reader(sdp, testOptions(), wakes.poster());
    ASSERT_TRUE(wakes.waitUntil([&] { return reader.state() != LiveState::Connecting; }, kPlayingWithin))
        << describe(reader, sender);
    ASSERT_EQ(reader.state(), LiveState::Playing) << describe(reader, sender);
    EXPECT_EQ(reader.info().container, "sdp");
    const auto frames = takeFrames(reader, 10);
    ASSERT_EQ(frames.size(), 10u);
    expectSenderFrames(frames, 320, 240);
}

void rtspPush(const std::string& transport) {
    TempDir dir;
    const int port = test::freeTcpPort();
    ASSERT_GT(port, 0);
    const std::string url = "rtsp://127.0.0.1:" + std::to_string(port) + "/live";
    test::Events events;
    LiveReader reader(url + "?listen", testOptions(), events.poster());
    // A push that comes before the reader listens is refused and the sender exits: it is
    // started again (waitForPlaying).
    Sender sender(test::testPictureSender(320, 240, {"-f", "rtsp", "-rtsp_transport", transport, url}),
                  dir.file("sender.log"), events.poster());
    ASSERT_TRUE(sender.start());
    ASSERT_TRUE(waitForPlaying(reader, sender, events, kPlayingWithin)) << describe(reader, sender);
    EXPECT_EQ(reader.info().container, "rtsp");
    const auto frames = takeFrames(reader, 10);
    ASSERT_EQ(frames.size(), 10u);
    expectSenderFrames(frames, 320, 240);
}

TEST(Network, RtspPushedOverTcp) { rtspPush("tcp"); }
TEST(Network, RtspPushedOverUdp) { rtspPush("udp"); }

// The CLI as the server (listening for one client) and cudascope connecting to it.
void pullFromListeningSender(const std::string& url, const std::string& muxer, const std::string& container) {
    TempDir dir;
    test::Events events;
    Sender sender(test::testPictureSender(320, 240, {"-f", muxer, "-listen", "1", url}), dir.file("sender.log"),
                  events.poster());
    ASSERT_TRUE(sender.start());
    LiveReader::Options options = testOptions();
    options.retryFirstOpen = true;   // the sender may not be listening yet
    LiveReader reader(url, options, events.poster());
    ASSERT_TRUE(waitForPlaying(reader, sender, events, kPlayingWithin)) << describe(reader, sender);
    const SourceInfo info = reader.info();
    EXPECT_EQ(info.container, container);
    EXPECT_TRUE(info.live);
    EXPECT_FALSE(info.seekable);
    const auto frames = takeFrames(reader, 10);
    ASSERT_EQ(frames.size(), 10u);
    expectSenderFrames(frames, 320, 240);
}

TEST(Network, HttpProgressiveMpegTs) {
    pullFromListeningSender("http://127.0.0.1:" + std::to_string(test::freeTcpPort()) + "/live", "mpegts", "mpegts");
}

TEST(Network, RtmpFromAListeningSender) {
    pullFromListeningSender("rtmp://127.0.0.1:" + std::to_string(test::freeTcpPort()) + "/live/key", "flv", "flv");
}

bool haveSrt() {
    void* iterator = nullptr;
    while (const char* name = avio_enum_protocols(&iterator, 0))
        if (std::string(name) == "srt") return true;
    return false;
}

TEST(Network, SrtCallerReconnectsToARestartedListener) {
    if (!haveSrt()) GTEST_SKIP() << "this FFmpeg has no srt protocol";
    TempDir dir;
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string address = "srt://127.0.0.1:" + std::to_string(port);
    test::Events events;
    Sender sender(test::testPictureSender(320, 240, {"-f", "mpegts", address + "?mode=listener"}),
                  dir.file("sender.log"), events.poster());
    ASSERT_TRUE(sender.start());
    LiveReader::Options options = testOptions();
    options.retryFirstOpen = true;   // the listener may not be up yet
    LiveReader reader(address, options, events.poster());
    ASSERT_TRUE(waitForPlaying(reader, sender, events, kPlayingWithin)) << describe(reader, sender);
    const auto frames = takeFrames(reader, 10);
    ASSERT_EQ(frames.size(), 10u);
    expectSenderFrames(frames, 320, 240);

    sender.stop();
    ASSERT_TRUE(events.waitUntil([&] { return reader.state() == LiveState::Reconnecting; }, kStateWithin))
        << describe(reader, sender);
    ASSERT_TRUE(sender.start());
    const auto restarted = Clock::now();
    bool back = false;
    while (!back && test::secondsSince(restarted) < 60.0) {
        auto f = reader.take(1s);
        back = f && f->generation == 2;
    }
    ASSERT_TRUE(back) << describe(reader, sender);
    std::printf("[ measure  ] SRT listener restarted: frames again after %.2f s\n", test::secondsSince(restarted));
}

TEST(Network, RefusedConnectionsFailWithTheUrl) {
    const int port = test::freeTcpPort();
    ASSERT_GT(port, 0);
    const std::string hostPort = "127.0.0.1:" + std::to_string(port);
    for (const std::string& url : {"rtsp://" + hostPort + "/live", "http://" + hostPort + "/live.m3u8",
                                  "rtmp://" + hostPort + "/app/key", "tcp://" + hostPort}) {
        auto opened = openSource(url);
        ASSERT_FALSE(opened) << url;
        // The refusal itself, not the open's time limit running out.
        EXPECT_EQ(opened.message(), url + ": connection refused (nothing is listening at that address and port)");
    }
    // The reader: failed, with the same sentence, and no retrying.
    test::Events wakes;
    LiveReader reader("rtsp://" + hostPort + "/live", testOptions(), wakes.poster());
    ASSERT_TRUE(wakes.waitUntil([&] { return reader.state() == LiveState::Failed; }, kStateWithin));
    EXPECT_EQ(reader.status().message,
              "rtsp://" + hostPort + "/live: connection refused (nothing is listening at that address and port)");
}

TEST(Network, SilenceFailsAfterTheOpenTimeout) {
    const int port = test::freeUdpPort();
    ASSERT_GT(port, 0);
    const std::string url = "udp://127.0.0.1:" + std::to_string(port);
    OpenOptions options;
    options.liveOpenTimeout = 1.5;
    const auto start = Clock::now();
    auto opened = openSource(url, options);
    const double elapsed = test::secondsSince(start);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.message(), url + ": no picture arrived within 1.5 s (is anything sending to this address?)");
    EXPECT_GE(elapsed, 1.4);   // it waited its time limit (a lower bound: load cannot break it)
}

}  // namespace
}  // namespace cs
