// How a frame made on one GPU stream reaches an engine working on another, without either
// side waiting for the other's whole stream (docs/ARCHITECTURE.md, "Threads, streams and
// frames").
//
// A producer (a source's NVDEC decoding, decode/) queues its work on a DeviceStream of its
// own and, once a frame's planes are queued, records a ready event on it. The frame carries
// the event (FrameView::deviceReady, owned by decode/'s VideoFrame::ready); the CUDA engine
// makes its own stream wait for that event on the device (cudaStreamWaitEvent) before it reads
// the planes, and the host waits for nothing. An event belongs to its frame: it goes back to
// the stream's pool, to be recorded again, only when the last holder of the frame lets go.
//
// The CUDA engine makes these streams (cuda/engine/CudaEngine.h: makeDecodeStream); decode/ uses
// them through this interface alone, so it needs no CUDA toolkit. Thread-safe: a source's
// reader thread records, the threads that drop frames give events back.
#pragma once
#include <memory>

#include "Status.h"

namespace cs {

class DeviceStream {
public:
    virtual ~DeviceStream() = default;
    // The CUDA device the stream belongs to (its primary context).
    virtual int device() const = 0;
    // The stream itself: a cudaStream_t, which is a CUstream (what FFmpeg's CUDA device takes).
    virtual void* native() const = 0;
    // An event recorded on the stream now: complete once everything queued on the stream so
    // far is. get() is the cudaEvent_t (a CUevent); dropping the last copy returns it to the
    // stream's pool. Fails with CUDA's reason.
    virtual Result<std::shared_ptr<void>> recordReady() = 0;
};

}  // namespace cs
