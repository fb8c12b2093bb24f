// The dark theme for grading rooms: Fusion with neutral greys only (no tinted accents
// that would bias the eye next to the picture), and a style sheet for the few custom
// widgets (message bar, dock titles, status readouts).
#pragma once

class QApplication;

namespace cs {

void applyDarkTheme(QApplication& app);

}  // namespace cs
