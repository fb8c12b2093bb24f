// Transport icons drawn in neutral grey (no icon theme is needed, and nothing tinted sits
// beside the picture).
#pragma once
#include <QIcon>

namespace cs {

enum class IconKind { Start, StepBack, Play, Pause, StepForward, End, Loop };

QIcon makeIcon(IconKind kind);

}  // namespace cs
