// Decode streams and their ready events (CudaDeviceStream.h).
//
// Threading: recordReady() runs on the source's reader thread; an event comes back (its
// holder's deleter) on whichever thread drops the frame's last copy. `mutex` guards `spare`
// alone; CUDA's own calls are thread-safe. The state lives until the stream object and every
// event it handed out are gone, so a frame outliving its source still returns its event.
#include "CudaDeviceStream.h"

#include <cuda_runtime_api.h>

#include <mutex>
#include <vector>

#include "cuda/CudaHandle.h"

namespace cs::cuda {
namespace {

struct StreamState {
    int device = 0;
    StreamHandle stream;
    std::mutex mutex;
    std::vector<cudaEvent_t> spare;   // events whose frames are gone: recorded again before new ones are made
    ~StreamState() {
        for (cudaEvent_t e : spare) cudaEventDestroy(e);
    }
    // An event's holder lets go: back to the pool (destroyed where the pool cannot grow).
    void giveBack(cudaEvent_t e) noexcept {
        try {
            std::lock_guard lock(mutex);
            spare.push_back(e);
        } catch (...) {
            cudaEventDestroy(e);
        }
    }
};

class CudaDeviceStream final : public DeviceStream {
public:
    explicit CudaDeviceStream(std::shared_ptr<StreamState> state) : state_(std::move(state)) {}
    int device() const override { return state_->device; }
    void* native() const override { return state_->stream.get(); }

    Result<std::shared_ptr<void>> recordReady() override {
        CS_CUDA_CHECK(cudaSetDevice(state_->device));   // the calling thread's current device
        cudaEvent_t event = nullptr;
        {
            std::lock_guard lock(state_->mutex);
            if (!state_->spare.empty()) {
                event = state_->spare.back();
                state_->spare.pop_back();
            }
        }
        if (!event) CS_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
        if (const cudaError_t e = cudaEventRecord(event, state_->stream.get()); e != cudaSuccess) {
            state_->giveBack(event);
            return errorStatus(e, "cudaEventRecord(ready, decode stream)");
        }
        std::shared_ptr<StreamState> state = state_;
        return std::shared_ptr<void>(event, [state](void* e) { state->giveBack(static_cast<cudaEvent_t>(e)); });
    }

private:
    std::shared_ptr<StreamState> state_;
};

}  // namespace

Result<std::shared_ptr<DeviceStream>> makeDeviceStream(int device) {
    auto state = std::make_shared<StreamState>();
    state->device = device;
    CS_CUDA_CHECK(cudaSetDevice(device));
    CS_CUDA_CHECK(cudaStreamCreateWithFlags(state->stream.out(), cudaStreamNonBlocking));
    return std::shared_ptr<DeviceStream>(std::make_shared<CudaDeviceStream>(std::move(state)));
}

}  // namespace cs::cuda
