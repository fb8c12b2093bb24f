// analysis/SignalStats for frames in GPU memory (NVDEC): cuda/analysis/SignalStatsKernels count on a
// stream of the meter's own (ordered after each frame's ready event), the counts come back
// in one pinned copy and one synchronisation, and core's finishSignalStats() makes the
// statistics, so the values equal SignalStatsMeter's on the same frames (tests/cuda). The
// previous frame (for DIF) and freezedetect's reference stay on the device. Not
// thread-safe: one meter per input, on the thread that reads it.
#pragma once
#include <memory>

#include "core/Frame.h"
#include "analysis/SignalStats.h"
#include "core/Status.h"

namespace cs {

class CudaSignalStatsMeter {
public:
    // On CUDA device `device` (the engine's: CudaEngine::device()).
    static Result<std::unique_ptr<CudaSignalStatsMeter>> create(int device);
    ~CudaSignalStatsMeter();
    CudaSignalStatsMeter(const CudaSignalStatsMeter&) = delete;
    CudaSignalStatsMeter& operator=(const CudaSignalStatsMeter&) = delete;

    // A frame in device memory. `mafd`: freezedetect's MAFD from the reference (1.0 when
    // there is none or its size differs).
    Status measure(const FrameView& frame, int blackThreshold, SignalStats& out, double& mafd);
    // freezedetect: the frame measure() last read becomes the reference.
    Status setReference();

private:
    CudaSignalStatsMeter();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cs
