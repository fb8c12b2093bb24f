// yuv420_bench: the RGBA -> NV12 / I420 kernel (cuda/convert/Yuv420Kernel.h) at 1080p and 4K, beside
// the device's own copy of the same bytes (cudaMemcpyAsync moving as many bytes as the kernel
// reads and writes: its memory floor, measured in the same run) and NPP's
// nppiRGBToYUV420 / nppiBGRToYUV420 (where NPP is found). Inputs rotate through copies larger
// than the L2 cache, so each run reads its frame from device memory; the median of --reps
// runs after warm-up, each bracketed by CUDA events. Prints a markdown table.
//
//   yuv420_bench [--reps N] [--quick]      (--quick: a few runs, for CTest's smoke run)
// Exit 77 without a CUDA device.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "NppBench.h"
#include "cuda/convert/Yuv420Kernel.h"

namespace {

#define BENCH_CHECK(expr)                                                                                         \
    do {                                                                                                          \
        const cudaError_t e_ = (expr);                                                                            \
        if (e_ != cudaSuccess) {                                                                                  \
            std::fprintf(stderr, "yuv420_bench: %s failed: %s (%s:%d)\n", #expr, cudaGetErrorString(e_), __FILE__, __LINE__); \
            std::exit(1);                                                                                         \
        }                                                                                                         \
    } while (0)

// Median GPU time of fn(i), in microseconds, over `reps` runs after 10 warm-up runs.
double medianUs(cudaStream_t stream, int reps, const std::function<void(int)>& fn) {
    for (int i = 0; i < 10; ++i) fn(i);
    BENCH_CHECK(cudaStreamSynchronize(stream));
    std::vector<cudaEvent_t> events(size_t(2 * reps));
    for (auto& e : events) BENCH_CHECK(cudaEventCreate(&e));
    for (int i = 0; i < reps; ++i) {
        BENCH_CHECK(cudaEventRecord(events[size_t(2 * i)], stream));
        fn(i);
        BENCH_CHECK(cudaEventRecord(events[size_t(2 * i + 1)], stream));
    }
    BENCH_CHECK(cudaStreamSynchronize(stream));
    BENCH_CHECK(cudaGetLastError());
    std::vector<float> ms(static_cast<size_t>(reps));
    for (int i = 0; i < reps; ++i) BENCH_CHECK(cudaEventElapsedTime(&ms[size_t(i)], events[size_t(2 * i)], events[size_t(2 * i + 1)]));
    for (auto e : events) cudaEventDestroy(e);
    std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
    return double(ms[size_t(reps / 2)]) * 1000.0;
}

struct Row {
    std::string size, work;
    double us = -1, bytes = 0, copyUs = -1;
    std::string note;
};

}  // namespace

int main(int argc, char** argv) {
    int reps = 300;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") { quick = true; reps = 20; }
        else if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else {
            std::fprintf(stderr, "usage: yuv420_bench [--reps N] [--quick]\n");
            return 2;
        }
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("yuv420_bench: skipped: no CUDA device\n");
        return 77;
    }
    cudaDeviceProp prop{};
    BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t stream = nullptr;
    BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    std::printf("## RGBA -> NV12 / I420 on %s (L2 %d MB)\n\n", prop.name, prop.l2CacheSize >> 20);

    std::string nppWhy;
    const bool npp = cs::bench::nppAvailable(nppWhy);
    std::vector<Row> rows;
    const std::vector<std::pair<int, int>> sizes = quick ? std::vector<std::pair<int, int>>{{1920, 1080}}
                                                         : std::vector<std::pair<int, int>>{{1920, 1080}, {3840, 2160}};
    for (auto [w, h] : sizes) {
        const std::string size = w >= 3840 ? "4K" : "1080p";
        // Input copies: at least 4 x the L2 cache together, random bytes.
        size_t rgbaPitch = 0;
        const size_t frameBytes = size_t(w) * size_t(h) * 4;
        const int copies = quick ? 2 : int(std::max<size_t>(2, (size_t(prop.l2CacheSize) * 4 + frameBytes - 1) / frameBytes));
        std::vector<uint8_t*> rgba(static_cast<size_t>(copies));
        std::vector<uint8_t> host(frameBytes);
        std::mt19937 rng(1);
        for (auto& b : host) b = uint8_t(rng());
        for (auto& p : rgba) {
            BENCH_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&p), &rgbaPitch, size_t(w) * 4, size_t(h)));
            BENCH_CHECK(cudaMemcpy2D(p, rgbaPitch, host.data(), size_t(w) * 4, size_t(w) * 4, size_t(h), cudaMemcpyHostToDevice));
        }
        // Output planes: one set per input copy as well, so writes do not stay in the cache either.
        struct Planes { uint8_t* y; size_t yPitch; uint8_t* c; size_t cPitch; };
        std::vector<Planes> out(static_cast<size_t>(copies));
        for (auto& o : out) {
            BENCH_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&o.y), &o.yPitch, size_t(w), size_t(h)));
            BENCH_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&o.c), &o.cPitch, size_t(w), size_t(h)));   // NV12 CbCr or Cb+Cr halves
        }
        const cs::RgbToYuv k = cs::yuv420Coefficients();
        const double px = double(w) * double(h);
        const double bytes = px * 4 + px * 1.5;   // RGBA read, Y + quarter-size Cb and Cr written
        auto planesFor = [&](int i, cs::Yuv420Layout l) {
            const Planes& o = out[size_t(i % copies)];
            cs::Yuv420Planes p;
            p.layout = l;
            p.plane[0] = o.y; p.pitch[0] = std::ptrdiff_t(o.yPitch);
            p.plane[1] = o.c; p.pitch[1] = std::ptrdiff_t(o.cPitch);
            if (l == cs::Yuv420Layout::I420) {   // Cb then Cr in the chroma buffer's rows
                p.plane[2] = o.c + o.cPitch * size_t((h + 1) / 2); p.pitch[2] = std::ptrdiff_t(o.cPitch);
            }
            return p;
        };
        // The floor: the device's copy of as many bytes (half read, half written), rotating too.
        uint8_t *copySrc = nullptr, *copyDst = nullptr;
        const size_t half = size_t(bytes / 2);
        const size_t span = half * size_t(copies);
        BENCH_CHECK(cudaMalloc(reinterpret_cast<void**>(&copySrc), span));
        BENCH_CHECK(cudaMalloc(reinterpret_cast<void**>(&copyDst), span));
        BENCH_CHECK(cudaMemset(copySrc, 1, span));
        const double copyUs = medianUs(stream, reps, [&](int i) {
            const size_t at = size_t(i % copies) * half;
            BENCH_CHECK(cudaMemcpyAsync(copyDst + at, copySrc + at, half, cudaMemcpyDeviceToDevice, stream));
        });
        rows.push_back({size, "device copy of the same bytes (floor)", copyUs, bytes, copyUs, "cudaMemcpyAsync D2D"});
        for (auto l : {cs::Yuv420Layout::Nv12, cs::Yuv420Layout::I420}) {
            const bool aligned = cs::cuda::yuv420VectorAligned(rgba[0], rgbaPitch, planesFor(0, l));
            const double us = medianUs(stream, reps, [&](int i) {
                BENCH_CHECK(cs::cuda::rgbaToYuv420(rgba[size_t(i % copies)], rgbaPitch, w, h, k, planesFor(i, l), stream));
            });
            rows.push_back({size, l == cs::Yuv420Layout::Nv12 ? "cudascope RGBA -> NV12" : "cudascope RGBA -> I420", us, bytes,
                            copyUs, aligned ? "128-bit loads" : "byte path (unaligned planes)"});
        }
        if (npp) {
            const cs::Yuv420Planes p = planesFor(0, cs::Yuv420Layout::I420);
            uint8_t* const planes[3] = {p.plane[0], p.plane[1], p.plane[2]};
            const int pitches[3] = {int(p.pitch[0]), int(p.pitch[1]), int(p.pitch[2])};
            const auto t = cs::bench::runNppYuv420(rgba.data(), copies, rgbaPitch, w, h, planes, pitches, stream,
                                                   [&](const std::function<void(int)>& fn) { return medianUs(stream, reps, fn); });
            rows.push_back({size, "NPP RGBToYUV420 8u AC4P3R", t.rgbToYuv420, bytes, copyUs, t.note + "writes one output set"});
            rows.push_back({size, "NPP BGRToYUV420 8u AC4P3R", t.bgrToYuv420, bytes, copyUs, t.note + "writes one output set"});
        }
        cudaFree(copySrc);
        cudaFree(copyDst);
        for (auto p : rgba) cudaFree(p);
        for (auto& o : out) { cudaFree(o.y); cudaFree(o.c); }
    }
    std::printf("| size | work | median µs | GB/s | × device copy | note |\n|---|---|---:|---:|---:|---|\n");
    for (const auto& r : rows) {
        if (r.us < 0) continue;
        std::printf("| %s | %s | %.1f | %.0f | %.2f | %s |\n", r.size.c_str(), r.work.c_str(), r.us, r.bytes / (r.us * 1e3),
                    r.us / r.copyUs, r.note.c_str());
    }
    if (!npp) std::printf("\nNPP: not measured (%s)\n", nppWhy.c_str());
    std::printf("\nTargets: the kernel within 1.5x of the device copy, and faster than NPP.\n");
    cudaStreamDestroy(stream);
    return 0;
}
