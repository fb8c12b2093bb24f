// DeviceCopy: a host frame's planes copied to device memory for the CUDA tests that read
// device frames (test_reduce, test_out_of_range).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "core/Frame.h"
#include "core/PixelFormat.h"

namespace cs::test {

// A host frame's planes copied to device memory, freed with it.
struct DeviceCopy {
    FrameView view;
    std::vector<void*> planes;
    explicit DeviceCopy(const Frame& frame) : view(frame.view()) {
        view.onDevice = true;
        for (int p = 0; p < formatInfo(frame.format()).planeCount; ++p) {
            const size_t bytes = size_t(frame.pitch(p)) * size_t(planeRows(frame.format(), frame.height(), p));
            void* mem = nullptr;
            if (cudaMalloc(&mem, bytes) != cudaSuccess) return;
            planes.push_back(mem);
            if (cudaMemcpy(mem, frame.plane(p), bytes, cudaMemcpyHostToDevice) != cudaSuccess) return;
            view.data[size_t(p)] = static_cast<const uint8_t*>(mem);
        }
    }
    ~DeviceCopy() {
        for (void* m : planes) cudaFree(m);
    }
    DeviceCopy(const DeviceCopy&) = delete;
    DeviceCopy& operator=(const DeviceCopy&) = delete;
};

}  // namespace cs::test
