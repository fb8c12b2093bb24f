// One FFmpeg filter graph for the CPU benchmark: buffer -> filter chain(s) ->
// buffersink(s), fed the same AVFrame again and again. Several chains share one input
// through `split`, each ending in its own buffersink, so "all scopes" runs as one graph.
#pragma once
#include <string>
#include <vector>

#include "AvHandles.h"
#include "core/Status.h"

namespace cs::bench {

class FilterGraphRunner {
public:
    // `chains`: filter chains in FFmpeg's syntax ("waveform=mode=column:components=1"),
    // one per output. `threads`: the graph's nb_threads (slice threading, for the filters
    // that support it). `input` gives the size, format and aspect of the frames to come.
    static Result<FilterGraphRunner> create(const AVFrame& input, const std::vector<std::string>& chains, int threads);

    // Sends `input` (its reference is kept: AV_BUFFERSRC_FLAG_KEEP_REF) and takes one
    // frame from every sink, then drops them. `keepFirst`: the first sink's frame is
    // kept instead (for reading signalstats' metadata).
    Status run(AVFrame& input, FramePtr* keepFirst = nullptr);

    const std::string& description() const { return description_; }
    int threads() const;   // the graph's nb_threads
    // Filters in the graph that run single-threaded (no slice threading), by name.
    const std::vector<std::string>& singleThreadedFilters() const { return singleThreaded_; }
    // Conversions the graph inserted itself (a `scale` before a filter that cannot read
    // the input format); their cost is inside the measured time.
    const std::vector<std::string>& insertedConversions() const { return inserted_; }

private:
    FilterGraphPtr graph_;
    AVFilterContext* source_ = nullptr;          // owned by graph_
    std::vector<AVFilterContext*> sinks_;        // owned by graph_
    FramePtr output_;
    int64_t nextPts_ = 0;
    std::string description_;
    std::vector<std::string> singleThreaded_, inserted_;
};

}  // namespace cs::bench
