// `cudascope record`'s options, read by the rules of CommandOptions.h.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "app/cli/CommandOptions.h"
#include "scope/MonitorLayout.h"
#include "core/ScopeSpec.h"
#include "core/Status.h"

namespace cs {

// record --help: the synopsis, then a line per option of recordOptionTable().
const std::string& recordUsage();

struct RecordOptions {
    bool help = false;
    std::string input, out, engine = "auto", hwdec;   // hwdec "": auto with the CUDA engine, else none
    long frames = -1;                                 // -1: no frame limit
    double seconds = -1;                              // -1: no time limit
    MonitorLayout layout = MonitorLayout::Picture;
    int width = 0, height = 0;                        // 0: picture/preview at the source's size, else 1920x1080
    std::string codec = "h264";                       // h264, hevc
    long long bitrate = 0;                            // bits per second; 0: constant quality
    int quality = 20;                                 // CRF / CQ
    PreviewFilter preview = PreviewFilter::None;      // for the preview and composite layouts
    FilterParams filter;                              // the preview's parameters (peaking colour and width)
    bool realtime = false;                            // a file paced at its frame rate, drops counted
    std::string convert = "auto";                     // RGBA -> 4:2:0: auto (the GPU with the CUDA engine), cpu, cuda, swscale
};

const std::vector<OptionDef>& recordOptionTable();

// The arguments after "record" -> the options, or the usage error's sentence.
Result<RecordOptions> parseRecordArgs(const std::vector<std::string>& args);

}  // namespace cs
