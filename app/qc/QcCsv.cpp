#include "QcCsv.h"

#include <QJsonValue>

#include <charconv>
#include <map>

namespace cs {
namespace {

void flatten(const QJsonObject& o, const std::string& prefix, std::map<std::string, QJsonValue>& out,
             std::vector<std::string>* order) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = prefix + it.key().toStdString();
        if (it->isObject()) {
            flatten(it->toObject(), key + "_", out, order);
        } else {
            out[key] = *it;
            if (order) order->push_back(key);
        }
    }
}

std::string cell(const QJsonValue& v) {
    if (v.isDouble()) {
        char b[32];
        const auto r = std::to_chars(b, b + sizeof b, v.toDouble());   // shortest round-trip form
        return std::string(b, r.ptr);
    }
    if (v.isBool()) return v.toBool() ? "1" : "0";
    if (v.isString()) {
        std::string q = "\"";
        for (char c : v.toString().toStdString()) {
            if (c == '"') q += '"';
            q += c;
        }
        q += '"';
        return q;
    }
    return "";
}

}  // namespace

Status QcCsvWriter::open(const std::string& path) {
    auto file = AtomicFile::create(path);
    if (!file) return file.status();
    file_.emplace(std::move(*file));
    return {};
}

Status QcCsvWriter::addFrame(const QJsonObject& frame) {
    std::map<std::string, QJsonValue> values;
    std::string text;
    if (columns_.empty()) {
        flatten(frame, "", values, &columns_);
        for (size_t i = 0; i < columns_.size(); ++i) {
            if (i) text += ',';
            text += columns_[i];
        }
        text += '\n';
    } else {
        flatten(frame, "", values, nullptr);
    }
    for (size_t i = 0; i < columns_.size(); ++i) {
        const auto it = values.find(columns_[i]);
        if (i) text += ',';
        if (it != values.end()) text += cell(it->second);
    }
    text += '\n';
    return file_->write(text);
}

}  // namespace cs
