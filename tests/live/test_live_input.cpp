// Live input syntax: which inputs are live, what libavformat is given (our parameters off
// the URL, the server's kept), the low-latency options, and the errors for bad syntax.
#include <gtest/gtest.h>

#include <algorithm>

#include "decode/LiveInput.h"
#include "decode/Source.h"

namespace cs {
namespace {

std::string option(const LiveInput& input, const std::string& key) {
    for (const auto& [k, v] : input.options)
        if (k == key) return v;
    return "(unset)";
}

TEST(LiveInput, WhichInputsAreLive) {
    for (const char* live : {"rtsp://cam/stream", "RTSP://cam/stream", "rtsps://cam/s", "rtp://127.0.0.1:5004",
                             "udp://@:1234", "srt://host:9000", "rtmp://host/app/key", "rtmps://host/app/key",
                             "http://host:8080/stream", "https://host/live/index.m3u8", "tcp://host:1234",
                             "session.sdp", "/path/to/Session.SDP", "v4l2:/dev/video0", "V4L2:/dev/video1?size=640x480"})
        EXPECT_TRUE(isLiveInput(live)) << live;
    for (const char* notLive : {"clip.mp4", "/media/a.mkv", "pattern:bars", "http://host/movie.mp4",
                                "https://host/path/clip.MOV?token=1", "file:///tmp/a.mp4", "", "rtsp.mp4"})
        EXPECT_FALSE(isLiveInput(notLive)) << notLive;
    // A file over http still opens through the live path (for its deadlines) and plays as a file.
    EXPECT_TRUE(isNetworkOrCameraInput("http://host/movie.mp4"));
    auto parsed = parseLiveInput("http://host/movie.mp4");
    ASSERT_TRUE(parsed);
    EXPECT_TRUE(parsed->mayBeFile);
    EXPECT_FALSE(parseLiveInput("https://host/live/index.m3u8")->mayBeFile);
}

TEST(LiveInput, RtspTransportAndListenComeOffTheUrl) {
    auto tcp = parseLiveInput("rtsp://cam.local:554/stream1?channel=2");
    ASSERT_TRUE(tcp) << tcp.message();
    EXPECT_EQ(tcp->url, "rtsp://cam.local:554/stream1?channel=2");   // the server's parameter stays
    EXPECT_EQ(option(*tcp, "rtsp_transport"), "tcp");                 // TCP unless asked
    EXPECT_FALSE(tcp->waitsForSender);

    auto udp = parseLiveInput("rtsp://cam.local/stream1?channel=2&transport=udp&subtype=0");
    ASSERT_TRUE(udp) << udp.message();
    EXPECT_EQ(udp->url, "rtsp://cam.local/stream1?channel=2&subtype=0");
    EXPECT_EQ(option(*udp, "rtsp_transport"), "udp");

    auto listen = parseLiveInput("rtsp://127.0.0.1:8554/live?listen");
    ASSERT_TRUE(listen) << listen.message();
    EXPECT_EQ(listen->url, "rtsp://127.0.0.1:8554/live");
    EXPECT_EQ(option(*listen, "rtsp_flags"), "listen");
    EXPECT_EQ(option(*listen, "rtsp_transport"), "(unset)");   // the sender picks
    EXPECT_TRUE(listen->waitsForSender);

    EXPECT_EQ(parseLiveInput("rtsp://cam/s?transport=carrier-pigeon").message(),
              "rtsp://cam/s?transport=carrier-pigeon: RTSP transport must be tcp, udp, udp_multicast, http or https, "
              "not 'carrier-pigeon'");
    EXPECT_EQ(parseLiveInput("rtsp://cam/s?transport=udp&transport=tcp").message(),
              "rtsp://cam/s?transport=udp&transport=tcp: the parameter 'transport' is given twice");
    EXPECT_EQ(parseLiveInput("rtsp://cam/s?listen=maybe").message(),
              "rtsp://cam/s?listen=maybe: listen must be 1, true, 0 or false (or given without a value), not 'maybe'");
    auto notListening = parseLiveInput("rtsp://cam/s?listen=0");
    ASSERT_TRUE(notListening) << notListening.message();
    EXPECT_EQ(notListening->url, "rtsp://cam/s");
    EXPECT_FALSE(notListening->waitsForSender);
}

TEST(LiveInput, LowLatencyOptions) {
    auto udp = parseLiveInput("udp://127.0.0.1:1234?pkt_size=1316");
    ASSERT_TRUE(udp) << udp.message();
    EXPECT_EQ(udp->url, "udp://127.0.0.1:1234?pkt_size=1316");   // FFmpeg's own udp options stay
    EXPECT_EQ(option(*udp, "fflags"), "nobuffer");
    EXPECT_EQ(option(*udp, "analyzeduration"), "1000000");
    EXPECT_EQ(option(*udp, "overrun_nonfatal"), "1");
    EXPECT_TRUE(udp->waitsForSender);

    auto rtp = parseLiveInput("rtp://127.0.0.1:5004");
    ASSERT_TRUE(rtp);
    EXPECT_EQ(option(*rtp, "reorder_queue_size"), "32");
    EXPECT_EQ(option(*rtp, "max_delay"), "50000");

    auto sdp = parseLiveInput("stream.sdp");
    ASSERT_TRUE(sdp);
    EXPECT_EQ(sdp->kind, LiveKind::SdpFile);
    EXPECT_EQ(sdp->demuxer, "sdp");
    EXPECT_NE(option(*sdp, "protocol_whitelist").find("rtp"), std::string::npos);

    auto srtCaller = parseLiveInput("srt://10.0.0.2:9000");
    auto srtListener = parseLiveInput("srt://:9000?mode=listener");
    ASSERT_TRUE(srtCaller && srtListener);
    EXPECT_FALSE(srtCaller->waitsForSender);
    EXPECT_TRUE(srtListener->waitsForSender);

    auto rtmp = parseLiveInput("rtmp://host/app/key");
    ASSERT_TRUE(rtmp);
    EXPECT_EQ(option(*rtmp, "rtmp_live"), "live");

    auto hls = parseLiveInput("https://host/live/index.m3u8");
    ASSERT_TRUE(hls);
    EXPECT_EQ(option(*hls, "live_start_index"), "-1");   // the newest segment, not three back
}

TEST(LiveInput, Cameras) {
    auto plain = parseLiveInput("v4l2:/dev/video0");
    ASSERT_TRUE(plain) << plain.message();
    EXPECT_EQ(plain->kind, LiveKind::Camera);
    EXPECT_EQ(plain->demuxer, "video4linux2");
    EXPECT_EQ(plain->url, "/dev/video0");
    EXPECT_TRUE(plain->options.empty());   // the driver's own mode

    auto moded = parseLiveInput("v4l2:video1?size=640x480&fps=29.97&format=YUYV");
    ASSERT_TRUE(moded) << moded.message();
    EXPECT_EQ(moded->devicePath, "/dev/video1");
    EXPECT_EQ(option(*moded, "video_size"), "640x480");
    EXPECT_EQ(option(*moded, "framerate"), "29.97");
    EXPECT_EQ(option(*moded, "input_format"), "yuyv422");
    EXPECT_EQ(parseLiveInput("v4l2:///dev/video3")->devicePath, "/dev/video3");
}

TEST(LiveInput, SyntaxErrors) {
    EXPECT_EQ(parseLiveInput("rtsp:///path").message(), "rtsp:///path: no host in the URL (rtsp://host:port/...)");
    EXPECT_EQ(parseLiveInput("http://").message(), "http://: no host in the URL (http://host:port/...)");
    EXPECT_EQ(parseLiveInput("gopher://x").message(), "gopher://x: unknown network protocol 'gopher'");
    EXPECT_EQ(parseLiveInput("v4l2:/dev/video0?size=0x480").message(),
              "v4l2:/dev/video0?size=0x480: size must be WxH from 1x1 to 16384x16384, not '0x480'");
    // openSource says the same, at once.
    EXPECT_EQ(openSource("rtsp:///path").message(), "rtsp:///path: no host in the URL (rtsp://host:port/...)");
}

// The camera's parameters go through core/Parse: the whole value or nothing, once each.
TEST(LiveInput, CameraParametersAreStrict) {
    struct Case {
        const char* input;
        const char* says;
    };
    for (const Case& c : {Case{"v4l2:/dev/video0?size=640x480x3", "size must be WxH (from 1x1 to 16384x16384), not '640x480x3'"},
                          Case{"v4l2:/dev/video0?size= 640x480", "size must be WxH"},
                          Case{"v4l2:/dev/video0?size=640x480&SIZE=320x240", "the parameter 'SIZE' is given twice"},
                          Case{"v4l2:/dev/video0?fps=1e2", "fps must be a frame rate"},
                          Case{"v4l2:/dev/video0?fps=30/0", "fps must be a frame rate"},
                          Case{"v4l2:/dev/video0?fps=30&fps=25", "the parameter 'fps' is given twice"},
                          Case{"v4l2:/dev/video0?format=rgb48", "format must be yuyv422, uyvy422, mjpeg, nv12, h264, "
                                                                 "yuv420p or gray, not 'rgb48'"},
                          Case{"v4l2:/dev/video0?zoom=2", "unknown parameter 'zoom' (size, fps, format)"}}) {
        const auto parsed = parseLiveInput(c.input);
        ASSERT_FALSE(parsed.ok()) << c.input;
        EXPECT_EQ(parsed.message().rfind(std::string(c.input) + ": ", 0), 0u) << parsed.message();
        EXPECT_NE(parsed.message().find(c.says), std::string::npos) << parsed.message();
    }
}

// FFmpeg reads udp:// and rtp:// numbers with strtol ("1s" is 1, "abc" 0): checked first.
TEST(LiveInput, ProtocolNumbersAreWholeNumbersInRange) {
    EXPECT_EQ(parseLiveInput("udp://127.0.0.1:1234?timeout=1s").message(),
              "udp://127.0.0.1:1234?timeout=1s: timeout must be a whole number from 0 to 2147483647, not '1s'");
    EXPECT_EQ(parseLiveInput("udp://@:1234?pkt_size=0").message(),
              "udp://@:1234?pkt_size=0: pkt_size must be a whole number from 1 to 65535, not '0'");
    EXPECT_EQ(parseLiveInput("udp://@:1234?ttl=256").message(),
              "udp://@:1234?ttl=256: ttl must be a whole number from 0 to 255, not '256'");
    EXPECT_EQ(parseLiveInput("udp://@:1234?fifo_size=100&fifo_size=200").message(),
              "udp://@:1234?fifo_size=100&fifo_size=200: the parameter 'fifo_size' is given twice");
    EXPECT_EQ(parseLiveInput("udp://@:1234?reuse=yes").message(),
              "udp://@:1234?reuse=yes: reuse must be 0 or 1 (or given without a value), not 'yes'");
    EXPECT_FALSE(parseLiveInput("rtp://127.0.0.1:5004?localrtpport=70000"));
    auto fine = parseLiveInput("udp://@:1234?timeout=1000000&fifo_size=50000&reuse&overrun_nonfatal=1&localaddr=10.0.0.1");
    ASSERT_TRUE(fine) << fine.message();
    EXPECT_EQ(fine->url, "udp://@:1234?timeout=1000000&fifo_size=50000&reuse&overrun_nonfatal=1&localaddr=10.0.0.1");
}

TEST(LiveInput, SrtModeIsReadFromItsParameter) {
    EXPECT_EQ(parseLiveInput("srt://:9000?mode=listen").message(),
              "srt://:9000?mode=listen: SRT mode must be caller, listener or rendezvous, not 'listen'");
    EXPECT_FALSE(parseLiveInput("srt://:9000?mode=listener&mode=caller"));
    auto caller = parseLiveInput("srt://host:9000?streamid=mode=listener");   // another parameter's value
    ASSERT_TRUE(caller) << caller.message();
    EXPECT_FALSE(caller->waitsForSender);
    auto rendezvous = parseLiveInput("srt://host:9000?mode=rendezvous");
    ASSERT_TRUE(rendezvous) << rendezvous.message();
    EXPECT_FALSE(rendezvous->waitsForSender);
}

}  // namespace
}  // namespace cs
