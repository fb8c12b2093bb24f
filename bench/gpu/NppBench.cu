// NPP peers for gpu_bench (NppBench.h). Self-contained so that CMake can try-compile it
// against whatever NPP the machine has.
#include "NppBench.h"

#include <npp.h>
#include <nppi.h>

#include <type_traits>
#include <vector>

namespace cs::bench {
namespace {

NppStreamContext contextFor(cudaStream_t stream) {
    NppStreamContext c{};
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, device);
    c.hStream = stream;
    c.nCudaDeviceId = device;
    c.nMultiProcessorCount = p.multiProcessorCount;
    c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
    c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
    c.nSharedMemPerBlock = p.sharedMemPerBlock;
    c.nCudaDevAttrComputeCapabilityMajor = p.major;
    c.nCudaDevAttrComputeCapabilityMinor = p.minor;
    cudaStreamGetFlags(stream, &c.nStreamFlags);
    return c;
}

// The buffer-size queries take int* in some NPP versions and size_t* in others.
template <typename Fn, typename... Args>
size_t bufferSize(Fn fn, NppStreamContext ctx, Args... args) {
    if constexpr (std::is_invocable_v<Fn, Args..., size_t*, NppStreamContext>) {
        size_t n = 0;
        fn(args..., &n, ctx);
        return n;
    } else {
        int n = 0;
        fn(args..., &n, ctx);
        return size_t(n);
    }
}

struct DeviceMem {
    void* p = nullptr;
    explicit DeviceMem(size_t n) { if (n) cudaMalloc(&p, n); }
    ~DeviceMem() { cudaFree(p); }
    DeviceMem(const DeviceMem&) = delete;
    DeviceMem& operator=(const DeviceMem&) = delete;
};

}  // namespace

bool nppAvailable(std::string& why) {
    const NppLibraryVersion* v = nppGetLibVersion();
    why = "NPP " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->build);
    return true;
}

NppTimes runNpp(const NppInputs& in, cudaStream_t stream, const Timer& timer) {
    NppTimes t;
    const NppStreamContext ctx = contextFor(stream);
    const NppiSize roi{in.width, in.height};
    auto fail = [&](const char* what, NppStatus s) {
        if (s != NPP_SUCCESS) t.note += std::string(what) + ": NPP status " + std::to_string(int(s)) + "; ";
    };
    // Histogram of the luma plane (256 or 1024 bins), as cudascope's luma histogram.
    {
        const bool deep = in.luma16 != nullptr;
        const int levels = (deep ? 1024 : 256) + 1;
        const int upper = deep ? (1024 << in.lumaShift) : 256;
        DeviceMem hist(size_t(levels) * sizeof(Npp32s));
        const size_t bytes = deep ? bufferSize(nppiHistogramEvenGetBufferSize_16u_C1R_Ctx, ctx, roi, levels)
                                  : bufferSize(nppiHistogramEvenGetBufferSize_8u_C1R_Ctx, ctx, roi, levels);
        DeviceMem scratch(bytes);
        NppStatus status = NPP_SUCCESS;
        auto run = [&](int) {
            status = deep ? nppiHistogramEven_16u_C1R_Ctx(in.luma16, int(in.luma16Pitch), roi, static_cast<Npp32s*>(hist.p), levels, 0, upper,
                                                          static_cast<Npp8u*>(scratch.p), ctx)
                          : nppiHistogramEven_8u_C1R_Ctx(in.luma8, int(in.luma8Pitch), roi, static_cast<Npp32s*>(hist.p), levels, 0, upper,
                                                         static_cast<Npp8u*>(scratch.p), ctx);
        };
        if ((deep && in.luma16) || (!deep && in.luma8)) {
            t.histogram = timer(run);
            fail("histogram", status);
            std::vector<Npp32s> h(size_t(levels - 1));
            cudaMemcpyAsync(h.data(), hist.p, h.size() * sizeof(Npp32s), cudaMemcpyDeviceToHost, stream);
            cudaStreamSynchronize(stream);
            for (Npp32s v : h) t.histogramTotal += uint32_t(v);
        }
    }
    // Box filter of the RGBA picture, (2r+1)^2 window, replicated borders.
    if (in.rgba) {
        size_t pitch = 0;
        void* out = nullptr;
        cudaMallocPitch(&out, &pitch, size_t(in.width) * 4, size_t(in.height));
        const int m = 2 * in.boxRadius + 1;
        NppStatus status = NPP_SUCCESS;
        t.boxFilter = timer([&](int) {
            status = nppiFilterBoxBorder_8u_C4R_Ctx(in.rgba, int(in.rgbaPitch), roi, NppiPoint{0, 0}, static_cast<Npp8u*>(out), int(pitch), roi,
                                                    NppiSize{m, m}, NppiPoint{in.boxRadius, in.boxRadius}, NPP_BORDER_REPLICATE, ctx);
        });
        fail("box filter", status);
        cudaFree(out);
    }
    // Sobel of 8-bit luma: horizontal and vertical passes (cudascope computes the magnitude in one).
    if (in.luma8) {
        size_t pitch = 0;
        void* out = nullptr;
        cudaMallocPitch(&out, &pitch, size_t(in.width), size_t(in.height) * 2);
        NppStatus s1 = NPP_SUCCESS, s2 = NPP_SUCCESS;
        t.sobel = timer([&](int) {
            s1 = nppiFilterSobelHorizBorder_8u_C1R_Ctx(in.luma8, int(in.luma8Pitch), roi, NppiPoint{0, 0}, static_cast<Npp8u*>(out), int(pitch), roi,
                                                       NPP_BORDER_REPLICATE, ctx);
            s2 = nppiFilterSobelVertBorder_8u_C1R_Ctx(in.luma8, int(in.luma8Pitch), roi, NppiPoint{0, 0},
                                                      static_cast<Npp8u*>(out) + pitch * size_t(in.height), int(pitch), roi, NPP_BORDER_REPLICATE, ctx);
        });
        fail("sobel horizontal", s1);
        fail("sobel vertical", s2);
        cudaFree(out);
    }
    // NV12 to packed RGB (cudascope's picture pass writes RGBA).
    if (in.nv12Y) {
        size_t pitch = 0;
        void* out = nullptr;
        cudaMallocPitch(&out, &pitch, size_t(in.width) * 3, size_t(in.height));
        const Npp8u* src[2] = {in.nv12Y, in.nv12UV};
        NppStatus status = NPP_SUCCESS;
        t.nv12ToRgb = timer([&](int) {
            status = nppiNV12ToRGB_8u_P2C3R_Ctx(src, int(in.nv12Pitch), static_cast<Npp8u*>(out), int(pitch), roi, ctx);
        });
        fail("NV12 to RGB", status);
        cudaFree(out);
    }
    return t;
}

NppYuv420Times runNppYuv420(const uint8_t* const* rgba, int copies, size_t rgbaPitch, int width, int height,
                            uint8_t* const planes[3], const int pitches[3], cudaStream_t stream, const Timer& timer) {
    NppYuv420Times t;
    const NppStreamContext ctx = contextFor(stream);
    const NppiSize roi{width, height};
    Npp8u* dst[3] = {planes[0], planes[1], planes[2]};
    int steps[3] = {pitches[0], pitches[1], pitches[2]};
    NppStatus rgb = NPP_SUCCESS, bgr = NPP_SUCCESS;
    t.rgbToYuv420 = timer([&](int i) {
        rgb = nppiRGBToYUV420_8u_AC4P3R_Ctx(rgba[i % copies], int(rgbaPitch), dst, steps, roi, ctx);
    });
    t.bgrToYuv420 = timer([&](int i) {
        bgr = nppiBGRToYUV420_8u_AC4P3R_Ctx(rgba[i % copies], int(rgbaPitch), dst, steps, roi, ctx);
    });
    if (rgb != NPP_SUCCESS) t.note += "RGBToYUV420: NPP status " + std::to_string(int(rgb)) + "; ";
    if (bgr != NPP_SUCCESS) t.note += "BGRToYUV420: NPP status " + std::to_string(int(bgr)) + "; ";
    return t;
}

}  // namespace cs::bench
