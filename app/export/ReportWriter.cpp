#include "ReportWriter.h"

#include "core/PeakingColour.h"
#include "scope/ReferenceLines.h"
#include "decode/FrameInput.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>

namespace cs {
namespace {

// One value as compact JSON (QJsonDocument serialises only objects and arrays).
QByteArray compact(const QJsonValue& v) {
    if (v.isObject()) return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    if (v.isArray()) return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    const QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);   // "[v]" -> "v"
}

QByteArray member(const QString& key, const QJsonValue& v) { return compact(key) + ':' + compact(v); }

QJsonArray toJson(const std::vector<uint32_t>& v) {
    QJsonArray a;
    for (uint32_t x : v) a.append(qint64(x));
    return a;
}
QJsonObject toJson(const ChannelStats& s) { return {{"min", s.min}, {"max", s.max}, {"avg", s.avg}}; }
QString str(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

QJsonObject reportHeadCommon(const SourceInfo& info, std::string_view engine, const ScopeSpec& spec,
                             const ScopeResults& results);


QJsonObject sourceJson(const SourceInfo& info) {
    return {{"input", str(info.input)},
            {"container", str(info.container)},
            {"codec", str(info.codec)},
            {"width", info.width},
            {"height", info.height},
            {"pix_fmt", str(formatInfo(info.format).name)},
            {"source_pix_fmt", str(info.sourcePixFmt)},
            {"bit_depth", formatInfo(info.format).bitDepth},
            {"matrix", str(matrixName(info.color.matrix))},
            {"matrix_tagged", info.color.matrixTagged},
            {"range", str(rangeName(info.color.range))},
            {"range_tagged", info.color.rangeTagged},
            {"transfer", str(transferName(info.color.transfer))},
            // Untagged: the primaries every frame's gamut check assumes (core/Gamut.h), so the
            // report gives one answer; primaries_tagged false marks it assumed.
            {"primaries", str(primariesLabel(effectivePrimaries(info.color, info.height)))},
            {"primaries_tagged", info.color.primaries != Primaries::Unspecified},
            {"frame_rate", info.frameRate},
            {"duration", info.duration},
            {"decoder", str(info.decoder)},
            // The first frame's source timecode and where it is kept; without one the frames'
            // timecodes are the elapsed time ("elapsed time").
            {"timecode", info.timecode.known() ? str(info.timecode.text()) : QJsonValue()},
            {"timecode_source", info.timecode.known() ? timecodeSourceName(info.timecode.source)
                                                      : timecodeSourceName(TimecodeSource::Elapsed)}};
}

}  // namespace

Status ReportWriter::open(const std::string& path) {
    auto file = AtomicFile::create(path);
    if (!file) return file.status();
    file_.emplace(std::move(*file));
    path_ = path;
    return {};
}

Status ReportWriter::begin(const QJsonObject& head) {
    if (!file_ || begun_) return Status::error(path_ + ": report begun twice or never opened");
    QByteArray text = "{";
    for (auto it = head.begin(); it != head.end(); ++it) text += member(it.key(), it.value()) + ",\n";
    text += "\"frames\":[\n";
    begun_ = true;
    if (Status st = file_->write(text.constData(), size_t(text.size())); !st) return st;
    wholeBytes_ = file_->written();
    return {};
}

Status ReportWriter::addFrame(const QJsonObject& frame) {
    if (!begun_) return Status::error(path_ + ": a frame before the report's head");
    // The separator leads the line, so that every line in the file ends a whole value:
    // cut after any newline, the file is the document's prefix up to a finished frame.
    const QByteArray line = (frames_ == 0 ? QByteArray() : QByteArray(",")) + compact(frame) + '\n';
    if (Status st = file_->write(line.constData(), size_t(line.size())); !st) return st;
    wholeBytes_ = file_->written();
    ++frames_;
    noteHdrFrame(frame);
    return {};
}

void ReportWriter::addWarning(const std::string& warning) {
    ++warningCount_;
    if (warnings_.size() < kMaxListedWarnings) warnings_.push_back(warning);
}

Status ReportWriter::finish(std::string_view ended, const QJsonObject& tail) {
    if (!begun_) return Status::error(path_ + ": report finished before its head");
    QJsonArray warnings;
    for (const auto& w : warnings_) warnings.append(QString::fromStdString(w));
    if (warningCount_ > qint64(warnings_.size()))
        warnings.append(QString::number(warningCount_ - qint64(warnings_.size())) +
                        " more warnings, not listed here (all of them went to stderr)");
    QJsonObject summary{{"frames", qint64(frames_)}, {"warnings", qint64(warningCount_)}, {"ended", str(ended)}};
    addHdrSummary(summary);
    QByteArray text = "],\n";
    for (auto it = tail.begin(); it != tail.end(); ++it) text += member(it.key(), it.value()) + ",\n";
    text += member("warnings", warnings) + ",\n" + member("summary", summary) + "}\n";
    if (Status st = file_->write(text.constData(), size_t(text.size())); !st) return st;
    return file_->commit();
}

void ReportWriter::noteHdrFrame(const QJsonObject& frame) {
    const QJsonValue hdr = frame.value(QStringLiteral("hdr"));
    if (hdr.isObject()) hdr_.add(hdr.toObject());
}

void ReportWriter::addHdrSummary(QJsonObject& summary) const { hdr_.addTo(summary); }

bool ReportWriter::keepPartial() {
    if (!file_) return false;
    if (frames_ == 0) {
        file_->discard();
        return false;
    }
    file_->abandon(wholeBytes_);
    return true;
}

void ReportWriter::discard() {
    if (file_) file_->discard();
}

QJsonObject reportHead(const SourceInfo& info, std::string_view engine, const ScopeSpec& spec, const ScopeResults& results) {
    QJsonObject head = reportHeadCommon(info, engine, spec, results);
    if (spec.cie) {
        QJsonObject scopes = head["scopes"].toObject();
        scopes["cie"] = str(cieModeName(spec.cieMode));
        scopes["gamut_target"] = str(gamutTargetName(spec.gamutTarget));
        head["scopes"] = scopes;
    }
    if (spec.gamutDisplay != GamutDisplay::None) {
        QJsonObject scopes = head["scopes"].toObject();
        scopes["gamut_display"] = str(gamutDisplayName(spec.gamutDisplay));
        if (spec.gamutDisplay == GamutDisplay::Arrowhead) scopes["arrowhead_limit"] = str(arrowheadLimitName(spec.arrowheadLimit));
        head["scopes"] = scopes;
    }
    if (spec.preview == PreviewFilter::FocusPeaking) {
        QJsonObject scopes = head["scopes"].toObject();
        scopes["peaking_colour"] = str(peakingColourText(spec.filter.peakingColour));
        scopes["peaking_width"] = spec.filter.peakingWidth;
        head["scopes"] = scopes;
    }
    return head;
}

namespace {
QJsonObject reportHeadCommon(const SourceInfo& info, std::string_view engine, const ScopeSpec& spec, const ScopeResults& results) {
    return {{"source", sourceJson(info)},
            {"engine", str(engine)},
            {"scopes", QJsonObject{{"parade", spec.paradeMode == ParadeMode::Rgb ? "rgb" : "ycbcr"},
                                   {"preview", str(previewName(spec.preview))},
                                   {"matrix", str(matrixName(results.color.matrix))},
                                   {"range", str(rangeName(results.color.range))},
                                   {"transfer", str(transferName(results.color.transfer))},
                                   {"waveform_mode", spec.waveformMode == WaveformMode::Luma         ? "luma"
                                                     : spec.waveformMode == WaveformMode::RgbOverlay ? "rgb"
                                                                                                     : "yrgb"},
                                   {"trace_colour", spec.traceColour == TraceColour::Channel ? "channel"
                                                    : spec.traceColour == TraceColour::Green ? "green"
                                                                                             : "white"},
                                   {"reference_lines", str(referenceLinesText(spec.referenceLines))}}}};
}
}  // namespace

QJsonObject reportStats(const ScopeResults& results) {
    return QJsonObject{{"y", toJson(results.stats.y)}, {"u", toJson(results.stats.u)},
                       {"v", toJson(results.stats.v)},
                       {"out_of_legal", results.stats.outOfLegal},
                       {"out_of_gamut", results.stats.outOfGamut},
                       {"out_of_r103", results.stats.outOfR103}};   // EBU R 103's limits (core/Color.h)
}

QJsonObject reportFrame(int64_t index, double pts, const ScopeSpec& spec, const ScopeResults& results,
                        const QJsonObject& extra) {
    QJsonObject entry{{"index", qint64(index)}, {"pts", pts}, {"width", results.width}, {"height", results.height}};
    for (auto it = extra.begin(); it != extra.end(); ++it) entry[it.key()] = it.value();
    if (spec.stats) entry["stats"] = reportStats(results);
    if (results.hdr.measured) entry["hdr"] = hdrFrameJson(results.hdr);
    if (spec.cie && results.gamut.measured) entry["gamut"] = gamutJson(results.gamut, results.color);
    if (spec.histogram)
        entry["histogram"] = QJsonObject{{"y", toJson(results.histY)}, {"r", toJson(results.histR)},
                                         {"g", toJson(results.histG)}, {"b", toJson(results.histB)}};
    return entry;
}

QJsonObject reportLiveTail(const InputSummary& summary) {
    if (!summary.live) return {};
    QJsonArray restarts;
    for (const InputRestart& r : summary.restarts)
        restarts.append(QJsonObject{{"index", qint64(r.index)}, {"pts", r.pts}, {"source_pts", r.sourcePts},
                                    {"source_pts_before", r.sourcePtsBefore}, {"gap_seconds", r.gapSeconds},
                                    {"reason", QString::fromStdString(r.reason)},
                                    {"dropped_frames", qint64(r.droppedFrames)}});
    return {{"frames_arrived", qint64(summary.framesArrived)},
            {"dropped_frames", qint64(summary.droppedFrames)},
            {"restarts", restarts}};
}

QJsonObject gamutJson(const GamutResults& g, const ColorInfo& color) {
    return {{"source", str(primariesLabel(g.source))},
            {"source_tagged", color.primaries != Primaries::Unspecified},
            {"target", str(gamutTargetName(g.target))},
            {"outside", qint64(g.outside)},
            {"outside_share", g.outsideShare}};
}

}  // namespace cs
