// V4L2 device enumeration through <linux/videodev2.h> (see V4l2Devices.h): QUERYCAP for the
// name and capabilities, ENUM_FMT for pixel formats, ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS
// for the sizes and rates of each.
#include "V4l2Devices.h"

#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <utility>

namespace cs {
namespace {

// A file descriptor closed exactly once.
class UniqueFd {
public:
    explicit UniqueFd(int fd) : fd_(fd) {}
    ~UniqueFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

// ioctl, again when a signal interrupts it.
int xioctl(int fd, unsigned long request, void* argument) {
    int ret;
    do ret = ::ioctl(fd, request, argument);
    while (ret < 0 && errno == EINTR);
    return ret;
}

// Sizes offered inside a stepwise or continuous range: what the Camera page lists.
constexpr std::pair<int, int> kCommonSizes[] = {
    {160, 120},   {320, 240},   {640, 360},   {640, 480},   {800, 600},   {1024, 768}, {1280, 720},
    {1280, 960},  {1920, 1080}, {2560, 1440}, {3840, 2160}, {4096, 2160},
};
constexpr int kCommonRates[] = {120, 60, 50, 30, 25, 24, 15, 10, 5};

V4l2FrameRate rateOfInterval(uint32_t intervalNumerator, uint32_t intervalDenominator) {
    // A frame interval of n/d seconds is d/n frames per second.
    const uint32_t g = std::gcd(intervalNumerator, intervalDenominator);
    V4l2FrameRate rate;
    if (intervalNumerator == 0 || g == 0) return rate;
    rate.numerator = int(intervalDenominator / g);
    rate.denominator = int(intervalNumerator / g);
    return rate;
}

std::vector<V4l2FrameRate> frameRates(int fd, uint32_t fourcc, int width, int height) {
    std::vector<V4l2FrameRate> rates;
    v4l2_frmivalenum interval{};
    interval.pixel_format = fourcc;
    interval.width = uint32_t(width);
    interval.height = uint32_t(height);
    for (interval.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &interval) == 0; ++interval.index) {
        if (interval.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
            const V4l2FrameRate rate = rateOfInterval(interval.discrete.numerator, interval.discrete.denominator);
            if (rate.numerator > 0) rates.push_back(rate);
            continue;
        }
        // A range of intervals: the common rates inside it, and its two ends.
        const double slowest = rateOfInterval(interval.stepwise.max.numerator, interval.stepwise.max.denominator).fps();
        const double fastest = rateOfInterval(interval.stepwise.min.numerator, interval.stepwise.min.denominator).fps();
        rates.push_back(rateOfInterval(interval.stepwise.min.numerator, interval.stepwise.min.denominator));
        for (int common : kCommonRates)
            if (common < fastest && common > slowest) rates.push_back(V4l2FrameRate{common, 1});
        rates.push_back(rateOfInterval(interval.stepwise.max.numerator, interval.stepwise.max.denominator));
        break;   // a range is the only entry
    }
    std::erase_if(rates, [](const V4l2FrameRate& r) { return r.numerator <= 0; });
    std::stable_sort(rates.begin(), rates.end(),
                     [](const V4l2FrameRate& a, const V4l2FrameRate& b) { return a.fps() > b.fps(); });
    rates.erase(std::unique(rates.begin(), rates.end(),
                            [](const V4l2FrameRate& a, const V4l2FrameRate& b) {
                                return a.numerator == b.numerator && a.denominator == b.denominator;
                            }),
                rates.end());
    return rates;
}

std::vector<V4l2FrameSize> frameSizes(int fd, uint32_t fourcc) {
    std::vector<V4l2FrameSize> sizes;
    v4l2_frmsizeenum size{};
    size.pixel_format = fourcc;
    for (size.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; ++size.index) {
        if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
            sizes.push_back({int(size.discrete.width), int(size.discrete.height), {}});
            continue;
        }
        const v4l2_frmsize_stepwise& range = size.stepwise;
        const uint32_t stepW = std::max<uint32_t>(1, range.step_width), stepH = std::max<uint32_t>(1, range.step_height);
        auto fits = [&](uint32_t w, uint32_t h) {
            return w >= range.min_width && w <= range.max_width && h >= range.min_height && h <= range.max_height &&
                   (w - range.min_width) % stepW == 0 && (h - range.min_height) % stepH == 0;
        };
        sizes.push_back({int(range.min_width), int(range.min_height), {}});
        for (const auto& [w, h] : kCommonSizes)
            if (fits(uint32_t(w), uint32_t(h))) sizes.push_back({w, h, {}});
        sizes.push_back({int(range.max_width), int(range.max_height), {}});
        break;
    }
    std::sort(sizes.begin(), sizes.end(), [](const V4l2FrameSize& a, const V4l2FrameSize& b) {
        return std::pair(a.width, a.height) < std::pair(b.width, b.height);
    });
    sizes.erase(std::unique(sizes.begin(), sizes.end(),
                            [](const V4l2FrameSize& a, const V4l2FrameSize& b) {
                                return a.width == b.width && a.height == b.height;
                            }),
                sizes.end());
    for (auto& s : sizes) s.rates = frameRates(fd, fourcc, s.width, s.height);
    return sizes;
}

std::string fixedString(const uint8_t* text, size_t capacity) {
    const auto* begin = reinterpret_cast<const char*>(text);
    return std::string(begin, strnlen(begin, capacity));
}

// The number in "video12", or -1: sorts video2 before video10.
int deviceNumber(const std::string& name) {
    if (name.rfind("video", 0) != 0 || name.size() == 5) return -1;
    int n = 0;
    for (size_t i = 5; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9' || n > 100000) return -1;
        n = n * 10 + (name[i] - '0');
    }
    return n;
}

}  // namespace

std::string V4l2FrameRate::text() const {
    if (denominator == 1) return std::to_string(numerator);
    return std::to_string(numerator) + "/" + std::to_string(denominator);
}

std::string fourccText(uint32_t fourcc) {
    std::string text;
    for (int i = 0; i < 4; ++i) {
        const char c = char((fourcc >> (8 * i)) & 0xff);
        text += (c >= 32 && c < 127) ? c : '?';
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

std::string v4l2FormatName(uint32_t fourcc) {
    switch (fourcc) {
        case V4L2_PIX_FMT_YUYV: return "yuyv422";
        case V4L2_PIX_FMT_UYVY: return "uyvy422";
        case V4L2_PIX_FMT_MJPEG:
        case V4L2_PIX_FMT_JPEG: return "mjpeg";
        case V4L2_PIX_FMT_NV12: return "nv12";
        case V4L2_PIX_FMT_H264: return "h264";
        case V4L2_PIX_FMT_YUV420: return "yuv420p";
        case V4L2_PIX_FMT_GREY: return "gray";
        default: return {};
    }
}

Result<V4l2Device> queryV4l2Device(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR) return Status::error(path + ": no such device");
        return Status::error(path + ": " + std::strerror(errno));
    }
    if (!S_ISCHR(st.st_mode)) return Status::error(path + ": not a video device");
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0) {
        if (errno == EACCES) return Status::error(path + ": permission denied (is the user in the 'video' group?)");
        return Status::error(path + ": cannot be opened (" + std::strerror(errno) + ")");
    }
    v4l2_capability cap{};
    if (xioctl(fd.get(), VIDIOC_QUERYCAP, &cap) != 0) return Status::error(path + ": not a V4L2 device");
    const uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    // FFmpeg's v4l2 input reads single-planar capture, by streaming or read().
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & (V4L2_CAP_STREAMING | V4L2_CAP_READWRITE)))
        return Status::error(path + ": not a video capture device");

    V4l2Device device;
    device.path = path;
    device.name = fixedString(cap.card, sizeof cap.card);
    device.driver = fixedString(cap.driver, sizeof cap.driver);
    device.bus = fixedString(cap.bus_info, sizeof cap.bus_info);
    v4l2_fmtdesc description{};
    description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    for (description.index = 0; xioctl(fd.get(), VIDIOC_ENUM_FMT, &description) == 0; ++description.index) {
        V4l2PixelFormat format;
        format.fourcc = description.pixelformat;
        format.fourccText = fourccText(description.pixelformat);
        format.description = fixedString(description.description, sizeof description.description);
        format.name = v4l2FormatName(description.pixelformat);
        format.compressed = description.flags & V4L2_FMT_FLAG_COMPRESSED;
        format.sizes = frameSizes(fd.get(), description.pixelformat);
        device.formats.push_back(std::move(format));
    }
    return device;
}

std::vector<V4l2Device> listV4l2Devices(const std::string& directory) {
    std::vector<std::pair<int, std::string>> candidates;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (const int n = deviceNumber(name); n >= 0) candidates.emplace_back(n, it->path().string());
    }
    std::sort(candidates.begin(), candidates.end());
    std::vector<V4l2Device> devices;
    for (const auto& [number, path] : candidates)
        if (auto device = queryV4l2Device(path)) devices.push_back(std::move(device.value()));
    return devices;
}

std::string v4l2Input(const std::string& devicePath, const CameraMode& mode) {
    std::string input = "v4l2:" + devicePath;
    std::string query;
    auto add = [&](const std::string& key, const std::string& value) {
        query += (query.empty() ? "?" : "&") + key + "=" + value;
    };
    if (mode.width > 0 && mode.height > 0) add("size", std::to_string(mode.width) + "x" + std::to_string(mode.height));
    if (!mode.fps.empty()) add("fps", mode.fps);
    if (!mode.format.empty()) add("format", mode.format);
    return input + query;
}

}  // namespace cs
