// audio_bench [SECONDS [CHANNELS]]: milliseconds of one core per second of audio for the meter
// (audio/AudioMeter: libebur128 M/S/I/LRA + true peak, per-frame peaks, phase pair) and the
// detectors (audio/AudioDetectors: silence, silent channel, clipping), at 48 kHz, fed as
// qc feeds them: one 25 fps video frame (1920 samples) at a time. The thread's CPU time.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "audio/AudioDetectors.h"
#include "audio/AudioMeter.h"

extern "C" {
#include <libavutil/channel_layout.h>
}

using namespace cs::audio;

namespace {
// This thread's CPU time: on a loaded machine the wall clock would count other processes' turns.
double cpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 20.0;
    const int rate = 48000;
    const size_t frames = size_t(seconds * rate), block = 1920;
    std::printf("%-9s %14s %14s %12s\n", "channels", "meter ms/s", "detect ms/s", "% of a core");
    std::vector<int> counts{2, 6, 8, 16};
    if (argc > 2) counts = {std::atoi(argv[2])};   // audio_bench SECONDS CHANNELS: one count
    for (int channels : counts) {
        AVChannelLayout l{};
        av_channel_layout_default(&l, channels);
        if (channels == 16) l.order = AV_CHANNEL_ORDER_UNSPEC;   // broadcast MXF's discrete tracks
        const ChannelLayoutInfo layout = describeLayout(l);
        std::mt19937 rng(1);
        std::normal_distribution<float> noise(0.0f, 0.1f);
        std::vector<std::vector<float>> planes(static_cast<size_t>(channels), std::vector<float>(frames));
        for (auto& p : planes)
            for (float& x : p) x = noise(rng);
        auto meter = AudioMeter::make(rate, layout);
        if (!meter) {
            std::fprintf(stderr, "audio_bench: %s\n", meter.message().c_str());
            return 1;
        }
        AudioDetectors detectors({}, rate, layout);
        std::vector<const float*> ptr(static_cast<size_t>(channels));
        double meterSecs = 0, detectSecs = 0;
        for (size_t done = 0; done < frames; done += block) {
            const size_t n = std::min(block, frames - done);
            for (int c = 0; c < channels; ++c) ptr[size_t(c)] = planes[size_t(c)].data() + done;
            const double t0 = cpuSeconds();
            (*meter)->add(ptr.data(), n);
            volatile double keep = (*meter)->takeInterval().momentary;
            (void)keep;
            const double t1 = cpuSeconds();
            detectors.add(ptr.data(), int64_t(done), n);
            const double t2 = cpuSeconds();
            meterSecs += t1 - t0;
            detectSecs += t2 - t1;
        }
        const double perSecondMeter = 1000 * meterSecs / seconds, perSecondDetect = 1000 * detectSecs / seconds;
        std::printf("%-9d %14.2f %14.2f %11.2f%%\n", channels, perSecondMeter, perSecondDetect,
                    (perSecondMeter + perSecondDetect) / 10.0);
        av_channel_layout_uninit(&l);
    }
    return 0;
}
