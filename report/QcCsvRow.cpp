#include "QcCsvRow.h"

#include <QJsonValue>

#include <charconv>
#include <map>

namespace cs {
namespace {

void flatten(const QJsonObject& o, const std::string& prefix, std::map<std::string, QJsonValue>* out,
             std::vector<std::string>* order) {
    for (auto it = o.begin(); it != o.end(); ++it) {
        const std::string key = prefix + it.key().toStdString();
        if (it->isObject()) {
            flatten(it->toObject(), key + "_", out, order);
        } else {
            if (out) (*out)[key] = *it;
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

std::vector<std::string> qcCsvColumns(const QJsonObject& frame) {
    std::vector<std::string> columns;
    flatten(frame, "", nullptr, &columns);
    return columns;
}

std::string qcCsvHeader(const std::vector<std::string>& columns) {
    std::string text;
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i) text += ',';
        text += columns[i];
    }
    return text + '\n';
}

std::string qcCsvRow(const QJsonObject& frame, const std::vector<std::string>& columns) {
    std::map<std::string, QJsonValue> values;
    flatten(frame, "", &values, nullptr);
    std::string text;
    for (size_t i = 0; i < columns.size(); ++i) {
        const auto it = values.find(columns[i]);
        if (i) text += ',';
        if (it != values.end()) text += cell(it->second);
    }
    return text + '\n';
}

}  // namespace cs
