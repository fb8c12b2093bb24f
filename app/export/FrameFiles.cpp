#include "FrameFiles.h"

#include <QBuffer>
#include <QImage>

#include <cstdio>
#include <string_view>

#include "app/cli/AtomicFile.h"
#include "Npy.h"
#include "core/Gamut.h"
#include "scope/PreviewLegend.h"

namespace cs {

Status encodePng(const std::string& path, const RgbaImage& image, QByteArray& png) {
    png.clear();
    if (image.empty()) return {};
    const QImage q(image.pixels.data(), image.width, image.height, image.width * 4, QImage::Format_RGBA8888);
    QBuffer buffer(&png);
    if (!buffer.open(QIODevice::WriteOnly) || !q.save(&buffer, "PNG"))
        return Status::error(path + ": the PNG could not be encoded (out of memory?)");
    return {};
}

Status writePng(const std::string& path, const RgbaImage& image) {
    if (image.empty()) return {};
    QByteArray png;
    if (Status st = encodePng(path, image, png); !st) return st;
    return writeFileAtomically(path, {std::string_view(png.constData(), size_t(png.size()))});
}

Status writeFrameFile(const FrameFile& file, const QByteArray& png) {
    if (file.counts) return writeNpyUint32(file.path, *file.counts, file.shape);
    if (!file.image || file.image->empty()) return {};
    return writeFileAtomically(file.path, {std::string_view(png.constData(), size_t(png.size()))});
}

std::vector<FrameFile> frameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results) {
    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%06lld-", static_cast<long long>(index));
    auto path = [&](std::string_view name) { return (dir / (prefix + std::string(name))).string(); };
    const size_t L = size_t(results.levels), W = size_t(results.width);
    std::vector<FrameFile> files;
    auto image = [&](std::string_view name, const RgbaImage& img) { files.push_back(FrameFile{path(name), &img, nullptr, {}, {}}); };
    auto counts = [&](std::string_view name, const std::vector<uint32_t>& c, std::vector<size_t> shape) {
        if (spec.counts) files.push_back(FrameFile{path(name), nullptr, &c, std::move(shape), {}});
    };
    if (spec.picture) image("picture.png", results.picture);
    if (spec.preview != PreviewFilter::None) {
        const std::string name = "preview-" + std::string(previewName(spec.preview)) + ".png";
        if (previewHasLegend(spec.preview)) {
            // Zebra and false colour carry their legend (scope/PreviewLegend.h).
            auto withLegend = std::make_shared<RgbaImage>(results.preview);
            drawPreviewLegend(*withLegend, spec.preview, spec.filter, results.color.transfer);
            files.push_back(FrameFile{path(name), withLegend.get(), nullptr, {}, withLegend});
        } else {
            image(name, results.preview);
        }
    }
    if (spec.histogram) image("histogram.png", results.histogramImage);
    if (spec.waveform) {
        image("waveform.png", results.waveformImage);
        counts("waveform.npy", results.waveform, {L, W});
    }
    if (spec.parade) {
        image("parade.png", results.paradeImage);
        counts("parade.npy", results.parade, {3, L, W});
    }
    if (spec.vectorscope) {
        image("vectorscope.png", results.vectorscopeImage);
        counts("vectorscope.npy", results.vectorscope, {L, L});
    }
    if (spec.cie) {   // counts [v][u], v (y or v') rising from row 0 (core/Gamut.h)
        image("cie.png", results.cieImage);
        counts("cie.npy", results.gamut.counts, {size_t(kCieBins), size_t(kCieBins)});
    }
    if (spec.gamutDisplay != GamutDisplay::None) {   // counts [row][column], row 0 at the top (core/GamutDisplay.h)
        const std::string kind = "gamut-" + std::string(gamutDisplayName(spec.gamutDisplay));
        image(kind + ".png", results.gamutDisplayImage);
        counts(kind + ".npy", results.gamutDisplay.counts, {size_t(kGamutDisplayBins), size_t(kGamutDisplayBins)});
    }
    return files;
}

Status writeFrameFiles(const std::filesystem::path& dir, int64_t index, const ScopeSpec& spec, const ScopeResults& results) {
    for (const FrameFile& f : frameFiles(dir, index, spec, results)) {
        QByteArray png;
        if (f.image)
            if (Status st = encodePng(f.path, *f.image, png); !st) return st;
        if (Status st = writeFrameFile(f, png); !st) return st;
    }
    return {};
}

}  // namespace cs
