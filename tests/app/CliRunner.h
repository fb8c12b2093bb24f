// Helpers for the end-to-end tests: run a program, read .npy and report.json back.
#pragma once
#include <QByteArray>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

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

}  // namespace cs::testing
