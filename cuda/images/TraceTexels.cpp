// Host reference of the scope traces (TraceKernels.h): the same TraceTexels.h texel
// functions over a ScopeResults' counts.
#include <algorithm>

#include "TraceTexels.h"
#include "TraceKernels.h"

namespace cs::cuda {

void referenceTrace(TraceKind kind, const ScopeResults& r, const ScopeSpec& spec, int texW, int texH, RgbaImage& out) {
    out.resize(texW, texH);
    uint32_t maxY = 0, maxRgb = 0;
    std::vector<uint32_t> rgb;
    if (kind == TraceKind::Histogram) {
        rgb.reserve(768);
        rgb.insert(rgb.end(), r.histR.begin(), r.histR.end());
        rgb.insert(rgb.end(), r.histG.begin(), r.histG.end());
        rgb.insert(rgb.end(), r.histB.begin(), r.histB.end());
        maxY = histogramMaxBin(r.histY.data(), 0, int(r.histY.size()));
        maxRgb = histogramMaxBin(rgb.data(), 0, int(rgb.size()));
    }
    TraceSources colourSpace;
    setTraceColourSpace(colourSpace, r.color.matrix, r.color.range, r.bitDepth);
    const VectorscopeStyle style{spec.traceColour, colourSpace.kr, colourSpace.kb, colourSpace.chromaScale};
    for (int y = 0; y < texH; ++y)
        for (int x = 0; x < texW; ++x) {
            uint32_t v = 0;
            switch (kind) {
                case TraceKind::Histogram:
                    v = histogramTexel(r.histY.data(), rgb.data(), r.levels, maxY, maxRgb, spec.histogramScale == HistogramScale::Log,
                                       spec.histogramGain, x, y, texW, texH);
                    break;
                case TraceKind::Waveform:
                    v = waveformTexel(LumaParadeColumns{r.waveform.empty() ? nullptr : r.waveform.data(),
                                                        r.parade.empty() ? nullptr : r.parade.data(), r.width, r.levels},
                                      spec.waveformMode, spec.traceColour, r.width, r.height, r.levels, traceGain(spec.waveformGain), x, y,
                                      texW, texH, spec.waveformRange);
                    break;
                case TraceKind::Parade:
                    v = paradeTexel(r.parade.data(), r.width, r.height, r.levels, r.paradeMode == ParadeMode::Rgb, spec.traceColour,
                                    traceGain(spec.waveformGain), x, y, texW, texH, spec.paradeRange);
                    break;
                case TraceKind::Vectorscope:
                    v = vectorscopeTexel(r.vectorscope.data(), r.width, r.height, r.levels, spec.vectorscopeZoom,
                                         traceGain(spec.vectorscopeGain), style, x, y, texW, texH);
                    break;
            }
            uint8_t* p = out.at(x, y);
            for (int c = 0; c < 4; ++c) p[c] = uint8_t(v >> (8 * c));
        }
}

void setTraceColourSpace(TraceSources& s, Matrix matrix, Range range, int bitDepth) {
    const LumaWeights w = lumaWeights(matrix);
    const int depth = std::clamp(bitDepth, 8, 16);
    s.kr = w.kr;
    s.kb = w.kb;
    s.chromaScale = range == Range::Limited ? 224.0 * double(1 << (depth - 8)) : double((1 << depth) - 1);
}

}  // namespace cs::cuda
