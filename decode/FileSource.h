// Files (and any input libavformat can read) as a Source: demux the best video stream and
// decode it, in software (frame and slice threads) or with NVDEC through FFmpeg's CUDA
// hwaccel, falling back to software when NVDEC cannot be had.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Source.h"

struct AVIOContext;
struct AVInputFormat;

namespace cs {

Result<std::unique_ptr<Source>> openFileSource(const std::string& input, const OpenOptions& options);

// How a live source (LiveSource.cpp) has the demuxer and decoder set up; files use the
// defaults. Messages still name `input` (what the user gave), not `url`.
struct DemuxSetup {
    std::string url;                          // what libavformat opens ("" : the input itself)
    const AVInputFormat* demuxer = nullptr;   // forced (video4linux2, sdp, rawvideo); null: probe
    std::vector<std::pair<std::string, std::string>> options;   // demuxer and protocol options
    int (*interrupt)(void*) = nullptr;        // AVIOInterruptCB, polled by every blocking call
    void* interruptOpaque = nullptr;          // must outlive the source
    bool lowDelay = false;                    // slice threads only: frame threads hold frames back
    std::atomic<int64_t>* packetsRead = nullptr;   // when set: counts every packet demuxed (any stream)
    // Bytes from the caller instead of from `url` (memory, a callback reader): libavformat
    // reads through this context, rewound to its start for each open attempt, and `url`
    // (or the input) is only a name for probing. Owned by the caller; must outlive the source.
    AVIOContext* io = nullptr;
};

Result<std::unique_ptr<Source>> openFileSource(const std::string& input, const OpenOptions& options,
                                               const DemuxSetup& setup);

}  // namespace cs
