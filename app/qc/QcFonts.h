// The fonts qc's pictures and PDF are lettered with: Qt's, which need a QGuiApplication. A qc
// worker has no window system, so where the process has no Qt application yet one is made on
// Qt's offscreen platform (part of libqt6gui6), once, for the process's life.
//
// Threading: the first call makes the application; qc calls it from the job's thread, the
// only one that draws text.
#pragma once
#include <QtGlobal>

namespace cs {

// A Qt message handler that drops Qt's messages (the offscreen platform's notes while it
// starts, a PDF writer's font notes): qc reports each problem as one sentence of its own.
void qcQuiet(QtMsgType, const QMessageLogContext&, const QString&);

// True when the process has a QGuiApplication (made here if it had no Qt application); false
// when it has a QCoreApplication without fonts.
bool qcHaveFonts();

}  // namespace cs
