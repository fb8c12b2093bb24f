// Where the scope pass leaves waveform and parade counts in device memory: one buffer of
// 16-column strips, [strip][level][channel][16 columns], 16-bit counts (a column holds at
// most kMaxDimension = 16384 pixels). Channel 0 is the waveform (luma), 1..3 the parade's
// components. This is the quad kernel's shared-memory layout, so a block's finished strip
// is one contiguous block of memory that the copy engine stores while the next block
// counts (QuadKernel.cu). Columns past the frame's width (in the last strip) are never read.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/Color.h"   // CS_HD

namespace cs::cuda {

constexpr int kColumnStrip = 16;      // columns per strip
constexpr int kColumnChannels = 4;    // waveform + 3 parade components

// Index of the count of (channel, level, column x).
CS_HD size_t columnIndex(int levels, int channel, int level, int x) {
    return ((size_t(x / kColumnStrip) * size_t(levels) + size_t(level)) * kColumnChannels + size_t(channel)) * kColumnStrip +
           size_t(x % kColumnStrip);
}
// Counts in the buffer of a frame `width` wide.
CS_HD size_t columnCountsSize(int levels, int width) {
    return size_t((width + kColumnStrip - 1) / kColumnStrip) * size_t(levels) * kColumnChannels * kColumnStrip;
}

}  // namespace cs::cuda
