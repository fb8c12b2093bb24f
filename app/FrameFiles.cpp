#include "FrameFiles.h"

#include <QBuffer>
#include <QByteArray>
#include <QImage>

#include <cstdio>
#include <string>
#include <string_view>

#include "AtomicFile.h"
#include "Npy.h"
#include "core/PreviewLegend.h"

namespace cs {

Status writePng(const std::string& path, const RgbaImage& image) {
    if (image.empty()) return {};
    const QImage q(image.pixels.data(), image.width, image.height, image.width * 4, QImage::Format_RGBA8888);
    QByteArray png;
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !q.save(&buffer, "PNG"))
        return Status::error(path + ": the PNG could not be encoded (out of memory?)");
    return writeFileAtomically(path, {std::string_view(png.constData(), size_t(png.size()))});
}

Status writeFrameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results) {
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%06lld-", static_cast<long long>(index));
    auto file = [&](std::string_view name) { return (dir / (prefix + std::string(name))).string(); };
    const size_t L = size_t(results.levels), W = size_t(results.width);
    if (spec.picture)
        if (Status st = writePng(file("picture.png"), results.picture); !st) return st;
    if (spec.preview != PreviewFilter::None) {
        // Zebra and false colour carry their legend (core/PreviewLegend.h).
        RgbaImage withLegend;
        if (previewHasLegend(spec.preview)) {
            withLegend = results.preview;
            drawPreviewLegend(withLegend, spec.preview, spec.filter);
        }
        const RgbaImage& preview = previewHasLegend(spec.preview) ? withLegend : results.preview;
        if (Status st = writePng(file("preview-" + std::string(previewName(spec.preview)) + ".png"), preview); !st) return st;
    }
    if (spec.histogram)
        if (Status st = writePng(file("histogram.png"), results.histogramImage); !st) return st;
    if (spec.waveform) {
        if (Status st = writePng(file("waveform.png"), results.waveformImage); !st) return st;
        if (Status st = writeNpyUint32(file("waveform.npy"), results.waveform, {L, W}); !st) return st;
    }
    if (spec.parade) {
        if (Status st = writePng(file("parade.png"), results.paradeImage); !st) return st;
        if (Status st = writeNpyUint32(file("parade.npy"), results.parade, {3, L, W}); !st) return st;
    }
    if (spec.vectorscope) {
        if (Status st = writePng(file("vectorscope.png"), results.vectorscopeImage); !st) return st;
        if (Status st = writeNpyUint32(file("vectorscope.npy"), results.vectorscope, {L, L}); !st) return st;
    }
    return {};
}

}  // namespace cs
