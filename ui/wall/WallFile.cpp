// Wall files (ui/wall/WallFile.h).
#include "WallFile.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cmath>

namespace cs {

std::string wallToJson(const WallConfig& wall) {
    QJsonObject o;
    o["cudascope_wall"] = 1;
    QJsonArray sources;
    for (const std::string& s : wall.sources) sources.append(QString::fromStdString(s));
    o["sources"] = sources;
    o["columns"] = wall.columns;
    QJsonArray scopes;
    if (wall.scopes.waveform) scopes.append("waveform");
    if (wall.scopes.vectorscope) scopes.append("vectorscope");
    if (wall.scopes.histogram) scopes.append("histogram");
    o["scopes"] = scopes;
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

Result<WallConfig> wallFromJson(const std::string& text, const std::string& name) {
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(text), &error);
    if (error.error != QJsonParseError::NoError)
        return Status::error(name + ": not a wall file (JSON: " + error.errorString().toStdString() + " at byte " +
                             std::to_string(error.offset) + ")");
    if (!doc.isObject()) return Status::error(name + ": not a wall file (a JSON object is expected)");
    const QJsonObject o = doc.object();
    if (o.value("cudascope_wall").toInt(0) != 1)
        return Status::error(name + ": not a wall file (no \"cudascope_wall\": 1)");
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != "cudascope_wall" && it.key() != "sources" && it.key() != "columns" && it.key() != "scopes")
            return Status::error(name + ": unknown key '" + it.key().toStdString() + "'");
    WallConfig wall;
    const QJsonValue sources = o.value("sources");
    if (!sources.isArray()) return Status::error(name + ": 'sources' must be a list of inputs");
    for (const QJsonValue& v : sources.toArray()) {
        if (!v.isString() || v.toString().isEmpty()) return Status::error(name + ": 'sources' must be a list of inputs");
        wall.sources.push_back(v.toString().toStdString());
    }
    if (wall.sources.empty()) return Status::error(name + ": the wall has no sources");
    if (o.contains("columns")) {
        const QJsonValue c = o.value("columns");
        if (!c.isDouble() || c.toDouble() != std::floor(c.toDouble()) || c.toInt() < 0 || c.toInt() > 64)
            return Status::error(name + ": 'columns' must be a whole number from 0 (automatic) to 64");
        wall.columns = c.toInt();
    }
    if (o.contains("scopes")) {
        const QJsonValue s = o.value("scopes");
        if (!s.isArray()) return Status::error(name + ": 'scopes' must be a list (waveform, vectorscope, histogram)");
        wall.scopes = {false, false, false};
        for (const QJsonValue& v : s.toArray()) {
            const QString scope = v.toString();
            if (scope == "waveform") wall.scopes.waveform = true;
            else if (scope == "vectorscope") wall.scopes.vectorscope = true;
            else if (scope == "histogram") wall.scopes.histogram = true;
            else
                return Status::error(name + ": unknown scope '" + scope.toStdString() +
                                     "' (waveform, vectorscope, histogram)");
        }
    }
    return wall;
}

Result<WallConfig> loadWall(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly)) return Status::error(path + ": " + file.errorString().toStdString());
    const QByteArray bytes = file.read(1 << 20);
    if (!file.atEnd()) return Status::error(path + ": not a wall file (larger than 1 MiB)");
    return wallFromJson(bytes.toStdString(), path);
}

Status saveWall(const WallConfig& wall, const std::string& path) {
    QSaveFile file(QString::fromStdString(path));
    const std::string text = wallToJson(wall);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) ||
        !file.commit())
        return Status::error(path + ": " + file.errorString().toStdString());
    return {};
}

}  // namespace cs
