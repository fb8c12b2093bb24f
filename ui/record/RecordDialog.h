// The Record button's dialog: the file (a new name in the last folder, cudascope-<source>-
// <date>-<time>.mp4), what is recorded (the panels as shown, at a fixed size; or the picture
// alone, at the source's size), the codec and the quality. The choices are remembered
// (settings::RecordChoice).
#pragma once
#include <QString>

#include <optional>

#include "WindowRecorder.h"

class QWidget;

namespace cs {

// The request the user confirmed, or nullopt (cancelled). `source` names the default file.
std::optional<RecordRequest> askRecording(QWidget* parent, const QString& source);

}  // namespace cs
