// FFmpeg filter graphs for the CPU benchmark (see FfmpegGraph.h).
#include "FfmpegGraph.h"

#include <algorithm>
#include <cstring>

extern "C" {
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/pixdesc.h>
}

namespace cs::bench {

Result<FilterGraphRunner> FilterGraphRunner::create(const AVFrame& input, const std::vector<std::string>& chains,
                                                    int threads) {
    if (chains.empty()) return Status::error("A filter graph needs at least one filter chain.");
    FilterGraphRunner runner;
    runner.graph_.reset(avfilter_graph_alloc());
    runner.output_.reset(av_frame_alloc());
    if (!runner.graph_ || !runner.output_) return Status::error("A filter graph could not be allocated: out of memory.");
    // Must be set before the first filter is created: the graph's thread pool starts then.
    runner.graph_->nb_threads = threads;
    runner.graph_->thread_type = AVFILTER_THREAD_SLICE;

    const char* pixFmt = av_get_pix_fmt_name(AVPixelFormat(input.format));
    if (!pixFmt) return Status::error("The benchmark frame has no pixel format FFmpeg knows.");
    const AVRational sar = input.sample_aspect_ratio.num > 0 ? input.sample_aspect_ratio : AVRational{1, 1};
    std::string graph = "buffer=video_size=" + std::to_string(input.width) + "x" + std::to_string(input.height) +
                        ":pix_fmt=" + pixFmt + ":time_base=1/25:pixel_aspect=" + std::to_string(sar.num) + "/" +
                        std::to_string(sar.den);
    if (chains.size() == 1) {
        graph += "," + chains[0] + ",buffersink";
        runner.description_ = chains[0];
    } else {
        graph += ",split=" + std::to_string(chains.size());
        for (size_t i = 0; i < chains.size(); ++i) graph += "[b" + std::to_string(i) + "]";
        for (size_t i = 0; i < chains.size(); ++i) {
            graph += ";[b" + std::to_string(i) + "]" + chains[i] + ",buffersink";
            runner.description_ += (i ? " + " : "split, ") + chains[i];
        }
    }

    AVFilterInOut* rawInputs = nullptr;
    AVFilterInOut* rawOutputs = nullptr;
    const int parsed = avfilter_graph_parse2(runner.graph_.get(), graph.c_str(), &rawInputs, &rawOutputs);
    FilterInOutPtr openInputs(rawInputs), openOutputs(rawOutputs);
    if (parsed < 0) return Status::error("The filter graph \"" + graph + "\" cannot be built: " + avErrorText(parsed) + ".");
    if (openInputs || openOutputs)
        return Status::error("The filter graph \"" + graph + "\" has unconnected pads.");

    // Our filters, in the order the description created them (buffersinks in chain order).
    const unsigned parsedCount = runner.graph_->nb_filters;
    for (unsigned i = 0; i < parsedCount; ++i) {
        AVFilterContext* f = runner.graph_->filters[i];
        if (std::strcmp(f->filter->name, "buffer") == 0) runner.source_ = f;
        else if (std::strcmp(f->filter->name, "buffersink") == 0) runner.sinks_.push_back(f);
    }
    if (!runner.source_ || runner.sinks_.size() != chains.size())
        return Status::error("The filter graph \"" + graph + "\" lacks its buffer source or sinks.");

    if (const int err = avfilter_graph_config(runner.graph_.get(), nullptr); err < 0)
        return Status::error("The filter graph \"" + graph + "\" cannot be configured for " + pixFmt + " " +
                             std::to_string(input.width) + "x" + std::to_string(input.height) + ": " +
                             avErrorText(err) + ".");

    for (unsigned i = 0; i < runner.graph_->nb_filters; ++i) {
        const AVFilterContext* f = runner.graph_->filters[i];
        const std::string name = f->filter->name;
        if (i >= parsedCount) {
            // Added by the graph itself to convert formats between filters.
            const char* to = f->nb_outputs > 0 ? av_get_pix_fmt_name(AVPixelFormat(f->outputs[0]->format)) : nullptr;
            runner.inserted_.push_back(name + (to ? std::string(" to ") + to : std::string()));
            continue;
        }
        // These pass references on (buffer, buffersink, split, format) or hand the
        // graph's thread count to their own library (scale, to swscale).
        if (name == "buffer" || name == "buffersink" || name == "split" || name == "format" || name == "scale")
            continue;
        if (!(f->filter->flags & AVFILTER_FLAG_SLICE_THREADS) &&
            std::find(runner.singleThreaded_.begin(), runner.singleThreaded_.end(), name) == runner.singleThreaded_.end())
            runner.singleThreaded_.push_back(name);
    }
    return runner;
}

int FilterGraphRunner::threads() const { return graph_->nb_threads; }

Status FilterGraphRunner::run(AVFrame& input, FramePtr* keepFirst) {
    input.pts = nextPts_++;   // monotonic timestamps, as a real stream would have
    if (const int err = av_buffersrc_add_frame_flags(source_, &input, AV_BUFFERSRC_FLAG_KEEP_REF); err < 0)
        return Status::error("The filter graph \"" + description_ + "\" refused a frame: " + avErrorText(err) + ".");
    for (size_t i = 0; i < sinks_.size(); ++i) {
        if (const int err = av_buffersink_get_frame(sinks_[i], output_.get()); err < 0)
            return Status::error("The filter graph \"" + description_ + "\" produced no frame: " + avErrorText(err) + ".");
        if (i == 0 && keepFirst) {
            keepFirst->reset(av_frame_alloc());
            if (!*keepFirst) return Status::error("A frame could not be allocated: out of memory.");
            av_frame_move_ref(keepFirst->get(), output_.get());
        } else {
            av_frame_unref(output_.get());
        }
    }
    return {};
}

}  // namespace cs::bench
