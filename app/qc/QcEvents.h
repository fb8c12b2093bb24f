// `cudascope qc`'s events: runs of frames found as they stream by (nothing kept per frame).
// black and freeze as FFmpeg's blackdetect and freezedetect decide them, out_of_legal and
// out_of_gamut and out_of_target_gamut as runs above a share, decode_error for each integrity warning,
// timecode_break for each jump or repeat in the timecode the frames carry, scene_cut where
// FFmpeg's scdet puts a cut and repeated_frame for one or two frames repeating their
// predecessor between moving frames (analysis/SceneCuts.h), active_area where cropdetect's
// area changes (analysis/ActivePicture.h), flash and red_flash where more than three
// photosensitive flashes fall in a second (analysis/Flashes.h, ITU-R BT.1702). A run's
// duration is the time from its first frame to the frame that ends it (at the end of the
// input: to the last frame's pts plus one frame), and it is an event when that duration is
// at least the minimum (docs/QC.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "QcOptions.h"
#include "analysis/Flashes.h"

namespace cs {

struct QcEvent {
    // black, freeze, out_of_legal, out_of_gamut, out_of_target_gamut, decode_error, timecode_break;
    // audio (AudioReport.h): loudness, true_peak, phase, silence, silent_channel, clipping
    std::string type;
    int64_t firstFrame = 0, lastFrame = 0;
    double firstPts = 0, lastPts = 0;
    // decode_error: the integrity warning; timecode_break: what happened; loudness, clipping: what was found
    std::string message;
    double start = -1, end = -1;   // audio events found on samples: their exact times (seconds), else -1
    std::string channel;           // silent_channel: the channel's label
    // The first and last frame's timecode (the source's, or the elapsed time: QcRun says which).
    std::string firstTimecode, lastTimecode;
    // timecode_break: the value the previous frame called for, and the one found.
    std::string expectedTimecode, foundTimecode;
    // flash, red_flash: the most flashes in one second of the run, and the largest share of
    // the screen that took part in one of its transitions; -1 for other types.
    int flashes = -1;
    double area = -1;
};

// A run of frames for which a condition holds.
class RunDetector {
public:
    RunDetector(std::string type, double minDuration) : type_(std::move(type)), minDuration_(minDuration) {}
    // One frame; an event when a long enough run ended before this frame.
    void frame(int64_t index, double pts, bool inRun, std::vector<QcEvent>& events, const std::string& timecode = {});
    // The input's end; frameDuration: one frame's time (1 / frame rate).
    void finish(double frameDuration, std::vector<QcEvent>& events);
    // Starts a run at an earlier frame (freeze: the reference frame the frozen ones repeat).
    void frameStartingAt(int64_t index, double pts, int64_t startIndex, double startPts, bool inRun,
                         std::vector<QcEvent>& events, const std::string& timecode = {},
                         const std::string& startTimecode = {});

private:
    void close(double endPts, std::vector<QcEvent>& events);
    std::string type_;
    double minDuration_;
    bool open_ = false;
    QcEvent run_;
};

class QcEventFinder {
public:
    explicit QcEventFinder(const QcThresholds& t);
    // A frame's findings: black pixels out of all, MAFD from the freeze reference (the
    // caller keeps the reference: reference* is the frame it was taken from) and shares.
    struct Frame {
        int64_t index = 0;
        double pts = 0;
        double blackRatio = 0;
        bool frozen = false;            // MAFD from the reference at most the noise
        int64_t referenceIndex = 0;
        double referencePts = 0;
        std::string timecode, referenceTimecode;   // this frame's and the reference's
        double outOfLegal = 0, outOfGamut = 0;
        double outsideTarget = 0;       // share of pixels outside the gamut target
        bool scene = false;             // scdet measured against the previous frame (host frames)
        double sceneScore = 0;          // scdet's score
        bool repeat = false;            // scdet's MAFD / 100 at most freezedetect's noise
        bool crop = false;              // cropdetect's active area measured (host frames, after its skip)
        int cropX = 0, cropY = 0, cropW = 0, cropH = 0;
        bool flash = false;             // the flash detector measured it (host frames)
        double flashArea = 0, redArea = 0;   // shares of the frame in a transition (analysis/Flashes.h)
    };
    static constexpr int kMaxRepeatedFrames = 2;   // longer runs of repeats are holds (and freezes)
    void add(const Frame& f);
    void decodeError(int64_t index, double pts, const std::string& warning, const std::string& timecode = {});
    // A jump or repeat in the frames' own timecode at this frame.
    void timecodeBreak(int64_t index, double pts, const std::string& expected, const std::string& found, bool repeat);
    void finish(double frameDuration);
    const std::vector<QcEvent>& events() const { return events_; }
    // The one-second windows that end at the last frame added (when it was measured).
    const FlashCounter::Window& flashWindow() const { return flash_.window; }
    const FlashCounter::Window& redFlashWindow() const { return redFlash_.window; }
    int64_t decodeErrors() const { return decodeErrors_; }
    static constexpr size_t kMaxDecodeErrorEvents = 1000;

private:
    QcThresholds t_;
    RunDetector black_, freeze_, legal_, gamut_, target_;
    // repeated_frame: the run of repeats being followed, open while `repeats_` > 0.
    QcEvent repeatRun_;
    int repeats_ = 0;
    bool lastMoved_ = false;   // the previous frame differed from its own predecessor
    // active_area: the last frame's cropdetect area (x, y, w, h), when there was one.
    bool haveCrop_ = false;
    int crop_[4] = {};
    // flash and red_flash: each frame's one-second window, and the run of failing windows.
    struct FlashRun {
        explicit FlashRun(const char* t) : type(t) {}
        std::string type;
        FlashCounter counter;
        FlashCounter::Window window;
        bool open = false;
        QcEvent run;
    };
    void flashFrame(FlashRun& f, const Frame& frame, double area);
    void closeFlash(FlashRun& f);
    FlashRun flash_{"flash"}, redFlash_{"red_flash"};
    // The frames of FlashCounter's window (FlashCounter::inWindow), kept for their timecodes:
    // a failing window's first frame is the run's first.
    struct Recent {
        int64_t index;
        double pts;
        std::string timecode;
    };
    std::vector<Recent> recent_;
    std::vector<QcEvent> events_;
    int64_t decodeErrors_ = 0;
};

}  // namespace cs
