// Helpers for the end-to-end tests: run a program, read its output, .npy and report.json back.
// One copy each: app_tests is compiled as unity sources, where file-local copies would collide.
#pragma once
#include <QByteArray>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace cs::testing {

struct RunResult {
    int exitCode = -1;
    std::string out, err;
};

inline RunResult runProgram(const QString& program, const QStringList& args, int timeoutMs = 120000) {
    QProcess p;
    p.start(program, args);
    RunResult r;
    if (!p.waitForFinished(timeoutMs)) { p.kill(); p.waitForFinished(); r.err = "timed out"; return r; }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;   // -2: crashed
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}
inline RunResult cudascope(const QStringList& args) { return runProgram(CS_TEST_CUDASCOPE, args); }
inline RunResult ffmpeg(const QStringList& args) {
    return runProgram(CS_TEST_FFMPEG, QStringList{"-hide_banner", "-loglevel", "error", "-y"} + args);
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Reads a uint32 .npy file; `shape` receives its dimensions.
inline std::vector<uint32_t> readNpyUint32(const std::string& path, std::vector<size_t>& shape) {
    const std::string bytes = readFile(path);
    shape.clear();
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return {};
    const size_t headerLen = size_t(uint8_t(bytes[8])) | size_t(uint8_t(bytes[9])) << 8;
    const std::string header = bytes.substr(10, headerLen);
    if (header.find("'descr': '<u4'") == std::string::npos) return {};
    const size_t open = header.find("'shape': ("), close = header.find(')', open);
    std::string dims = header.substr(open + 10, close - open - 10);
    for (size_t pos = 0; pos < dims.size();) {
        const size_t comma = dims.find(',', pos);
        const std::string d = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (d.find_first_of("0123456789") != std::string::npos) shape.push_back(std::stoul(d));
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    std::vector<uint32_t> data((bytes.size() - 10 - headerLen) / 4);
    std::memcpy(data.data(), bytes.data() + 10 + headerLen, data.size() * 4);
    return data;
}

inline QJsonObject readJson(const std::string& path) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(readFile(path))).object();
}

inline std::vector<uint32_t> toCounts(const QJsonValue& v) {
    std::vector<uint32_t> out;
    for (const auto& x : v.toArray()) out.push_back(uint32_t(x.toInteger()));
    return out;
}

// A program's output, line by line: how many lines, the first one, and whether it begins so.
inline int lineCount(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }
inline std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }
inline bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// A qc report.json's events of one type, in the report's order.
inline std::vector<QJsonObject> eventsOf(const QJsonObject& report, const QString& type) {
    std::vector<QJsonObject> out;
    for (const auto& e : report["events"].toArray())
        if (e.toObject()["type"].toString() == type) out.push_back(e.toObject());
    return out;
}

// A qc report.json's verdict of one policy's rule; empty where the report has none.
inline QJsonObject verdictOf(const QJsonObject& report, const QString& policy, const QString& rule) {
    for (const auto& v : report["verdicts"].toArray())
        if (v.toObject()["policy"].toString() == policy && v.toObject()["rule"].toString() == rule) return v.toObject();
    return {};
}

}  // namespace cs::testing
