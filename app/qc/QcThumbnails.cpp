#include "QcThumbnails.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>

#include "cpu/CpuEngine.h"
#include "decode/Source.h"
#include "engine/Thumbnailer.h"

namespace cs {

QcThumbnails qcThumbnails(const std::string& input, const std::vector<QcEvent>& events, const std::atomic<bool>* stop) {
    QcThumbnails out;
    std::map<int64_t, double> wanted;   // first frame -> its time, the first kQcThumbnails frames
    std::set<int64_t> gamutFrames;      // first frames of R'G'B' gamut events: a Diamond too
    for (const QcEvent& e : events) {
        wanted.emplace(e.firstFrame, e.firstPts);
        if (e.type == "out_of_gamut") gamutFrames.insert(e.firstFrame);
    }
    if (wanted.empty()) return out;
    size_t skipped = 0;
    while (wanted.size() > size_t(kQcThumbnails)) {
        wanted.erase(std::prev(wanted.end()));
        ++skipped;
    }
    // FFmpeg's own choice of threads: frame threads decode that many frames ahead of the one
    // asked for, but where first frames are near one another the reading goes on through them.
    auto opened = openSource(input, OpenOptions{});
    if (!opened) {
        out.note = "no pictures: " + opened.message();
        return out;
    }
    Source& source = **opened;
    const double rate = source.info().frameRate, half = rate > 0 ? 0.5 / rate : 0.02;
    Thumbnailer thumbnailer;
    std::unique_ptr<Engine> diamondEngine;   // made for the first gamut event
    ScopeSpec diamond;
    diamond.histogram = diamond.waveform = diamond.parade = diamond.vectorscope = diamond.stats = diamond.hdr = false;
    diamond.picture = false;
    diamond.gamutDisplay = GamutDisplay::Diamond;
    diamond.gamutDisplaySize = kQcDiamondSize;
    ScopeResults diamondResults;
    VideoFrame frame;
    bool haveFrame = false;
    std::string problem;
    for (const auto& [index, pts] : wanted) {
        if (stop && stop->load()) break;
        // Read on from where the reading is when the frame is near ahead; else seek to it.
        if (!haveFrame || frame.view.pts > pts + half || frame.view.pts < pts - 2.0) {
            if (Status st = source.seek(pts); !st) {
                problem = st.message();
                break;
            }
            haveFrame = false;
        }
        while (!haveFrame || frame.view.pts < pts - half) {
            const ReadResult r = source.read(frame);
            if (r.status != ReadStatus::Frame) {
                problem = r.status == ReadStatus::EndOfStream ? "the input ended before frame " + std::to_string(index) : r.message;
                break;
            }
            haveFrame = true;
        }
        if (!problem.empty()) break;
        if (std::fabs(frame.view.pts - pts) > half) continue;   // not a frame of its own on the second reading
        RgbaImage picture;
        if (Status st = thumbnailer.picture(frame.view, nullptr, kQcThumbnailWidth, kQcThumbnailHeight, picture); !st) {
            problem = "frame " + std::to_string(index) + ": " + st.message();
            break;
        }
        out.pictures.emplace(index, std::move(picture));
        if (gamutFrames.count(index) && !frame.view.onDevice) {
            if (!diamondEngine) diamondEngine = makeCpuEngine();
            if (Status st = diamondEngine->process(frame.view, diamond, diamondResults); !st) {
                problem = "frame " + std::to_string(index) + "'s Diamond: " + st.message();
                break;
            }
            out.diamonds.emplace(index, std::move(diamondResults.gamutDisplayImage));
        }
    }
    (void)source.takeWarnings();   // the pass reported the input's damage already
    const size_t missing = wanted.size() - out.pictures.size();
    if (!problem.empty())
        out.note = std::to_string(missing) + " event" + (missing == 1 ? " has" : "s have") + " no picture: " + problem;
    else if (missing)
        out.note = std::to_string(missing) + " first frame" + (missing == 1 ? " was" : "s were") + " not found again at its time";
    if (skipped)
        out.note += std::string(out.note.empty() ? "" : "; ") + "only the first " + std::to_string(kQcThumbnails) +
                    " first frames have a picture";
    return out;
}

}  // namespace cs
