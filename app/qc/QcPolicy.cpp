#include "QcPolicy.h"

#include "QcMetadata.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QString>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace cs {
namespace {

const std::set<std::string> kVideoEvents{"black", "freeze", "out_of_legal", "out_of_gamut", "out_of_target_gamut",
                                         "decode_error", "timecode_break", "scene_cut", "repeated_frame", "active_area",
                                         "flash", "red_flash", "field_order", "range_tag"};
const std::set<std::string> kAudioEvents{"loudness", "true_peak", "phase", "silence", "silent_channel", "clipping"};

QString q(const std::string& s) { return QString::fromStdString(s); }

std::string percent(double share) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f%%", 100.0 * share);
    return b;
}

std::string number(double v, const char* format = "%.1f") {
    char b[32];
    std::snprintf(b, sizeof b, format, v);
    return b;
}

Status readNumber(const QJsonObject& o, const char* key, double min, double max, double& value) {
    const auto it = o.find(key);
    if (it == o.end()) return {};
    if (!it->isDouble() || it->toDouble() < min || it->toDouble() > max)
        return Status::error(std::string(key) + " must be a number from " + QString::number(min).toStdString() + " to " +
                             QString::number(max).toStdString());
    value = it->toDouble();
    return {};
}

Status readText(const QJsonObject& o, const char* key, bool required, std::string& value) {
    const auto it = o.find(key);
    if (it == o.end()) return required ? Status::error(std::string("has no \"") + key + "\"") : Status{};
    if (!it->isString() || it->toString().isEmpty()) return Status::error(std::string(key) + " must be a non-empty string");
    value = it->toString().toStdString();
    return {};
}

std::string readFile(const std::string& path, bool& ok) {
    std::ifstream in(path, std::ios::binary);
    ok = bool(in);
    std::stringstream text;
    if (ok) text << in.rdbuf();
    return text.str();
}

QJsonObject eventEvidence(const QcEvent& e) {
    QJsonObject o{{"type", q(e.type)},           {"first_frame", qint64(e.firstFrame)}, {"last_frame", qint64(e.lastFrame)},
                  {"first_pts", e.firstPts},    {"last_pts", e.lastPts},             {"first_timecode", q(e.firstTimecode)},
                  {"last_timecode", q(e.lastTimecode)}};
    if (!e.message.empty()) o["message"] = q(e.message);
    if (e.flashes >= 0) {   // flash, red_flash: the worst second's count and area
        o["flashes"] = e.flashes;
        o["area"] = e.area;
    }
    return o;
}

}  // namespace

std::vector<std::string> qcPolicyDirs() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path dir = exe.parent_path();
    return {(dir / "policies").string(), (dir.parent_path() / "share" / "cudascope" / "policies").string()};
}

std::vector<std::string> qcPresetNames() {
    std::set<std::string> names;
    for (const std::string& dir : qcPolicyDirs()) {
        std::error_code ec;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".json") names.insert(it->path().stem().string());
    }
    return {names.begin(), names.end()};
}

Result<QcPolicy> parseQcPolicy(const std::string& jsonText) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(jsonText), &error);
    if (error.error != QJsonParseError::NoError)
        return Status::error("not JSON (" + error.errorString().toStdString() + " at byte " + std::to_string(error.offset) + ")");
    if (!doc.isObject()) return Status::error("must be a JSON object");
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it)
        if (!std::set<QString>{"name", "title", "source", "rules"}.count(it.key()))
            return Status::error("unknown member '" + it.key().toStdString() + "' (expected name, title, source, rules)");
    QcPolicy p;
    for (const Status& s : {readText(root, "name", true, p.name), readText(root, "title", false, p.title),
                            readText(root, "source", true, p.source)})
        if (!s) return s;
    if (!root["rules"].isArray() || root["rules"].toArray().isEmpty()) return Status::error("rules must be a non-empty array");
    const std::map<std::string, std::set<QString>> members{
        {"r103_limits", {"area", "min_duration"}},
        {"integrated_loudness", {"integrated", "tolerance"}},
        {"true_peak", {"max_true_peak"}},
        {"event", {"type", "max_events"}},
        {"content_light_level", {"below", "above"}},
        {"mastering_gamut", {"share"}},
        {"range_tag", {}},
        {"bt2020_in_bt709", {"share"}}};
    std::set<std::string> ids;
    for (const QJsonValue& v : root["rules"].toArray()) {
        if (!v.isObject()) return Status::error("each rule must be an object");
        const QJsonObject r = v.toObject();
        QcRule rule;
        if (Status s = readText(r, "id", true, rule.id); !s) return Status::error("a rule " + s.message());
        const auto in = [&](const Status& s) { return Status::error("rule " + rule.id + ": " + s.message()); };
        if (!ids.insert(rule.id).second) return Status::error("two rules have the id " + rule.id);
        if (Status s = readText(r, "check", true, rule.check); !s) return in(s);
        if (Status s = readText(r, "title", false, rule.title); !s) return in(s);
        const auto known = members.find(rule.check);
        if (known == members.end())
            return in(Status::error("check must be r103_limits, integrated_loudness, true_peak, event, content_light_level, "
                                    "mastering_gamut, range_tag or bt2020_in_bt709, not '" + rule.check + "'"));
        for (auto it = r.begin(); it != r.end(); ++it)
            if (!known->second.count(it.key()) && it.key() != "id" && it.key() != "check" && it.key() != "title")
                return in(Status::error("unknown member '" + it.key().toStdString() + "' for check " + rule.check));
        double maxEvents = 0;
        for (const Status& s : {readNumber(r, "area", 0, 1, rule.area), readNumber(r, "min_duration", 0, 86400, rule.minDuration),
                                readNumber(r, "integrated", -70, 0, rule.integrated), readNumber(r, "tolerance", 0, 20, rule.tolerance),
                                readNumber(r, "max_true_peak", -30, 6, rule.maxTruePeak),
                                readNumber(r, "max_events", 0, 1e9, maxEvents), readNumber(r, "below", 0, 1, rule.below),
                                readNumber(r, "above", 0, 100, rule.above), readNumber(r, "share", 0, 1, rule.share)})
            if (!s) return in(s);
        if (maxEvents != std::floor(maxEvents)) return in(Status::error("max_events must be a whole number"));
        rule.maxEvents = int64_t(maxEvents);
        if (rule.check == "event") {
            if (Status s = readText(r, "type", true, rule.eventType); !s) return in(s);
            if (!kVideoEvents.count(rule.eventType) && !kAudioEvents.count(rule.eventType))
                return in(Status::error("type '" + rule.eventType + "' is not one of qc's events (docs/QC.md)"));
        }
        p.rules.push_back(std::move(rule));
    }
    return p;
}

Result<std::vector<QcPolicy>> loadQcPolicies(const std::string& spec) {
    std::vector<QcPolicy> out;
    std::set<std::string> ids;
    size_t pos = 0;
    for (;;) {
        const size_t comma = spec.find(',', pos);
        const std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (item.empty()) return Status::error("--policy names an empty policy in '" + spec + "'");
        const bool isFile = item.find('/') != std::string::npos ||
                            (item.size() > 5 && item.compare(item.size() - 5, 5, ".json") == 0);
        std::string path;
        if (isFile) {
            path = item;
        } else {
            for (const std::string& dir : qcPolicyDirs()) {
                std::error_code ec;
                const std::string candidate = (std::filesystem::path(dir) / (item + ".json")).string();
                if (std::filesystem::is_regular_file(candidate, ec)) {
                    path = candidate;
                    break;
                }
            }
            if (path.empty()) {
                std::string known;
                for (const std::string& n : qcPresetNames()) known += (known.empty() ? "" : ", ") + n;
                return Status::error("--policy " + item + ": no such preset (presets: " + (known.empty() ? "none found" : known) +
                                     "; a file needs a '/' or .json)");
            }
        }
        bool ok = false;
        const std::string text = readFile(path, ok);
        if (!ok) return Status::error(path + ": cannot be read");
        auto parsed = parseQcPolicy(text);
        if (!parsed) return Status::error(path + ": " + parsed.message());
        parsed->file = path;
        for (const QcRule& r : parsed->rules)
            if (!ids.insert(parsed->name + "/" + r.id).second)
                return Status::error(path + ": rule " + parsed->name + "/" + r.id + " is given twice");
        out.push_back(std::move(*parsed));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return out;
}

QJsonArray qcPoliciesJson(const std::vector<QcPolicy>& policies) {
    QJsonArray list;
    for (const QcPolicy& p : policies) {
        QJsonArray rules;
        for (const QcRule& r : p.rules) {
            QJsonObject o{{"id", q(r.id)}, {"check", q(r.check)}};
            if (!r.title.empty()) o["title"] = q(r.title);
            if (r.check == "r103_limits") {
                o["area"] = r.area;
                o["min_duration"] = r.minDuration;
            } else if (r.check == "integrated_loudness") {
                o["integrated"] = r.integrated;
                o["tolerance"] = r.tolerance;
            } else if (r.check == "true_peak") {
                o["max_true_peak"] = r.maxTruePeak;
            } else if (r.check == "content_light_level") {
                o["below"] = r.below;
                o["above"] = r.above;
            } else if (r.check == "mastering_gamut" || r.check == "bt2020_in_bt709") {
                o["share"] = r.share;
            } else if (r.check == "event") {
                o["type"] = q(r.eventType);
                o["max_events"] = qint64(r.maxEvents);
            }   // range_tag: no members
            rules.append(o);
        }
        list.append(QJsonObject{{"name", q(p.name)}, {"title", q(p.title)}, {"source", q(p.source)}, {"rules", rules}});
    }
    return list;
}

QcRuleMonitor::QcRuleMonitor(const std::vector<QcPolicy>& policies) : policies_(policies) {
    for (const QcPolicy& p : policies_)
        for (const QcRule& r : p.rules)
            if (r.check == "r103_limits") {
                Limits l;
                l.area = r.area;
                l.minDuration = r.minDuration;
                limits_.push_back(l);
            }
}

void QcRuleMonitor::close(Limits& l, double endPts) {
    l.open = false;
    l.run.endPts = endPts;
    // The duration as qc's events measure it (QcEvents.h): from the first frame to the frame that ends the run.
    if (endPts - l.run.firstPts < l.minDuration - 1e-9) return;
    ++l.errorRuns;
    l.errorFrames += l.run.last - l.run.first + 1;
    if (l.run.worst > l.worst) {
        l.worst = l.run.worst;
        l.worstFrame = l.run.worstFrame;
        l.worstTimecode = l.run.worstTimecode;
    }
    if (l.runs.size() < kMaxListed) l.runs.push_back(l.run);
}

void QcRuleMonitor::frame(int64_t index, double pts, const std::string& timecode, double share) {
    for (Limits& l : limits_) {
        // R 103: an error counts where it covers at least `area` of the picture.
        const bool inError = share >= l.area && share > 0;
        if (!inError) {
            if (l.open) close(l, pts);
            continue;
        }
        if (!l.open) {
            l.open = true;
            l.run = Run{index, index, index, pts, pts, pts, share, timecode, timecode, timecode};
        }
        l.run.last = index;
        l.run.lastPts = pts;
        l.run.lastTimecode = timecode;
        if (share > l.run.worst) {
            l.run.worst = share;
            l.run.worstFrame = index;
            l.run.worstTimecode = timecode;
        }
    }
}

void QcRuleMonitor::finish(double frameDuration) {
    for (Limits& l : limits_)
        if (l.open) close(l, l.run.lastPts + frameDuration);
}

QJsonArray QcRuleMonitor::verdicts(const QcVerdictInputs& in) const {
    QJsonArray out;
    size_t limitsAt = 0;
    const bool audio = !in.audioSummary.isEmpty();
    for (const QcPolicy& p : policies_)
        for (const QcRule& r : p.rules) {
            std::string verdict = "pass", reason;
            QJsonObject evidence;
            if (r.check == "r103_limits") {
                const Limits& l = limits_[limitsAt++];
                if (!in.ycbcr) {
                    verdict = "not_applicable";
                    reason = "an R'G'B' source: its codes cannot leave R 103's limits";
                } else {
                    QJsonArray runs;
                    for (const Run& run : l.runs)
                        runs.append(QJsonObject{{"first_frame", qint64(run.first)},     {"last_frame", qint64(run.last)},
                                                {"first_pts", run.firstPts},            {"last_pts", run.lastPts},
                                                {"first_timecode", q(run.firstTimecode)}, {"last_timecode", q(run.lastTimecode)},
                                                {"worst_share", run.worst},             {"worst_frame", qint64(run.worstFrame)},
                                                {"worst_timecode", q(run.worstTimecode)}});
                    evidence = {{"area", l.area},
                                {"min_duration", l.minDuration},
                                {"error_runs", qint64(l.errorRuns)},
                                {"error_frames", qint64(l.errorFrames)},
                                {"runs", runs}};
                    if (l.errorRuns > int64_t(runs.size())) evidence["runs_not_listed"] = qint64(l.errorRuns - int64_t(runs.size()));
                    if (l.errorRuns > 0) {
                        verdict = "fail";
                        evidence["worst_share"] = l.worst;
                        evidence["worst_frame"] = qint64(l.worstFrame);
                        evidence["worst_timecode"] = q(l.worstTimecode);
                        reason = std::to_string(l.errorFrames) + " frame" + (l.errorFrames == 1 ? "" : "s") + " in " +
                                 std::to_string(l.errorRuns) + " run" + (l.errorRuns == 1 ? "" : "s") + " with at least " +
                                 percent(l.area) + " of the picture outside R 103's limits; worst " + percent(l.worst) +
                                 " at frame " + std::to_string(l.worstFrame) + " (" + l.worstTimecode + ")";
                    } else {
                        reason = "no frame has " + percent(l.area) + " of its picture outside R 103's limits";
                    }
                }
            } else if (r.check == "integrated_loudness" || r.check == "true_peak") {
                const bool loudness = r.check == "integrated_loudness";
                const QJsonValue measured = in.audioSummary[loudness ? "integrated" : "max_true_peak"];
                if (!audio) {
                    verdict = "not_applicable";
                    reason = "no audio stream";
                } else if (!measured.isDouble()) {
                    verdict = "not_applicable";
                    reason = "the audio is silent: no level to measure";
                } else if (loudness) {
                    const double v = measured.toDouble();
                    evidence = {{"integrated", v}, {"target", r.integrated}, {"tolerance", r.tolerance}};
                    const bool ok = v >= r.integrated - r.tolerance - 1e-9 && v <= r.integrated + r.tolerance + 1e-9;
                    verdict = ok ? "pass" : "fail";
                    reason = "integrated loudness " + number(v) + " LUFS; target " + number(r.integrated) + " +- " +
                             number(r.tolerance) + " LU";
                } else {
                    const double v = measured.toDouble();
                    evidence = {{"max_true_peak", v}, {"limit", r.maxTruePeak}};
                    verdict = v <= r.maxTruePeak + 1e-9 ? "pass" : "fail";
                    reason = "maximum true peak " + number(v) + " dBTP; limit " + number(r.maxTruePeak) + " dBTP";
                }
            } else if (r.check != "event") {   // the metadata checks (QcMetadata.h)
                if (in.metadata) {
                    in.metadata->verdict(r, verdict, reason, evidence);
                } else {
                    verdict = "not_applicable";
                    reason = "not measured";
                }
            } else {   // event
                if (kAudioEvents.count(r.eventType) && !audio) {
                    verdict = "not_applicable";
                    reason = "no audio stream";
                } else if ((r.eventType == "black" || r.eventType == "freeze" || r.eventType == "scene_cut" ||
                            r.eventType == "repeated_frame" || r.eventType == "active_area") &&
                           !in.signalstats) {
                    verdict = "not_applicable";
                    reason = "not measured: signalstats needs a Y'CbCr source";
                } else if ((r.eventType == "flash" || r.eventType == "red_flash") && !in.flashesNotMeasured.empty()) {
                    verdict = "not_applicable";
                    reason = in.flashesNotMeasured;
                } else if (r.eventType == "field_order" && !in.fieldOrderNotMeasured.empty()) {
                    verdict = "not_applicable";
                    reason = in.fieldOrderNotMeasured;
                } else {
                    QJsonArray list;
                    int64_t count = 0;
                    if (in.events)
                        for (const QcEvent& e : *in.events)
                            if (e.type == r.eventType && ++count <= int64_t(kMaxListed)) list.append(eventEvidence(e));
                    evidence = {{"count", qint64(count)}, {"max_events", qint64(r.maxEvents)}, {"events", list}};
                    verdict = count > r.maxEvents ? "fail" : "pass";
                    reason = std::to_string(count) + " " + r.eventType + " event" + (count == 1 ? "" : "s") +
                             (r.maxEvents > 0 ? " (at most " + std::to_string(r.maxEvents) + " allowed)" : "");
                }
            }
            QJsonObject o{{"policy", q(p.name)}, {"rule", q(r.id)},       {"check", q(r.check)},
                          {"source", q(p.source)}, {"verdict", q(verdict)}, {"reason", q(reason)}};
            if (!r.title.empty()) o["title"] = q(r.title);
            if (!evidence.isEmpty()) o["evidence"] = evidence;
            out.append(o);
        }
    return out;
}

std::string qcOverallVerdict(const QJsonArray& verdicts) {
    for (const QJsonValue& v : verdicts)
        if (v.toObject()["verdict"].toString() == "fail") return "fail";
    return "pass";
}

}  // namespace cs
