#include "QcRun.h"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/avutil.h>
}

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <future>
#include <limits>
#include <map>
#include <optional>

#include "app/cli/DecodeOptions.h"
#include "app/export/FrameFiles.h"
#include "app/cli/AtomicFile.h"
#include "app/export/HdrReport.h"
#include "AudioReport.h"
#include "QcCsv.h"
#include "QcEvents.h"
#include "QcGraph.h"
#include "QcMetadata.h"
#include "QcHtml.h"
#include "QcPdf.h"
#include "QcPolicy.h"
#include "QcReuse.h"
#include "QcThumbnails.h"
#include "QcXml.h"
#include "app/export/ReportWriter.h"
#include "core/Engine.h"
#include "core/PixelFormat.h"
#include "core/SampleRange.h"
#include "analysis/ActivePicture.h"
#include "analysis/Flashes.h"
#include "analysis/Interlace.h"
#include "analysis/SceneCuts.h"
#include "analysis/SignalStats.h"
#include "decode/FrameInput.h"
#include "engine/EngineChoice.h"
#include "timecode/TimecodeReader.h"
#if CS_HAVE_CUDA
#include "cuda/engine/CudaEngine.h"
#include "cuda/analysis/CudaSignalStats.h"
#endif

namespace cs {
namespace {

// The source's warnings that are not damage: conversions, a software fallback, a change of
// size or format. Every other warning (decode/StreamIntegrity's evidence, frames skipped)
// is a decode_error event.
bool isDamage(const std::string& w) {
    for (const char* benign : {"is converted to", "NVDEC not used", "frame size changed", "pixel format changed"})
        if (w.find(benign) != std::string::npos) return false;
    return true;
}

QJsonObject eventJson(const QcEvent& e) {
    QJsonObject o{{"type", QString::fromStdString(e.type)},
                  {"first_frame", qint64(e.firstFrame)},
                  {"last_frame", qint64(e.lastFrame)},
                  {"first_pts", e.firstPts},
                  {"last_pts", e.lastPts}};
    if (!e.message.empty()) o["message"] = QString::fromStdString(e.message);
    if (e.flashes >= 0) {   // flash, red_flash
        o["flashes"] = e.flashes;
        o["area"] = e.area;
    }
    if (e.start >= 0) {
        o["start"] = e.start;
        o["end"] = e.end;
    }
    if (!e.channel.empty()) o["channel"] = QString::fromStdString(e.channel);
    o["first_timecode"] = QString::fromStdString(e.firstTimecode);
    o["last_timecode"] = QString::fromStdString(e.lastTimecode);
    if (e.type == "timecode_break") {
        o["expected_timecode"] = QString::fromStdString(e.expectedTimecode);
        o["found_timecode"] = QString::fromStdString(e.foundTimecode);
    }
    return o;
}

std::string duration(double s) {
    char b[32];
    if (s >= 3600) std::snprintf(b, sizeof b, "%d:%02d:%02d", int(s / 3600), int(std::fmod(s, 3600) / 60), int(std::fmod(s, 60)));
    else std::snprintf(b, sizeof b, "%d:%02d", int(s / 60), int(std::fmod(s, 60)));
    return b;
}

}  // namespace

std::string qcPath(const std::string& dir, const std::string& name, const char* suffix) {
    return (std::filesystem::path(dir) / (name + suffix)).string();
}

bool qcNeedsHostDetectors(const QcRunOptions& o) {
    if (o.hostDetectors) return true;
    for (const QcPolicy& p : o.policies)
        for (const QcRule& r : p.rules)
            if (r.check == "event")
                for (const char* type : {"flash", "red_flash", "field_order", "scene_cut", "repeated_frame", "active_area"})
                    if (r.eventType == type) return true;
    return false;
}

QcRunResult runQcInput(const std::string& input, const QcRunOptions& o) {
    const std::string name = qcName(input);
    const QJsonObject madeFrom = qcMadeFrom(input, o);   // app/qc/QcReuse.h: recorded in the head
    if (!o.force) {
        const QcReuse earlier = qcReuse(name, madeFrom, o);
        if (earlier.reuse) return {QcOutcome::Skipped, input + ": skipped: " + earlier.reason};
        if (!earlier.reason.empty() && o.log) o.log(input + ": checked again: " + earlier.reason);
    }
    if (isLiveInput(input))
        return {QcOutcome::Failed, input + ": a live input has no end to check to; qc reads files (cudascope export records streams)"};
    auto choice = chooseEngine(o.engine, CudaUnavailable::Error, o.device);
    if (!choice) return {QcOutcome::Failed, input + ": " + choice.message()};
    const bool hostDetectors = qcNeedsHostDetectors(o);
    Engine& engine = *choice->engine;
    auto decoding = decodeOptions(*choice, o.hwdec);
    if (!decoding) return {QcOutcome::Failed, decoding.message()};
    FrameInputOptions inputOptions;
    inputOptions.open = std::move(decoding.value());
    inputOptions.open.cancel = o.stop;
    inputOptions.allFrames = true;   // live: every frame is checked, not the newest
    inputOptions.notice = o.log;
    auto opened = o.open ? o.open(input, inputOptions) : openFrameInput(input, inputOptions);
    if (!opened) return {QcOutcome::Failed, opened.message()};
    FrameInput& source = *opened.value();

    ReportWriter report;
    QcCsvWriter csv;
    QcXmlWriter xml;
    if (Status st = report.open(qcPath(o.outDir, name, ".qc.json")); !st) return {QcOutcome::Failed, st.message()};
    if (!o.onlyJson)
        if (Status st = csv.open(qcPath(o.outDir, name, ".qc.csv")); !st) return {QcOutcome::Failed, st.message()};
    if (o.qctools)
        if (Status st = xml.open(qcPath(o.outDir, name, ".qctools.xml.gz")); !st) return {QcOutcome::Failed, st.message()};
    if (!choice->note.empty()) report.addWarning(choice->note);
    // The audio beside the picture (app/qc/AudioReport.h); an input without audio is checked as before.
    std::string audioProblem;
    std::unique_ptr<AudioReport> audio =
        o.open || input.rfind("pattern:", 0) == 0 ? nullptr : AudioReport::open(input, o.thresholds, audioProblem);
    if (!audioProblem.empty()) {
        report.addWarning(audioProblem);
        if (o.log) o.log(audioProblem);
    }
    const auto takeAudioWarnings = [&] {
        if (!audio) return;
        for (const auto& w : audio->takeWarnings()) {
            report.addWarning(w);
            if (o.log) o.log(w);
        }
    };

    ScopeSpec spec;   // the statistics only: no counts to keep, no images
    spec.histogram = spec.waveform = spec.parade = spec.vectorscope = false;
    spec.stats = true;
    spec.displayImages = spec.picture = false;
    spec.cie = true;   // the share outside the gamut target (the chromaticity counts are not kept)
    spec.cieCounts = false;
    spec.gamutTarget = o.gamutTarget;
    ScopeResults results;
    SignalStatsMeter meter;   // host frames
    Frame hostCopy;           // --host-detectors: the NVDEC frame copied to the host (reused)
#if CS_HAVE_CUDA
    std::unique_ptr<CudaSignalStatsMeter> gpuMeter;   // NVDEC frames
#endif
    SignalStats ss;
    FreezeTracker reference;   // freezedetect's reference (host frames)
    SceneMeter scenes;   // scdet: scene cuts and repeated frames (host frames)
    CropDetector crops;  // cropdetect: the active picture (host frames)
    FlashMeter flashes;  // photosensitive flashes, BT.1702 (host frames)
    int64_t flashFrames = 0;   // frames the flash detector measured
    InterlaceDetector interlace;   // idet: each frame's field order, judged a frame late (host frames)
    bool interlaceMeasured = false;
    int64_t fieldFrames = 0;       // frames idet judged
    std::vector<double> masteringShares;   // each mastering_gamut rule's share (QcMetadata.h)
    for (const QcPolicy& p : o.policies)
        for (const QcRule& r : p.rules)
            if (r.check == "mastering_gamut") masteringShares.push_back(r.share);
    QcMetadataMonitor metadata(source.info(), std::move(masteringShares));   // the metadata against the content
    std::vector<QcEvent> metadataEvents;   // field_order, range_tag
    // A frame's line waits for idet's judgement of it, which comes with the next frame: the
    // line of frame N is written when frame N + 1 (or the end) has been measured.
    struct PendingLine {
        QJsonObject line;
        int64_t index = 0;
        double pts = 0;
        std::string timecode;
        FieldType signalled = FieldType::Progressive;
        bool judged = false;   // idet runs on it (a host frame)
    };
    std::optional<PendingLine> pending;
    const auto writeLine = [&](PendingLine& p, const std::optional<InterlaceDetector::Judged>& judged) -> Status {
        if (p.judged && judged) {   // idet's verdicts of the frame and the order it signals
            p.line["field"] = QJsonObject{{"single", fieldTypeName(judged->single)},
                                          {"multiple", fieldTypeName(judged->multiple)},
                                          {"signalled", fieldTypeName(p.signalled)}};
            metadata.fieldJudged(p.index, p.pts, p.timecode, p.signalled, judged->multiple, metadataEvents);
            ++fieldFrames;
        }
        Status st = report.addFrame(p.line);
        if (st && !o.onlyJson) st = csv.addFrame(p.line);
        return st;
    };
    std::string referenceTimecode;
    TimecodeBreaks timecodeBreaks;   // jumps and repeats in the timecode the frames carry
    std::string lastTimecode;
    std::vector<std::string> frameTimecodes;   // each frame's, by index, while there is audio (below)
    int64_t referenceIndex = 0;
    bool haveReference = false;
    double referencePts = 0;
    QcEventFinder finder(o.thresholds);
    // The graphs' values: NAME.qc.png's 1200 px and NAME.qc.html's 1010 px wide plots.
    QcSeries pngSeries(1000), htmlSeries(500);
    QcRuleMonitor rules(o.policies);   // --policy's rules that follow the frames (R 103's runs)
    bool r103Applies = true;           // a Y'CbCr source: R 103's limits can be left
    QJsonObject headSource;            // the head's "source", for NAME.qc.html
    const double noise = o.thresholds.freezeNoise();
    bool signalstatsOk = true;
    AboveRangeRuns aboveRange;   // one warning per run of frames with samples above the format's range
    const auto warnAboveRange = [&](const std::optional<std::string>& w) {
        if (!w) return;
        report.addWarning(input + ": " + *w);
        if (o.log) o.log(input + ": " + *w);
    };
    int64_t frames = 0, lastIndex = 0;
    double lastPts = 0;
    int levels = 256;
    std::string ended = "end_of_stream";
    bool readFailed = false;
    Status written;
    const auto started = std::chrono::steady_clock::now();
    auto lastProgress = started;

    for (;;) {
        if (o.stop && o.stop->load()) {
            report.discard();
            return {QcOutcome::Stopped, input + ": stopped; no report written"};
        }
        InputFrame in;
        const InputResult rr = source.next(in);
        const bool got = rr.status == InputStatus::Frame;
        for (const auto& w : source.takeWarnings()) {
            report.addWarning(w);
            if (isDamage(w))
                finder.decodeError(got ? in.index : lastIndex, got ? in.pts : lastPts, w,
                                   got ? in.timecode.text() : lastTimecode);
        }
        if (rr.status == InputStatus::End) break;
        if (!got) {
            if (o.stop && o.stop->load()) continue;
            report.addWarning(rr.message);
            finder.decodeError(lastIndex, lastPts, rr.message, lastTimecode);
            ended = rr.status == InputStatus::TimedOut ? "timed_out" : "read_error";
            readFailed = true;
            break;
        }
        FrameView view = in.frame.view;
        const std::string timecode = in.timecode.text();
        if (const auto b = timecodeBreaks.next(in.timecode))
            finder.timecodeBreak(in.index, in.pts, b->expected.text(), b->found.text(), b->repeat);
        const std::optional<int64_t> above = samplesAboveRange(view);
        if (above) warnAboveRange(aboveRange.frame(in.index, *above, view.bitDepth()));
        if (Status st = engine.process(view, spec, results); !st) {
            report.addWarning("frame " + std::to_string(in.index) + ": " + st.message());
            finder.decodeError(in.index, in.pts, "frame " + std::to_string(in.index) + ": " + st.message(), timecode);
            continue;
        }
        levels = results.levels;
        const bool full = results.color.range == Range::Full;
        // The frame the meters read: a frame NVDEC left on the GPU is copied to the host when
        // the host detectors are asked for (qcNeedsHostDetectors), and is then measured as a
        // host frame in every respect, as with --hwdec none.
        FrameView measured = view;
#if CS_HAVE_CUDA
        if (hostDetectors && view.onDevice && choice->cuda) {
            if (Status st = choice->cuda->copyRegion(view, 0, 0, view.width, view.height, hostCopy); !st)
                return {QcOutcome::Failed, input + ": frame " + std::to_string(in.index) + ": " + st.message()};
            measured = hostCopy.view();
        }
#endif
        double mafd = 1.0;
        SceneMeter::Frame scene;
        bool sceneMeasured = false;
        std::optional<CropArea> crop;
        std::optional<FlashFrame> flash;
        std::optional<InterlaceDetector::Judged> judged;   // idet's judgement of the frame before this one
        bool hostFrame = false;                            // idet judges this frame (with the next)
        if (signalstatsOk) {
            const int blackThreshold = blackThresholdFor(o.thresholds.blackPixelRatio, results.bitDepth, full);
            Status st;
#if CS_HAVE_CUDA
            if (measured.onDevice && choice->cuda) {   // NVDEC frames: counted on the GPU, in place
                if (!gpuMeter) {
                    auto made = CudaSignalStatsMeter::create(choice->cuda->device());
                    if (!made) return {QcOutcome::Failed, input + ": " + made.message()};
                    gpuMeter = std::move(*made);
                }
                st = gpuMeter->measure(measured, blackThreshold, ss, mafd);
            } else
#endif
            {
                st = meter.measure(measured, blackThreshold, ss);
                if (st) mafd = reference.mafd(meter);
                if (st) scene = scenes.add(meter);
                if (st) crop = crops.add(meter.current());
                if (st) flash = flashes.add(meter.current(), results.color.matrix, results.color.range);
                if (st) {
                    judged = interlace.add(meter);   // the previous frame's (and the tail's "idet" counts)
                    interlaceMeasured = hostFrame = true;
                }
                sceneMeasured = st.ok();
            }
            if (!st) {
                signalstatsOk = false;
                report.addWarning(input + ": " + st.message() + ": no signalstats, black or freeze detection");
            }
        }
        QcEventFinder::Frame ef;
        ef.index = in.index;
        ef.pts = in.pts;
        ef.timecode = timecode;
        ef.outOfLegal = results.stats.outOfLegal;
        ef.outOfGamut = results.stats.outOfGamut;
        ef.outsideTarget = results.gamut.outsideShare;
        ef.scene = scene.compared;
        ef.sceneScore = scene.score;
        ef.repeat = scene.compared && frameIsFrozen(scene.mafd / 100.0, noise);
        if (crop) {
            ef.crop = true;
            ef.cropX = crop->x;
            ef.cropY = crop->y;
            ef.cropW = crop->w;
            ef.cropH = crop->h;
        }
        if (signalstatsOk) {
            ef.blackRatio = double(ss.blackPixels) / (double(view.width) * view.height);
            ef.frozen = haveReference && frameIsFrozen(mafd, noise);
            if (!ef.frozen) {   // freezedetect: a frame that moved is the new reference
#if CS_HAVE_CUDA
                if (gpuMeter && measured.onDevice) {
                    if (Status st = gpuMeter->setReference(); !st) return {QcOutcome::Failed, input + ": " + st.message()};
                } else
#endif
                    reference.set();
                haveReference = true;
                referenceIndex = in.index;
                referencePts = in.pts;
                referenceTimecode = timecode;
            } else if (!measured.onDevice) {
                reference.hold(meter);   // the reference outlives the meter's frames while frozen
            }
            ef.referenceIndex = referenceIndex;
            ef.referencePts = referencePts;
            ef.referenceTimecode = referenceTimecode;
        }
        if (flash) {
            ef.flash = true;
            ef.flashArea = flash->luminanceArea;
            ef.redArea = flash->redArea;
            ++flashFrames;
        }
        finder.add(ef);
        metadata.frame(in.index, in.pts, timecode, results, in.frame.holder.get(), view.onDevice,
                       metadataEvents);

        const QJsonObject stats = reportStats(results);   // with out_of_r103, R 103's share (core/Color.h)
        const PixelFormatInfo& formatInfoNow = formatInfo(results.format);
        r103Applies = !formatInfoNow.isRgb && formatInfoNow.layout != PixelLayout::Gray;
        rules.frame(in.index, in.pts, timecode, results.stats.outOfR103);
        QJsonObject line{{"index", qint64(in.index)}, {"pts", in.pts}, {"timecode", QString::fromStdString(timecode)},
                         {"stats", stats}};
        if (results.hdr.measured) line["hdr"] = hdrFrameJson(results.hdr);   // MaxCLL/MaxFALL in the summary
        if (results.gamut.measured) line["gamut"] = gamutJson(results.gamut, results.color);
        if (audio) {
            const double rate = source.info().frameRate;
            line["audio"] = audio->frame(in.index, in.pts, rate > 0 ? 1.0 / rate : 0.04);
            takeAudioWarnings();
        }
        if (signalstatsOk) {
            line["ydif"] = ss.ydif;
            line["ylow"] = ss.ylow;
            line["yhigh"] = ss.yhigh;
            line["satavg"] = ss.satavg;
            line["satmax"] = ss.satmax;
            line["brng"] = ss.brng;
        }
        if (sceneMeasured) {   // scdet's lavfi.scd.mafd and lavfi.scd.score (host frames)
            line["scd_mafd"] = scene.mafd;
            line["scd_score"] = scene.score;
            // cropdetect's lavfi.cropdetect.x, y, w, h (null for the frames it skips)
            const auto value = [&](int v) { return crop ? QJsonValue(v) : QJsonValue(QJsonValue::Null); };
            line["crop"] = QJsonObject{{"x", value(crop ? crop->x : 0)}, {"y", value(crop ? crop->y : 0)},
                                       {"w", value(crop ? crop->w : 0)}, {"h", value(crop ? crop->h : 0)}};
        }
        if (flash)   // analysis/Flashes.h: this frame's transition areas and the second that ends here
            line["flash"] = QJsonObject{{"luminance", flash->luminance},
                                        {"luminance_area", flash->luminanceArea},
                                        {"red_area", flash->redArea},
                                        {"count_1s", finder.flashWindow().flashes},
                                        {"red_count_1s", finder.redFlashWindow().flashes}};
        if (!report.begun()) {
            QJsonObject head = reportHead(source.info(), engine.name(), spec, results);
            headSource = head["source"].toObject();
            head.remove("scopes");
            head["thresholds"] = qcThresholdsJson(o.thresholds);
            head["made_from"] = madeFrom;
            if (audio) head["audio"] = audio->streamJson();
            written = report.begin(head);
        }
        if (written) {
            PendingLine now{line, in.index, in.pts, timecode, metadata.signalledField(in.frame.holder.get()), hostFrame};
            if (pending) written = writeLine(*pending, judged);
            pending = std::move(now);
        }
        if (written && o.qctools && signalstatsOk) {
            const AVFrame* av = in.frame.holder.get();
            QcXmlFrame xf;
            xf.keyFrame = av && av->key_frame;
            xf.pictType = av ? av_get_picture_type_char(av->pict_type) : '?';
            xf.pts = in.pts;
            xf.width = view.width;
            xf.height = view.height;
            xf.pixFmt = source.info().sourcePixFmt;
            xf.stats = &ss;
            written = xml.addFrame(xf);
        }
        if (!written) return {QcOutcome::Failed, written.message()};
        {
            constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
            const QJsonObject a = line["audio"].toObject();
            const auto level = [&](const char* key) { return a[key].isDouble() ? a[key].toDouble() : kNone; };
            const QcSeries::Values values{double(results.stats.y.min), results.stats.y.avg, double(results.stats.y.max),
                                          results.stats.u.avg, results.stats.v.avg, signalstatsOk ? ss.ydif : kNone,
                                          results.stats.outOfLegal, results.stats.outOfR103, level("momentary"), level("short_term")};
            pngSeries.add(in.index, in.pts, timecode, values);
            htmlSeries.add(in.index, in.pts, timecode, values);
        }
        ++frames;
        lastIndex = in.index;
        lastPts = in.pts;
        lastTimecode = timecode;
        // Audio events are found on samples and named by frame index at the end: their
        // timecodes come from this list (32 bytes a frame: about 7 MB for an hour at 60 fps).
        if (audio) {
            if (frameTimecodes.size() <= size_t(in.index)) frameTimecodes.resize(size_t(in.index) + 1);
            frameTimecodes[size_t(in.index)] = timecode;
        }
        if (o.frameDone) o.frameDone(frames);
        if (o.maxFrames > 0 && frames >= o.maxFrames) {
            ended = "max_frames";
            break;
        }

        const auto now = std::chrono::steady_clock::now();
        if (o.log && std::chrono::duration<double>(now - lastProgress).count() >= o.progressSeconds) {
            lastProgress = now;
            const double secs = std::chrono::duration<double>(now - started).count(), fps = double(frames) / secs;
            const SourceInfo info = source.info();
            const double total = info.duration > 0 && info.frameRate > 0 ? info.duration * info.frameRate : 0;
            char text[160];
            if (total > double(frames))
                std::snprintf(text, sizeof text, "%lld of ~%.0f frames (%.0f%%), %.1f fps, ETA %s", static_cast<long long>(frames),
                              total, 100.0 * double(frames) / total, fps, duration((total - double(frames)) / std::max(fps, 1e-9)).c_str());
            else
                std::snprintf(text, sizeof text, "%lld frames, %.1f fps", static_cast<long long>(frames), fps);
            o.log(input + ": " + text);
        }
    }
    if (frames == 0) {
        report.discard();
        return {QcOutcome::Failed, readFailed ? finder.events().empty() ? input + ": cannot be read" : finder.events().back().message
                                              : input + ": no frame could be decoded"};
    }
    {   // the last frame's line, idet judging it against itself as it does at the end
        const std::optional<InterlaceDetector::Judged> last = interlaceMeasured ? interlace.finish(meter) : std::nullopt;
        if (pending)
            if (Status st = writeLine(*pending, last); !st) return {QcOutcome::Failed, st.message()};
        metadata.finish(metadataEvents);
    }
    warnAboveRange(aboveRange.finish());
    const SourceInfo info = source.info();
    finder.finish(info.frameRate > 0 ? 1.0 / info.frameRate : 0.0);
    rules.finish(info.frameRate > 0 ? 1.0 / info.frameRate : 0.0);
    std::vector<QcEvent> events = finder.events();
    events.insert(events.end(), metadataEvents.begin(), metadataEvents.end());
    if (audio) {
        audio->finish();
        takeAudioWarnings();
        const auto timecodeOf = [&](int64_t index) {
            if (frameTimecodes.empty()) return std::string();
            return frameTimecodes[size_t(std::clamp<int64_t>(index, 0, int64_t(frameTimecodes.size()) - 1))];
        };
        for (QcEvent& e : audio->takeEvents()) {
            e.firstTimecode = timecodeOf(e.firstFrame);
            e.lastTimecode = timecodeOf(e.lastFrame);
            events.push_back(std::move(e));
        }
    }
    std::stable_sort(events.begin(), events.end(), [](const QcEvent& a, const QcEvent& b) { return a.firstFrame < b.firstFrame; });
    // The pictures of the events' first frames are read on a thread of their own while the other
    // files are written (QcThumbnails.h: its own source and engine; `events` is only read from
    // here on). Not for an input opened by o.open (not a file to read again).
    std::future<QcThumbnails> thumbnailsLater;
    if (!o.open && !o.onlyJson) thumbnailsLater = std::async(std::launch::async, [&] { return qcThumbnails(input, events, o.stop); });

    // The other files first, NAME.qc.json last: its presence says the input is complete.
    // (--only-json: none of them.)
    RgbaImage png;
    if (!o.onlyJson) {
        png = renderQcGraph(pngSeries, events, levels, name + "  (" + std::to_string(frames) + " frames, " + info.codec + " " +
                                                           std::to_string(info.width) + "x" + std::to_string(info.height) + ")");
        if (Status st = writePng(qcPath(o.outDir, name, ".qc.png"), png); !st) return {QcOutcome::Failed, st.message()};
        if (Status st = csv.finish(); !st) return {QcOutcome::Failed, st.message()};
    }
    if (o.qctools) {
        if (!signalstatsOk) return {QcOutcome::Failed, input + ": no QCTools document: signalstats needs a Y'CbCr source (use --no-qctools)"};
        if (Status st = xml.finish(); !st) return {QcOutcome::Failed, st.message()};
    }
    QcVerdictInputs verdictInputs;
    verdictInputs.events = &events;
    if (audio) verdictInputs.audioSummary = audio->summaryJson();
    verdictInputs.ycbcr = r103Applies;
    verdictInputs.signalstats = signalstatsOk;
    verdictInputs.frames = frames;
    // Why a host-frame detector's rules are not applicable: "" when it measured every frame.
    const auto notMeasured = [&](int64_t measured, const char* detector) -> std::string {
        if (measured == 0)
            return signalstatsOk ? std::string("not measured: frames decoded by NVDEC stay on the GPU, where ") + detector +
                                       " does not run (--host-detectors or --hwdec none measures them)"
                                 : std::string("not measured: ") + detector + " reads Y'CbCr frames";
        if (measured < frames)
            return "not measured: " + std::to_string(frames - measured) + " of " + std::to_string(frames) +
                   " frames stayed on the GPU (NVDEC)";
        return {};
    };
    verdictInputs.flashesNotMeasured = notMeasured(flashFrames, "the flash detector");
    verdictInputs.fieldOrderNotMeasured = notMeasured(fieldFrames, "idet");
    verdictInputs.metadata = &metadata;
    const QJsonArray verdicts = rules.verdicts(verdictInputs);
    const std::string overall = o.policies.empty() ? std::string() : qcOverallVerdict(verdicts);
    if (!o.onlyJson) {
        QcHtmlReport html;
        html.name = name;
        html.input = input;
        html.engine = std::string(engine.name());
        html.ended = ended;
        html.source = headSource;
        if (audio) {
            html.audio = audio->streamJson();
            html.audioSummary = verdictInputs.audioSummary;
        }
        html.policies = qcPoliciesJson(o.policies);
        html.verdicts = verdicts;
        html.verdict = overall;
        html.events = &events;
        html.series = &htmlSeries;
        // Pictures of the events' first frames: the input read again (not an input opened by o.open).
        const QcThumbnails thumbnails = thumbnailsLater.valid() ? thumbnailsLater.get() : QcThumbnails{{}, "not made for this input", {}};
        html.thumbnails = &thumbnails;
        html.frames = frames;
        html.levels = levels;
        html.endPts = lastPts + (info.frameRate > 0 ? 1.0 / info.frameRate : 0.0);
        if (Status st = writeFileAtomically(qcPath(o.outDir, name, ".qc.html"), {qcHtml(html)}); !st)
            return {QcOutcome::Failed, st.message()};
        if (Status st = writeQcPdf(qcPath(o.outDir, name, ".qc.pdf"), html, png); !st) return {QcOutcome::Failed, st.message()};
    }
    QJsonArray eventList;
    std::map<std::string, int> counts;
    for (const QcEvent& e : events) {
        eventList.append(eventJson(e));
        ++counts[e.type];
    }
    QJsonObject tail{{"events", eventList}};
    if (audio) tail["audio_summary"] = verdictInputs.audioSummary;
    tail["signalled"] = metadata.signalledJson();
    if (interlaceMeasured) {   // idet's single and multi-frame counts (analysis/Interlace.h)
        const auto idetCounts = [](const std::array<int64_t, 4>& c) {
            return QJsonObject{{"tff", qint64(c[0])}, {"bff", qint64(c[1])}, {"progressive", qint64(c[2])}, {"undetermined", qint64(c[3])}};
        };
        tail["idet"] = QJsonObject{{"single", idetCounts(interlace.singleCounts())}, {"multiple", idetCounts(interlace.multipleCounts())}};
    }
    if (!o.policies.empty()) {
        tail["policies"] = qcPoliciesJson(o.policies);
        tail["verdicts"] = verdicts;
        tail["verdict"] = QString::fromStdString(overall);
    }
    if (finder.decodeErrors() > int64_t(QcEventFinder::kMaxDecodeErrorEvents))
        tail["decode_errors_not_listed"] = qint64(finder.decodeErrors() - int64_t(QcEventFinder::kMaxDecodeErrorEvents));
    if (Status st = report.finish(ended, tail); !st) return {QcOutcome::Failed, st.message()};

    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::string summary = input + ": " + std::to_string(frames) + " frames";
    char fps[256];
    std::snprintf(fps, sizeof fps, " (%.1f fps, engine %s, decoder %s)", double(frames) / std::max(secs, 1e-9),
                  std::string(engine.name()).c_str(), info.decoder.c_str());
    summary += fps;
    summary += ", " + std::to_string(events.size()) + (events.size() == 1 ? " event" : " events");
    if (!counts.empty()) {
        summary += " (";
        bool first = true;
        for (const auto& [type, n] : counts) {
            summary += (first ? "" : ", ") + type + " " + std::to_string(n);
            first = false;
        }
        summary += ")";
    }
    if (!overall.empty()) summary += "; verdict " + overall;
    if (readFailed) summary += "; reading stopped early: " + ended;
    return {QcOutcome::Checked, summary};
}

}  // namespace cs
