#include "QcMetadata.h"

extern "C" {
#include <libavutil/frame.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/version.h>
}

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "QcPolicy.h"
#include "core/Gamut.h"
#include "core/PixelFormat.h"

namespace cs {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

std::string fixed(double v, const char* format = "%.1f") {
    char b[48];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

std::string percent(double share) { return fixed(100.0 * share, "%.2f%%"); }

// The primaries qc knows that a mastering display's chromaticities match: each coordinate
// within 0.002 (ST 2086 carries them in steps of 0.00002; encoders round the published
// values to those steps).
std::optional<Primaries> knownPrimaries(const std::vector<double>& m) {
    if (m.size() != 8) return std::nullopt;
    for (Primaries p : {Primaries::Bt709, Primaries::P3D65, Primaries::Bt2020, Primaries::DciP3}) {
        const PrimariesInfo i = primariesInfo(p);
        const double want[8] = {i.r.x, i.r.y, i.g.x, i.g.y, i.b.x, i.b.y, i.white.x, i.white.y};
        bool match = true;
        for (int k = 0; k < 8; ++k) match = match && std::abs(want[k] - m[size_t(k)]) <= 0.002;
        if (match) return p;
    }
    return std::nullopt;
}

std::string primariesText(const std::vector<double>& m) {
    char b[160];
    std::snprintf(b, sizeof b, "R %.4f,%.4f G %.4f,%.4f B %.4f,%.4f W %.4f,%.4f", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
    return b;
}

QJsonObject eventJson(const QcEvent& e) {
    return {{"first_frame", qint64(e.firstFrame)},  {"last_frame", qint64(e.lastFrame)},
            {"first_pts", e.firstPts},             {"last_pts", e.lastPts},
            {"first_timecode", q(e.firstTimecode)}, {"last_timecode", q(e.lastTimecode)},
            {"message", q(e.message)}};
}

}  // namespace

QcMetadataMonitor::QcMetadataMonitor(const SourceInfo& info, std::vector<double> masteringShares)
    : streamFieldOrder_(info.fieldOrder), masteringShares_(std::move(masteringShares)) {
    framesAbove_.assign(masteringShares_.size(), 0);
    firstAbove_.assign(masteringShares_.size(), -1);
    firstAboveTimecode_.assign(masteringShares_.size(), std::string());
    if (info.maxCll >= 0) {
        maxCll_ = info.maxCll;
        maxFall_ = info.maxFall;
        cllFrom_ = "container";
    }
    if (info.masteringPrimaries.size() == 8) {
        mastering_ = info.masteringPrimaries;
        masteringFrom_ = "container";
    }
}

FieldType QcMetadataMonitor::signalledField(const AVFrame* av) const {
    if (av) {
#if LIBAVUTIL_VERSION_INT >= AV_VERSION_INT(58, 7, 100)
        const bool interlaced = av->flags & AV_FRAME_FLAG_INTERLACED, top = av->flags & AV_FRAME_FLAG_TOP_FIELD_FIRST;
#else
        const bool interlaced = av->interlaced_frame, top = av->top_field_first;
#endif
        if (interlaced) return top ? FieldType::Tff : FieldType::Bff;
    }
    // The stream's: the first letter is the field that comes first, as FFmpeg's own tools
    // write them (ffmpeg sets TB for top-field-first frames and BT for bottom-field-first).
    if (streamFieldOrder_ == "tff" || streamFieldOrder_ == "tb") return FieldType::Tff;
    if (streamFieldOrder_ == "bff" || streamFieldOrder_ == "bt") return FieldType::Bff;
    return FieldType::Progressive;
}

void QcMetadataMonitor::close(Run& run, std::vector<QcEvent>& events) {
    if (run.open && run.frames >= kMinRunFrames) {
        events.push_back(run.event);
        if (run.event.type == "range_tag") rangeEvents_.push_back(run.event);
    }
    run.open = false;
    run.frames = 0;
}

void QcMetadataMonitor::extend(Run& run, const char* type, int64_t index, double pts, const std::string& timecode,
                               const std::string& message, std::vector<QcEvent>& events) {
    if (run.open && run.event.message != message) close(run, events);   // another contradiction: another run
    if (!run.open) {
        run.open = true;
        run.frames = 0;
        run.event = QcEvent{};
        run.event.type = type;
        run.event.firstFrame = index;
        run.event.firstPts = pts;
        run.event.firstTimecode = timecode;
        run.event.message = message;
    }
    ++run.frames;
    run.event.lastFrame = index;
    run.event.lastPts = pts;
    run.event.lastTimecode = timecode;
}

void QcMetadataMonitor::fieldJudged(int64_t index, double pts, const std::string& timecode, FieldType signalled,
                                    FieldType detected, std::vector<QcEvent>& events) {
    // A contradiction: interlaced detected where the frame is flagged progressive, or the
    // opposite field first. Progressive content flagged interlaced (PsF, progressive material
    // coded as interlaced) plays correctly and is not one; undetermined never is.
    const bool contradicts = (detected == FieldType::Tff || detected == FieldType::Bff) && detected != signalled;
    if (!contradicts) {
        close(field_, events);
        return;
    }
    const std::string message = std::string("flagged ") + fieldTypeName(signalled) + ", detected " + fieldTypeName(detected) +
                                " (idet, multi-frame)";
    extend(field_, "field_order", index, pts, timecode, message, events);
}

void QcMetadataMonitor::frame(int64_t index, double pts, const std::string& timecode, const ScopeResults& r,
                              const AVFrame* av, bool onDevice, std::vector<QcEvent>& events) {
    if (frames_ == 0) {
        color_ = r.color;
        firstTransfer_ = r.color.transfer;
        bitDepth_ = r.bitDepth;
        const PixelFormatInfo& f = formatInfo(r.format);
        ycbcr_ = !f.isRgb && f.layout != PixelLayout::Gray;
    }
    ++frames_;
    // Codec SEI (HEVC, H.264) arrives as frame side data; the first frame that carries it
    // stands for the stream where the container said nothing.
    if (av) {
        if (cllFrom_.empty())
            if (const AVFrameSideData* sd = av_frame_get_side_data(av, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL)) {
                const auto* cll = reinterpret_cast<const AVContentLightMetadata*>(sd->data);
                maxCll_ = double(cll->MaxCLL);
                maxFall_ = double(cll->MaxFALL);
                cllFrom_ = "sei";
            }
        if (masteringFrom_.empty())
            if (const AVFrameSideData* sd = av_frame_get_side_data(av, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA)) {
                const auto* m = reinterpret_cast<const AVMasteringDisplayMetadata*>(sd->data);
                if (m->has_primaries) {
                    mastering_ = {av_q2d(m->display_primaries[0][0]), av_q2d(m->display_primaries[0][1]),
                                  av_q2d(m->display_primaries[1][0]), av_q2d(m->display_primaries[1][1]),
                                  av_q2d(m->display_primaries[2][0]), av_q2d(m->display_primaries[2][1]),
                                  av_q2d(m->white_point[0]),          av_q2d(m->white_point[1])};
                    masteringFrom_ = "sei";
                }
            }
    }
    onDevice_ = onDevice_ || onDevice;
    if (r.hdr.measured) {
        ++hdrFrames_;
        if (r.hdr.maxNits > measuredCll_ || cllFrame_ < 0) {
            measuredCll_ = r.hdr.maxNits;
            cllFrame_ = index;
        }
        if (r.hdr.avgNits > measuredFall_ || fallFrame_ < 0) {
            measuredFall_ = r.hdr.avgNits;
            fallFrame_ = index;
        }
    }
    if (r.gamut.measured) {
        ++gamutFrames_;
        gamutSource_ = r.gamut.source;
        gamutTarget_ = r.gamut.target;
        if (r.gamut.outsideShare > worstOutside_ || worstOutsideFrame_ < 0) {
            worstOutside_ = r.gamut.outsideShare;
            worstOutsideFrame_ = index;
            worstOutsideTimecode_ = timecode;
        }
        for (size_t i = 0; i < masteringShares_.size(); ++i)
            if (r.gamut.outsideShare > masteringShares_[i] && framesAbove_[i]++ == 0) {
                firstAbove_[i] = index;
                firstAboveTimecode_[i] = timecode;
            }
    }
    yMin_ = std::min(yMin_, r.stats.y.min);
    yMax_ = std::max(yMax_, r.stats.y.max);
    cMin_ = std::min({cMin_, r.stats.u.min, r.stats.v.min});
    cMax_ = std::max({cMax_, r.stats.u.max, r.stats.v.max});
    // range_tag: a limited-range frame whose luma reaches beyond both of R 103's luma limits
    // (-1% and 103%: codes below 13.81 and above 241.57 at 8 bits) with more than 1% of its
    // pixels outside the legal range (R 103's area): full-range content, not overshoot.
    if (ycbcr_ && r.color.range == Range::Limited) {
        const double scale = double(1 << (r.bitDepth - 8));
        const double low = (16 - 0.01 * 219) * scale, high = (235 + 0.03 * 219) * scale;
        if (r.stats.y.min < low && r.stats.y.max > high && r.stats.outOfLegal > 0.01) {
            const std::string message = std::string(r.color.rangeTagged ? "limited-range tag" : "no range tag (read as limited)") +
                                        " on full-range content: Y " + std::to_string(r.stats.y.min) + ".." +
                                        std::to_string(r.stats.y.max) + ", " + percent(r.stats.outOfLegal) + " out of legal";
            // One run whatever the frames' values: the message of its first frame names it.
            extend(range_, "range_tag", index, pts, timecode, range_.open ? range_.event.message : message, events);
            return;
        }
    }
    close(range_, events);
}

void QcMetadataMonitor::finish(std::vector<QcEvent>& events) {
    close(field_, events);
    close(range_, events);
}

QJsonObject QcMetadataMonitor::signalledJson() const {
    QJsonObject o{{"field_order", q(streamFieldOrder_.empty() ? "unknown" : streamFieldOrder_)}};
    if (!cllFrom_.empty()) o["content_light_level"] = QJsonObject{{"max_cll", maxCll_}, {"max_fall", maxFall_}, {"from", q(cllFrom_)}};
    if (!masteringFrom_.empty()) {
        QJsonArray xy;
        for (double v : mastering_) xy.append(v);
        const auto known = knownPrimaries(mastering_);
        o["mastering_display"] = QJsonObject{{"primaries", xy},
                                             {"matches", known ? QJsonValue(q(std::string(gamutTargetName(*known)))) : QJsonValue()},
                                             {"from", q(masteringFrom_)}};
    }
    return o;
}

void QcMetadataMonitor::verdict(const QcRule& rule, std::string& verdict, std::string& reason, QJsonObject& evidence) const {
    verdict = "not_applicable";
    const std::string noSei = onDevice_ ? " (frames decoded by NVDEC carry no SEI side data: --hwdec none reads it)" : "";
    if (rule.check == "content_light_level") {
        if (!isHdr(firstTransfer_) || hdrFrames_ == 0) {
            reason = "an SDR source: CTA-861.3's light levels are for PQ and HLG";
        } else if (cllFrom_.empty()) {
            reason = "the source signals no content light level" + noSei;
        } else {
            evidence = {{"signalled_max_cll", maxCll_}, {"signalled_max_fall", maxFall_}, {"measured_max_cll", measuredCll_},
                        {"measured_max_fall", measuredFall_}, {"max_cll_frame", qint64(cllFrame_)},
                        {"max_fall_frame", qint64(fallFrame_)}, {"below", rule.below}, {"above", rule.above},
                        {"from", q(cllFrom_)}};
            std::vector<std::string> problems;
            const auto judge = [&](const char* name, double signalled, double measured) {
                if (signalled < measured * (1 - rule.below))
                    problems.push_back(std::string(name) + " " + fixed(signalled, "%.0f") + " is below the measured " +
                                       fixed(measured) + " cd/m2 (a display would clip)");
                else if (signalled > measured * (1 + rule.above) + 1)
                    problems.push_back(std::string(name) + " " + fixed(signalled, "%.0f") + " is over " +
                                       fixed(100 * (1 + rule.above), "%.0f") + "% of the measured " + fixed(measured) + " cd/m2");
            };
            judge("MaxCLL", maxCll_, measuredCll_);
            judge("MaxFALL", maxFall_, measuredFall_);
            verdict = problems.empty() ? "pass" : "fail";
            if (problems.empty()) {
                reason = "MaxCLL " + fixed(maxCll_, "%.0f") + " / MaxFALL " + fixed(maxFall_, "%.0f") + " signalled; measured " +
                         fixed(measuredCll_) + " / " + fixed(measuredFall_) + " cd/m2";
            } else {
                for (const std::string& p : problems) reason += (reason.empty() ? "" : "; ") + p;
            }
        }
    } else if (rule.check == "mastering_gamut") {
        const auto known = knownPrimaries(mastering_);
        size_t at = 0;
        while (at < masteringShares_.size() && masteringShares_[at] != rule.share) ++at;
        if (masteringFrom_.empty()) {
            reason = "the source signals no mastering display" + noSei;
        } else if (gamutFrames_ == 0) {
            reason = "the gamut was not measured (an R'G'B' or grey source)";
        } else if (!known) {
            reason = "the mastering display's primaries (" + primariesText(mastering_) + ") are none qc measures against";
        } else if (*known != gamutTarget_) {
            reason = "the mastering display is " + std::string(primariesLabel(*known)) + "; this run measured against " +
                     std::string(primariesLabel(gamutTarget_)) + " (--gamut-target " + std::string(gamutTargetName(*known)) +
                     " measures against it)";
        } else if (at < masteringShares_.size()) {
            evidence = {{"mastering", q(std::string(gamutTargetName(*known)))}, {"share", rule.share},
                        {"frames_above", qint64(framesAbove_[at])}, {"frames", qint64(gamutFrames_)},
                        {"worst_share", worstOutside_}, {"worst_frame", qint64(worstOutsideFrame_)},
                        {"worst_timecode", q(worstOutsideTimecode_)}, {"from", q(masteringFrom_)}};
            verdict = framesAbove_[at] > 0 ? "fail" : "pass";
            reason = framesAbove_[at] > 0
                         ? std::to_string(framesAbove_[at]) + " frames with over " + percent(rule.share) + " of their pixels outside the " +
                               std::string(primariesLabel(*known)) + " mastering display's gamut, the first frame " +
                               std::to_string(firstAbove_[at]) + " (" + firstAboveTimecode_[at] + "); worst " +
                               percent(worstOutside_) + " at frame " + std::to_string(worstOutsideFrame_)
                         : "no frame has over " + percent(rule.share) + " of its pixels outside the " +
                               std::string(primariesLabel(*known)) + " mastering display's gamut (worst " + percent(worstOutside_) + ")";
            if (framesAbove_[at] > 0) evidence["first_frame"] = qint64(firstAbove_[at]);
        }
    } else if (rule.check == "range_tag") {
        if (!ycbcr_) {
            reason = "an R'G'B' or grey source: no Y'CbCr range to tag";
        } else if (color_.range == Range::Full) {
            // A full-range tag on a file none of whose samples leave the legal range.
            const int32_t scale = 1 << (bitDepth_ - 8);
            const bool legal = yMin_ >= 16 * scale && yMax_ <= 235 * scale && cMin_ >= 16 * scale && cMax_ <= 240 * scale;
            evidence = {{"tag", "full"},          {"y_min", yMin_}, {"y_max", yMax_}, {"c_min", cMin_},
                        {"c_max", cMax_},        {"frames", qint64(frames_)}};
            verdict = legal ? "fail" : "pass";
            reason = std::string(legal ? "a full-range tag, but every sample of the file lies in the legal range"
                                       : "a full-range tag, and the file uses codes outside the legal range") +
                     " (Y " + std::to_string(yMin_) + ".." + std::to_string(yMax_) + ", Cb/Cr " + std::to_string(cMin_) + ".." +
                     std::to_string(cMax_) + ")";
        } else {
            QJsonArray runs;
            for (const QcEvent& e : rangeEvents_)
                if (runs.size() < qsizetype(QcRuleMonitor::kMaxListed)) runs.append(eventJson(e));
            evidence = {{"tag", color_.rangeTagged ? "limited" : "none"}, {"count", qsizetype(rangeEvents_.size())}, {"events", runs}};
            verdict = rangeEvents_.empty() ? "pass" : "fail";
            reason = rangeEvents_.empty() ? std::string("a limited-range ") + (color_.rangeTagged ? "tag" : "reading (no tag)") +
                                                ", and no run of frames reaches beyond R 103's luma limits at both ends with over 1% out of legal"
                                          : std::to_string(rangeEvents_.size()) + " range_tag event" +
                                                (rangeEvents_.size() == 1 ? "" : "s") + ": " + rangeEvents_.front().message;
        }
    } else if (rule.check == "bt2020_in_bt709") {
        if (color_.primaries != Primaries::Bt2020) {
            reason = "the source is not tagged BT.2020 (" +
                     std::string(color_.primaries == Primaries::Unspecified ? "no primaries tag" : primariesLabel(color_.primaries)) + ")";
        } else if (gamutFrames_ == 0) {
            reason = "the gamut was not measured (an R'G'B' or grey source)";
        } else if (gamutTarget_ != Primaries::Bt709) {
            reason = "this run measured against " + std::string(primariesLabel(gamutTarget_)) + ", not BT.709 (--gamut-target bt709)";
        } else {
            const bool inside = worstOutside_ <= rule.share;
            evidence = {{"share", rule.share}, {"worst_share", worstOutside_}, {"worst_frame", qint64(worstOutsideFrame_)},
                        {"worst_timecode", q(worstOutsideTimecode_)}, {"frames", qint64(gamutFrames_)}};
            verdict = inside ? "fail" : "pass";
            reason = std::string(inside ? "tagged BT.2020, but no frame has over " : "tagged BT.2020, and frames go beyond BT.709: ") +
                     (inside ? percent(rule.share) + " of its pixels outside BT.709 (worst " + percent(worstOutside_) + ")"
                             : "worst " + percent(worstOutside_) + " outside at frame " + std::to_string(worstOutsideFrame_) + " (" +
                                   worstOutsideTimecode_ + ")");
        }
    }
}

}  // namespace cs
