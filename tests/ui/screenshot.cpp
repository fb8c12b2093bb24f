// cudascope_screenshot OUT.png [INPUT] [WIDTHxHEIGHT] [EXPORT_DIR]: opens the main window
// with every scope panel on INPUT (default pattern:bars), lets it play a moment, pauses,
// pins the pixel picker and saves the whole window to OUT.png; with EXPORT_DIR, also what
// "Save scopes..." writes for that frame. For looking at the GUI; not a test. Under Xvfb:
//   xvfb-run -a -s "-screen 0 1920x1080x24" build/tests/ui/cudascope_screenshot shot.png
#include <QAction>
#include <QComboBox>
#include <QImage>
#include <QTimer>

#include <cstdio>

#include "GuiTestSupport.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: cudascope_screenshot OUT.png [INPUT] [WIDTHxHEIGHT] [EXPORT_DIR]\n");
        return 2;
    }
    if (!cs::test::haveDisplay()) {
        std::fprintf(stderr, "cudascope_screenshot: no display (run under xvfb-run)\n");
        return 77;
    }
    QTemporaryDir settings;
    cs::test::isolateSettings(settings);
    const QString out = QString::fromLocal8Bit(argv[1]);
    const QString input = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("pattern:bars");
    int width = 1920, height = 1080;
    if (argc > 3 && std::sscanf(argv[3], "%dx%d", &width, &height) != 2) return 2;

    cs::prepareGuiApplication();
    QApplication app(argc, argv);
    cs::styleGuiApplication();
    if (!cs::test::haveOpenGl33()) {
        std::fprintf(stderr, "cudascope_screenshot: no OpenGL 3.3 context\n");
        return 77;
    }
    cs::MainWindow window;
    window.resize(width, height);
    window.show();
    window.showAllPanels();
    window.openInput(input);
    // Plays for a few seconds first: the fps and engine time printed are then steady figures.
    QElapsedTimer playing;
    playing.start();
    if (!cs::test::waitUntil([&] { return window.player().presentedFrames() >= 12 && playing.elapsed() > 4000; }, 30000)) {
        std::fprintf(stderr, "cudascope_screenshot: no frames from %s: %s\n", input.toLocal8Bit().constData(),
                     window.messageText().toLocal8Bit().constData());
        return 1;
    }
    const double fps = window.player().presentedFps();
    const long long dropped = static_cast<long long>(window.player().droppedFrames());
    const long long shown = static_cast<long long>(window.player().presentedFrames());
    const double engineMs = window.engineHost().averageMilliseconds();
    window.player().pause();
    // CS_SCREENSHOT_TRIGGER: a comma-separated list of the object names of window actions to
    // trigger before the shot (e.g. toneMap: the picture without the HDR to SDR transform).
    for (const QString& name : qEnvironmentVariable("CS_SCREENSHOT_TRIGGER").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QAction* a = window.findChild<QAction*>(name);
        if (!a) {
            std::fprintf(stderr, "cudascope_screenshot: no action named %s\n", name.toLocal8Bit().constData());
            return 2;
        }
        a->trigger();
    }
    // CS_SCREENSHOT_COMBO: comma-separated NAME=TEXT pairs: the (first) combo box of that
    // object name set to the item of that text, as a user would (e.g. waveformScale=Code values).
    for (const QString& pair : qEnvironmentVariable("CS_SCREENSHOT_COMBO").split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString name = pair.section(QLatin1Char('='), 0, 0), text = pair.section(QLatin1Char('='), 1);
        QComboBox* c = window.findChild<QComboBox*>(name);
        const int index = c ? c->findText(text) : -1;
        if (index < 0) {
            std::fprintf(stderr, "cudascope_screenshot: no combo box %s with an item %s\n", name.toLocal8Bit().constData(),
                         text.toLocal8Bit().constData());
            return 2;
        }
        c->setCurrentIndex(index);
        emit c->activated(index);   // as a user's choice
    }
    const auto& info = window.player().info();
    window.viewer()->setPinned(cs::PixelPos{info.width / 8, info.height / 3});
    cs::test::waitUntil([] { return false; }, 600);   // panels settle at their sizes, frame re-processed
    const QImage shot = window.grab().toImage();
    if (!shot.save(out)) {
        std::fprintf(stderr, "cudascope_screenshot: cannot write %s\n", argv[1]);
        return 1;
    }
    if (argc > 4) {
        auto written = window.saveScopesTo(QString::fromLocal8Bit(argv[4]), 1024, 540);
        if (!written) {
            std::fprintf(stderr, "cudascope_screenshot: %s\n", written.message().c_str());
            return 1;
        }
        for (const QString& f : *written) std::printf("%s\n", f.toLocal8Bit().constData());
    }
    std::printf("%s: %dx%d; while playing: %.1f fps shown, %lld shown, %lld dropped, engine %.1f ms/frame\n", argv[1],
                shot.width(), shot.height(), fps, shown, dropped, engineMs);
    return 0;
}
