// FFmpeg's CUDA device for NVDEC decoding: created on the CUDA primary context (so frames
// live in the same context as the CUDA engine's buffers) and, when the source is given a
// decode stream (core/DeviceStream.h), on that stream: FFmpeg 5.1 maps each decoded picture
// with that stream as the post-processing stream, so a frame is ready on it once
// avcodec_receive_frame returned it, and the source records the frame's ready event there.
// Needs no CUDA toolkit at build time: FFmpeg loads the driver at run time.
#pragma once
extern "C" {
#include <libavcodec/avcodec.h>
}

#include <string>

#include "FFmpegHandles.h"
#include "core/DeviceStream.h"
#include "core/Status.h"

namespace cs::ff {

// AV_HWDEVICE_TYPE_CUDA with AV_CUDA_USE_PRIMARY_CONTEXT on the stream's device (device 0
// without one); the stream (may be null) becomes the device's stream. Fails with "no CUDA
// device (<FFmpeg's reason>)".
Result<BufferRefPtr> createCudaDevice(const DeviceStream* stream);

// Whether libavcodec's decoder can use the CUDA hwaccel (NVDEC) through a device context.
bool decoderSupportsCuda(const AVCodec* decoder);

// The software layout (NV12, P010...) of a frame in CUDA memory; AV_PIX_FMT_NONE if unknown.
AVPixelFormat hardwareFrameLayout(const AVFrame* frame);

}  // namespace cs::ff
