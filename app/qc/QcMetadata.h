// `cudascope qc`: does the metadata tell the truth. The stream's own statements (field order,
// range, primaries, CTA-861.3 content light level, SMPTE ST 2086 mastering display) against
// what the frames hold (docs/QC.md, "Metadata against content"):
//  - field_order events: idet's multi-frame type (analysis/Interlace.h) contradicting the
//    frame's signalled field order for at least kMinRunFrames frames;
//  - range_tag events: a limited-range stream whose frames reach beyond both of EBU R 103's
//    luma limits with over 1% of their pixels out of legal, for at least kMinRunFrames frames;
//  - whole-file findings for the policy checks content_light_level, mastering_gamut,
//    range_tag and bt2020_in_bt709 (QcPolicy.h), each verdict with its evidence.
// Every number comes from counts both engines make (the statistics, signalstats, the HDR
// light levels and the share outside the gamut target), except idet's, which runs on host
// frames only. Used by one thread (the run's), one per input.
#pragma once
#include <QJsonObject>

#include <cstdint>
#include <string>
#include <vector>

#include "QcEvents.h"
#include "analysis/Interlace.h"
#include "core/ScopeResults.h"
#include "decode/Source.h"

struct AVFrame;

namespace cs {

struct QcRule;

class QcMetadataMonitor {
public:
    static constexpr int kMinRunFrames = 5;   // field_order and range_tag: the shortest run that is an event
    // masteringShares: the `share` of each mastering_gamut rule (frames above each are counted).
    QcMetadataMonitor(const SourceInfo& info, std::vector<double> masteringShares);

    // The field order a frame signals: its own flags where it says it is interlaced (H.264,
    // HEVC, MPEG-2 carry them per picture), else the stream's field_order (the container's)
    // where that is interlaced, else progressive.
    FieldType signalledField(const AVFrame* av) const;
    // idet's judgement of a frame (it comes a frame late: the caller keeps the frame's index,
    // time, timecode and signalled order until then).
    void fieldJudged(int64_t index, double pts, const std::string& timecode, FieldType signalled, FieldType detected,
                     std::vector<QcEvent>& events);

    // One frame's measurements (every engine) and its side data (`av`, the decoded frame;
    // onDevice: decoded by NVDEC, whose frames carry no SEI side data).
    void frame(int64_t index, double pts, const std::string& timecode, const ScopeResults& r, const AVFrame* av,
               bool onDevice, std::vector<QcEvent>& events);
    void finish(std::vector<QcEvent>& events);

    // The verdict of a metadata check (content_light_level, mastering_gamut, range_tag,
    // bt2020_in_bt709): "pass", "fail" or "not_applicable", with its reason and evidence.
    void verdict(const QcRule& rule, std::string& verdict, std::string& reason, QJsonObject& evidence) const;
    // The source's statements as read (the tail's "signalled").
    QJsonObject signalledJson() const;

private:
    struct Run {   // a field_order or range_tag run being followed
        bool open = false;
        QcEvent event;
        int64_t frames = 0;
    };
    void extend(Run& run, const char* type, int64_t index, double pts, const std::string& timecode, const std::string& message,
                std::vector<QcEvent>& events);
    void close(Run& run, std::vector<QcEvent>& events);

    std::string streamFieldOrder_;
    // The signalled light level and mastering primaries, and where they were read.
    double maxCll_ = -1, maxFall_ = -1;
    std::string cllFrom_, masteringFrom_;
    std::vector<double> mastering_;   // rx, ry, gx, gy, bx, by, wx, wy
    bool onDevice_ = false;           // some frame was decoded by NVDEC

    Run field_, range_;
    std::string lastFieldMessage_;
    std::vector<QcEvent> rangeEvents_;   // copies of range_tag events (the range_tag verdict's evidence)

    // Whole-file measurements.
    int64_t frames_ = 0, hdrFrames_ = 0, gamutFrames_ = 0;
    double measuredCll_ = 0, measuredFall_ = 0;
    int64_t cllFrame_ = -1, fallFrame_ = -1;
    ColorInfo color_;
    Transfer firstTransfer_ = Transfer::Bt709;
    Primaries gamutSource_ = Primaries::Bt709, gamutTarget_ = Primaries::Bt709;
    int bitDepth_ = 8;
    int32_t yMin_ = INT32_MAX, yMax_ = INT32_MIN, cMin_ = INT32_MAX, cMax_ = INT32_MIN;
    double worstOutside_ = 0;
    int64_t worstOutsideFrame_ = -1;
    std::string worstOutsideTimecode_;
    // Per mastering_gamut share: the frames above it and the first of them.
    std::vector<double> masteringShares_;
    std::vector<int64_t> framesAbove_, firstAbove_;
    std::vector<std::string> firstAboveTimecode_;
    bool ycbcr_ = true;
};

}  // namespace cs
