// A frame's small picture.
#include "Thumbnailer.h"

#include <algorithm>

#include "core/FrameReduce.h"
#include "cpu/CpuEngine.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#endif

namespace cs {

Thumbnailer::Thumbnailer() : cpu_(makeCpuEngine(1)) {}
Thumbnailer::~Thumbnailer() = default;

Status Thumbnailer::picture(const FrameView& frame, CudaEngine* cuda, int width, int height, RgbaImage& out) {
    if (frame.width <= 0 || frame.height <= 0) return Status::error("an empty frame has no thumbnail");
    const double scale = std::min(double(width) / frame.width, double(height) / frame.height);
    const int w = std::max(2, int(frame.width * scale) & ~1), h = std::max(2, int(frame.height * scale) & ~1);
    Status status;
    if (!frame.onDevice) {
        reduceFrame(frame, w, h, reduced_);
    } else {
#if CS_HAVE_CUDA
        if (!cuda) return Status::error("a frame in GPU memory without the CUDA engine has no thumbnail");
        status = cuda->downscaleToHost(frame, w, h, reduced_);
        if (!status) return status;
#else
        (void)cuda;
        return Status::error("a frame in GPU memory without the CUDA engine has no thumbnail");
#endif
    }
    ScopeSpec spec;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = false;
    spec.stats = false;
    spec.displayImages = true;
    spec.picture = true;
    status = cpu_->process(reduced_.view(), spec, results_);
    if (!status) return status;
    out = results_.picture;
    return {};
}

}  // namespace cs
