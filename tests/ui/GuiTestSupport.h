// Shared set-up of the GUI test programs: skip (exit 77) where no X display or no OpenGL
// 3.3 context is available, settings in a throw-away folder, the window tests' main()
// (CS_GUI_TEST_MAIN), and waiting helpers.
#pragma once
#include <QApplication>
#include <QElapsedTimer>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QEventLoop>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>
#include <QTimer>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "ui/Gui.h"

namespace cs::test {

#ifdef CS_TEST_FFMPEG
// Runs the ffmpeg CLI (the window tests make their clips with it) with `args`: true when it
// finished within a minute with exit code 0.
inline bool runFfmpeg(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(CS_TEST_FFMPEG), args);
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}
#endif

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

// The body of a window test's main(): skipped (77, the reason on stderr under the program's
// name) without a display or an OpenGL 3.3 context; settings in a throw-away folder; the
// application made as the window's own main() makes it; then `run` (which runs the QTest
// object with the arguments QApplication left). `argc` is main's: QApplication keeps it.
inline int runGuiTest(int& argc, char** argv, const std::function<int()>& run) {
    const char* slash = argc > 0 ? std::strrchr(argv[0], '/') : nullptr;
    const char* name = argc > 0 ? (slash ? slash + 1 : argv[0]) : "gui test";
    if (!haveDisplay()) {
        std::fprintf(stderr, "%s: skipped, no display (run under xvfb-run)\n", name);
        return 77;
    }
    QTemporaryDir settings;
    isolateSettings(settings);
    prepareGuiApplication();
    QApplication app(argc, argv);
    styleGuiApplication();
    if (!haveOpenGl33()) {
        std::fprintf(stderr, "%s: skipped, no OpenGL 3.3 context\n", name);
        return 77;
    }
    return run();
}

// A UDP port nothing listens on now (bound to port 0 and let go).
inline int freeUdpPort() {
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof a;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

}  // namespace cs::test

// A window test's main(): runGuiTest, then QTest::qExec of a `TestClass` (the test file
// includes QtTest; this header does not, so the screenshot tool needs no Qt Test).
#define CS_GUI_TEST_MAIN(TestClass)                                                                \
    int main(int argc, char** argv) {                                                              \
        return cs::test::runGuiTest(argc, argv, [&] {                                             \
            TestClass test;                                                                        \
            return QTest::qExec(&test, argc, argv);                                                \
        });                                                                                        \
    }
