// Live sources: network streams and cameras as a Source. A LiveSource wraps the file
// source's demux/decode (FileSource.h), opened with low-latency options (LiveInput.h),
// decoding with slice threads only, and with an interrupt callback that bounds every
// blocking call: an open gives up when no packet came within OpenOptions::liveOpenTimeout;
// once packets arrive it waits for the first picture (the next keyframe) as long as they
// keep coming, up to liveFirstPictureTimeout, and says so through OpenOptions::dataArriving.
// A read that sees no frame for liveStallTimeout gives up with "no picture for 2.0 s", and
// OpenOptions::cancel ends either at once. A live stream never ends quietly: an end of stream is an error that
// says why, so the reader (LiveReader.h) reconnects.
#pragma once
#include <memory>

#include "LiveInput.h"
#include "Source.h"

namespace cs {

Result<std::unique_ptr<Source>> openLiveSource(const LiveInput& input, const OpenOptions& options);

}  // namespace cs
