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
#include "Npy.h"
#include "core/Engine.h"
#include "decode/Source.h"
#include "engine/EngineChoice.h"

namespace cs {
namespace {

constexpr const char* kExportUsage =
    "usage: cudascope export INPUT --out DIR [options]\n"
    "  INPUT                 a media file, or pattern:bars|ramp|zoneplate[:10bit][:WxH]\n"
    "  --out DIR             output folder (created if missing)\n"
    "  --every N             export every Nth frame (default 1)\n"
    "  --max-frames N        stop after N exported frames (default: all)\n"
    "  --engine E            auto|cpu|cuda (default auto)\n"
    "  --hwdec H             auto|nvdec|none (default auto with the CUDA engine, else none)\n"
    "  --scopes LIST         comma list of picture,histogram,waveform,parade,vectorscope,stats\n"
    "                        (default: all of them)\n"
    "  --parade rgb|ycbcr    parade components (default rgb)\n"
    "  --preview F           also write a filtered preview: blur, gaussian, edges, peaking,\n"
    "                        median, zebra, falsecolour\n"
    "  --matrix M            override the stream's matrix: 601|709|2020\n"
    "  --range R             override the stream's range: limited|full\n"
    "  --histogram-scale S   linear|log (default linear)\n"
    "  --waveform-scale S    ire|code (default ire)\n"
    "  --size WxH            waveform/parade/histogram image size (default 1024x540)\n";

struct ExportArgs {
    std::string input, outDir, engine = "auto", hwdec;
    long every = 1, maxFrames = -1;
    std::set<std::string> scopes{"picture", "histogram", "waveform", "parade", "vectorscope", "stats"};
    ScopeSpec spec;
};

int usageError(const std::string& message) {
    std::fprintf(stderr, "cudascope export: %s\n%s", message.c_str(), kExportUsage);
    return kExitUsage;
}

bool parseCount(const std::string& s, long& out) {
    try {
        size_t used = 0;
        out = std::stol(s, &used);
        return used == s.size() && out > 0;
    } catch (...) {
        return false;
    }
}

// Parses argv after "export"; returns an exit code when parsing ends the run.
std::optional<int> parseArgs(int argc, char** argv, ExportArgs& a) {
    for (int i = 0; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](std::string& v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        std::string v;
        if (arg == "-h" || arg == "--help") { std::fputs(kExportUsage, stdout); return kExitOk; }
        if (arg.rfind("--", 0) == 0 && !value(v)) return usageError(arg + " needs a value");
        if (arg == "--out") a.outDir = v;
        else if (arg == "--every") { if (!parseCount(v, a.every)) return usageError("--every needs a positive whole number, not '" + v + "'"); }
        else if (arg == "--max-frames") { if (!parseCount(v, a.maxFrames)) return usageError("--max-frames needs a positive whole number, not '" + v + "'"); }
        else if (arg == "--engine") a.engine = v;
        else if (arg == "--hwdec") {
            if (v != "auto" && v != "nvdec" && v != "none") return usageError("--hwdec must be auto, nvdec or none, not '" + v + "'");
            a.hwdec = v;
        } else if (arg == "--scopes") {
            a.scopes.clear();
            std::stringstream ss(v);
            for (std::string s; std::getline(ss, s, ',');) {
                static const std::set<std::string> known{"picture", "histogram", "waveform", "parade", "vectorscope", "stats"};
                if (!known.count(s)) return usageError("unknown scope '" + s + "' in --scopes");
                a.scopes.insert(s);
            }
            if (a.scopes.empty()) return usageError("--scopes is empty");
        } else if (arg == "--parade") {
            if (v == "rgb") a.spec.paradeMode = ParadeMode::Rgb;
            else if (v == "ycbcr") a.spec.paradeMode = ParadeMode::Ycbcr;
            else return usageError("--parade must be rgb or ycbcr, not '" + v + "'");
        } else if (arg == "--preview") {
            const auto p = previewFromName(v);
            if (!p) return usageError("unknown preview '" + v + "'");
            a.spec.preview = *p;
        } else if (arg == "--matrix") {
            const auto m = matrixFromName(v);
            if (!m) return usageError("--matrix must be 601, 709 or 2020, not '" + v + "'");
            a.spec.colorOverride.matrix = m;
        } else if (arg == "--range") {
            const auto r = rangeFromName(v);
            if (!r) return usageError("--range must be limited or full, not '" + v + "'");
            a.spec.colorOverride.range = r;
        } else if (arg == "--histogram-scale") {
            if (v == "linear") a.spec.histogramScale = HistogramScale::Linear;
            else if (v == "log") a.spec.histogramScale = HistogramScale::Log;
            else return usageError("--histogram-scale must be linear or log");
        } else if (arg == "--waveform-scale") {
            if (v == "ire") a.spec.waveformScale = WaveformScale::Ire;
            else if (v == "code") a.spec.waveformScale = WaveformScale::CodeValue;
            else return usageError("--waveform-scale must be ire or code");
        } else if (arg == "--size") {
            int w = 0, h = 0;
            if (std::sscanf(v.c_str(), "%dx%d", &w, &h) != 2 || w < 64 || h < 64 || w > 8192 || h > 8192)
                return usageError("--size must be WxH between 64x64 and 8192x8192, not '" + v + "'");
            a.spec.scopeWidth = w;
            a.spec.scopeHeight = h;
            a.spec.vectorscopeSize = h;
        } else if (arg.rfind("--", 0) == 0) {
            return usageError("unknown option " + arg);
        } else if (a.input.empty()) {
            a.input = arg;
        } else {
            return usageError("unexpected argument '" + arg + "'");
        }
    }
    if (a.input.empty()) return usageError("missing INPUT");
    if (a.outDir.empty()) return usageError("missing --out DIR");
    const bool any = [&] { for (const char* s : {"histogram", "waveform", "parade", "vectorscope", "stats", "picture"}) if (a.scopes.count(s)) return true; return false; }();
    if (!any) return usageError("nothing to export");
    a.spec.histogram = a.scopes.count("histogram") > 0;
    a.spec.waveform = a.scopes.count("waveform") > 0;
    a.spec.parade = a.scopes.count("parade") > 0;
    a.spec.vectorscope = a.scopes.count("vectorscope") > 0;
    a.spec.stats = a.scopes.count("stats") > 0;
    a.spec.picture = a.scopes.count("picture") > 0;
    a.spec.displayImages = true;
    return std::nullopt;
}

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
    ExportArgs a;
    if (auto code = parseArgs(argc, argv, a)) return *code;

    auto engineChoice = chooseEngine(a.engine);
    if (!engineChoice) {
        std::fprintf(stderr, "cudascope export: %s\n", engineChoice.message().c_str());
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
    auto decodeStream = engineChoice->decodeStream();
    if (!decodeStream) {
        std::fprintf(stderr, "cudascope export: %s\n", decodeStream.message().c_str());
        return kExitFailure;
    }
    options.deviceStream = std::move(decodeStream.value());
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
