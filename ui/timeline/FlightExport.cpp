// The flight recorder's Qt side.
#include "FlightExport.h"

#include <QBuffer>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTimeZone>

#include <algorithm>

#include "core/Gamut.h"
#include "report/QcCsvRow.h"

namespace cs::timeline {

namespace {

QJsonObject channel(int32_t min, int32_t max, double avg) { return {{"min", min}, {"max", max}, {"avg", avg}}; }
QString str(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

Status save(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);   // written whole under a temporary name, renamed on commit
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Status::error(path.toStdString() + ": cannot be written (" + file.errorString().toStdString() + ")");
    return {};
}

}  // namespace

std::vector<uint8_t> encodeThumbnail(const RgbaImage& picture) {
    if (picture.empty()) return {};
    const QImage image(picture.pixels.data(), picture.width, picture.height, picture.width * 4, QImage::Format_RGBA8888);
    const QImage small = image.scaled(kThumbnailWidth, kThumbnailHeight, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                             .convertToFormat(QImage::Format_RGB888);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!small.save(&buffer, "JPEG", kThumbnailQuality)) return {};
    return {bytes.begin(), bytes.end()};
}

QImage decodeThumbnail(const std::vector<uint8_t>& bytes) {
    QImage image;
    image.loadFromData(bytes.data(), int(bytes.size()), "JPEG");
    return image;
}

QJsonObject flightFrameJson(const FlightFrame& f, int64_t index) {
    QJsonObject line{{"index", qint64(index)},
                     {"pts", f.pts},
                     {"timecode", QString::fromLatin1(f.timecode)},
                     {"wall_clock", QDateTime::fromMSecsSinceEpoch(qint64(f.wallClock * 1000.0), QTimeZone::utc())
                                        .toString(Qt::ISODateWithMs)},
                     {"stats", QJsonObject{{"y", channel(f.yMin, f.yMax, f.yAvg)},
                                           {"u", channel(f.uMin, f.uMax, f.uAvg)},
                                           {"v", channel(f.vMin, f.vMax, f.vAvg)},
                                           {"out_of_legal", f.outOfLegal},
                                           {"out_of_gamut", f.outOfGamut},
                                           {"out_of_r103", f.outOfR103}}}};
    if (f.flags & FlightFrame::kHdr)
        line["hdr"] = QJsonObject{{"transfer", str(transferName(Transfer(f.transfer)))},
                                  {"max_nits", double(f.maxNits)},
                                  {"avg_nits", double(f.avgNits)},
                                  {"above_203_nits", double(f.above[0])},
                                  {"above_1000_nits", double(f.above[1])},
                                  {"above_4000_nits", double(f.above[2])}};
    if (f.flags & FlightFrame::kGamut)
        line["gamut"] = QJsonObject{{"source", str(primariesLabel(Primaries(f.gamutSource)))},
                                    {"source_tagged", f.sourceTagged != 0},
                                    {"target", str(gamutTargetName(Primaries(f.gamutTarget)))},
                                    {"outside", qint64(f.outside)},
                                    {"outside_share", f.outsideShare}};
    return line;
}

Status exportFlightRange(const FlightRecorder& recorder, double from, double to, const QString& base, const QJsonObject& source) {
    if (to < from) std::swap(from, to);
    const int64_t a = recorder.serialAt(from), b = recorder.serialAt(to);
    if (a < 0) return Status::error(base.toStdString() + ".qc.json: nothing is recorded yet");
    int64_t first = a;
    std::vector<FlightFrame> frames = recorder.frames(a, b + 1, &first);
    // serialAt gives the nearest frame: keep those inside the range only.
    while (!frames.empty() && frames.front().time < from && frames.size() > 1) {
        frames.erase(frames.begin());
        ++first;
    }
    while (frames.size() > 1 && frames.back().time > to) frames.pop_back();
    if (frames.empty()) return Status::error(base.toStdString() + ".qc.json: no recorded frame between those times");

    QJsonArray lines;
    std::string csv;
    std::vector<std::string> columns;
    for (size_t i = 0; i < frames.size(); ++i) {
        const QJsonObject line = flightFrameJson(frames[i], first + int64_t(i));
        if (columns.empty()) {
            columns = qcCsvColumns(line);
            csv = qcCsvHeader(columns);
        }
        csv += qcCsvRow(line, columns);
        lines.append(line);
    }
    // The alarms that overlap the range, as qc's events (frames by their serials).
    const auto frameOf = [&](double t) {
        const auto it = std::lower_bound(frames.begin(), frames.end(), t, [](const FlightFrame& f, double v) { return f.time < v; });
        return first + int64_t(std::min<size_t>(size_t(it - frames.begin()), frames.size() - 1));
    };
    QJsonArray events;
    QJsonObject counts;
    for (const FlightEvent& e : recorder.events()) {
        if (e.lastTime < frames.front().time || e.firstTime > frames.back().time) continue;
        const int64_t f0 = frameOf(e.firstTime), f1 = std::max(f0, frameOf(e.lastTime));
        const FlightFrame& a0 = frames[size_t(f0 - first)];
        const FlightFrame& a1 = frames[size_t(f1 - first)];
        QJsonObject o{{"type", QString::fromStdString(e.type)}, {"first_frame", qint64(f0)}, {"last_frame", qint64(f1)},
                      {"first_pts", a0.pts}, {"last_pts", a1.pts},
                      {"first_timecode", QString::fromLatin1(a0.timecode)}, {"last_timecode", QString::fromLatin1(a1.timecode)}};
        if (!e.message.empty()) o["message"] = QString::fromStdString(e.message);
        if (e.open) o["open"] = true;   // still active when exported
        events.append(o);
        counts[QString::fromStdString(e.type)] = counts[QString::fromStdString(e.type)].toInt() + 1;
    }
    QJsonObject head = source;
    head["live"] = true;
    const QJsonObject report{{"source", head},
                             {"frames", lines},
                             {"events", events},
                             {"summary", QJsonObject{{"frames", qint64(frames.size())},
                                                     {"first_frame", qint64(first)},
                                                     {"duration", frames.back().time - frames.front().time},
                                                     {"events", counts}}}};
    if (Status s = save(base + QStringLiteral(".qc.json"), QJsonDocument(report).toJson(QJsonDocument::Indented)); !s) return s;
    return save(base + QStringLiteral(".qc.csv"), QByteArray::fromStdString(csv));
}

}  // namespace cs::timeline
