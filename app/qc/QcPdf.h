// NAME.qc.pdf: NAME.qc.html's content (QcHtml.h, its print form) laid out on A4 pages by
// Qt's rich text (QTextDocument) and written by Qt's PDF writer (QPdfWriter): the verdicts
// with their evidence, the policies and their source documents, the source's and the audio's
// properties, the graphs (qc.png's picture) and the events, numbered pages, the input named
// in the document's title, each page footed with the name, the verdict and its number. Text needs Qt's font database, hence a QGuiApplication: where the
// process has no Qt application (a qc worker), one is made on Qt's offscreen platform and
// kept for the process's life. Called on one thread at a time (a qc worker runs one input).
#pragma once
#include <string>

#include "QcHtml.h"
#include "core/ScopeResults.h"
#include "core/Status.h"

namespace cs {

// Writes `path` (through an AtomicFile) from the report and the graphs' picture.
Status writeQcPdf(const std::string& path, const QcHtmlReport& report, const RgbaImage& graphs);

}  // namespace cs
