// RAII for CUDA handles: one small template parameterised by the release function
// (streams, events, graphics resources, surface objects, graphs), plus owning device,
// pitched-device and pinned-host buffers that grow but never shrink between frames.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "CudaCheck.h"

namespace cs::cuda {

// Owns one handle of type T; Release(T) is called once, on destruction or reset.
template <typename T, auto Release>
class Handle {
public:
    Handle() = default;
    explicit Handle(T h) : h_(h) {}
    ~Handle() { reset(); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : h_(std::exchange(o.h_, T{})) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) { reset(); h_ = std::exchange(o.h_, T{}); }
        return *this;
    }
    T get() const { return h_; }
    explicit operator bool() const { return h_ != T{}; }
    void reset(T h = T{}) {
        if (h_ != T{}) Release(h_);   // errors at release time have no one to report to
        h_ = h;
    }
    T* out() { reset(); return &h_; }   // for cudaXxxCreate(&handle) style calls
private:
    T h_{};
};

inline void releaseStream(cudaStream_t s) { cudaStreamDestroy(s); }
inline void releaseEvent(cudaEvent_t e) { cudaEventDestroy(e); }
inline void releaseGraphicsResource(cudaGraphicsResource_t r) { cudaGraphicsUnregisterResource(r); }
inline void releaseSurface(cudaSurfaceObject_t s) { cudaDestroySurfaceObject(s); }
inline void releaseGraph(cudaGraph_t g) { cudaGraphDestroy(g); }
inline void releaseGraphExec(cudaGraphExec_t g) { cudaGraphExecDestroy(g); }

using StreamHandle = Handle<cudaStream_t, releaseStream>;
using EventHandle = Handle<cudaEvent_t, releaseEvent>;
using GraphicsResourceHandle = Handle<cudaGraphicsResource_t, releaseGraphicsResource>;
using SurfaceHandle = Handle<cudaSurfaceObject_t, releaseSurface>;
using GraphHandle = Handle<cudaGraph_t, releaseGraph>;
using GraphExecHandle = Handle<cudaGraphExec_t, releaseGraphExec>;

inline void releaseDevice(void* p) { cudaFree(p); }
inline void releasePinned(void* p) { cudaFreeHost(p); }
inline cudaError_t allocateDevice(void** p, size_t bytes) { return cudaMalloc(p, bytes); }
inline cudaError_t allocatePinned(void** p, size_t bytes) { return cudaHostAlloc(p, bytes, cudaHostAllocDefault); }

// `bytes()` bytes from Allocate (freed by Release); reserve() reallocates only to grow.
template <auto Allocate, auto Release>
class GrowingBuffer {
public:
    Status reserve(size_t bytes) {
        if (bytes <= bytes_) return {};
        mem_.reset();
        bytes_ = 0;
        void* p = nullptr;
        CS_CUDA_CHECK(Allocate(&p, bytes));
        mem_.reset(p);
        bytes_ = bytes;
        return {};
    }
    template <typename T = uint8_t>
    T* get() const { return static_cast<T*>(mem_.get()); }
    size_t bytes() const { return bytes_; }
private:
    Handle<void*, Release> mem_;
    size_t bytes_ = 0;
};

// Linear device memory.
using DeviceBuffer = GrowingBuffer<allocateDevice, releaseDevice>;
// Page-locked host memory, for asynchronous copies.
using PinnedBuffer = GrowingBuffer<allocatePinned, releasePinned>;

// 2-D device memory, rows `pitch()` bytes apart (cudaMallocPitch: aligned for vector loads).
class PitchedBuffer {
public:
    Status reserve(size_t rowBytes, size_t rows) {
        if (rowBytes <= rowBytes_ && rows <= rows_) return {};
        mem_.reset();
        rowBytes_ = rows_ = pitch_ = 0;
        void* p = nullptr;
        size_t pitch = 0;
        CS_CUDA_CHECK(cudaMallocPitch(&p, &pitch, rowBytes, rows));
        mem_.reset(p);
        rowBytes_ = rowBytes; rows_ = rows; pitch_ = pitch;
        return {};
    }
    template <typename T = uint8_t>
    T* get() const { return static_cast<T*>(mem_.get()); }
    size_t pitch() const { return pitch_; }
private:
    Handle<void*, releaseDevice> mem_;
    size_t rowBytes_ = 0, rows_ = 0, pitch_ = 0;
};

}  // namespace cs::cuda
