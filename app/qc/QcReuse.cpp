#include "QcReuse.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>

#include <chrono>
#include <filesystem>
#include <vector>

#include "core/Gamut.h"

namespace cs {
namespace {

std::string text(const QJsonValue& v) {
    if (v.isString()) return v.toString().toStdString();
    return QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact).toStdString();
}

}  // namespace

QJsonObject qcThresholdsJson(const QcThresholds& t) {
    return {{"black", QJsonObject{{"picture_ratio", t.blackPictureRatio}, {"pixel_ratio", t.blackPixelRatio},
                                  {"min_duration", t.blackMinDuration}}},
            {"freeze", QJsonObject{{"noise_db", t.freezeNoiseDb}, {"min_duration", t.freezeMinDuration}}},
            {"out_of_legal", QJsonObject{{"share", t.legalShare}, {"min_duration", t.legalMinDuration}}},
            {"out_of_gamut", QJsonObject{{"share", t.gamutShare}, {"min_duration", t.gamutMinDuration}}},
            {"out_of_target_gamut", QJsonObject{{"share", t.targetGamutShare}, {"min_duration", t.targetGamutMinDuration}}},
            {"loudness", QJsonObject{{"target", QString::fromStdString(t.loudness.name)}, {"integrated", t.loudness.integrated},
                                     {"tolerance", t.loudness.tolerance}, {"max_true_peak", t.loudness.maxTruePeak}}},
            {"true_peak", QJsonObject{{"min_duration", t.truePeakMinDuration}}},
            {"phase", QJsonObject{{"correlation", t.phaseCorrelation}, {"min_duration", t.phaseMinDuration}}},
            {"silence", QJsonObject{{"noise_db", t.audioRules.silenceNoiseDb}, {"min_duration", t.audioRules.silenceMinDuration}}},
            {"silent_channel", QJsonObject{{"noise_db", t.audioRules.silentChannelNoiseDb},
                                           {"min_duration", t.audioRules.silentChannelMinDuration}}},
            {"clipping", QJsonObject{{"min_run", t.audioRules.clippingMinRun}, {"merge_gap", t.audioRules.clippingMergeGap}}},
            {"scene_cut", QJsonObject{{"threshold", t.sceneThreshold}}}};
}

QJsonObject qcMadeFrom(const std::string& input, const QcRunOptions& o) {
    namespace fs = std::filesystem;
    std::error_code ec;
    QJsonObject in{{"path", QString::fromStdString(input)}};
    if (fs::is_regular_file(input, ec)) {
        const fs::path absolute = fs::absolute(input, ec);
        const fs::path canonical = ec ? fs::path(input) : fs::weakly_canonical(absolute, ec);
        in["path"] = QString::fromStdString((ec ? absolute : canonical).string());
        const auto size = fs::file_size(input, ec);
        if (!ec) in["size"] = qint64(size);
        const auto modified = fs::last_write_time(input, ec);
        // As text: nanoseconds do not fit a JSON number's exact range.
        if (!ec)
            in["modified_ns"] = QString::number(
                qint64(std::chrono::duration_cast<std::chrono::nanoseconds>(modified.time_since_epoch()).count()));
    }
    QJsonObject settings{{"thresholds", qcThresholdsJson(o.thresholds)},
                         {"gamut_target", QString::fromUtf8(gamutTargetName(o.gamutTarget).data(),
                                                            qsizetype(gamutTargetName(o.gamutTarget).size()))}};
    if (!o.policies.empty()) settings["policies"] = qcPoliciesJson(o.policies);   // the rules as read, not their names
    if (o.hostDetectors) settings["host_detectors"] = true;   // NVDEC's frames measured on the host too
    return {{"input", in}, {"settings", settings}, {"program", "cudascope " CS_VERSION}};
}

QcReuse qcReuse(const std::string& name, const QJsonObject& madeFrom, const QcRunOptions& o) {
    const std::string json = qcPath(o.outDir, name, ".qc.json");
    std::error_code ec;
    if (!std::filesystem::exists(json, ec)) return {};   // never checked (or a run that was stopped): nothing to say
    std::vector<const char*> others;
    if (!o.onlyJson) others = {".qc.csv", ".qc.png", ".qc.html", ".qc.pdf"};
    if (o.qctools) others.push_back(".qctools.xml.gz");
    for (const char* suffix : others)
        if (!std::filesystem::is_regular_file(qcPath(o.outDir, name, suffix), ec))
            return {false, "its report has no " + name + suffix};

    QFile file(QString::fromStdString(json));
    if (!file.open(QIODevice::ReadOnly)) return {false, json + " cannot be read (" + file.errorString().toStdString() + ")"};
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        return {false, json + " is not a whole report (" + error.errorString().toStdString() + " at byte " +
                           std::to_string(error.offset) + ")"};
    const QJsonObject report = doc.object();
    if (!doc.isObject() || !report["frames"].isArray() || !report["summary"].isObject())
        return {false, json + " is not a whole report (no frames or summary)"};
    const QJsonObject was = report["made_from"].toObject();
    if (was.isEmpty()) return {false, json + " does not say what it was made from"};

    const QJsonObject wasInput = was["input"].toObject(), nowInput = madeFrom["input"].toObject();
    if (wasInput["path"] != nowInput["path"])
        return {false, "its report was made from another input (" + text(wasInput["path"]) + ")"};
    if (wasInput != nowInput) return {false, "the input changed since its report was made (its size or modification time)"};
    const QJsonObject wasSettings = was["settings"].toObject(), nowSettings = madeFrom["settings"].toObject();
    if (wasSettings["thresholds"] != nowSettings["thresholds"]) return {false, "its report was made with other --thresholds"};
    if (wasSettings["gamut_target"] != nowSettings["gamut_target"])
        return {false, "its report was made with --gamut-target " + text(wasSettings["gamut_target"])};
    if (wasSettings["policies"] != nowSettings["policies"]) return {false, "its report was made with other --policy rules"};
    if (wasSettings != nowSettings) return {false, "its report was made with other settings"};
    if (was["program"] != madeFrom["program"]) return {false, "its report was made by " + text(was["program"])};
    return {true, "its report is complete and was made from this input with these settings (" + json +
                      "; --force checks it again)"};
}

}  // namespace cs
