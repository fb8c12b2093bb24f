// NAME.qctools.xml.gz: the document QCTools and qct-parse read, in ffprobe's XML schema
// (FFmpeg's doc/ffprobe.xsd): <ffprobe><frames> with a <frame> per video frame carrying
// the lavfi.signalstats.* tags, gzip-compressed as it is written (zlib), through an
// AtomicFile (NAME.qctools.xml.gz.part until finish()). Not thread-safe: one per input.
#pragma once
#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/AtomicFile.h"
#include "analysis/SignalStats.h"
#include "core/Status.h"

namespace cs {

struct QcXmlFrame {
    bool keyFrame = false;
    char pictType = '?';
    double pts = 0;
    int width = 0, height = 0;
    std::string pixFmt;
    const SignalStats* stats = nullptr;
};

class QcXmlWriter {
public:
    QcXmlWriter() = default;
    QcXmlWriter(const QcXmlWriter&) = delete;
    QcXmlWriter& operator=(const QcXmlWriter&) = delete;
    ~QcXmlWriter();
    Status open(const std::string& path);
    Status addFrame(const QcXmlFrame& frame);
    Status finish();   // closes the document and the gzip stream, renames into place

private:
    Status put(const std::string& text, int flush = Z_NO_FLUSH);
    std::optional<AtomicFile> file_;
    z_stream z_{};
    bool zOpen_ = false;
    std::vector<unsigned char> out_;
    std::string path_;
};

// One frame's <frame> element (exposed for tests).
std::string qcXmlFrame(const QcXmlFrame& frame);

}  // namespace cs
