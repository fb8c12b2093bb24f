// One kernel of each of cs_cuda's translation units with kernels, for the start-up check
// (KernelCheck.h): each returns the address of a kernel its file instantiates anyway. A new
// .cu file with kernels adds its function here and to kKernelUnits in KernelCheck.cpp.
#pragma once

namespace cs::cuda::probe {

const void* boxBlurKernels();
const void* gamutDisplayKernels();
const void* gamutKernels();
const void* gaussianKernels();
const void* groupFilterKernels();
const void* hdrKernels();
const void* lookupFilterKernels();
const void* lumaHistogramKernel();
const void* quadKernel();
const void* quadPictureKernels();
const void* reduceKernel();
const void* scopeImageKernels();
const void* scopeKernels();
const void* signalStatsKernels();
const void* traceKernels();
const void* yuv420Kernel();

}  // namespace cs::cuda::probe
