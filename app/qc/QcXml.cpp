#include "QcXml.h"

#include <cstdio>

namespace cs {
namespace {

std::string g(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}
std::string f6(double v) {
    char b[64];
    std::snprintf(b, sizeof b, "%f", v);
    return b;
}
std::string tag(const char* key, const std::string& value) {
    return std::string("            <tag key=\"lavfi.signalstats.") + key + "\" value=\"" + value + "\"/>\n";
}
std::string xmlEscape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&') out += "&amp;";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '"') out += "&quot;";
        else out += c;
    }
    return out;
}

constexpr const char* kHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ffprobe>\n    <frames>\n";
constexpr const char* kTail = "    </frames>\n</ffprobe>\n";

}  // namespace

std::string qcXmlFrame(const QcXmlFrame& f) {
    const SignalStats& s = *f.stats;
    std::string x = "        <frame media_type=\"video\" stream_index=\"0\" key_frame=\"" + std::string(f.keyFrame ? "1" : "0") +
                    "\" pts_time=\"" + f6(f.pts) + "\" best_effort_timestamp_time=\"" + f6(f.pts) + "\" width=\"" +
                    std::to_string(f.width) + "\" height=\"" + std::to_string(f.height) + "\" pix_fmt=\"" +
                    xmlEscape(f.pixFmt) + "\" pict_type=\"" + std::string(1, f.pictType) + "\">\n";
    // The order and the formats of vf_signalstats.c's SET_META calls (%d, %g).
    x += tag("YMIN", std::to_string(s.ymin)) + tag("YLOW", std::to_string(s.ylow)) + tag("YAVG", g(s.yavg)) +
         tag("YHIGH", std::to_string(s.yhigh)) + tag("YMAX", std::to_string(s.ymax));
    x += tag("UMIN", std::to_string(s.umin)) + tag("ULOW", std::to_string(s.ulow)) + tag("UAVG", g(s.uavg)) +
         tag("UHIGH", std::to_string(s.uhigh)) + tag("UMAX", std::to_string(s.umax));
    x += tag("VMIN", std::to_string(s.vmin)) + tag("VLOW", std::to_string(s.vlow)) + tag("VAVG", g(s.vavg)) +
         tag("VHIGH", std::to_string(s.vhigh)) + tag("VMAX", std::to_string(s.vmax));
    x += tag("SATMIN", std::to_string(s.satmin)) + tag("SATLOW", std::to_string(s.satlow)) + tag("SATAVG", g(s.satavg)) +
         tag("SATHIGH", std::to_string(s.sathigh)) + tag("SATMAX", std::to_string(s.satmax));
    x += tag("HUEMED", std::to_string(s.huemed)) + tag("HUEAVG", g(s.hueavg));
    x += tag("YDIF", g(s.ydif)) + tag("UDIF", g(s.udif)) + tag("VDIF", g(s.vdif));
    x += tag("YBITDEPTH", std::to_string(s.ybitdepth)) + tag("UBITDEPTH", std::to_string(s.ubitdepth)) +
         tag("VBITDEPTH", std::to_string(s.vbitdepth));
    x += tag("TOUT", g(s.tout)) + tag("VREP", g(s.vrep)) + tag("BRNG", g(s.brng));
    x += "        </frame>\n";
    return x;
}

QcXmlWriter::~QcXmlWriter() {
    if (zOpen_) deflateEnd(&z_);
}

Status QcXmlWriter::open(const std::string& path) {
    auto file = AtomicFile::create(path);
    if (!file) return file.status();
    file_.emplace(std::move(*file));
    path_ = path;
    if (deflateInit2(&z_, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)   // +16: a gzip wrapper
        return Status::error(path + ": cannot start the gzip stream");
    zOpen_ = true;
    out_.resize(1 << 16);
    return put(kHead);
}

Status QcXmlWriter::put(const std::string& text, int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z_.avail_in = uInt(text.size());
    do {
        z_.next_out = out_.data();
        z_.avail_out = uInt(out_.size());
        const int rc = deflate(&z_, flush);
        if (rc == Z_STREAM_ERROR) return Status::error(path_ + ": gzip compression failed");
        const size_t have = out_.size() - z_.avail_out;
        if (have)
            if (Status st = file_->write(out_.data(), have); !st) return st;
    } while (z_.avail_out == 0);
    return {};
}

Status QcXmlWriter::addFrame(const QcXmlFrame& frame) { return put(qcXmlFrame(frame)); }

Status QcXmlWriter::finish() {
    if (Status st = put(kTail, Z_FINISH); !st) return st;
    deflateEnd(&z_);
    zOpen_ = false;
    return file_->commit();
}

}  // namespace cs
