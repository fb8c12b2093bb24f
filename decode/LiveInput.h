// What a live input string means: a network URL, an SDP file or a camera, turned into what
// libavformat opens (the URL without cudascope's own parameters, a forced demuxer) and the
// low-latency options for that kind of input. Syntax only: nothing is opened here.
//
//   rtsp://host[:port]/path[?transport=tcp|udp|udp_multicast|http|https][&listen]
//   rtsps://..., rtmp://..., rtmps://..., http(s)://... (HLS .m3u8 too), tcp://host:port
//   udp://[host]:port[?FFmpeg's udp options], rtp://host:port, srt://host:port[?mode=listener]
//   file.sdp (RTP described by an SDP file)
//   v4l2:/dev/videoN[?size=WxH][&fps=N|N/D][&format=yuyv422|uyvy422|mjpeg|nv12|h264|yuv420p|gray]
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/Status.h"
#include "V4l2Devices.h"

namespace cs {

enum class LiveKind { Network, SdpFile, Camera };

struct LiveInput {
    std::string input;          // as the user gave it: what messages name
    LiveKind kind = LiveKind::Network;
    std::string scheme;         // "rtsp", "udp", ..., "sdp", "v4l2"
    std::string url;            // what libavformat opens
    std::string demuxer;        // forced demuxer ("video4linux2", "sdp"); "" : probe
    std::vector<std::pair<std::string, std::string>> options;   // demuxer and protocol options
    // We wait for a sender (UDP, RTP, SDP, RTSP listen, SRT listener) rather than connect to
    // a server: silence then means "nothing is sending", not "no answer".
    bool waitsForSender = false;
    bool mayBeFile = false;     // http(s), not HLS: a remote file plays as a file (seekable)
    // HLS: segments come whole, so frames arrive in bursts and then nothing for a segment's
    // length. The reader paces such frames by their timestamps, and a read may wait longer.
    bool paced = false;
    double minimumStallSeconds = 0.0;
    // Cameras.
    std::string devicePath;     // "/dev/video0"
    CameraMode mode;
};

// True when the input names a live source (by syntax only): a network URL scheme, an .sdp
// file or "v4l2:". http(s) URLs whose path ends in a media file extension (.mp4, .mkv...)
// are files, not live.
bool isLiveUrlOrCamera(const std::string& input);

// True for every input parseLiveInput takes: the above, and http(s) URLs of files too
// (which open through LiveSource for its deadlines, and play as files).
bool isNetworkOrCameraInput(const std::string& input);

// The parsed input, or why it cannot be, in core/Parse's words:
// "v4l2:/dev/video0?size=big: size must be WxH (from 1x1 to 16384x16384), not 'big'".
// Our own parameters (size, fps, format; RTSP's transport and listen; SRT's mode) are each
// given at most once; the numbers FFmpeg's udp:// and rtp:// read from the URL (timeout,
// fifo_size, pkt_size, ttl, ports...) must be whole numbers in range, since FFmpeg would
// read "1s" as 1 and "abc" as 0 without a word.
Result<LiveInput> parseLiveInput(const std::string& input);

}  // namespace cs
