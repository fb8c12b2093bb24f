#include "QcCsv.h"

#include "report/QcCsvRow.h"

namespace cs {

Status QcCsvWriter::open(const std::string& path) {
    auto file = AtomicFile::create(path);
    if (!file) return file.status();
    file_.emplace(std::move(*file));
    return {};
}

Status QcCsvWriter::addFrame(const QJsonObject& frame) {
    std::string text;
    if (columns_.empty()) {
        columns_ = qcCsvColumns(frame);
        text = qcCsvHeader(columns_);
    }
    text += qcCsvRow(frame, columns_);
    return file_->write(text);
}

}  // namespace cs
