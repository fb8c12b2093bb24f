// RAII for the FFmpeg handles the CPU benchmark uses: one small template per release
// shape (FFmpeg's T** "free and null" functions, and the plain T* ones), so no handle
// is ever released by hand.
#pragma once
#include <memory>
#include <string>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

namespace cs::bench {

template <typename T, void (*Release)(T**)>
struct ReleaseByAddress {
    void operator()(T* p) const noexcept { Release(&p); }
};
template <typename T, void (*Release)(T*)>
struct ReleaseByValue {
    void operator()(T* p) const noexcept { Release(p); }
};

template <typename T, void (*Release)(T**)>
using AvHandle = std::unique_ptr<T, ReleaseByAddress<T, Release>>;

using FramePtr = AvHandle<AVFrame, av_frame_free>;
using PacketPtr = AvHandle<AVPacket, av_packet_free>;
using FilterGraphPtr = AvHandle<AVFilterGraph, avfilter_graph_free>;
using FilterInOutPtr = AvHandle<AVFilterInOut, avfilter_inout_free>;
using CodecContextPtr = AvHandle<AVCodecContext, avcodec_free_context>;
using FormatInputPtr = AvHandle<AVFormatContext, avformat_close_input>;
using SwsContextPtr = std::unique_ptr<SwsContext, ReleaseByValue<SwsContext, sws_freeContext>>;

// FFmpeg's message for an error code (av_err2str is a C compound literal, not C++).
inline std::string avErrorText(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace cs::bench
