// FFmpeg CUDA device creation for NVDEC (see CudaDevice.h).
#include "CudaDevice.h"

// libavutil/hwcontext_cuda.h includes <cuda.h> only for two handle types. Declare them as
// cuda.h does, so that decode/ builds without the CUDA toolkit (the types are identical, so
// a translation unit that also includes cuda.h would still agree).
#ifndef CUDA_VERSION
#define CUDA_VERSION 0
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
#endif

extern "C" {
#include <libavutil/hwcontext.h>
#include <libavutil/hwcontext_cuda.h>
}

#include <dlfcn.h>

#include <cstdint>
#include <string>

namespace cs::ff {
namespace {

// The four CUDA driver entry points needed to hand FFmpeg the primary context itself,
// loaded at run time as FFmpeg loads them (no link against libcuda, no toolkit headers).
struct DriverApi {
    using Result = int;   // CUresult, 0 = CUDA_SUCCESS
    Result (*init)(unsigned) = nullptr;
    Result (*deviceGet)(int*, int) = nullptr;
    Result (*primaryCtxRetain)(CUcontext*, int) = nullptr;
    Result (*primaryCtxRelease)(int) = nullptr;
    bool loaded() const { return init && deviceGet && primaryCtxRetain && primaryCtxRelease; }
};

const DriverApi& driverApi() {
    static const DriverApi api = [] {
        DriverApi a;
        void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);   // stays loaded for the process
        if (!library) return a;
        a.init = reinterpret_cast<DriverApi::Result (*)(unsigned)>(dlsym(library, "cuInit"));
        a.deviceGet = reinterpret_cast<DriverApi::Result (*)(int*, int)>(dlsym(library, "cuDeviceGet"));
        a.primaryCtxRetain =
            reinterpret_cast<DriverApi::Result (*)(CUcontext*, int)>(dlsym(library, "cuDevicePrimaryCtxRetain"));
        a.primaryCtxRelease =
            reinterpret_cast<DriverApi::Result (*)(int)>(dlsym(library, "cuDevicePrimaryCtxRelease_v2"));
        return a;
    }();
    return api;
}

// AVHWDeviceContext.free: the device context is going, so is our reference on the context.
void releasePrimaryContext(AVHWDeviceContext* device) {
    driverApi().primaryCtxRelease(static_cast<int>(reinterpret_cast<intptr_t>(device->user_opaque)));
}

// FFmpeg 5.1 refuses an already active primary context whose flags differ from its own
// (CU_CTX_SCHED_BLOCKING_SYNC), which is exactly the state the CUDA runtime leaves it in
// when the engine started first. Retain it ourselves and give it to FFmpeg as the device's
// context: same primary context, whatever its flags.
Result<BufferRefPtr> wrapPrimaryContext(int ordinal) {
    const DriverApi& cu = driverApi();
    if (!cu.loaded()) return Status::error("cannot load libcuda.so.1");
    int device = 0;
    CUcontext context = nullptr;
    if (cu.init(0) != 0 || cu.deviceGet(&device, ordinal) != 0 || cu.primaryCtxRetain(&context, device) != 0)
        return Status::error("cannot retain the CUDA primary context");
    BufferRefPtr owned(av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA));
    if (!owned) {
        cu.primaryCtxRelease(device);
        return Status::error("out of memory");
    }
    auto* deviceContext = reinterpret_cast<AVHWDeviceContext*>(owned->data);
    static_cast<AVCUDADeviceContext*>(deviceContext->hwctx)->cuda_ctx = context;
    deviceContext->user_opaque = reinterpret_cast<void*>(intptr_t(device));
    deviceContext->free = &releasePrimaryContext;   // from here on, freeing the device releases the context
    const int ret = av_hwdevice_ctx_init(owned.get());
    if (ret < 0) return Status::error("cannot set up FFmpeg's CUDA device (" + errorText(ret) + ")");
    return owned;
}

}  // namespace

Result<BufferRefPtr> createCudaDevice(const DeviceStream* stream) {
    const int ordinal = stream ? stream->device() : 0;
    AVBufferRef* device = nullptr;
    const int ret = av_hwdevice_ctx_create(&device, AV_HWDEVICE_TYPE_CUDA, std::to_string(ordinal).c_str(), nullptr,
                                           AV_CUDA_USE_PRIMARY_CONTEXT);
    BufferRefPtr owned(device);
    if (ret == AVERROR(ENOTSUP)) {   // "Primary context already active with incompatible flags"
        auto wrapped = wrapPrimaryContext(ordinal);
        if (!wrapped) return Status::error("no CUDA device (" + wrapped.message() + ")");
        owned = std::move(wrapped.value());
    } else if (ret < 0) {
        return Status::error("no CUDA device (" + errorText(ret) + ")");
    }
    if (stream) {
        auto* deviceContext = reinterpret_cast<AVHWDeviceContext*>(owned->data);
        auto* cudaContext = static_cast<AVCUDADeviceContext*>(deviceContext->hwctx);
        cudaContext->stream = static_cast<CUstream>(stream->native());
    }
    return owned;
}

bool decoderSupportsCuda(const AVCodec* decoder) {
    for (int i = 0;; ++i) {
        const AVCodecHWConfig* config = avcodec_get_hw_config(decoder, i);
        if (!config) return false;
        if (config->device_type == AV_HWDEVICE_TYPE_CUDA && config->pix_fmt == AV_PIX_FMT_CUDA &&
            (config->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
            return true;
    }
}

AVPixelFormat hardwareFrameLayout(const AVFrame* frame) {
    if (!frame->hw_frames_ctx) return AV_PIX_FMT_NONE;
    return reinterpret_cast<const AVHWFramesContext*>(frame->hw_frames_ctx->data)->sw_format;
}

}  // namespace cs::ff
