// QCTools documents for the timeline.
#include "QcToolsDocument.h"

#include <QFile>
#include <QFileInfo>
#include <QXmlStreamReader>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "playback/Timecode.h"

namespace cs::timeline {
namespace {

struct GzClose {
    void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<std::remove_pointer_t<gzFile>, GzClose>;

constexpr double kNoTime = std::numeric_limits<double>::quiet_NaN();

// signalstats' tags and the series they fill.
struct VideoTag {
    const char* key;
    Series series;
};
constexpr VideoTag kVideoTags[] = {
    {"lavfi.signalstats.YMIN", Series::YMin},     {"lavfi.signalstats.YAVG", Series::YAvg},
    {"lavfi.signalstats.YMAX", Series::YMax},     {"lavfi.signalstats.UAVG", Series::UAvg},
    {"lavfi.signalstats.VAVG", Series::VAvg},     {"lavfi.signalstats.SATAVG", Series::SatAvg},
    {"lavfi.signalstats.YDIF", Series::Ydif},     {"lavfi.signalstats.BRNG", Series::OutOfLegal},
};

struct VideoFrame {
    double pts = kNoTime;
    std::array<float, kSeriesCount> value{};
    std::array<bool, kSeriesCount> present{};
};
struct AudioFrame {
    double pts = kNoTime;
    float momentary = kLoudnessFloor, shortTerm = kLoudnessFloor, truePeak = kLoudnessFloor;
    bool hasTruePeak = false;
    double channelPeak = -1;   // the greatest true_peaks_chN (linear), where there is no true_peak
};

double frameTime(const QXmlStreamAttributes& a) {
    for (const char* key : {"pts_time", "pkt_pts_time", "best_effort_timestamp_time", "pkt_dts_time"}) {
        bool ok = false;
        const double t = a.value(QLatin1String(key)).toDouble(&ok);   // "N/A" is no time
        if (ok && std::isfinite(t)) return t;
    }
    return kNoTime;
}

float decibels(double linear) { return linear > 0 ? float(20.0 * std::log10(linear)) : kLoudnessFloor; }

// The frames read, as they come.
struct Reading {
    std::vector<VideoFrame> video;
    std::vector<AudioFrame> audio;
    int videoStream = -1;
    bool hasLoudness = false;
    bool hasTruePeak = false;
};

// A document's frames into the timeline's data: times filled where a frame had none, the
// audio's loudness spread over the video frames, each frame's elapsed-time timecode.
TimelineData toTimeline(Reading& r) {
    // The frame rate: the median step between the frames' times (25 where they have none).
    std::vector<double> steps;
    for (size_t i = 1; i < r.video.size() && steps.size() < 2001; ++i)
        if (const double d = r.video[i].pts - r.video[i - 1].pts; d > 0) steps.push_back(d);
    double rate = 25.0;
    if (!steps.empty()) {
        std::nth_element(steps.begin(), steps.begin() + ptrdiff_t(steps.size() / 2), steps.end());
        rate = 1.0 / steps[steps.size() / 2];
    }
    for (size_t i = 0; i < r.video.size(); ++i)
        if (std::isnan(r.video[i].pts)) r.video[i].pts = i == 0 ? 0.0 : r.video[i - 1].pts + 1.0 / rate;
    std::erase_if(r.audio, [](const AudioFrame& a) { return std::isnan(a.pts); });
    // The window's clock: seconds from the first video frame (ffprobe and QCTools write the
    // stream's own times, which may start anywhere).
    const double origin = r.video.empty() ? 0.0 : r.video.front().pts;
    for (VideoFrame& v : r.video) v.pts -= origin;
    for (AudioFrame& a : r.audio) a.pts -= origin;
    std::stable_sort(r.audio.begin(), r.audio.end(), [](const AudioFrame& a, const AudioFrame& b) { return a.pts < b.pts; });

    TimelineData data;
    data.setFrameRate(rate);
    size_t next = 0;   // the first audio frame not yet started before the current video frame's end
    for (size_t i = 0; i < r.video.size(); ++i) {
        const VideoFrame& v = r.video[i];
        FrameValues f;
        f.pts = v.pts;
        f.timecode = cs::timecode(v.pts, rate);
        f.value = v.value;
        f.present = v.present;
        if (r.hasLoudness) {
            const double end = i + 1 < r.video.size() && r.video[i + 1].pts > v.pts ? r.video[i + 1].pts : v.pts + 1.0 / rate;
            // True peak: the loudest audio frame starting within this video frame, else the one running over it.
            float peak = next > 0 ? r.audio[next - 1].truePeak : kLoudnessFloor;
            bool started = false;
            while (next < r.audio.size() && r.audio[next].pts < end) {
                peak = started ? std::max(peak, r.audio[next].truePeak) : r.audio[next].truePeak;
                started = true;
                ++next;
            }
            const auto m = size_t(Series::Momentary), s = size_t(Series::ShortTerm), t = size_t(Series::TruePeak);
            f.present[m] = f.present[s] = true;
            f.value[m] = next > 0 ? r.audio[next - 1].momentary : kLoudnessFloor;
            f.value[s] = next > 0 ? r.audio[next - 1].shortTerm : kLoudnessFloor;
            f.present[t] = r.hasTruePeak;
            f.value[t] = next > 0 ? peak : kLoudnessFloor;
        }
        data.addValues(f);
    }
    data.markWhole();
    return data;
}

}  // namespace

Result<TimelineData> readQcToolsDocument(const QString& path, const std::atomic<bool>* cancel) {
    const std::string name = path.toStdString();
    QFile probe(path);
    if (!probe.open(QIODevice::ReadOnly)) return Status::error(name + ": cannot be read (" + probe.errorString().toStdString() + ")");
    // gzip by its magic bytes; else XML (after a byte-order mark and white space) or nothing we read.
    QByteArray head = probe.read(64);
    probe.close();
    const bool gzip = head.startsWith("\x1f\x8b");
    if (!gzip) {
        if (head.startsWith("\xef\xbb\xbf")) head.remove(0, 3);
        const QByteArray text = head.trimmed();
        if (!text.startsWith('<'))
            return Status::error(name + (head.isEmpty() ? ": is empty, not a QCTools document"
                                                        : ": not a QCTools document (neither gzip-compressed nor XML)"));
    }
    GzFile gz(gzopen(QFile::encodeName(path).constData(), "rb"));   // zlib reads plain files as they are
    if (!gz) return Status::error(name + ": cannot be read");
    gzbuffer(gz.get(), 1 << 17);

    Reading r;
    QXmlStreamReader xml;
    bool rootSeen = false, ended = false;
    enum class In { Nothing, Video, Audio } in = In::Nothing;
    VideoFrame video;
    AudioFrame audio;
    std::vector<char> buffer(1 << 16);
    for (;;) {
        if (cancel && cancel->load()) return Status::error(name + ": reading was stopped");
        const int n = gzread(gz.get(), buffer.data(), unsigned(buffer.size()));
        if (n < 0) {
            int code = 0;
            const char* why = gzerror(gz.get(), &code);
            return Status::error(name + ": the gzip stream is damaged or cut short (" + std::string(why ? why : "zlib error") + ")");
        }
        if (n > 0) xml.addData(QByteArray(buffer.data(), n));
        while (!xml.atEnd()) {
            const QXmlStreamReader::TokenType token = xml.readNext();
            if (token == QXmlStreamReader::StartElement) {
                const QStringView element = xml.name();
                if (!rootSeen) {
                    if (element != QLatin1String("ffprobe"))
                        return Status::error(name + ": not an ffprobe or QCTools document (its root element is <" +
                                             element.toString().toStdString() + ">, not <ffprobe>)");
                    rootSeen = true;
                } else if (element == QLatin1String("frame")) {
                    const QXmlStreamAttributes a = xml.attributes();
                    const QStringView type = a.value(QLatin1String("media_type"));
                    const int stream = a.value(QLatin1String("stream_index")).toInt();
                    in = In::Nothing;
                    if (type == QLatin1String("video")) {
                        if (r.videoStream < 0) r.videoStream = stream;
                        if (stream == r.videoStream) {
                            in = In::Video;
                            video = VideoFrame{};
                            video.pts = frameTime(a);
                        }
                    } else if (type == QLatin1String("audio")) {
                        in = In::Audio;
                        audio = AudioFrame{};
                        audio.pts = frameTime(a);
                    }
                } else if (element == QLatin1String("tag") && in != In::Nothing) {
                    const QXmlStreamAttributes a = xml.attributes();
                    const QStringView key = a.value(QLatin1String("key"));
                    bool ok = false;
                    const double v = a.value(QLatin1String("value")).toDouble(&ok);
                    if (!ok || !std::isfinite(v)) continue;
                    if (in == In::Video) {
                        for (const VideoTag& t : kVideoTags)
                            if (key == QLatin1String(t.key)) {
                                video.value[size_t(t.series)] = float(v);
                                video.present[size_t(t.series)] = true;
                            }
                    } else if (key == QLatin1String("lavfi.r128.M")) {
                        audio.momentary = float(v);
                        r.hasLoudness = true;
                    } else if (key == QLatin1String("lavfi.r128.S")) {
                        audio.shortTerm = float(v);
                    } else if (key == QLatin1String("lavfi.r128.true_peak")) {
                        audio.truePeak = decibels(v);
                        audio.hasTruePeak = r.hasTruePeak = true;
                    } else if (key.startsWith(QLatin1String("lavfi.r128.true_peaks_ch"))) {
                        audio.channelPeak = std::max(audio.channelPeak, v);
                    }
                }
            } else if (token == QXmlStreamReader::EndElement && xml.name() == QLatin1String("frame")) {
                if (in == In::Video) r.video.push_back(video);
                if (in == In::Audio) {
                    if (!audio.hasTruePeak && audio.channelPeak >= 0) {
                        audio.truePeak = decibels(audio.channelPeak);
                        r.hasTruePeak = true;
                    }
                    r.audio.push_back(audio);
                }
                in = In::Nothing;
            } else if (token == QXmlStreamReader::EndDocument) {
                ended = true;
            }
        }
        if (xml.hasError() && xml.error() != QXmlStreamReader::PrematureEndOfDocumentError)
            return Status::error(name + ": not an ffprobe or QCTools document (XML error at line " +
                                 std::to_string(xml.lineNumber()) + ": " + xml.errorString().toStdString() + ")");
        if (n == 0) {
            // zlib ends a gzip stream cut short as if it were whole but for this error.
            int code = Z_OK;
            gzerror(gz.get(), &code);
            if (code == Z_BUF_ERROR) return Status::error(name + ": the gzip stream is damaged or cut short (unexpected end of file)");
            break;
        }
    }
    if (!ended)
        return Status::error(name + ": the document is cut short (it ends at line " + std::to_string(xml.lineNumber()) +
                             (r.video.empty() ? ")" : ", after " + std::to_string(r.video.size()) + " video frames)"));
    if (r.video.empty()) return Status::error(name + ": has no video frames (an ffprobe document without -show_frames of a video stream?)");
    return toTimeline(r);
}

Result<TimelineData> readStatisticsDocument(const QString& path, const std::atomic<bool>* cancel) {
    if (path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) return TimelineData::fromQcJson(path);
    return readQcToolsDocument(path, cancel);
}

QStringList qcToolsBesideInput(const QString& input) {
    const QFileInfo info(input);
    if (!info.isFile()) return {};
    const QString whole = info.absoluteFilePath();
    const QString base = info.absolutePath() + QLatin1Char('/') + info.completeBaseName();
    return {whole + QStringLiteral(".qctools.xml.gz"), base + QStringLiteral(".qctools.xml.gz"), whole + QStringLiteral(".qctools.xml"),
            base + QStringLiteral(".qctools.xml")};
}

}  // namespace cs::timeline
