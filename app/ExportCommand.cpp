// `cudascope export`: runs a source through an engine without a window and writes, per
// exported frame, PNGs of the picture and each scope (graticule included), the raw
// counts as .npy, and one report.json for the whole run.
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "Commands.h"
#include "EngineChoice.h"
#include "ExportOptions.h"
#include "Npy.h"
#include "core/Engine.h"
#include "decode/Source.h"

namespace cs {
namespace {

Status writePng(const std::string& path, const RgbaImage& img) {
    if (img.empty()) return {};
    const QImage q(img.pixels.data(), img.width, img.height, img.width * 4, QImage::Format_RGBA8888);
    if (!q.save(QString::fromStdString(path), "PNG")) return Status::error(path + ": cannot write PNG");
    return {};
}

QJsonArray toJson(const std::vector<uint32_t>& v) {
    QJsonArray a;
    for (uint32_t x : v) a.append(qint64(x));
    return a;
}
QJsonObject toJson(const ChannelStats& s) { return {{"min", s.min}, {"max", s.max}, {"avg", s.avg}}; }

QJsonObject sourceJson(const SourceInfo& info) {
    return {{"input", QString::fromStdString(info.input)},
            {"container", QString::fromStdString(info.container)},
            {"codec", QString::fromStdString(info.codec)},
            {"width", info.width},
            {"height", info.height},
            {"pix_fmt", QString::fromStdString(std::string(formatInfo(info.format).name))},
            {"source_pix_fmt", QString::fromStdString(info.sourcePixFmt)},
            {"bit_depth", formatInfo(info.format).bitDepth},
            {"matrix", QString::fromStdString(std::string(matrixName(info.color.matrix)))},
            {"matrix_tagged", info.color.matrixTagged},
            {"range", QString::fromStdString(std::string(rangeName(info.color.range)))},
            {"range_tagged", info.color.rangeTagged},
            {"transfer", QString::fromStdString(std::string(transferName(info.color.transfer)))},
            {"frame_rate", info.frameRate},
            {"duration", info.duration},
            {"decoder", QString::fromStdString(info.decoder)}};
}

}  // namespace

int runExport(int argc, char** argv) {
    ExportOptions a;
    if (auto code = readExportOptions(argc, argv, a)) return *code;

    auto engineChoice = chooseEngine(a.engine);
    if (!engineChoice) {
        std::fprintf(stderr, "cudascope export: %s: %s\n", a.input.c_str(), engineChoice.message().c_str());
        return kExitFailure;
    }
    Engine& engine = *engineChoice->engine;
    QJsonArray warnings;
    auto warn = [&](const std::string& w) {
        std::fprintf(stderr, "cudascope export: warning: %s\n", w.c_str());
        warnings.append(QString::fromStdString(w));
    };
    // Why auto fell back to the CPU goes in the report and the closing summary line, not
    // as an early stderr line of its own: an error about the input must stay one line.
    if (!engineChoice->note.empty()) warnings.append(QString::fromStdString(engineChoice->note));

    OpenOptions options;
    options.hwdec = a.hwdec == "nvdec" ? HwDecode::Nvdec
                    : a.hwdec == "none" ? HwDecode::None
                    : (a.hwdec == "auto" || (a.hwdec.empty() && engine.name() == "cuda")) ? HwDecode::Auto
                                                                                          : HwDecode::None;
    options.cudaStream = engineChoice->cudaStream;
    auto opened = openSource(a.input, options);
    if (!opened) {
        std::fprintf(stderr, "cudascope export: %s\n", opened.message().c_str());
        return kExitFailure;
    }
    Source& source = *opened.value();

    std::error_code ec;
    std::filesystem::create_directories(a.outDir, ec);
    if (ec || !std::filesystem::is_directory(a.outDir)) {
        std::fprintf(stderr, "cudascope export: %s: cannot create the output folder (%s)\n", a.outDir.c_str(),
                     ec ? ec.message().c_str() : "not a folder");
        return kExitFailure;
    }
    const std::filesystem::path dir(a.outDir);

    QJsonArray frames;
    ScopeResults results;
    long exported = 0;
    int64_t index = 0;
    int exitCode = kExitOk;
    for (;;) {
        if (a.maxFrames > 0 && exported >= a.maxFrames) break;
        VideoFrame frame;
        const ReadResult rr = source.read(frame);
        for (const auto& w : source.takeWarnings()) warn(w);
        if (rr.status == ReadStatus::EndOfStream) break;
        if (rr.status == ReadStatus::Error) {
            // A stream that breaks off keeps what was exported; the failure is reported.
            warn(rr.message);
            if (exported == 0) exitCode = kExitFailure;
            break;
        }
        const int64_t thisIndex = index++;
        if (thisIndex % a.every != 0) continue;
        const Status st = engine.process(frame.view, a.spec, results);
        if (!st) {
            warn("frame " + std::to_string(thisIndex) + ": " + st.message());
            continue;
        }
        char prefix[32];
        std::snprintf(prefix, sizeof prefix, "%06lld-", static_cast<long long>(thisIndex));
        auto file = [&](const char* name) { return (dir / (std::string(prefix) + name)).string(); };
        const size_t L = size_t(results.levels), W = size_t(results.width);
        std::vector<Status> writes;
        if (a.spec.picture) writes.push_back(writePng(file("picture.png"), results.picture));
        if (a.spec.preview != PreviewFilter::None)
            writes.push_back(writePng(file((std::string("preview-") + std::string(previewName(a.spec.preview)) + ".png").c_str()), results.preview));
        if (a.spec.histogram) writes.push_back(writePng(file("histogram.png"), results.histogramImage));
        if (a.spec.waveform) {
            writes.push_back(writePng(file("waveform.png"), results.waveformImage));
            writes.push_back(writeNpyUint32(file("waveform.npy"), results.waveform, {L, W}));
        }
        if (a.spec.parade) {
            writes.push_back(writePng(file("parade.png"), results.paradeImage));
            writes.push_back(writeNpyUint32(file("parade.npy"), results.parade, {3, L, W}));
        }
        if (a.spec.vectorscope) {
            writes.push_back(writePng(file("vectorscope.png"), results.vectorscopeImage));
            writes.push_back(writeNpyUint32(file("vectorscope.npy"), results.vectorscope, {L, L}));
        }
        for (const auto& w : writes)
            if (!w) {
                std::fprintf(stderr, "cudascope export: %s\n", w.message().c_str());
                return kExitFailure;
            }
        QJsonObject entry{{"index", qint64(thisIndex)}, {"pts", frame.view.pts},
                          {"width", results.width}, {"height", results.height}};
        if (a.spec.stats)
            entry["stats"] = QJsonObject{{"y", toJson(results.stats.y)}, {"u", toJson(results.stats.u)},
                                         {"v", toJson(results.stats.v)},
                                         {"out_of_legal", results.stats.outOfLegal},
                                         {"out_of_gamut", results.stats.outOfGamut}};
        if (a.spec.histogram)
            entry["histogram"] = QJsonObject{{"y", toJson(results.histY)}, {"r", toJson(results.histR)},
                                             {"g", toJson(results.histG)}, {"b", toJson(results.histB)}};
        frames.append(entry);
        ++exported;
    }

    const SourceInfo& info = source.info();
    QJsonObject report{{"source", sourceJson(info)},
                       {"engine", QString::fromStdString(std::string(engine.name()))},
                       {"scopes", QJsonObject{{"parade", a.spec.paradeMode == ParadeMode::Rgb ? "rgb" : "ycbcr"},
                                              {"preview", QString::fromStdString(std::string(previewName(a.spec.preview)))},
                                              {"matrix", QString::fromStdString(std::string(matrixName(results.color.matrix)))},
                                              {"range", QString::fromStdString(std::string(rangeName(results.color.range)))}}},
                       {"warnings", warnings},
                       {"frames", frames}};
    const std::string reportPath = (dir / "report.json").string();
    std::ofstream out(reportPath, std::ios::binary);
    const QByteArray json = QJsonDocument(report).toJson(QJsonDocument::Indented);
    out.write(json.constData(), json.size());
    if (!out) {
        std::fprintf(stderr, "cudascope export: %s: cannot write\n", reportPath.c_str());
        return kExitFailure;
    }
    std::fprintf(stderr, "cudascope export: %ld frame%s from %s to %s (engine %s%s%s, decoder %s)\n", exported,
                 exported == 1 ? "" : "s", a.input.c_str(), a.outDir.c_str(), std::string(engine.name()).c_str(),
                 engineChoice->note.empty() ? "" : ": ", engineChoice->note.c_str(), info.decoder.c_str());
    if (exported == 0 && exitCode == kExitOk) {
        std::fprintf(stderr, "cudascope export: %s: no frame could be decoded\n", a.input.c_str());
        return kExitFailure;
    }
    return exitCode;
}

}  // namespace cs
