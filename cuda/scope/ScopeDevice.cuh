// Device helpers shared by the scope kernels (ScopeKernels.cu, QuadKernel.cu,
// QuadPictureKernels.cu, LumaHistogramKernel.cu): warp reductions, warp-aggregated atomics, a block's statistics.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "ScopeKernels.h"

namespace cs::cuda::detail {

// A block's statistics in shared memory (sums, out-of-legal and out-of-gamut counts, and
// minima kept inverted as DeviceStats keeps them), added to the frame's by one thread.
struct BlockStats {
    unsigned long long sum[3], legal, gamut, r103;
    int minInv[3], max[3];
};
__device__ __forceinline__ void addBlockStats(const BlockStats& b, DeviceStats* st) {
    atomicAdd(&st->ySum, b.sum[0]); atomicAdd(&st->uSum, b.sum[1]); atomicAdd(&st->vSum, b.sum[2]);
    if (b.legal) atomicAdd(&st->outOfLegal, b.legal);
    if (b.gamut) atomicAdd(&st->outOfGamut, b.gamut);
    if (b.r103) atomicAdd(&st->outOfR103, b.r103);
    atomicMax(&st->yMinInv, b.minInv[0]); atomicMax(&st->yMax, b.max[0]);
    atomicMax(&st->uMinInv, b.minInv[1]); atomicMax(&st->uMax, b.max[1]);
    atomicMax(&st->vMinInv, b.minInv[2]); atomicMax(&st->vMax, b.max[2]);
}

// Adds `value` to *addr for every lane of the warp, one atomic per distinct address.
// All 32 lanes must call it (uniformly); lanes with a null addr or a zero value add nothing.
__device__ __forceinline__ void warpAggregatedAdd(uint32_t* addr, uint32_t value) {
    const bool active = addr != nullptr && value != 0;
    const unsigned long long key = active ? reinterpret_cast<unsigned long long>(addr) : 0ull;
    const unsigned peers = __match_any_sync(0xffffffffu, key);
    if (!active) value = 0;
#if __CUDA_ARCH__ >= 800
    const uint32_t sum = __reduce_add_sync(peers, value);
#else
    uint32_t sum = 0;
    for (int i = 0; i < 32; ++i) {
        const uint32_t v = __shfl_sync(0xffffffffu, value, i);
        if ((peers >> i) & 1u) sum += v;
    }
#endif
    if (active && int(threadIdx.x & 31u) == __ffs(int(peers)) - 1) atomicAdd(addr, sum);
}

__device__ __forceinline__ int warpMin(int v) {
    for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ int warpMax(int v) {
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__device__ __forceinline__ unsigned long long warpSum(unsigned long long v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
// 32-bit: one warp-reduction instruction where there is one (sm_80 on).
__device__ __forceinline__ uint32_t warpSum32(uint32_t v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(0xffffffffu, v);
#else
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
#endif
}

// Shared-memory atomic add at a byte offset from a shared array (the offsets the lane-owned
// layouts compute are byte offsets, so that one LEA forms the address).
__device__ __forceinline__ void sharedAddAt(uint32_t* base, uint32_t byteOffset, uint32_t value) {
    atomicAdd(reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(base) + byteOffset), value);
}

// The 32-bit shared-window address of a shared-memory object.
__device__ __forceinline__ uint32_t sharedAddress(const void* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

// Atomic add (result unused) at shared address addr + kOffset: one multiply-add forms addr
// from a bin and a lane's base, the constant offset rides in the instruction.
template <uint32_t kOffset>
__device__ __forceinline__ void sharedRed(uint32_t addr, uint32_t value) {
    asm volatile("red.shared.add.u32 [%0+%2], %1;" ::"r"(addr), "r"(value), "n"(kOffset));
}

#if __CUDA_ARCH__ >= 900
// Hopper's copy engine: `bytes` (a multiple of 16, both addresses 16-byte aligned) from shared
// to global memory, asynchronously. The issuing thread calls bulkStoreWaitRead() before the
// shared memory may change or the block ends; the global writes complete with the kernel.
// Shared memory written by ordinary stores or atomics needs fence.proxy.async.shared::cta in
// each writing thread before the barrier that precedes the copy.
__device__ __forceinline__ void bulkStore(void* global, uint32_t sharedAddr, uint32_t bytes) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n\tcp.async.bulk.commit_group;" ::"l"(global), "r"(sharedAddr),
                 "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void bulkStoreWaitRead() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
#endif

// Sample i of those packed in one 32-bit word (bits above the depth ignored): 8-bit, byte i
// by one byte permute; 16-bit words, half i with the value in its high 10 bits (P010: the
// low 6 dropped) or its low 10 (planar 10-bit: the rest masked). The quad kernel's readers
// take their bytes by shift and mask instead: in their loop a permute per sample costs more
// than a shift and a mask.
template <int BPS, bool P010 = false>
__device__ __forceinline__ uint32_t sampleInWord(uint32_t word, int i) {
    if constexpr (BPS == 1) return __byte_perm(word, 0u, 0x4440u | uint32_t(i & 3));
    if constexpr (P010) return i & 1 ? word >> (16 + kP010Shift) : (word & 0xffffu) >> kP010Shift;
    return (i & 1 ? word >> 16 : word) & 0x3ffu;
}

}  // namespace cs::cuda::detail
