// fuzz_qc: the fuzzer's bytes as a media file through `cudascope qc`'s path for one input
// (app/qc/QcRun.h's runQcInput, as a qc worker runs it): the file opened from memory through
// the real FileSource, up to kMaxFrames frames through the CPU engine's statistics,
// analysis/SignalStats (signalstats, blackdetect, freezedetect), the event runs, the samples
// above the format's range, and every writer: NAME.qc.json, NAME.qc.csv, the gzip QCTools
// XML and the graph PNG, into a folder of the fuzzer's own under the temporary directory.
// Checks, beyond the sanitizers: the outcome is one line naming the input; a checked input
// has every report, and its NAME.qc.json is a JSON document whose warnings are one line
// each and whose events run forwards.
#include <unistd.h>

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>

#include "app/qc/QcRun.h"
#include "decode/FileSource.h"
#include "decode/MemoryInput.h"

namespace {

constexpr int64_t kMaxFrames = 6;   // enough for DIF, freeze references and event runs
// Frames larger than this are refused at the open (qc's work per frame does not depend on
// the bytes that made a large frame; an 8K frame takes seconds under ASan).
constexpr int64_t kMaxPixels = int64_t(1920) * 1080;
const std::string kInput = "fuzz-input";
std::string gOutDir;

[[noreturn]] void contractBroken(const char* what, const std::string& message) {
    std::fprintf(stderr, "fuzz_qc: %s: \"%s\"\n", what, message.c_str());
    std::abort();
}

void checkLine(const std::string& message) {
    if (message.rfind(kInput + ": ", 0) != 0 && message.rfind(gOutDir, 0) != 0)
        contractBroken("message names neither the input nor its report", message);
    if (message.find('\n') != std::string::npos) contractBroken("message is more than one line", message);
}

void checkReport() {
    for (const char* suffix : {".qc.json", ".qc.csv", ".qc.png", ".qctools.xml.gz"})
        if (!std::filesystem::is_regular_file(cs::qcPath(gOutDir, cs::qcName(kInput), suffix)))
            contractBroken("a checked input lacks a report", suffix);
    QFile file(QString::fromStdString(cs::qcPath(gOutDir, cs::qcName(kInput), ".qc.json")));
    if (!file.open(QIODevice::ReadOnly)) contractBroken("qc.json", "cannot be read");
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        contractBroken("qc.json is not a JSON object", error.errorString().toStdString());
    for (const QJsonValue w : doc["warnings"].toArray()) {
        if (!w.isString()) contractBroken("qc.json", "a warning is not a string");
        if (w.toString().contains('\n')) contractBroken("a warning is more than one line", w.toString().toStdString());
    }
    for (const QJsonValue e : doc["events"].toArray())
        if (e["first_frame"].toInteger() > e["last_frame"].toInteger())
            contractBroken("an event ends before it starts", e["type"].toString().toStdString());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    cs::setLibraryLogging(false);   // FFmpeg's own lines would drown the fuzzer's output
    gOutDir = (std::filesystem::temp_directory_path() / ("fuzz_qc-" + std::to_string(getpid()))).string();
    std::filesystem::create_directories(gOutDir);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    cs::MemoryInput memory(std::span<const uint8_t>(data, size));
    if (!memory.io()) return 0;

    cs::QcRunOptions o;
    o.outDir = gOutDir;
    o.engine = "cpu";
    o.hwdec = "none";
    o.force = true;   // the previous input's report is there
    o.maxFrames = kMaxFrames;
    o.log = [](const std::string& line) { checkLine(line); };
    o.open = [&memory](const std::string& input, const cs::FrameInputOptions& options)
        -> cs::Result<std::unique_ptr<cs::FrameInput>> {
        cs::DemuxSetup setup;
        setup.io = memory.io();
        // The bytes are all there is: no playlist, reference or segment may open another file or URL.
        setup.options = {{"protocol_whitelist", "none"}};
        cs::OpenOptions open = options.open;
        open.hwdec = cs::HwDecode::None;
        open.decoderThreads = 1;   // one decoding thread: a crash reproduces from its input alone
        auto opened = cs::openFileSource(input, open, setup);
        if (!opened) return opened.status();
        const cs::SourceInfo info = opened.value()->info();
        if (int64_t(info.width) * info.height > kMaxPixels) return cs::Status::error(input + ": too large for fuzz_qc");
        return cs::frameInputOf(std::move(opened.value()));
    };
    const cs::QcRunResult r = cs::runQcInput(kInput, o);
    checkLine(r.message);
    if (r.outcome == cs::QcOutcome::Checked) checkReport();
    else if (r.outcome != cs::QcOutcome::Failed) contractBroken("unexpected outcome", r.message);
    return 0;
}
