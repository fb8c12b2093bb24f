#include "QcOptions.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QString>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/Gamut.h"
#include "core/Parse.h"

namespace cs {

namespace {

const std::set<std::string> kMediaExtensions{
    ".mp4", ".m4v", ".mov", ".mkv", ".webm", ".mxf", ".avi", ".ts", ".m2ts", ".mts", ".mpg", ".mpeg", ".m2v",
    ".vob", ".dv", ".y4m", ".nut", ".flv", ".wmv", ".asf", ".3gp", ".ogv", ".ivf", ".obu", ".h264", ".264",
    ".hevc", ".h265", ".265", ".mj2", ".gxf", ".lxf"};

Status readMember(const QJsonObject& o, const char* group, const char* key, double min, double max, double& value) {
    const auto it = o.find(key);
    if (it == o.end()) return {};
    if (!it->isDouble() || it->toDouble() < min || it->toDouble() > max)
        return Status::error(std::string(group) + "." + key + " must be a number from " + QString::number(min).toStdString() +
                             " to " + QString::number(max).toStdString());
    value = it->toDouble();
    return {};
}

}  // namespace

double QcThresholds::freezeNoise() const { return freezeNoiseFromDb(freezeNoiseDb); }

Result<QcThresholds> parseQcThresholds(const std::string& jsonText, const QcThresholds& base) {
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(jsonText), &error);
    if (error.error != QJsonParseError::NoError)
        return Status::error("not JSON (" + error.errorString().toStdString() + " at byte " + std::to_string(error.offset) + ")");
    if (!doc.isObject()) return Status::error("must be a JSON object");
    QcThresholds t = base;
    const QJsonObject root = doc.object();
    const std::map<std::string, std::vector<std::string>> known{{"black", {"picture_ratio", "pixel_ratio", "min_duration"}},
                                                                {"freeze", {"noise_db", "min_duration"}},
                                                                {"out_of_legal", {"share", "min_duration"}},
                                                                {"out_of_gamut", {"share", "min_duration"}},
                                                                {"out_of_target_gamut", {"share", "min_duration"}},
                                                                {"loudness", {"target", "integrated", "tolerance", "max_true_peak"}},
                                                                {"true_peak", {"min_duration"}},
                                                                {"phase", {"correlation", "min_duration"}},
                                                                {"silence", {"noise_db", "min_duration"}},
                                                                {"silent_channel", {"noise_db", "min_duration"}},
                                                                {"clipping", {"min_run", "merge_gap"}},
                                                                {"scene_cut", {"threshold"}}};
    for (auto it = root.begin(); it != root.end(); ++it) {
        const std::string group = it.key().toStdString();
        const auto k = known.find(group);
        if (k == known.end()) return Status::error("unknown member '" + group + "' (expected black, freeze, out_of_legal, out_of_gamut, out_of_target_gamut, "
                                                               "loudness, true_peak, phase, silence, silent_channel, clipping, scene_cut)");
        if (!it->isObject()) return Status::error(group + " must be an object");
        const QJsonObject members = it->toObject();
        for (auto m = members.begin(); m != members.end(); ++m)
            if (std::find(k->second.begin(), k->second.end(), m.key().toStdString()) == k->second.end())
                return Status::error("unknown member '" + group + "." + m.key().toStdString() + "'");
    }
    constexpr double kLongest = 24 * 3600.0;
    const QJsonObject black = root["black"].toObject(), freeze = root["freeze"].toObject(),
                      legal = root["out_of_legal"].toObject(), gamut = root["out_of_gamut"].toObject(),
                      target = root["out_of_target_gamut"].toObject();
    for (const Status& s : {readMember(black, "black", "picture_ratio", 0, 1, t.blackPictureRatio),
                            readMember(black, "black", "pixel_ratio", 0, 1, t.blackPixelRatio),
                            readMember(black, "black", "min_duration", 0, kLongest, t.blackMinDuration),
                            readMember(freeze, "freeze", "noise_db", -200, 0, t.freezeNoiseDb),
                            readMember(freeze, "freeze", "min_duration", 0, kLongest, t.freezeMinDuration),
                            readMember(legal, "out_of_legal", "share", 0, 1, t.legalShare),
                            readMember(legal, "out_of_legal", "min_duration", 0, kLongest, t.legalMinDuration),
                            readMember(gamut, "out_of_gamut", "share", 0, 1, t.gamutShare),
                            readMember(gamut, "out_of_gamut", "min_duration", 0, kLongest, t.gamutMinDuration),
                            readMember(target, "out_of_target_gamut", "share", 0, 1, t.targetGamutShare),
                            readMember(target, "out_of_target_gamut", "min_duration", 0, kLongest, t.targetGamutMinDuration),
                            readMember(root["scene_cut"].toObject(), "scene_cut", "threshold", 0, 100, t.sceneThreshold)})
        if (!s) return s;

    const QJsonObject loudness = root["loudness"].toObject(), truePeak = root["true_peak"].toObject(),
                      phase = root["phase"].toObject(), silence = root["silence"].toObject(),
                      silentChannel = root["silent_channel"].toObject(), clipping = root["clipping"].toObject();
    if (loudness.contains("target")) {
        const auto preset = loudness["target"].isString() ? audio::loudnessPreset(loudness["target"].toString().toStdString())
                                                          : std::nullopt;
        if (!preset) return Status::error("loudness.target must be \"r128\" or \"a85\"");
        t.loudness = *preset;
    }
    const audio::LoudnessTarget before = t.loudness;
    double minRun = t.audioRules.clippingMinRun;
    for (const Status& s : {readMember(loudness, "loudness", "integrated", -70, 0, t.loudness.integrated),
                            readMember(loudness, "loudness", "tolerance", 0, 20, t.loudness.tolerance),
                            readMember(loudness, "loudness", "max_true_peak", -30, 6, t.loudness.maxTruePeak),
                            readMember(truePeak, "true_peak", "min_duration", 0, kLongest, t.truePeakMinDuration),
                            readMember(phase, "phase", "correlation", -1, 1, t.phaseCorrelation),
                            readMember(phase, "phase", "min_duration", 0, kLongest, t.phaseMinDuration),
                            readMember(silence, "silence", "noise_db", -200, 0, t.audioRules.silenceNoiseDb),
                            readMember(silence, "silence", "min_duration", 0, kLongest, t.audioRules.silenceMinDuration),
                            readMember(silentChannel, "silent_channel", "noise_db", -200, 0, t.audioRules.silentChannelNoiseDb),
                            readMember(silentChannel, "silent_channel", "min_duration", 0, kLongest, t.audioRules.silentChannelMinDuration),
                            readMember(clipping, "clipping", "min_run", 1, 1e6, minRun),
                            readMember(clipping, "clipping", "merge_gap", 0, kLongest, t.audioRules.clippingMergeGap)})
        if (!s) return s;
    if (minRun != std::floor(minRun)) return Status::error("clipping.min_run must be a whole number of samples");
    t.audioRules.clippingMinRun = int(minRun);
    if (t.loudness.integrated != before.integrated || t.loudness.tolerance != before.tolerance ||
        t.loudness.maxTruePeak != before.maxTruePeak)
        t.loudness.name = "custom";
    return t;
}

namespace {
const std::vector<std::string_view> kLoudnessTargetChoices{"r128", "a85"}, kFailOnChoices{"never", "fail", "any"};
}  // namespace

const std::vector<OptionDef>& qcOptionTable() {
    static const std::vector<OptionDef> table{
        shared::help(),
        {{"out"}, "DIR", {}, "output folder (created if missing): per input NAME.qc.json, NAME.qc.csv,\n"
                             "NAME.qctools.xml.gz, NAME.qc.png, NAME.qc.html, NAME.qc.pdf", OptionValue::Folder},
        {{"jobs"}, "N", {}, "inputs checked at once (default 1, at most 64)"},
        shared::threads("CPU threads for the whole run, shared by its jobs (default: every CPU)"),
        shared::engine(),
        shared::hwdec(),
        {{"devices"}, "LIST", {}, "CUDA devices to spread the jobs over, e.g. 0,1,2,3 (default 0)"},
        {{"thresholds"}, "FILE", {}, "event thresholds and minimum durations as JSON (docs/QC.md)", OptionValue::File},
        shared::gamutTarget("{|}: each frame's share of pixels outside it (default bt709)"),
        {{"loudness-target"}, "T", kLoudnessTargetChoices,
         "{|}: the audio's loudness target (default r128: -23 LUFS +-0.5 LU, -1 dBTP;\n"
         "a85: -24 LKFS +-2 dB, -2 dBTP); a custom one in the thresholds file"},
        {{"policy"}, "LIST", {}, "delivery rules: presets (r103, r128, a85, bt1702, detectors, metadata) or JSON files,\n"
                                 "comma-separated; every rule gets a verdict (pass, fail, not_applicable) in NAME.qc.json,\n"
                                 "NAME.qc.html, NAME.qc.pdf, "
                                 "and the run's index.html and summary.csv (docs/QC.md)", OptionValue::File},
        {{"fail-on"}, "V", kFailOnChoices, "{|}: exit 3 when a rule of a checked input failed (fail), or failed or\n"
                                           "was not applicable (any); default never"},
        {{"qctools"}, "", {}, "write NAME.qctools.xml.gz (the default); --no-qctools: do not"},
        {{"no-qctools"}},
        {{"only-json"}, "", {}, "write NAME.qc.json alone: no CSV, graph, QCTools document, HTML, PDF or event\n"
                                "pictures (what the window's Timeline reads; a later run without it writes the rest)"},
        {{"host-detectors"}, "", {}, "copy frames NVDEC decodes to the host as well, so that scdet, cropdetect, idet and\n"
                                     "the flash detector measure them (slower; on by itself for a policy with their events)"},
        {{"force"}, "", {}, "check inputs again whose report is complete (default: skipped)"},
        {{"shard"}, "K/N", {}, "only the K-th (from 0) of N slices of the sorted inputs"},
        {{"input-timeout"}, "S", {}, "an input that finishes no frame for S seconds is stopped and fails (default 600;\n"
                                     "0: never); each input runs in a process of its own, whose crash fails it alone"},
        {{"list-inputs"}, "DIR", {}, "print the media files under DIR (sorted, after --shard) and exit", OptionValue::Folder},
        {{"summary"}, "DIR", {}, "write DIR's index.html and summary.csv from every NAME.qc.json in it (the index of\n"
                                 "a run split into shards, which write none) and exit; --fail-on applies", OptionValue::Folder}};
    return table;
}

const std::string& qcUsage() {
    static const std::string usage = usageText(
        "usage: cudascope qc INPUT... --out DIR [options]\n"
        "       cudascope qc --list-inputs DIR [--shard K/N]\n"
        "       cudascope qc --summary DIR [--fail-on V]\n"
        "  INPUT                 media files, or folders (their media files, recursively)\n",
        qcOptionTable(), 24,
        "Exit codes: 0 every input checked (events are findings), 1 an input could not be read\n"
        "(the others are still checked), 2 usage, 3 a rule's verdict (--fail-on).\n");
    return usage;
}

Result<QcOptions> parseQcArgs(const std::vector<std::string>& args) {
    auto parsed = parseOptions(args, qcOptionTable());
    if (!parsed) return parsed.status();
    QcOptions a;
    a.help = parsed->isSet("h");
    if (a.help) return a;
    OptionReader option(*parsed);
    const auto nonEmpty = [](std::string& into, const char* what) {
        return [&into, what](const std::string& v) {
            if (v.empty()) return Status::error(std::string("must name ") + what + ", not ''");
            into = v;
            return Status{};
        };
    };
    option("out", nonEmpty(a.outDir, "a folder"));
    option("list-inputs", nonEmpty(a.listDir, "a folder"));
    option("summary", nonEmpty(a.summaryDir, "a folder"));
    option("thresholds", nonEmpty(a.thresholdsFile, "a file"));
    option("policy", nonEmpty(a.policy, "a preset or a file"));
    option("fail-on", [&](const std::string& v) {
        auto f = parseChoice(v, kFailOnChoices);
        if (f) a.failOn = *f;
        return f.status();
    });
    option("jobs", [&](const std::string& v) {
        auto n = parseCount(v, 64);
        if (n) a.jobs = int(*n);
        return n.status();
    });
    option("threads", [&](const std::string& v) {
        auto n = parseCount(v, 4096);
        if (n) a.threads = int(*n);
        return n.status();
    });
    option("engine", [&](const std::string& v) {
        auto e = parseEngineChoice(v);
        if (e) a.engine = *e;
        return e.status();
    });
    option("hwdec", [&](const std::string& v) {
        auto h = parseHwdecChoice(v);
        if (h) a.hwdec = *h;
        return h.status();
    });
    option("devices", [&](const std::string& v) {
        size_t pos = 0;
        for (;;) {
            const size_t comma = v.find(',', pos);
            auto d = parseWholeNumber(v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos), 0, 255);
            if (!d) return Status::error("must be a comma list of device numbers (0 to 255), not " + quotedValue(v));
            if (std::find(a.devices.begin(), a.devices.end(), int(*d)) != a.devices.end())
                return Status::error("names device " + std::to_string(*d) + " twice");
            a.devices.push_back(int(*d));
            if (comma == std::string::npos) break;
            pos = comma + 1;
        }
        return Status{};
    });
    option("loudness-target", [&](const std::string& v) {
        const auto preset = audio::loudnessPreset(v);
        if (!preset) return Status::error("must be " + joinNames(kLoudnessTargetChoices) + ", not '" + v + "'");
        a.loudnessTarget = v;
        a.thresholds.loudness = *preset;
        return Status{};
    });
    option("gamut-target", [&](const std::string& v) {
        const auto t = gamutTargetFromName(v);
        if (!t) return Status::error("must be " + joinNames(kGamutTargetChoices) + ", not " + quotedValue(v));
        a.gamutTarget = *t;
        return Status{};
    });
    option("input-timeout", [&](const std::string& v) {
        auto n = parseWholeNumber(v, 0, 86400);
        if (!n) return Status::error("must be whole seconds from 0 to 86400, not " + quotedValue(v));
        a.inputTimeout = double(*n);
        return Status{};
    });
    option("shard", [&](const std::string& v) {
        const size_t slash = v.find('/');
        const auto bad = Status::error("must be K/N with 0 <= K < N (N at most 1000000), not " + quotedValue(v));
        if (slash == std::string::npos) return bad;
        auto k = parseWholeNumber(v.substr(0, slash), 0, 999999);
        auto n = parseWholeNumber(v.substr(slash + 1), 1, 1000000);
        if (!k || !n || *k >= *n) return bad;
        a.shardIndex = int(*k);
        a.shardCount = int(*n);
        return Status{};
    });
    Status failed = option.failure();
    if (parsed->isSet("qctools") && parsed->isSet("no-qctools"))
        failed = Status::error("--qctools and --no-qctools contradict each other");
    if (parsed->isSet("only-json") && parsed->isSet("qctools"))
        failed = Status::error("--only-json writes no QCTools document: --qctools contradicts it");
    a.onlyJson = parsed->isSet("only-json");
    a.hostDetectors = parsed->isSet("host-detectors");
    a.qctools = !parsed->isSet("no-qctools") && !a.onlyJson;
    a.force = parsed->isSet("force");
    if (!failed) return failed;
    a.inputs = parsed->positional();
    for (const auto& in : a.inputs)
        if (in.empty()) return Status::error("an INPUT is empty");
    if (!a.summaryDir.empty()) {
        if (!a.inputs.empty()) return Status::error("--summary takes no INPUT: unexpected argument " + quotedValue(a.inputs.front()));
        for (const char* other : {"out", "list-inputs", "policy", "shard"})
            if (parsed->value(other))
                return Status::error(std::string("--summary reads the reports in its folder and writes its index there: --") + other +
                                     " is not for it");
        return a;
    }
    if (!a.listDir.empty()) {
        if (!a.inputs.empty()) return Status::error("--list-inputs takes no INPUT: unexpected argument " + quotedValue(a.inputs.front()));
        if (parsed->value("out")) return Status::error("--list-inputs writes nothing: --out is not for it");
        return a;
    }
    if (a.inputs.empty()) return Status::error("missing INPUT");
    if (a.outDir.empty()) return Status::error("missing --out DIR");
    return a;
}

Result<std::vector<std::string>> listMediaFiles(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Status::error(dir + ": not a folder");
    std::vector<std::string> files;
    fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) return Status::error(dir + ": cannot read the folder (" + ec.message() + ")");
    for (; it != end; it.increment(ec)) {
        if (ec) return Status::error(dir + ": cannot read the folder (" + ec.message() + ")");
        const std::string name = it->path().filename().string();
        if (!name.empty() && name.front() == '.') {
            if (it->is_directory(ec)) it.disable_recursion_pending();
            continue;
        }
        std::string ext = it->path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (it->is_regular_file(ec) && kMediaExtensions.count(ext)) files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

Result<std::vector<std::string>> expandInputs(const std::vector<std::string>& inputs) {
    std::vector<std::string> all;
    for (const auto& in : inputs) {
        std::error_code ec;
        if (std::filesystem::is_directory(in, ec)) {
            auto files = listMediaFiles(in);
            if (!files) return files.status();
            // A folder named for checking that holds nothing to check is a mistake (a wrong
            // path, a mount not there), not a successful run over no input.
            if (files->empty()) return Status::error(in + ": no media files in this folder (hidden entries are skipped)");
            all.insert(all.end(), files->begin(), files->end());
        } else {
            all.push_back(in);
        }
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

std::vector<std::string> shardOf(const std::vector<std::string>& sorted, int index, int count) {
    std::vector<std::string> out;
    for (size_t i = size_t(index); i < sorted.size(); i += size_t(count)) out.push_back(sorted[i]);
    return out;
}

std::string qcName(const std::string& input) {
    std::string name = std::filesystem::path(input).filename().string();
    if (input.find(':') != std::string::npos && !std::filesystem::exists(input)) name = input;   // pattern:bars, URLs
    for (char& c : name)
        if (c == '/' || c == ':' || c == '?' || c == '&' || c == '\\' || static_cast<unsigned char>(c) < 0x20) c = '_';
    if (name.empty() || name == "." || name == "..") name = "input";
    return name;
}

}  // namespace cs
