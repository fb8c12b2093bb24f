// Writing the scope PNGs of "Save scopes...".
#include "ScopeExport.h"

#include <QDir>

#include <cstdio>

#include "core/ScopeRender.h"

namespace cs {
namespace {

Status writePng(const QString& path, const RgbaImage& img) {
    if (img.empty()) return Status::error(path.toStdString() + ": nothing to write (empty image)");
    const QImage q(img.pixels.data(), img.width, img.height, img.width * 4, QImage::Format_RGBA8888);
    if (!q.save(path, "PNG")) return Status::error(path.toStdString() + ": cannot write PNG");
    return {};
}

}  // namespace

Result<QStringList> saveScopes(Engine& engine, const FrameView& frame, const ScopeExportRequest& request) {
    if (request.width < 64 || request.height < 64 || request.width > 8192 || request.height > 8192)
        return Status::error("scope size " + std::to_string(request.width) + "x" + std::to_string(request.height) +
                             " is outside 64x64 .. 8192x8192");
    QDir dir(request.folder);
    if (!dir.exists() && !QDir().mkpath(request.folder))
        return Status::error(request.folder.toStdString() + ": cannot create the folder");

    ScopeSpec spec = request.spec;
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = true;
    spec.displayImages = true;
    spec.picture = true;
    spec.scopeWidth = request.width;
    spec.scopeHeight = request.height;
    spec.vectorscopeSize = request.height;   // as `cudascope export --size`
    ScopeResults results;
    if (Status s = engine.process(frame, spec, results); !s) return s;
    // The scope images from core's renderer, whatever engine counted: these are the images
    // headless export writes.
    renderHistogram(results, spec, results.histogramImage);
    renderWaveform(results, spec, results.waveformImage);
    renderParade(results, spec, results.paradeImage);
    renderVectorscope(results, spec, results.vectorscopeImage);

    char prefix[32];
    std::snprintf(prefix, sizeof prefix, "%06lld-", static_cast<long long>(request.frameNumber));
    const auto path = [&](const QString& name) { return dir.filePath(QString::fromLatin1(prefix) + name); };
    QStringList written;
    auto write = [&](const QString& name, const RgbaImage& img) -> Status {
        const QString p = path(name);
        if (Status s = writePng(p, img); !s) return s;
        written << p;
        return {};
    };
    for (const auto& [name, img] : {std::pair<QString, const RgbaImage*>{QStringLiteral("picture.png"), &results.picture},
                                    {QStringLiteral("histogram.png"), &results.histogramImage},
                                    {QStringLiteral("waveform.png"), &results.waveformImage},
                                    {QStringLiteral("parade.png"), &results.paradeImage},
                                    {QStringLiteral("vectorscope.png"), &results.vectorscopeImage}})
        if (Status s = write(name, *img); !s) return s;
    if (spec.preview != PreviewFilter::None)
        if (Status s = write(QStringLiteral("preview-%1.png").arg(QString::fromLatin1(previewName(spec.preview).data(), qsizetype(previewName(spec.preview).size()))), results.preview); !s)
            return s;
    if (!request.composite.isNull()) {
        const QString p = path(QStringLiteral("scopes.png"));
        if (!request.composite.save(p, "PNG")) return Status::error(p.toStdString() + ": cannot write PNG");
        written << p;
    }
    return written;
}

}  // namespace cs
