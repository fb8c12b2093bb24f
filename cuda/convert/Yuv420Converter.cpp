#include "Yuv420Converter.h"

#include <cstring>

#include "cuda/CudaCheck.h"
#include "cuda/engine/CudaDeviceStream.h"
#include "cuda/CudaHandle.h"
#include "Yuv420Kernel.h"

namespace cs::cuda {
namespace {

constexpr size_t kRowAlign = 64;   // plane pitches: the kernel's vector stores, whole cache lines
size_t aligned(size_t v) { return (v + kRowAlign - 1) / kRowAlign * kRowAlign; }

class GpuConverter final : public Yuv420Converter {
public:
    GpuConverter(int device, std::shared_ptr<DeviceStream> stream) : device_(device), stream_(std::move(stream)) {}

    const DeviceStream& deviceStream() const override { return *stream_; }

    Result<Yuv420Planes> convertToHost(const RgbaImage& rgba, const RgbToYuv& k, Yuv420Layout layout) override {
        // One block of planes with the same layout on the device and in pinned memory, so
        // the download is a single copy.
        const size_t w = size_t(rgba.width), h = size_t(rgba.height), cw = (w + 1) / 2, ch = (h + 1) / 2;
        size_t pitch[3] = {aligned(w), aligned(layout == Yuv420Layout::Nv12 ? 2 * cw : cw), aligned(cw)};
        size_t offset[3] = {0, pitch[0] * h, pitch[0] * h + pitch[1] * ch};
        const size_t total = layout == Yuv420Layout::Nv12 ? offset[2] : offset[2] + pitch[2] * ch;
        CS_TRY(planes_.reserve(total));
        CS_TRY(host_.reserve(total));
        Yuv420Planes d_out, out;
        d_out.layout = out.layout = layout;
        for (int i = 0; i < (layout == Yuv420Layout::Nv12 ? 2 : 3); ++i) {
            d_out.plane[i] = planes_.get() + offset[i];
            out.plane[i] = host_.get() + offset[i];
            d_out.pitch[i] = out.pitch[i] = std::ptrdiff_t(pitch[i]);
        }
        CS_TRY(enqueueConversion(rgba, k, d_out));
        if (const cudaError_t e = cudaMemcpyAsync(host_.get(), planes_.get(), total, cudaMemcpyDeviceToHost, stream()); e != cudaSuccess) {
            cudaStreamSynchronize(stream());   // the upload from staging_ is queued: finished before the next picture overwrites it
            return errorStatus(e, "cudaMemcpyAsync(host_.get(), planes_.get(), total, cudaMemcpyDeviceToHost, stream())");
        }
        CS_CUDA_CHECK(cudaStreamSynchronize(stream()));
        return out;
    }

    Status convertOnDevice(const RgbaImage& rgba, const RgbToYuv& k, const Yuv420Planes& d_out) override {
        CS_TRY(enqueueConversion(rgba, k, d_out));
        CS_CUDA_CHECK(cudaStreamSynchronize(stream()));
        return {};
    }

private:
    cudaStream_t stream() const { return static_cast<cudaStream_t>(stream_->native()); }

    // The upload (from pinned staging: the copy is asynchronous, the memcpy into it is the
    // host's only work) and the kernel, queued on the stream. Where the kernel cannot be
    // queued after the upload was, the upload is waited for before this returns, so that the
    // next picture never overwrites staging the copy engine is still reading.
    Status enqueueConversion(const RgbaImage& rgba, const RgbToYuv& k, const Yuv420Planes& d_out) {
        CS_CUDA_CHECK(cudaSetDevice(device_));   // the calling thread's current device
        const size_t bytes = rgba.pixels.size();
        CS_TRY(rgba_.reserve(bytes));
        CS_TRY(staging_.reserve(bytes));
        std::memcpy(staging_.get(), rgba.pixels.data(), bytes);
        CS_CUDA_CHECK(cudaMemcpyAsync(rgba_.get(), staging_.get(), bytes, cudaMemcpyHostToDevice, stream()));
        if (const cudaError_t e = rgbaToYuv420(rgba_.get(), size_t(rgba.width) * 4, rgba.width, rgba.height, k, d_out, stream());
            e != cudaSuccess) {
            cudaStreamSynchronize(stream());
            return errorStatus(e, "rgbaToYuv420(rgba_.get(), size_t(rgba.width) * 4, rgba.width, rgba.height, k, d_out, stream())");
        }
        return {};
    }

    int device_;
    std::shared_ptr<DeviceStream> stream_;
    DeviceBuffer rgba_, planes_;
    PinnedBuffer staging_, host_;
};

}  // namespace

Result<std::shared_ptr<Yuv420Converter>> makeYuv420Converter(int device) {
    auto stream = makeDeviceStream(device);
    if (!stream) return stream.status();
    return std::shared_ptr<Yuv420Converter>(std::make_shared<GpuConverter>(device, std::move(*stream)));
}

}  // namespace cs::cuda
