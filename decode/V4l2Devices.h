// Cameras: the V4L2 capture devices (/dev/video*) with their names, pixel formats, frame
// sizes and frame rates, asked of each device with the V4L2 ioctls, for the source dialog's
// Camera page; and the "v4l2:" input string that opens one of them in a chosen mode.
//
// Asking never takes the camera: a device another program is capturing from still answers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/Status.h"

namespace cs {

struct V4l2FrameRate {
    int numerator = 0;      // frames per second as a fraction: 30000/1001
    int denominator = 1;
    double fps() const { return denominator > 0 ? double(numerator) / denominator : 0.0; }
    std::string text() const;   // "30", "30000/1001": what the fps= parameter takes
};

struct V4l2FrameSize {
    int width = 0, height = 0;
    std::vector<V4l2FrameRate> rates;   // fastest first; empty when the driver does not say
};

struct V4l2PixelFormat {
    uint32_t fourcc = 0;
    std::string fourccText;     // "YUYV", "MJPG"
    std::string description;    // the driver's own words: "YUYV 4:2:2"
    // The format= parameter that selects it ("yuyv422", "uyvy422", "mjpeg", "nv12", "h264",
    // "yuv420p", "gray"); "" when cudascope cannot ask for this one.
    std::string name;
    bool compressed = false;
    // Discrete sizes as listed; for a range (stepwise/continuous) the common sizes inside it
    // plus its smallest and largest.
    std::vector<V4l2FrameSize> sizes;
};

struct V4l2Device {
    std::string path;           // "/dev/video0"
    std::string name;           // "HD Pro Webcam C920" (VIDIOC_QUERYCAP card)
    std::string driver;         // "uvcvideo"
    std::string bus;            // "usb-0000:00:14.0-1"
    std::vector<V4l2PixelFormat> formats;
};

// A mode to open a camera in; zero / empty fields leave the choice to the driver.
struct CameraMode {
    int width = 0, height = 0;
    std::string fps;            // "30", "30000/1001" ("" : the driver's)
    std::string format;         // a V4l2PixelFormat::name ("" : the driver's)
};

// Every video capture device under `directory` (/dev/video0, /dev/video1... in number
// order). Nodes that cannot capture video (uvcvideo's metadata nodes) and nodes that cannot
// be opened are left out; no devices gives an empty list, not an error.
std::vector<V4l2Device> listV4l2Devices(const std::string& directory = "/dev");

// One device; an error says why not: "/dev/video9: no such device".
Result<V4l2Device> queryV4l2Device(const std::string& path);

// The input string for openSource: "v4l2:/dev/video0?size=1280x720&fps=30&format=yuyv422".
std::string v4l2Input(const std::string& devicePath, const CameraMode& mode = {});

// The format= name for a V4L2 fourcc ("" when there is none); the fourcc as text ("YUYV").
std::string v4l2FormatName(uint32_t fourcc);
std::string fourccText(uint32_t fourcc);

}  // namespace cs
