#include "FieldView.h"

#include <algorithm>

#include "Gamut.h"

namespace cs {

const char* fieldName(Field f) { return f == Field::Top ? "top field" : "bottom field"; }

int fieldHeight(PixelFormat format, int frameHeight, Field f) {
    const int parity = f == Field::Bottom ? 1 : 0;
    const int lines = std::max(0, (frameHeight - parity + 1) / 2);
    const auto& info = formatInfo(format);
    if (info.log2ChromaH == 0 || info.planeCount < 2) return lines;
    // Chroma rows of this parity, each serving 2^log2ChromaH of the field's lines.
    const int chromaRows = std::max(0, (chromaHeight(format, frameHeight) - parity + 1) / 2);
    return std::min(lines, chromaRows << info.log2ChromaH);
}

Result<FrameView> fieldView(const FrameView& frame, Field f) {
    const std::string name = std::string("the ") + fieldName(f) + " of the " + std::to_string(frame.width) + "x" +
                             std::to_string(frame.height) + " frame";
    if (!frame.valid()) return Status::error(name + " cannot be shown: the frame is invalid");
    if (frame.height < 2) return Status::error(name + " cannot be shown: a frame of one line has no second field");
    const int parity = f == Field::Bottom ? 1 : 0;
    const auto& info = formatInfo(frame.format);
    FrameView v = frame;
    v.height = fieldHeight(frame.format, frame.height, f);
    for (int p = 0; p < info.planeCount; ++p) {
        v.data[size_t(p)] = frame.data[size_t(p)] + std::ptrdiff_t(parity) * frame.pitch[size_t(p)];
        v.pitch[size_t(p)] = 2 * frame.pitch[size_t(p)];
    }
    if (effectivePrimaries(frame.color, frame.height) != effectivePrimaries(frame.color, v.height))
        v.color.primaries = effectivePrimaries(frame.color, frame.height);
    return v;
}

Field firstField(const std::string& fieldOrder) {
    return fieldOrder == "bff" || fieldOrder == "tb" ? Field::Bottom : Field::Top;
}

}  // namespace cs
