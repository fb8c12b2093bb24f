// QCTools documents for the timeline: the per-frame statistics in ffprobe's XML schema
// (FFmpeg's doc/ffprobe.xsd: <ffprobe><frames><frame><tag key value/>...), as QCTools writes
// them (NAME.qctools.xml.gz, named after the whole file name: clip.mov.qctools.xml.gz), as
// `cudascope qc` writes them (app/qc/QcXml.h) and as `ffprobe -f lavfi
// "movie=CLIP,signalstats" -show_frames -of xml` prints them; gzip-compressed (told by its
// magic bytes) or plain.
//
// What the timeline graphs and signalstats carries is read from the first video stream's
// frames: YMIN/YAVG/YMAX, UAVG/VAVG, SATAVG, YDIF and BRNG (the share of pixels outside the
// broadcast range: the out-of-legal series). Audio frames with ebur128's tags
// (lavfi.r128.M/S, and true_peak where it measured peaks, linear: shown in dBTP) fill the
// loudness band, each video frame taking the values of the last audio frame that starts
// before the video frame ends. What the document does not carry (gamut, nits, a series a
// QCTools filter set left out) stays absent, never invented. The frame's time is pts_time,
// else pkt_pts_time (older ffprobe), best_effort_timestamp_time or pkt_dts_time, counted
// from the first video frame's (the window's clock: the decoder counts from the stream's
// start); the timecode is the elapsed time at it (the document has none; the Timeline
// relabels the frames from the source's timecode once a frame of it is shown). There are no
// events.
//
// The file is streamed (zlib's gzread into QXmlStreamReader, 64 KiB at a time), never held
// whole: an hour at 25 fps is 90,000 frames and some 100 MB of XML.
//
// Threading: none of its own; a call reads one file on the calling thread (TimelinePass calls
// it on a task of its own) and touches nothing shared but `cancel`.
#pragma once
#include <QString>
#include <QStringList>

#include <atomic>

#include "core/Status.h"
#include "ui/timeline/TimelineData.h"

namespace cs::timeline {

// The whole document at `path`. Errors are one sentence naming the file and the reason (not
// gzip and not XML, a damaged or cut-short gzip stream, XML that is not an ffprobe document
// or ends early, no video frames).
// `cancel` (may be null), looked at every 64 KiB: once true, the read stops with an error.
Result<TimelineData> readQcToolsDocument(const QString& path, const std::atomic<bool>* cancel = nullptr);

// A qc.json (by its name) or a QCTools document (anything else).
Result<TimelineData> readStatisticsDocument(const QString& path, const std::atomic<bool>* cancel = nullptr);

// The QCTools documents that may lie beside `input`, in the order they are looked for:
// clip.mov.qctools.xml.gz (QCTools' and qc's name), clip.qctools.xml.gz, then the plain .xml
// of both. Empty when `input` is no local file.
QStringList qcToolsBesideInput(const QString& input);

}  // namespace cs::timeline
