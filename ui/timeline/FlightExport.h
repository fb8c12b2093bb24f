// The flight recorder's Qt side (playback/FlightRecorder.h keeps the bytes): thumbnails made
// and read as JPEG by QImage, recorded frames as qc.json frame lines, and a recorded time
// range written as NAME.qc.json and NAME.qc.csv in qc's format (the frame lines' members are
// qc's: index, pts, timecode, stats, hdr, gamut; plus wall_clock, the time of day it was shown;
// the CSV by qc's own rule, report/QcCsvRow.h), so the tools that read qc's reports (the
// timeline, QcIndex, a spreadsheet) read a live recording's too.
//
// Threading: any thread (QImage is reentrant); the export reads the recorder through its lock.
#pragma once
#include <QImage>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <vector>

#include "core/ScopeResults.h"
#include "core/Status.h"
#include "playback/FlightRecorder.h"

namespace cs::timeline {

// The flight recorder's thumbnail size (within 160 x 90, the picture's aspect kept) and
// JPEG quality: about 3 to 6 KB a picture.
inline constexpr int kThumbnailWidth = 160, kThumbnailHeight = 90, kThumbnailQuality = 75;

std::vector<uint8_t> encodeThumbnail(const RgbaImage& picture);
QImage decodeThumbnail(const std::vector<uint8_t>& bytes);

// One recorded frame as qc.json's frame line (`index`: its serial in the recording).
QJsonObject flightFrameJson(const FlightFrame& frame, int64_t index);

// The frames recorded in [from, to] (the recorder's clock) and the alarms that overlap them,
// as `base`.qc.json and `base`.qc.csv (`source`: qc.json's head "source"). Errors name the file.
Status exportFlightRange(const FlightRecorder& recorder, double from, double to, const QString& base,
                         const QJsonObject& source);

}  // namespace cs::timeline
