// The frame sizes every source refuses: empty ones and absurd ones (beyond kMaxDimension on
// a side, or more pixels than 16384 x 16384), with the sentence that says so.
#pragma once
#include <cstdint>
#include <string>

#include "core/Frame.h"

namespace cs {

inline std::string frameSizeText(int width, int height) { return std::to_string(width) + "x" + std::to_string(height); }

// Why a frame of width x height cannot be handled; "" when it can.
inline std::string frameSizeProblem(int width, int height) {
    constexpr int64_t kMaxPixels = int64_t(kMaxDimension) * kMaxDimension;
    if (width <= 0 || height <= 0) return "frame size " + frameSizeText(width, height) + " is empty";
    if (width > kMaxDimension || height > kMaxDimension || int64_t(width) * height > kMaxPixels)
        return "frame size " + frameSizeText(width, height) + " exceeds the " +
               frameSizeText(kMaxDimension, kMaxDimension) + " limit";
    return {};
}

}  // namespace cs
