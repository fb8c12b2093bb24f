// Writing the scope PNGs of "Save scopes...".
#include "ScopeExport.h"

#include "scope/CieDiagram.h"
#include "scope/GamutDisplay.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>

#include "scope/ScopeRender.h"

namespace cs {
namespace {

Status writePng(const QString& path, const RgbaImage& img) {
    if (img.empty()) return Status::error(path.toStdString() + ": nothing to write (empty image)");
    const QImage q(img.pixels.data(), img.width, img.height, img.width * 4, QImage::Format_RGBA8888);
    if (!q.save(path, "PNG")) return Status::error(path.toStdString() + ": cannot write PNG");
    return {};
}

}  // namespace

QString exportStem(const QString& source) {
    QString stem = source;
    const bool url = source.contains(QStringLiteral("://"));
    if (!url && !source.startsWith(QStringLiteral("pattern:")) && !source.startsWith(QStringLiteral("v4l2:")))
        stem = QFileInfo(source).completeBaseName();
    for (QChar& c : stem)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char('-'))) c = QLatin1Char('-');
    while (stem.contains(QStringLiteral("--"))) stem.replace(QStringLiteral("--"), QStringLiteral("-"));
    while (stem.startsWith(QLatin1Char('-')) || stem.startsWith(QLatin1Char('.'))) stem.remove(0, 1);
    while (stem.endsWith(QLatin1Char('-'))) stem.chop(1);
    return stem.isEmpty() ? QStringLiteral("frame") : stem.left(80);
}

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
    // The CIE chromaticity diagram too (export's cie.png), with the panel's mode and target.
    spec.cie = spec.cieCounts = true;
    spec.cieSize = request.height;
    // And the gamut display in the mode the request names (export's gamut-MODE.png), if any.
    spec.gamutDisplaySize = request.height;
    ScopeResults results;
    if (Status s = engine.process(frame, spec, results); !s) return s;
    // The scope images from core's renderer, whatever engine counted: these are the images
    // headless export writes.
    renderHistogram(results, spec, results.histogramImage);
    renderWaveform(results, spec, results.waveformImage);
    renderParade(results, spec, results.paradeImage);
    renderVectorscope(results, spec, results.vectorscopeImage);
    renderCieDiagram(results, spec, results.cieImage);
    renderGamutDisplay(results, spec, results.gamutDisplayImage);

    QStringList names = {QStringLiteral("picture.png"), QStringLiteral("histogram.png"), QStringLiteral("waveform.png"),
                         QStringLiteral("parade.png"), QStringLiteral("vectorscope.png"), QStringLiteral("cie.png")};
    const QString previewFile =
        QStringLiteral("preview-%1.png").arg(QString::fromLatin1(previewName(spec.preview).data(), qsizetype(previewName(spec.preview).size())));
    if (spec.preview != PreviewFilter::None) names << previewFile;
    const std::string_view display = gamutDisplayName(spec.gamutDisplay);
    const QString displayFile = QStringLiteral("gamut-%1.png").arg(QString::fromLatin1(display.data(), qsizetype(display.size())));
    if (spec.gamutDisplay != GamutDisplay::None) names << displayFile;
    if (!request.composite.isNull()) names << QStringLiteral("scopes.png");
    // The set is numbered as a whole: the first prefix none of whose files exists.
    char number[32];
    std::snprintf(number, sizeof number, "%06lld", static_cast<long long>(request.frameNumber));
    QString base = exportStem(request.source) + QLatin1Char('-') + QString::fromLatin1(number);
    // The timecode with '_' for its separators (':' and ';' are awkward in file names): "-10_00_04_02".
    if (!request.timecode.empty()) {
        QString tc = QString::fromStdString(request.timecode);
        tc.replace(QLatin1Char(':'), QLatin1Char('_')).replace(QLatin1Char(';'), QLatin1Char('_'));
        base += QLatin1Char('-') + tc;
    }
    QString prefix;
    for (int n = 1;; ++n) {
        prefix = (n == 1 ? base : base + QLatin1Char('-') + QString::number(n)) + QLatin1Char('-');
        if (std::none_of(names.begin(), names.end(), [&](const QString& name) { return dir.exists(prefix + name); })) break;
    }
    const auto path = [&](const QString& name) { return dir.filePath(prefix + name); };
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
                                    {QStringLiteral("vectorscope.png"), &results.vectorscopeImage},
                                    {QStringLiteral("cie.png"), &results.cieImage}})
        if (Status s = write(name, *img); !s) return s;
    if (spec.preview != PreviewFilter::None)
        if (Status s = write(previewFile, results.preview); !s)
            return s;
    if (spec.gamutDisplay != GamutDisplay::None)
        if (Status s = write(displayFile, results.gamutDisplayImage); !s)
            return s;
    if (!request.composite.isNull()) {
        const QString p = path(QStringLiteral("scopes.png"));
        if (!request.composite.save(p, "PNG")) return Status::error(p.toStdString() + ": cannot write PNG");
        written << p;
    }
    return written;
}

}  // namespace cs
