#include "QcIndex.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "QcHtml.h"
#include "QcRun.h"
#include "app/cli/AtomicFile.h"

namespace cs {
namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string ruleKey(const QJsonObject& v) { return v["policy"].toString().toStdString() + "/" + v["rule"].toString().toStdString(); }

// The rules in the order they first appear.
std::vector<std::string> ruleColumns(const std::vector<QcIndexEntry>& entries) {
    std::vector<std::string> keys;
    for (const QcIndexEntry& e : entries)
        for (const QJsonValue& v : e.report["verdicts"].toArray()) {
            const std::string k = ruleKey(v.toObject());
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
        }
    return keys;
}

std::string verdictOf(const QcIndexEntry& e, const std::string& key) {
    for (const QJsonValue& v : e.report["verdicts"].toArray())
        if (ruleKey(v.toObject()) == key) return v.toObject()["verdict"].toString().toStdString();
    return {};
}

}  // namespace

QcIndexEntry qcIndexEntry(const std::string& outDir, const std::string& input, const std::string& outcome,
                          const std::string& message) {
    QcIndexEntry e{input, qcName(input), outcome, message, {}};
    if (outcome != "checked" && outcome != "skipped") return e;
    std::ifstream in(qcPath(outDir, e.name, ".qc.html"), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (in) e.report = qcHtmlVerdicts(text.str());
    return e;
}

Result<std::vector<QcIndexEntry>> qcSummaryEntries(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return Status::error(dir + ": not a folder");
    static constexpr std::string_view kSuffix = ".qc.json";
    std::vector<QcIndexEntry> entries;
    fs::directory_iterator it(dir, ec), end;
    if (ec) return Status::error(dir + ": cannot read the folder (" + ec.message() + ")");
    for (; it != end; it.increment(ec)) {
        if (ec) return Status::error(dir + ": cannot read the folder (" + ec.message() + ")");
        const std::string file = it->path().filename().string();
        if (file.size() <= kSuffix.size() || !file.ends_with(kSuffix) || !it->is_regular_file(ec)) continue;
        QcIndexEntry e;
        e.name = file.substr(0, file.size() - kSuffix.size());
        const std::string path = it->path().string();
        const auto damaged = [&](const std::string& why) {
            e.input = path;   // the input it was made from is not known
            e.outcome = "failed";
            e.message = path + " " + why;
            entries.push_back(std::move(e));
        };
        QFile f(QString::fromStdString(path));
        if (!f.open(QIODevice::ReadOnly)) {
            damaged("cannot be read (" + f.errorString().toStdString() + ")");
            continue;
        }
        QJsonParseError error{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
        const QJsonObject report = doc.object();
        if (error.error != QJsonParseError::NoError) {
            damaged("is not a whole report (" + error.errorString().toStdString() + " at byte " + std::to_string(error.offset) + ")");
            continue;
        }
        const QString input = report["made_from"].toObject()["input"].toObject()["path"].toString();
        if (!report["summary"].isObject() || input.isEmpty()) {
            damaged("is not a whole report (no summary, or it does not say what it was made from)");
            continue;
        }
        e.input = input.toStdString();
        e.outcome = "checked";
        QJsonArray brief;   // as NAME.qc.html embeds them (QcHtml.h): without their evidence
        for (const QJsonValue& v : report["verdicts"].toArray()) {
            QJsonObject o = v.toObject();
            o.remove("evidence");
            brief.append(o);
        }
        e.report = QJsonObject{{"name", QString::fromStdString(e.name)}, {"input", input},
                               {"frames", report["summary"].toObject()["frames"]}, {"verdict", report["verdict"]},
                               {"verdicts", brief}};
        entries.push_back(std::move(e));
    }
    if (entries.empty()) return Status::error(dir + ": holds no NAME.qc.json report");
    std::sort(entries.begin(), entries.end(), [](const QcIndexEntry& a, const QcIndexEntry& b) {
        return a.input != b.input ? a.input < b.input : a.name < b.name;
    });
    return entries;
}

bool qcFailsOn(const QcIndexEntry& e, const std::string& failOn) {
    if (failOn == "never") return false;
    for (const QJsonValue& v : e.report["verdicts"].toArray()) {
        const QString verdict = v.toObject()["verdict"].toString();
        if (verdict == "fail" || (failOn == "any" && verdict == "not_applicable")) return true;
    }
    return false;
}

Status writeQcIndex(const std::string& outDir, const std::vector<QcIndexEntry>& entries) {
    const std::vector<std::string> rules = ruleColumns(entries);
    std::string csv = "input,name,status,verdict,frames";
    for (const std::string& r : rules) {
        csv += ',';
        csv += csvField(r);
    }
    csv += "\n";
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cudascope qc: index</title><style>"
        "body{font-family:sans-serif;margin:24px}table{border-collapse:collapse;font-size:13px}"
        "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#f0f0f0}"
        "td.pass{background:#d8f5d8;color:#064}td.fail{background:#fbd5d5;color:#900;font-weight:bold}"
        "td.not_applicable,td.failed{background:#eee;color:#666}"
        "</style></head><body><h1>cudascope qc</h1><p>" +
        std::to_string(entries.size()) + " input" + (entries.size() == 1 ? "" : "s") +
        "</p><table id=\"index\"><tr><th>input</th><th>status</th><th>verdict</th><th>frames</th>";
    for (const std::string& r : rules) html += "<th>" + htmlEscape(r) + "</th>";
    html += "</tr>\n";
    for (const QcIndexEntry& e : entries) {
        const std::string verdict = e.report["verdict"].toString().toStdString();
        const std::string frames = e.report.contains("frames") ? std::to_string(e.report["frames"].toInteger()) : "";
        for (const std::string& field : {csvField(e.input), csvField(e.name), e.outcome, verdict})
            (csv += field) += ',';
        csv += frames;
        const std::string link = e.report.isEmpty() ? htmlEscape(e.input)
                                                    : "<a href=\"" + htmlEscape(e.name) + ".qc.html\">" + htmlEscape(e.input) + "</a>";
        html += "<tr><td>" + link + "</td><td class=\"" + e.outcome + "\">" + htmlEscape(e.outcome) +
                (e.message.empty() || e.outcome == "checked" || e.outcome == "skipped" ? "" : ": " + htmlEscape(e.message)) +
                "</td><td class=\"" + verdict + "\">" + htmlEscape(verdict) + "</td><td>" + frames + "</td>";
        for (const std::string& r : rules) {
            const std::string v = verdictOf(e, r);
            csv += ',';
            csv += v;
            html += "<td class=\"" + v + "\">" + htmlEscape(v) + "</td>";
        }
        csv += "\n";
        html += "</tr>\n";
    }
    html += "</table></body></html>\n";
    if (Status st = writeFileAtomically(outDir + "/summary.csv", {csv}); !st) return st;
    return writeFileAtomically(outDir + "/index.html", {html});
}

}  // namespace cs
