// Parsing of live inputs and their low-latency options (see LiveInput.h).
#include "LiveInput.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "core/Frame.h"
#include "core/Parse.h"

extern "C" {
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
}

namespace cs {
namespace {

constexpr std::array kNetworkSchemes = {"rtsp", "rtsps", "rtp",    "srtp",  "udp",   "srt",    "rist", "tcp",
                                        "http", "https", "rtmp",   "rtmps", "rtmpt", "rtmpts", "rtmpe"};
// Schemes that name a server to connect to: the host may not be empty.
constexpr std::array kServerSchemes = {"rtsp", "rtsps", "http", "https", "rtmp", "rtmps", "rtmpt", "rtmpts", "rtmpe", "tcp"};
// (Not .ts: MPEG-TS over HTTP is as often a live stream as a file.)
constexpr std::array kFileExtensions = {".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi",
                                        ".mxf", ".mpg", ".mpeg", ".flv", ".y4m", ".wmv"};
constexpr std::array kRtspTransports = {"tcp", "udp", "udp_multicast", "http", "https"};
constexpr std::array kCameraFormats = {"yuyv422", "uyvy422", "mjpeg", "nv12", "h264", "yuv420p", "gray"};

// Short demuxer/protocol analysis: enough to find a keyframe of a stream with a GOP of up
// to a second, without the 5 s / 5 MB that a file would get.
constexpr const char* kAnalyzeMicroseconds = "1000000";
constexpr const char* kProbeBytes = "1000000";
// RTP reordering wait: packets out of order by more than this are dropped, not waited for.
constexpr const char* kRtpMaxDelayMicroseconds = "50000";
constexpr const char* kRtpReorderPackets = "32";
// HLS waits for the next segment to be published: up to a target duration (often 2-10 s).
constexpr double kHlsStallSeconds = 12.0;

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

template <size_t N>
bool contains(const std::array<const char*, N>& list, std::string_view value) {
    return std::any_of(list.begin(), list.end(), [&](const char* item) { return value == item; });
}

std::string schemeOf(const std::string& input) {
    const size_t colon = input.find("://");
    if (colon == std::string::npos || colon == 0) return {};
    const std::string scheme = lower(input.substr(0, colon));
    const bool valid = std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
    });
    return valid ? scheme : std::string{};
}

bool endsWith(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The path of a URL without query or fragment, lower case.
std::string urlPath(const std::string& url) {
    const size_t start = url.find("://");
    const size_t slash = url.find('/', start == std::string::npos ? 0 : start + 3);
    if (slash == std::string::npos) return {};
    const size_t end = url.find_first_of("?#", slash);
    return lower(url.substr(slash, end == std::string::npos ? std::string::npos : end - slash));
}

std::string hostOf(const std::string& url) {
    const size_t start = url.find("://") + 3;
    const size_t end = url.find_first_of("/?#", start);
    std::string authority = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (const size_t at = authority.rfind('@'); at != std::string::npos) authority.erase(0, at + 1);
    if (!authority.empty() && authority[0] == '[') return authority.substr(0, authority.find(']') + 1);
    return authority.substr(0, authority.find(':'));
}

struct QueryParameter {
    std::string key, value;
    bool hasValue = false;
};

// Splits "base?a=1&b" into base and parameters (a fragment stays with the base).
std::string splitQuery(const std::string& url, std::vector<QueryParameter>& parameters) {
    const size_t question = url.find('?');
    if (question == std::string::npos) return url;
    std::string query = url.substr(question + 1);
    std::string fragment;
    if (const size_t hash = query.find('#'); hash != std::string::npos) {
        fragment = query.substr(hash);
        query.erase(hash);
    }
    size_t begin = 0;
    while (begin <= query.size()) {
        const size_t end = std::min(query.find('&', begin), query.size());
        const std::string item = query.substr(begin, end - begin);
        if (!item.empty()) {
            QueryParameter p;
            const size_t equals = item.find('=');
            p.key = item.substr(0, equals);
            if (equals != std::string::npos) {
                p.value = item.substr(equals + 1);
                p.hasValue = true;
            }
            parameters.push_back(std::move(p));
        }
        begin = end + 1;
    }
    return url.substr(0, question) + fragment;
}

std::string joinQuery(const std::string& base, const std::vector<QueryParameter>& parameters) {
    std::string url = base;
    std::string fragment;
    if (const size_t hash = url.find('#'); hash != std::string::npos) {
        fragment = url.substr(hash);
        url.erase(hash);
    }
    for (size_t i = 0; i < parameters.size(); ++i) {
        url += (i == 0 ? "?" : "&") + parameters[i].key;
        if (parameters[i].hasValue) url += "=" + parameters[i].value;
    }
    return url + fragment;
}

bool protocolAvailable(const std::string& scheme) {
    // RTSP is a demuxer over tcp/udp (rtsps: over tls), not an avio protocol.
    if (scheme == "rtsp") return av_find_input_format("rtsp") != nullptr;
    if (scheme == "rtsps") return av_find_input_format("rtsp") != nullptr && protocolAvailable("tls");
    void* iterator = nullptr;
    while (const char* name = avio_enum_protocols(&iterator, 0))
        if (scheme == name) return true;
    return false;
}

// The name of the first parameter given a second time, "" when none is.
std::string repeatedKey(const std::vector<QueryParameter>& parameters, bool caseless) {
    for (size_t i = 0; i < parameters.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (caseless ? lower(parameters[i].key) == lower(parameters[j].key) : parameters[i].key == parameters[j].key)
                return parameters[i].key;
    return {};
}

// FFmpeg's udp:// and rtp:// protocols read these URL parameters with strtol, which takes
// "1s" as 1 and "abc" as 0 without a word: cudascope checks them first with its own parser.
struct NumericParameter {
    const char* key;
    int64_t min, max;
};
constexpr int64_t kIntMax = INT32_MAX;
constexpr std::array kUdpNumbers = {
    NumericParameter{"ttl", 0, 255},          NumericParameter{"localport", 0, 65535},
    NumericParameter{"pkt_size", 1, 65535},   NumericParameter{"buffer_size", 1, kIntMax},
    NumericParameter{"fifo_size", 0, kIntMax / 188}, NumericParameter{"timeout", 0, kIntMax},
    NumericParameter{"bitrate", 0, INT64_MAX}, NumericParameter{"burst_bits", 0, INT64_MAX},
    NumericParameter{"udplite_coverage", 0, 65535}};
constexpr std::array kRtpNumbers = {
    NumericParameter{"ttl", 0, 255},             NumericParameter{"localport", 0, 65535},
    NumericParameter{"rtcpport", 0, 65535},      NumericParameter{"localrtpport", 0, 65535},
    NumericParameter{"localrtcpport", 0, 65535}, NumericParameter{"pkt_size", 1, 65535},
    NumericParameter{"buffer_size", 1, kIntMax}, NumericParameter{"dscp", 0, 63},
    NumericParameter{"timeout", 0, kIntMax}};
// Switches: on when given without a value; otherwise 0 or 1.
constexpr std::array kUdpSwitches = {"reuse", "reuse_socket", "overrun_nonfatal", "connect", "broadcast"};
constexpr std::array kRtpSwitches = {"connect", "write_to_source"};

template <size_t N, size_t M>
Status checkProtocolParameters(const std::string& input, const std::vector<QueryParameter>& parameters,
                               const std::array<NumericParameter, N>& numbers, const std::array<const char*, M>& switches) {
    // FFmpeg reads the first of a repeated parameter: a second one would be ignored in silence.
    if (const std::string key = repeatedKey(parameters, false); !key.empty())
        return Status::error(input + ": the parameter " + quotedValue(key) + " is given twice");
    for (const auto& p : parameters) {
        for (const auto& n : numbers)
            if (p.key == n.key)
                if (const auto value = parseWholeNumber(p.value, n.min, n.max); !value)
                    return Status::error(input + ": " + p.key + " " + value.message());
        if (contains(switches, p.key) && p.hasValue && p.value != "0" && p.value != "1")
            return Status::error(input + ": " + p.key + " must be 0 or 1 (or given without a value), not " + quotedValue(p.value));
    }
    return {};
}

Result<LiveInput> parseCamera(const std::string& input) {
    LiveInput live;
    live.input = input;
    live.kind = LiveKind::Camera;
    live.scheme = "v4l2";
    live.demuxer = "video4linux2";
    std::vector<QueryParameter> parameters;
    std::string path = splitQuery(input.substr(5), parameters);
    if (path.rfind("//", 0) == 0) path.erase(0, 2);   // "v4l2:///dev/video0" as a URL would say it
    if (path.empty()) return Status::error(input + ": no device given (v4l2:/dev/video0)");
    if (path[0] != '/') path = "/dev/" + path;        // "v4l2:video0"
    live.devicePath = path;
    live.url = path;
    if (const std::string key = repeatedKey(parameters, true); !key.empty())
        return Status::error(input + ": the parameter " + quotedValue(key) + " is given twice");
    for (const auto& p : parameters) {
        const std::string key = lower(p.key);
        if (key == "size") {
            auto size = parseSize(p.value, Size{1, 1}, Size{kMaxDimension, kMaxDimension});
            if (!size) return Status::error(input + ": size " + size.message());
            live.mode.width = size->width;
            live.mode.height = size->height;
            live.options.emplace_back("video_size", sizeText(*size));
        } else if (key == "fps") {
            if (auto rate = parseFrameRate(p.value); !rate) return Status::error(input + ": fps " + rate.message());
            live.mode.fps = p.value;
            live.options.emplace_back("framerate", p.value);
        } else if (key == "format") {
            std::string format = lower(p.value);
            if (format == "yuyv" || format == "yuy2") format = "yuyv422";
            if (format == "uyvy") format = "uyvy422";
            if (format == "mjpg") format = "mjpeg";
            if (format == "grey") format = "gray";
            if (!contains(kCameraFormats, format))
                return Status::error(input + ": format must be " +
                                     joinNames({kCameraFormats.begin(), kCameraFormats.end()}) + ", not " + quotedValue(p.value));
            live.mode.format = format;
            live.options.emplace_back("input_format", format);
        } else {
            return Status::error(input + ": unknown parameter " + quotedValue(p.key) + " (size, fps, format)");
        }
    }
    return live;
}

Result<LiveInput> parseNetwork(const std::string& input, const std::string& scheme) {
    LiveInput live;
    live.input = input;
    live.kind = LiveKind::Network;
    live.scheme = scheme;
    live.url = input;
    if (contains(kServerSchemes, scheme) && hostOf(input).empty())
        return Status::error(input + ": no host in the URL (" + scheme + "://host:port/...)");
    if (!protocolAvailable(scheme))
        return Status::error(input + ": this FFmpeg cannot read " + scheme + ":// (protocol not built in)");

    auto& o = live.options;
    o.emplace_back("fflags", "nobuffer");
    o.emplace_back("analyzeduration", kAnalyzeMicroseconds);
    o.emplace_back("probesize", kProbeBytes);
    o.emplace_back("fpsprobesize", "0");

    if (scheme == "rtsp" || scheme == "rtsps") {
        // Our parameters come off the URL; the server's own stay.
        std::vector<QueryParameter> parameters;
        const std::string base = splitQuery(input, parameters);
        std::string transport;
        bool listen = false;
        std::vector<QueryParameter> kept, ours;
        for (auto& p : parameters) {
            const std::string key = lower(p.key);
            if (key == "transport") {
                transport = lower(p.value);
                if (!contains(kRtspTransports, transport))
                    return Status::error(input + ": RTSP transport must be " +
                                         joinNames({kRtspTransports.begin(), kRtspTransports.end()}) + ", not " +
                                         quotedValue(p.value));
                ours.push_back(p);
            } else if (key == "listen") {
                const std::string value = lower(p.value);
                if (p.hasValue && value != "1" && value != "true" && value != "0" && value != "false")
                    return Status::error(input + ": listen must be 1, true, 0 or false (or given without a value), not " +
                                         quotedValue(p.value));
                listen = !p.hasValue || value == "1" || value == "true";
                ours.push_back(p);
            } else {
                kept.push_back(std::move(p));
            }
        }
        if (const std::string key = repeatedKey(ours, true); !key.empty())
            return Status::error(input + ": the parameter " + quotedValue(key) + " is given twice");
        live.url = joinQuery(base, kept);
        if (listen) {
            // cudascope is the server that a sender pushes to (ANNOUNCE/RECORD): the sender
            // picks the transport.
            o.emplace_back("rtsp_flags", "listen");
            live.waitsForSender = true;
        } else {
            // TCP unless asked: interleaved RTP survives NAT and firewalls and loses nothing.
            o.emplace_back("rtsp_transport", transport.empty() ? "tcp" : transport);
        }
        o.emplace_back("max_delay", kRtpMaxDelayMicroseconds);
        o.emplace_back("reorder_queue_size", kRtpReorderPackets);
        o.emplace_back("buffer_size", "4194304");
    } else if (scheme == "udp" || scheme == "rtp" || scheme == "srtp") {
        std::vector<QueryParameter> parameters;
        splitQuery(input, parameters);
        const Status checked = scheme == "udp" ? checkProtocolParameters(input, parameters, kUdpNumbers, kUdpSwitches)
                                               : checkProtocolParameters(input, parameters, kRtpNumbers, kRtpSwitches);
        if (!checked) return checked;
        live.waitsForSender = true;
        // A large socket buffer rides out bursts (a keyframe); a FIFO overrun loses packets,
        // it does not end the stream.
        o.emplace_back("buffer_size", "4194304");
        o.emplace_back("overrun_nonfatal", "1");
        if (scheme != "udp") {
            o.emplace_back("max_delay", kRtpMaxDelayMicroseconds);
            o.emplace_back("reorder_queue_size", kRtpReorderPackets);
        }
    } else if (scheme == "srt") {
        // libsrt's parameters are FFmpeg's to read; the mode decides whether we wait for a caller.
        std::vector<QueryParameter> parameters;
        splitQuery(input, parameters);
        std::vector<QueryParameter> modes;
        std::copy_if(parameters.begin(), parameters.end(), std::back_inserter(modes),
                     [](const QueryParameter& p) { return p.key == "mode"; });
        if (modes.size() > 1) return Status::error(input + ": the parameter 'mode' is given twice");
        if (!modes.empty()) {
            auto mode = parseChoice(modes.front().value, {"caller", "listener", "rendezvous"});
            if (!mode) return Status::error(input + ": SRT mode " + mode.message());
            live.waitsForSender = *mode == "listener";
        }
    } else if (scheme == "rtmp" || scheme == "rtmps" || scheme == "rtmpt" || scheme == "rtmpts" || scheme == "rtmpe") {
        o.emplace_back("rtmp_live", "live");
        o.emplace_back("rtmp_buffer", "100");   // ms the server may keep ahead of us
    } else if (scheme == "http" || scheme == "https") {
        // HLS: start at the newest segment, not three back.
        o.emplace_back("live_start_index", "-1");
        const bool hls = endsWith(urlPath(input), ".m3u8");
        live.mayBeFile = !hls;
        live.paced = hls;
        live.minimumStallSeconds = hls ? kHlsStallSeconds : 0.0;
    }
    return live;
}

}  // namespace

bool isLiveUrlOrCamera(const std::string& input) {
    if (lower(input.substr(0, 5)) == "v4l2:") return true;
    const std::string scheme = schemeOf(input);
    if (scheme.empty()) return endsWith(lower(input), ".sdp");
    if (!contains(kNetworkSchemes, scheme)) return false;
    if (scheme == "http" || scheme == "https") {
        const std::string path = urlPath(input);
        return std::none_of(kFileExtensions.begin(), kFileExtensions.end(),
                            [&](const char* extension) { return endsWith(path, extension); });
    }
    return true;
}

bool isNetworkOrCameraInput(const std::string& input) {
    if (lower(input.substr(0, 5)) == "v4l2:") return true;
    const std::string scheme = schemeOf(input);
    return scheme.empty() ? endsWith(lower(input), ".sdp") : contains(kNetworkSchemes, scheme);
}

Result<LiveInput> parseLiveInput(const std::string& input) {
    if (lower(input.substr(0, 5)) == "v4l2:") return parseCamera(input);
    const std::string scheme = schemeOf(input);
    if (!scheme.empty()) {
        if (!contains(kNetworkSchemes, scheme))
            return Status::error(input + ": unknown network protocol '" + scheme + "'");
        return parseNetwork(input, scheme);
    }
    if (endsWith(lower(input), ".sdp")) {
        LiveInput live;
        live.input = input;
        live.kind = LiveKind::SdpFile;
        live.scheme = "sdp";
        live.url = input;
        live.demuxer = "sdp";
        live.waitsForSender = true;
        live.options = {{"protocol_whitelist", "file,udp,rtp,srtp,crypto,data"},
                        {"fflags", "nobuffer"},
                        {"analyzeduration", kAnalyzeMicroseconds},
                        {"probesize", kProbeBytes},
                        {"buffer_size", "4194304"},
                        {"max_delay", kRtpMaxDelayMicroseconds},
                        {"reorder_queue_size", kRtpReorderPackets}};
        return live;
    }
    return Status::error(input + ": not a live input (a URL such as rtsp://host/path, an .sdp file, or v4l2:/dev/video0)");
}

}  // namespace cs
