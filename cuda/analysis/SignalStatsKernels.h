// analysis/SignalStats on the GPU (`cudascope qc` with NVDEC frames), shaped like CUB: device
// pointers, an explicit stream, no allocation, nothing synchronised. The kernels only
// count (histograms, sums of absolute differences, BRNG/TOUT/VREP/black counts, masks);
// core's finishSignalStats() turns the counts into the statistics on the host, so both
// engines share that arithmetic. SAT and HUE are read from tables made on the host by
// core's signalstatsSat/signalstatsHue (CUDA's hypotf/atan2f may round differently from the
// C library's, and FFmpeg truncates their results).
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/PixelAccess.h"

namespace cs::cuda {

// A frame's samples as 16-bit planes, tightly packed (pitch = width), as core's YuvPlanes.
struct SignalStatsPlanes {
    uint16_t* d_y = nullptr;
    uint16_t* d_u = nullptr;
    uint16_t* d_v = nullptr;
    int width = 0, height = 0, chromaWidth = 0, chromaHeight = 0;
};

enum SignalStatsSum { kSumDifY, kSumDifU, kSumDifV, kSumBrng, kSumTout, kSumVrepRows, kSumBlack, kSumFreezeSad, kSumCount };

// Where countSignalStats() writes (zeroed by it first): histograms of levels entries (hue:
// 360), kSumCount sums, 3 masks (Y, U, V).
struct SignalStatsDeviceCounts {
    uint32_t* d_histY = nullptr;
    uint32_t* d_histU = nullptr;
    uint32_t* d_histV = nullptr;
    uint32_t* d_histSat = nullptr;
    uint32_t* d_histHue = nullptr;
    unsigned long long* d_sums = nullptr;
    unsigned int* d_masks = nullptr;
};

// Reads `src` (device planes of any Y'CbCr or gray format) into `d_out`, whose sizes are the
// frame's and its chroma's (chroma: the sample at (cx << log2cw, cy << log2ch)).
cudaError_t unpackSignalStatsPlanes(const PixelSource& src, int midLevel, int log2cw, int log2ch,
                                    const SignalStatsPlanes& d_out, cudaStream_t stream);

// Counts `cur` against `prev` (the previous frame; `cur` itself for the first) and, when
// ref.d_y is set, freezedetect's sum of absolute differences from `ref` (luma, and chroma
// over freezeChromaRows rows). d_satTable/d_hueTable: levels x levels, index [u * levels + v].
cudaError_t countSignalStats(const SignalStatsPlanes& cur, const SignalStatsPlanes& prev, const SignalStatsPlanes& ref,
                             const uint16_t* d_satTable, const uint16_t* d_hueTable, int levels, int blackThreshold,
                             int log2cw, int log2ch, int freezeChromaRows, const SignalStatsDeviceCounts& out,
                             cudaStream_t stream);

}  // namespace cs::cuda
