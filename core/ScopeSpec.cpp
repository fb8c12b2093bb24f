#include "ScopeSpec.h"

#include <array>
#include <utility>

namespace cs {
namespace {
constexpr std::array<std::pair<PreviewFilter, std::string_view>, 9> kPreviewNames{{
    {PreviewFilter::None, "none"},
    {PreviewFilter::BoxBlur, "blur"},
    {PreviewFilter::Gaussian, "gaussian"},
    {PreviewFilter::Edges, "edges"},
    {PreviewFilter::FocusPeaking, "peaking"},
    {PreviewFilter::Median3, "median"},
    {PreviewFilter::Zebra, "zebra"},
    {PreviewFilter::FalseColour, "falsecolour"},
    {PreviewFilter::Gamut, "gamut"},
}};
}  // namespace

std::string_view previewName(PreviewFilter f) {
    for (const auto& [v, n] : kPreviewNames)
        if (v == f) return n;
    return "none";
}
std::optional<PreviewFilter> previewFromName(std::string_view s) {
    for (const auto& [v, n] : kPreviewNames)
        if (n == s) return v;
    if (s == "false-colour" || s == "falsecolor") return PreviewFilter::FalseColour;
    return std::nullopt;
}

bool previewNeedsPicture(PreviewFilter f) {
    return f == PreviewFilter::BoxBlur || f == PreviewFilter::Gaussian || f == PreviewFilter::Median3 ||
           f == PreviewFilter::FocusPeaking || f == PreviewFilter::Zebra || f == PreviewFilter::Gamut;
}
bool previewShowsPicture(PreviewFilter f) { return f == PreviewFilter::None || previewNeedsPicture(f); }
bool previewNeedsLuma(PreviewFilter f) {
    return f == PreviewFilter::Edges || f == PreviewFilter::FocusPeaking || f == PreviewFilter::Zebra ||
           f == PreviewFilter::FalseColour;
}

ScopeSpec countedSpec(const ScopeSpec& spec) {
    ScopeSpec s = spec;
    if (s.waveform && s.waveformMode != WaveformMode::Luma) {
        s.parade = true;
        s.paradeMode = ParadeMode::Rgb;
    }
    return s;
}
bool countsDiffer(const ScopeSpec& spec) {
    return spec.waveform && spec.waveformMode != WaveformMode::Luma && !(spec.parade && spec.paradeMode == ParadeMode::Rgb);
}

}  // namespace cs
