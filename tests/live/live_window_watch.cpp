// cudascope_live_watch INPUT SECONDS [SNAPSHOT_DIR]: the main window, every panel open,
// playing a live INPUT for SECONDS while its state is printed, for tests/live/restart-soak.sh
// (not a test by itself). Under Xvfb:
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/tests/live/cudascope_live_watch udp://127.0.0.1:5000 60
// Lines on stdout, each starting with the seconds since the window opened the input:
//   T state TEXT          the player's live state as the status bar shows it, when it changes
//   T frames N D          every 0.2 s: frames presented and dropped so far
//   T message TEXT        a new warning or error in the window's message bar
// and at the end one line:
//   summary presented=N dropped=D comebacks=K longest_without_frames_s=S event_loop_lag_max_ms=L
// comebacks: times the state went from reconnecting back to playing; longest_without_frames_s:
// the longest time no new frame was presented; event_loop_lag_max_ms: how late a 50 ms timer
// fired at worst (the GUI thread blocked for about that long). With SNAPSHOT_DIR, the window
// is saved there as PNG every 10 s.
#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "GuiTestSupport.h"
#include "decode/Source.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: cudascope_live_watch INPUT SECONDS [SNAPSHOT_DIR]\n");
        return 2;
    }
    if (!cs::test::haveDisplay()) {
        std::fprintf(stderr, "cudascope_live_watch: no display (run under xvfb-run)\n");
        return 77;
    }
    const QString input = QString::fromLocal8Bit(argv[1]);
    const double seconds = std::atof(argv[2]);
    const QString snapshots = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    QTemporaryDir settings;
    cs::test::isolateSettings(settings);

    cs::setLibraryLogging(false);   // as the cudascope binary: FFmpeg's own lines stay quiet
    cs::prepareGuiApplication();
    QApplication app(argc, argv);
    cs::styleGuiApplication();
    if (!cs::test::haveOpenGl33()) {
        std::fprintf(stderr, "cudascope_live_watch: no OpenGL 3.3 context\n");
        return 77;
    }
    cs::MainWindow window;
    window.resize(1280, 720);
    window.show();
    window.showAllPanels();
    window.openInput(input);

    QElapsedTimer clock;
    clock.start();
    auto now = [&] { return double(clock.elapsed()) / 1000.0; };
    std::string state, message;
    int64_t lastPresented = -1;
    double lastFrameAt = 0.0, longestWithoutFrames = 0.0, maxLag = 0.0, lastTick = 0.0, lastHeartbeat = 0.0;
    double lastSnapshot = 0.0;
    int comebacks = 0;
    bool wasReconnecting = false;

    QTimer tick;
    tick.setInterval(50);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const double t = now();
        if (lastTick > 0.0) maxLag = std::max(maxLag, (t - lastTick) * 1000.0 - 50.0);
        lastTick = t;
        cs::Player& player = window.player();
        std::string s = player.liveStatusText();
        if (s.empty()) s = player.isOpening() ? "opening" : "none";
        if (s != state) {
            if (wasReconnecting && s == "playing") ++comebacks;
            if (s.rfind("reconnecting", 0) == 0) wasReconnecting = true;
            else if (s == "playing") wasReconnecting = false;
            state = s;
            std::printf("%.2f state %s\n", t, s.c_str());
        }
        const std::string m = window.messageText().toStdString();
        if (m != message) {
            message = m;
            if (!m.empty()) std::printf("%.2f message %s\n", t, m.c_str());
        }
        const int64_t presented = player.presentedFrames();
        if (presented != lastPresented) {
            if (lastPresented >= 0) longestWithoutFrames = std::max(longestWithoutFrames, t - lastFrameAt);
            lastPresented = presented;
            lastFrameAt = t;
        }
        if (t - lastHeartbeat >= 0.2) {
            lastHeartbeat = t;
            std::printf("%.2f frames %lld %lld\n", t, static_cast<long long>(presented),
                        static_cast<long long>(player.droppedFrames()));
        }
        if (!snapshots.isEmpty() && t - lastSnapshot >= 10.0) {
            lastSnapshot = t;
            window.grab().toImage().save(snapshots + QStringLiteral("/window-%1.png").arg(int(t), 4, 10, QLatin1Char('0')));
        }
        std::fflush(stdout);
        if (t >= seconds) {
            longestWithoutFrames = std::max(longestWithoutFrames, t - lastFrameAt);
            app.quit();
        }
    });
    tick.start();
    app.exec();
    std::printf("summary presented=%lld dropped=%lld comebacks=%d longest_without_frames_s=%.2f "
                "event_loop_lag_max_ms=%.0f\n",
                static_cast<long long>(window.player().presentedFrames()),
                static_cast<long long>(window.player().droppedFrames()), comebacks, longestWithoutFrames, maxLag);
    return 0;
}
