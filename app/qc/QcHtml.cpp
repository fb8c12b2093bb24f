#include "QcHtml.h"

#include <QByteArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "app/export/FrameFiles.h"

namespace cs {
namespace {

constexpr const char* kVerdictsOpen = "<script type=\"application/json\" id=\"qc-verdicts\">";
constexpr const char* kVerdictsClose = "</script>";

std::string fmt(const char* format, double v) {
    char b[64];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

std::string valueText(const QJsonValue& v) {
    if (v.isString()) return v.toString().toStdString();
    if (v.isBool()) return v.toBool() ? "yes" : "no";
    if (v.isDouble()) {
        const double d = v.toDouble();
        return d == std::floor(d) && std::fabs(d) < 1e15 ? std::to_string(int64_t(d)) : fmt("%.6g", d);
    }
    if (v.isNull()) return "-";
    return QJsonDocument(v.isObject() ? QJsonDocument(v.toObject()) : QJsonDocument(v.toArray()))
        .toJson(QJsonDocument::Compact)
        .toStdString();
}

std::string verdictCell(const std::string& v) {
    const char* cls = v == "pass" ? "pass" : v == "fail" ? "fail" : "na";
    return std::string("<td class=\"") + cls + "\">" + htmlEscape(v) + "</td>";
}

// Where a time falls on the graph's x axis.
struct Axis {
    double x0, width, t0, t1;
    double x(double t) const { return t1 > t0 ? x0 + (t - t0) / (t1 - t0) * width : x0; }
};

struct Line {
    QcSeries::Series series;
    const char* colour;
    const char* label;
    bool useMax;   // draw the bucket's max (else its min; YAvg: the middle)
};

// One inline SVG graph of some series over time: a value axis (lo..hi with `ticks`), the
// timecode axis under it (the first frame's timecode of the bucket at each tick).
std::string svgGraph(const std::string& title, const std::vector<QcSeries::Bucket>& b, double endPts,
                     const std::vector<Line>& lines, double lo, double hi, const std::vector<std::pair<double, std::string>>& ticks,
                     const std::vector<std::pair<double, const char*>>& references = {}) {
    constexpr double W = 1100, H = 200, left = 70, top = 24, plotW = 1010, plotH = 140;
    std::string s = "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fmt("%.0f", W) + "\" height=\"" +
                    fmt("%.0f", H + 30) + "\" viewBox=\"0 0 " + fmt("%.0f", W) + " " + fmt("%.0f", H + 30) + "\">";
    s += "<text x=\"" + fmt("%.0f", left) + "\" y=\"16\" class=\"gt\">" + htmlEscape(title) + "</text>";
    s += "<rect x=\"" + fmt("%.0f", left) + "\" y=\"" + fmt("%.0f", top) + "\" width=\"" + fmt("%.0f", plotW) + "\" height=\"" +
         fmt("%.0f", plotH) + "\" class=\"plot\"/>";
    const auto yOf = [&](double v) { return top + plotH - (std::clamp(v, lo, hi) - lo) / (hi - lo) * plotH; };
    for (const auto& [v, label] : ticks) {
        s += "<line x1=\"" + fmt("%.0f", left) + "\" x2=\"" + fmt("%.0f", left + plotW) + "\" y1=\"" + fmt("%.1f", yOf(v)) +
             "\" y2=\"" + fmt("%.1f", yOf(v)) + "\" class=\"grid\"/>";
        s += "<text x=\"" + fmt("%.0f", left - 6) + "\" y=\"" + fmt("%.1f", yOf(v) + 4) + "\" class=\"yl\">" + htmlEscape(label) + "</text>";
    }
    for (const auto& [v, colour] : references)
        s += "<line x1=\"" + fmt("%.0f", left) + "\" x2=\"" + fmt("%.0f", left + plotW) + "\" y1=\"" + fmt("%.1f", yOf(v)) +
             "\" y2=\"" + fmt("%.1f", yOf(v)) + "\" stroke=\"" + colour + "\" stroke-dasharray=\"4 3\"/>";
    if (b.empty()) return s + "</svg></figure>";
    const Axis axis{left, plotW, b.front().firstPts, std::max(endPts, b.front().firstPts + 1e-6)};
    // The timecode axis: 6 ticks, each at the bucket nearest its time.
    for (int i = 0; i <= 5; ++i) {
        const size_t at = std::min(b.size() - 1, size_t(std::lround(double(b.size() - 1) * i / 5.0)));
        const double x = axis.x(b[at].firstPts);
        s += "<line x1=\"" + fmt("%.1f", x) + "\" x2=\"" + fmt("%.1f", x) + "\" y1=\"" + fmt("%.0f", top + plotH) + "\" y2=\"" +
             fmt("%.0f", top + plotH + 5) + "\" class=\"axis\"/>";
        s += "<text x=\"" + fmt("%.1f", x) + "\" y=\"" + fmt("%.0f", top + plotH + 18) + "\" class=\"xl\">" +
             htmlEscape(b[at].timecode) + "</text>";
    }
    double legendX = left + plotW;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        const Line& l = *it;
        std::string points;
        bool any = false;
        for (size_t i = 0; i < b.size(); ++i) {
            const size_t k = size_t(l.series);
            const float v = l.series == QcSeries::YAvg ? 0.5f * (b[i].min[k] + b[i].max[k]) : l.useMax ? b[i].max[k] : b[i].min[k];
            const double end = i + 1 < b.size() ? b[i + 1].firstPts : endPts;
            if (std::isnan(v)) {   // a gap: the polyline ends here
                if (any) s += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + l.colour + "\"/>";
                points.clear();
                any = false;
                continue;
            }
            points += fmt("%.1f", axis.x(b[i].firstPts)) + "," + fmt("%.1f", yOf(v)) + " " + fmt("%.1f", axis.x(end)) + "," +
                      fmt("%.1f", yOf(v)) + " ";
            any = true;
        }
        if (any) s += "<polyline points=\"" + points + "\" fill=\"none\" stroke=\"" + l.colour + "\"/>";
        legendX -= 110;
        s += "<text x=\"" + fmt("%.0f", legendX) + "\" y=\"16\" fill=\"" + l.colour + "\" class=\"lg\">&#9632; " + l.label + "</text>";
    }
    return s + "</svg></figure>";
}

std::string eventDuration(const QcEvent& e, double frameDuration) {
    if (e.start >= 0) return fmt("%.3f s", e.end - e.start);
    return fmt("%.3f s", e.lastPts - e.firstPts + frameDuration);
}

std::string evidenceHtml(const QJsonObject& v) {
    const QJsonObject ev = v["evidence"].toObject();
    std::string s;
    if (ev.contains("runs")) {
        const QJsonArray runs = ev["runs"].toArray();
        if (!runs.isEmpty()) {
            s += "<table class=\"ev\"><tr><th>first frame</th><th>last frame</th><th>first timecode</th><th>last timecode</th>"
                 "<th>worst share</th><th>worst frame</th></tr>";
            for (const QJsonValue& r : runs) {
                const QJsonObject o = r.toObject();
                s += "<tr><td class=\"n\">" + valueText(o["first_frame"]) + "</td><td class=\"n\">" + valueText(o["last_frame"]) +
                     "</td><td>" + htmlEscape(valueText(o["first_timecode"])) + "</td><td>" + htmlEscape(valueText(o["last_timecode"])) +
                     "</td><td class=\"n\">" + fmt("%.4f%%", 100.0 * o["worst_share"].toDouble()) + "</td><td class=\"n\">" +
                     valueText(o["worst_frame"]) + "</td></tr>";
            }
            s += "</table>";
            if (ev.contains("runs_not_listed")) s += "<p>" + valueText(ev["runs_not_listed"]) + " more runs not listed</p>";
        }
    } else if (ev.contains("events")) {
        const QJsonArray events = ev["events"].toArray();
        if (!events.isEmpty()) {
            s += "<table class=\"ev\"><tr><th>first frame</th><th>last frame</th><th>first timecode</th><th>last timecode</th><th>message</th></tr>";
            for (const QJsonValue& e : events) {
                const QJsonObject o = e.toObject();
                s += "<tr><td class=\"n\">" + valueText(o["first_frame"]) + "</td><td class=\"n\">" + valueText(o["last_frame"]) +
                     "</td><td>" + htmlEscape(valueText(o["first_timecode"])) + "</td><td>" + htmlEscape(valueText(o["last_timecode"])) +
                     "</td><td>" + htmlEscape(o["message"].toString().toStdString()) + "</td></tr>";
            }
            s += "</table>";
        }
    } else {
        for (auto it = ev.begin(); it != ev.end(); ++it)
            s += "<span class=\"kv\">" + htmlEscape(it.key().toStdString()) + " <b class=\"val\">" + htmlEscape(valueText(*it)) +
                 "</b></span> ";
    }
    return s;
}

// The graphs over time, as inline SVG: luma, the shares out of range, the loudness.
std::string svgGraphs(const QcHtmlReport& r) {
    std::string s;
    static const std::vector<QcSeries::Bucket> none;
    const auto& b = r.series ? r.series->buckets() : none;
    const double top = double(r.levels - 1), scale = double(r.levels) / 256.0;
    s += svgGraph("Luma (code values)", b, r.endPts,
                  {{QcSeries::YMax, "#c03030", "Y max", true}, {QcSeries::YAvg, "#303030", "Y avg", false},
                   {QcSeries::YMin, "#3050c0", "Y min", false}},
                  0, top, {{0, "0"}, {16 * scale, std::to_string(int(16 * scale))}, {235 * scale, std::to_string(int(235 * scale))}, {top, std::to_string(int(top))}},
                  {{16 * scale, "#888"}, {235 * scale, "#888"}});
    // The share's scale: the smallest of 5%, 25%, 100% that holds the worst frame.
    float worst = 0;
    for (const auto& bucket : b)
        for (auto series : {QcSeries::R103, QcSeries::Legal})
            if (!std::isnan(bucket.max[size_t(series)])) worst = std::max(worst, bucket.max[size_t(series)]);
    const double shareTop = worst <= 0.05f ? 0.05 : worst <= 0.25f ? 0.25 : 1.0;
    std::vector<std::pair<double, std::string>> shareTicks{{0, "0%"}, {0.01, "1%"}};
    for (double t : {0.05, 0.25, 0.5, 1.0})
        if (t <= shareTop + 1e-9) shareTicks.push_back({t, fmt("%.0f%%", 100 * t)});
    s += svgGraph("Pixels out of range (% of the picture, worst frame per column)", b, r.endPts,
                  {{QcSeries::R103, "#c03030", "outside R 103", true}, {QcSeries::Legal, "#d08000", "out of legal", true}},
                  0, shareTop, shareTicks, {{0.01, "#c03030"}});
    if (!r.audio.isEmpty())
        s += svgGraph("Loudness (LUFS)", b, r.endPts,
                      {{QcSeries::Momentary, "#3070c0", "momentary", true}, {QcSeries::ShortTerm, "#202020", "short-term", true}},
                      -60, 0, {{-60, "-60"}, {-40, "-40"}, {-23, "-23"}, {-10, "-10"}, {0, "0"}}, {{-23, "#30a030"}});
    return s;
}

// An image as a data: URI of its PNG ("" when it cannot be encoded).
std::string pngDataUri(const RgbaImage& image) {
    QByteArray png;
    if (!encodePng("a picture", image, png)) return {};
    return "data:image/png;base64," + png.toBase64().toStdString();
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222;background:#fff}"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:22px 0 6px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}"
    "th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "td.pass{background:#d8f5d8;color:#064}td.fail{background:#fbd5d5;color:#900;font-weight:bold}td.na{background:#eee;color:#666}"
    ".big{font-size:20px;padding:4px 12px;display:inline-block}.pass.big{background:#d8f5d8}.fail.big{background:#fbd5d5}"
    "table.ev{margin:4px 0}figure{margin:8px 0}svg .plot{fill:#fafafa;stroke:#999}svg .grid{stroke:#ddd}"
    "svg .axis{stroke:#666}svg text{font-size:11px;fill:#333}svg .gt{font-size:13px;font-weight:bold}"
    "svg .yl{text-anchor:end}svg .xl{text-anchor:middle}svg polyline{stroke-width:1.3}.kv{margin-right:12px}";

}  // namespace

std::string qcThumbnailResource(int64_t frame) { return "frame-" + std::to_string(frame) + ".png"; }

std::string htmlEscape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string qcHtml(const QcHtmlReport& r, QcHtmlFor target) {
    const double rate = r.source["frame_rate"].toDouble();
    const double frameDuration = rate > 0 ? 1.0 / rate : 0.0;
    std::string s = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + htmlEscape(r.name) +
                    " - cudascope qc</title><style>" + kStyle + "</style></head><body>\n";
    s += "<h1>" + htmlEscape(r.name) + "</h1><p>" + htmlEscape(r.input) + " &middot; " + std::to_string(r.frames) + " frames &middot; engine " +
         htmlEscape(r.engine) + " &middot; reading ended: " + htmlEscape(r.ended) + "</p>\n";

    // The verdicts first: what the client asks.
    s += "<h2>Verdict</h2>";
    if (r.verdicts.isEmpty()) {
        s += "<p>No policy was given (qc --policy): the events below are findings, not verdicts.</p>";
    } else {
        s += "<p>Overall: <span id=\"overall\" class=\"" + r.verdict + " big\">" + htmlEscape(r.verdict) + "</span></p>";
        // On paper the evidence takes a row of its own under its rule, the page being narrower.
        const bool print = target == QcHtmlFor::Print;
        s += print ? "<table id=\"verdicts\" width=\"100%\"><tr><th width=\"12%\">policy</th><th width=\"16%\">rule</th>"
                     "<th width=\"28%\">title</th><th width=\"9%\">verdict</th><th width=\"35%\">reason</th></tr>"
                   : "<table id=\"verdicts\"><tr><th>policy</th><th>rule</th><th>title</th><th>verdict</th><th>reason</th><th>evidence</th></tr>";
        for (const QJsonValue& v : r.verdicts) {
            const QJsonObject o = v.toObject();
            const std::string evidence = evidenceHtml(o);
            s += "<tr data-rule=\"" + htmlEscape(o["policy"].toString().toStdString() + "/" + o["rule"].toString().toStdString()) +
                 "\"><td>" + htmlEscape(o["policy"].toString().toStdString()) + "</td><td>" + htmlEscape(o["rule"].toString().toStdString()) +
                 "</td><td>" + htmlEscape(o["title"].toString().toStdString()) + "</td>" + verdictCell(o["verdict"].toString().toStdString()) +
                 "<td>" + htmlEscape(o["reason"].toString().toStdString()) + "</td>";
            if (!print) s += "<td>" + evidence + "</td></tr>";
            else s += "</tr>" + (evidence.empty() ? std::string() : "<tr><td></td><td colspan=\"4\">" + evidence + "</td></tr>");
        }
        s += "</table><h2>Policies</h2><table><tr><th>policy</th><th>title</th><th>source document</th></tr>";
        for (const QJsonValue& p : r.policies) {
            const QJsonObject o = p.toObject();
            s += "<tr><td>" + htmlEscape(o["name"].toString().toStdString()) + "</td><td>" + htmlEscape(o["title"].toString().toStdString()) +
                 "</td><td>" + htmlEscape(o["source"].toString().toStdString()) + "</td></tr>";
        }
        s += "</table>";
    }

    s += "\n<h2>Source</h2><table id=\"source\">";
    for (auto it = r.source.begin(); it != r.source.end(); ++it)
        if (!it->isObject() && !it->isArray())
            s += "<tr><th>" + htmlEscape(it.key().toStdString()) + "</th><td data-key=\"" + htmlEscape(it.key().toStdString()) + "\">" +
                 htmlEscape(valueText(*it)) + "</td></tr>";
    s += "</table>";
    if (!r.audio.isEmpty()) {
        s += "<h2>Audio</h2><table id=\"audio\">";
        for (const QJsonObject* o : {&r.audio, &r.audioSummary})
            for (auto it = o->begin(); it != o->end(); ++it)
                if (!it->isObject() && !it->isArray())
                    s += "<tr><th>" + htmlEscape(it.key().toStdString()) + "</th><td data-key=\"" + htmlEscape(it.key().toStdString()) +
                         "\">" + htmlEscape(valueText(*it)) + "</td></tr>";
        s += "</table>";
    }

    // Graphs over time.
    s += "\n<h2>Over time</h2>";
    if (target == QcHtmlFor::Print)   // qc.png's picture: QTextDocument draws no SVG
        s += std::string("<p><img src=\"") + kQcGraphsResource + "\" width=\"680\"></p>";
    else
        s += svgGraphs(r);

    // Events.
    s += "\n<h2>Events</h2>";
    const std::vector<QcEvent> empty;
    const auto& events = r.events ? *r.events : empty;
    if (events.empty()) {
        s += "<p>No events.</p>";
    } else {
        const QcThumbnails* thumbs = r.thumbnails;
        if (!thumbs)
            s += "<p>No pictures of the events' first frames were made.</p>";
        else if (!thumbs->note.empty())
            s += "<p>Pictures of the events' first frames: " + htmlEscape(thumbs->note) + ".</p>";
        s += "<table id=\"events\"><tr><th>type</th><th>first frame</th><th>last frame</th><th>first timecode</th><th>last timecode</th>"
             "<th>duration</th><th>message</th><th>first frame's picture</th></tr>";
        for (const QcEvent& e : events) {
            s += "<tr><td>" + htmlEscape(e.type) + "</td><td class=\"n\">" + std::to_string(e.firstFrame) + "</td><td class=\"n\">" +
                 std::to_string(e.lastFrame) + "</td><td>" + htmlEscape(e.firstTimecode) + "</td><td>" + htmlEscape(e.lastTimecode) +
                 "</td><td class=\"n\">" + eventDuration(e, frameDuration) + "</td><td>" +
                 htmlEscape(e.message + (e.channel.empty() ? "" : " (" + e.channel + ")")) + "</td><td>";
            const auto picture = thumbs ? thumbs->pictures.find(e.firstFrame) : std::map<int64_t, RgbaImage>::const_iterator{};
            if (thumbs && picture != thumbs->pictures.end()) {
                const RgbaImage& p = picture->second;
                s += "<img src=\"" + (target == QcHtmlFor::Print ? qcThumbnailResource(e.firstFrame) : pngDataUri(p)) + "\" width=\"" +
                     std::to_string(p.width) + "\" height=\"" + std::to_string(p.height) + "\" alt=\"frame " + std::to_string(e.firstFrame) +
                     "\">";
            }
            // An R'G'B' gamut event's Diamond beside it (the HTML only).
            const auto diamond = thumbs ? thumbs->diamonds.find(e.firstFrame) : std::map<int64_t, RgbaImage>::const_iterator{};
            if (target != QcHtmlFor::Print && thumbs && e.type == "out_of_gamut" && diamond != thumbs->diamonds.end())
                s += " <img class=\"diamond\" src=\"" + pngDataUri(diamond->second) + "\" width=\"" +
                     std::to_string(diamond->second.width) + "\" height=\"" + std::to_string(diamond->second.height) +
                     "\" alt=\"Diamond of frame " + std::to_string(e.firstFrame) + "\">";
            s += "</td></tr>";
        }
        s += "</table>";
    }

    if (target == QcHtmlFor::Print) return s + "</body></html>\n";

    // The verdicts as data, for qc's index.html and summary.csv.
    std::map<std::string, int> counts;
    for (const QcEvent& e : events) ++counts[e.type];
    QJsonObject eventCounts;
    for (const auto& [type, n] : counts) eventCounts[QString::fromStdString(type)] = n;
    QJsonArray brief;   // the verdicts without their evidence
    for (const QJsonValue& v : r.verdicts) {
        QJsonObject o = v.toObject();
        o.remove("evidence");
        brief.append(o);
    }
    const QJsonObject data{{"name", QString::fromStdString(r.name)},    {"input", QString::fromStdString(r.input)},
                           {"frames", qint64(r.frames)},                {"verdict", QString::fromStdString(r.verdict)},
                           {"verdicts", brief},                         {"events", eventCounts}};
    std::string json = QJsonDocument(data).toJson(QJsonDocument::Compact).toStdString();
    for (size_t at = 0; (at = json.find("</", at)) != std::string::npos; at += 3) json.replace(at, 2, "<\\/");
    s += std::string("\n") + kVerdictsOpen + json + kVerdictsClose + "\n</body></html>\n";
    return s;
}

QJsonObject qcHtmlVerdicts(const std::string& html) {
    const size_t open = html.rfind(kVerdictsOpen);
    if (open == std::string::npos) return {};
    const size_t from = open + std::string(kVerdictsOpen).size(), close = html.find(kVerdictsClose, from);
    if (close == std::string::npos) return {};
    return QJsonDocument::fromJson(QByteArray::fromStdString(html.substr(from, close - from))).object();
}

}  // namespace cs
