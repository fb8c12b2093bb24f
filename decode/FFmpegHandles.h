// RAII ownership of FFmpeg's C handles: one template parameterised by the library's own
// release function, so every AVFrame, AVPacket, codec/format context, buffer reference and
// swscale context is freed exactly once on every path (errors and early returns included).
#pragma once
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/buffer.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>
}

#include <memory>
#include <type_traits>

#include "FFmpegErrors.h"   // errorText, for every sentence that quotes an FFmpeg error code

namespace cs::ff {

// FFmpeg's release functions come in two shapes: `void f(T**)` (which also nulls the
// pointer: av_frame_free, avcodec_free_context...) and `void f(T*)` (sws_freeContext).
template <auto Release>
struct Releaser {
    template <typename T>
    void operator()(T* p) const noexcept {
        if (!p) return;
        if constexpr (std::is_invocable_v<decltype(Release), T**>) Release(&p);
        else Release(p);
    }
};

template <typename T, auto Release>
using Handle = std::unique_ptr<T, Releaser<Release>>;

using FramePtr = Handle<AVFrame, av_frame_free>;
using PacketPtr = Handle<AVPacket, av_packet_free>;
using CodecContextPtr = Handle<AVCodecContext, avcodec_free_context>;
using InputContextPtr = Handle<AVFormatContext, avformat_close_input>;
using BufferRefPtr = Handle<AVBufferRef, av_buffer_unref>;
using SwsContextPtr = Handle<SwsContext, sws_freeContext>;

// A frame shared between the decoder side and every VideoFrame that views it; the last
// owner's release returns its buffers (host memory or a CUDA surface) to their pool.
inline std::shared_ptr<AVFrame> share(FramePtr frame) {
    return std::shared_ptr<AVFrame>(frame.release(), Releaser<av_frame_free>{});
}

}  // namespace cs::ff
