#include "QcEvents.h"

#include <algorithm>
#include <cstdio>

#include "analysis/SceneCuts.h"

namespace cs {

void RunDetector::frame(int64_t index, double pts, bool inRun, std::vector<QcEvent>& events, const std::string& timecode) {
    frameStartingAt(index, pts, index, pts, inRun, events, timecode, timecode);
}

void RunDetector::frameStartingAt(int64_t index, double pts, int64_t startIndex, double startPts, bool inRun,
                                  std::vector<QcEvent>& events, const std::string& timecode,
                                  const std::string& startTimecode) {
    if (inRun) {
        if (!open_) {
            open_ = true;
            run_ = QcEvent{type_, startIndex, index, startPts, pts, {}, -1, -1, {}, startTimecode, timecode, {}, {}};
        }
        run_.lastFrame = index;
        run_.lastPts = pts;
        run_.lastTimecode = timecode;
        return;
    }
    if (open_) close(pts, events);
}

void RunDetector::close(double endPts, std::vector<QcEvent>& events) {
    open_ = false;
    // The same comparison as blackdetect's (black_end - black_start >= black_min_duration).
    if (endPts - run_.firstPts >= minDuration_ - 1e-9) events.push_back(run_);
}

void RunDetector::finish(double frameDuration, std::vector<QcEvent>& events) {
    if (open_) close(run_.lastPts + frameDuration, events);
}

QcEventFinder::QcEventFinder(const QcThresholds& t)
    : t_(t),
      black_("black", t.blackMinDuration),
      freeze_("freeze", t.freezeMinDuration),
      legal_("out_of_legal", t.legalMinDuration),
      gamut_("out_of_gamut", t.gamutMinDuration),
      target_("out_of_target_gamut", t.targetGamutMinDuration) {}

void QcEventFinder::add(const Frame& f) {
    black_.frame(f.index, f.pts, pictureIsBlack(f.blackRatio, t_.blackPictureRatio), events_, f.timecode);
    // A frozen frame belongs to a run that starts at the reference frame it repeats.
    freeze_.frameStartingAt(f.index, f.pts, f.referenceIndex, f.referencePts, f.frozen, events_, f.timecode,
                            f.referenceTimecode);
    legal_.frame(f.index, f.pts, f.outOfLegal > t_.legalShare, events_, f.timecode);
    gamut_.frame(f.index, f.pts, f.outOfGamut > t_.gamutShare, events_, f.timecode);
    target_.frame(f.index, f.pts, f.outsideTarget > t_.targetGamutShare, events_, f.timecode);
    if (f.crop) {
        const int now[4] = {f.cropX, f.cropY, f.cropW, f.cropH};
        if (haveCrop_ && !std::equal(now, now + 4, crop_)) {
            const std::string what = "active area " + std::to_string(f.cropW) + "x" + std::to_string(f.cropH) + "+" +
                                     std::to_string(f.cropX) + "+" + std::to_string(f.cropY) + " (was " + std::to_string(crop_[2]) +
                                     "x" + std::to_string(crop_[3]) + "+" + std::to_string(crop_[0]) + "+" + std::to_string(crop_[1]) + ")";
            events_.push_back(QcEvent{"active_area", f.index, f.index, f.pts, f.pts, what, -1, -1, {}, f.timecode, f.timecode, {}, {}});
        }
        std::copy(now, now + 4, crop_);
        haveCrop_ = true;
    }
    if (f.flash) {
        recent_.push_back({f.index, f.pts, f.timecode});
        const auto old = std::find_if(recent_.begin(), recent_.end(), [&](const Recent& r) { return FlashCounter::inWindow(r.pts, f.pts); });
        recent_.erase(recent_.begin(), old);
        flashFrame(flash_, f, f.flashArea);
        flashFrame(redFlash_, f, f.redArea);
    }
    if (!f.scene) {   // not compared (the first frame, a new size, or not measured)
        repeats_ = 0;
        lastMoved_ = false;
        return;
    }
    if (isSceneCut(f.sceneScore, t_.sceneThreshold)) {
        char what[64];
        std::snprintf(what, sizeof what, "scdet score %.3f", f.sceneScore);
        events_.push_back(QcEvent{"scene_cut", f.index, f.index, f.pts, f.pts, what, -1, -1, {}, f.timecode, f.timecode, {}, {}});
    }
    if (f.repeat) {
        if (repeats_ == 0 && !lastMoved_) repeats_ = -1;   // a hold from a still picture: not a repeated frame
        if (repeats_ == 0) repeatRun_ = QcEvent{"repeated_frame", f.index, f.index, f.pts, f.pts, {}, -1, -1, {}, f.timecode, f.timecode, {}, {}};
        if (repeats_ >= 0) {
            ++repeats_;
            repeatRun_.lastFrame = f.index;
            repeatRun_.lastPts = f.pts;
            repeatRun_.lastTimecode = f.timecode;
        }
        lastMoved_ = false;
        return;
    }
    // A moving frame ends the run: one or two repeats between moving frames are an event.
    if (repeats_ > 0 && repeats_ <= kMaxRepeatedFrames) {
        repeatRun_.message = repeats_ == 1 ? "frame " + std::to_string(repeatRun_.firstFrame) + " repeats frame " +
                                                 std::to_string(repeatRun_.firstFrame - 1)
                                           : "frames " + std::to_string(repeatRun_.firstFrame) + " to " +
                                                 std::to_string(repeatRun_.lastFrame) + " repeat frame " +
                                                 std::to_string(repeatRun_.firstFrame - 1);
        events_.push_back(repeatRun_);
    }
    repeats_ = 0;
    lastMoved_ = true;
}

void QcEventFinder::flashFrame(FlashRun& f, const Frame& frame, double area) {
    f.window = f.counter.add(frame.index, frame.pts, area);
    if (!FlashCounter::fails(f.window)) {
        closeFlash(f);
        return;
    }
    if (!f.open) {   // the run starts with the first failing window's first frame
        f.open = true;
        f.run = QcEvent{};
        f.run.type = f.type;
        f.run.firstFrame = f.window.first;
        f.run.firstPts = frame.pts;
        f.run.firstTimecode = frame.timecode;
        for (const Recent& r : recent_)
            if (r.index == f.window.first) {
                f.run.firstPts = r.pts;
                f.run.firstTimecode = r.timecode;
            }
        f.run.flashes = 0;
        f.run.area = 0;
    }
    f.run.lastFrame = frame.index;
    f.run.lastPts = frame.pts;
    f.run.lastTimecode = frame.timecode;
    f.run.flashes = std::max(f.run.flashes, f.window.flashes);
    f.run.area = std::max(f.run.area, f.window.worstArea);
}

void QcEventFinder::closeFlash(FlashRun& f) {
    if (!f.open) return;
    f.open = false;
    char what[200];
    std::snprintf(what, sizeof what, "up to %d %sflashes in one second (BT.1702: at most %d); transitions over up to %.1f%% of the screen",
                  f.run.flashes, f.type == "red_flash" ? "saturated red " : "", kFlashMaxPerSecond, 100.0 * f.run.area);
    f.run.message = what;
    events_.push_back(f.run);
}

void QcEventFinder::decodeError(int64_t index, double pts, const std::string& warning, const std::string& timecode) {
    ++decodeErrors_;
    if (size_t(decodeErrors_) <= kMaxDecodeErrorEvents)
        events_.push_back(QcEvent{"decode_error", index, index, pts, pts, warning, -1, -1, {}, timecode, timecode, {}, {}});
}

void QcEventFinder::timecodeBreak(int64_t index, double pts, const std::string& expected, const std::string& found,
                                  bool repeat) {
    const std::string what = std::string(repeat ? "timecode repeats" : "timecode jumps") + ": expected " + expected +
                             ", found " + found;
    events_.push_back(QcEvent{"timecode_break", index, index, pts, pts, what, -1, -1, {}, found, found, expected, found});
}

void QcEventFinder::finish(double frameDuration) {
    black_.finish(frameDuration, events_);
    freeze_.finish(frameDuration, events_);
    legal_.finish(frameDuration, events_);
    gamut_.finish(frameDuration, events_);
    target_.finish(frameDuration, events_);
    closeFlash(flash_);
    closeFlash(redFlash_);
}

}  // namespace cs
