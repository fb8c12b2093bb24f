// Shared set-up of the GUI test programs: skip (exit 77) where no X display or no OpenGL
// 3.3 context is available, settings in a throw-away folder, and waiting helpers.
#pragma once
#include <QApplication>
#include <QElapsedTimer>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <functional>

namespace cs::test {

// Before QApplication: true when the tests can run (an X display; Qt's offscreen platform
// has no OpenGL).
inline bool haveDisplay() {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (display && *display) || (wayland && *wayland);
}

// After QApplication: an OpenGL 3.3 core context can be made.
inline bool haveOpenGl33() {
    QOpenGLContext context;
    context.setFormat(QSurfaceFormat::defaultFormat());
    if (!context.create()) return false;
    const QSurfaceFormat f = context.format();
    return f.majorVersion() > 3 || (f.majorVersion() == 3 && f.minorVersion() >= 3);
}

// Settings (QSettings, XDG) in a temporary folder, so tests neither read nor change the user's.
inline void isolateSettings(QTemporaryDir& dir) { qputenv("XDG_CONFIG_HOME", dir.path().toLocal8Bit()); }

// Runs the event loop until `done` or the timeout; returns `done()`. The loop sleeps between
// checks (a busy loop would take the CPU from the player it waits for).
inline bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    QTimer tick;
    tick.setInterval(5);
    QObject::connect(&tick, &QTimer::timeout, &loop, &QEventLoop::quit);
    tick.start();
    while (!done() && t.elapsed() < timeoutMs) loop.exec();
    return done();
}

}  // namespace cs::test
