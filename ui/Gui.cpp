// runGui: application set-up around the main window.
#include "Gui.h"

#include <QApplication>
#include <QIcon>
#include <QSurfaceFormat>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "ui/compare/Compare.h"
#include "ui/main/MainWindow.h"
#include "Theme.h"
#include "ui/wall/WallFile.h"
#include "ui/wall/WallWindow.h"

namespace cs {
namespace {

constexpr int kExitFailure = 1;   // the command line's "runtime failure"
constexpr const char* kHeadless = "the window needs one; `cudascope export INPUT --out DIR` works without a display";

std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// Before QApplication: why there is certainly no display, "" when there may be one. With
// QT_QPA_PLATFORM set, the platform it names decides (offscreen, vnc, eglfs need none).
std::string missingDisplay() {
    if (!environment("QT_QPA_PLATFORM").empty()) return {};
    if (!environment("DISPLAY").empty() || !environment("WAYLAND_DISPLAY").empty()) return {};
    return "no display: DISPLAY and WAYLAND_DISPLAY are not set; " + std::string(kHeadless);
}

// While QApplication starts its platform plugin, Qt's messages are held back. When the
// platform cannot start (an X display that does not answer), Qt logs why and then calls
// qFatal, which would abort: the handler turns that into one line and exit code 1 instead.
// Otherwise the held messages go to the previous handler once the application exists.
class PlatformStartGuard {
public:
    PlatformStartGuard() { previous_ = qInstallMessageHandler(&PlatformStartGuard::handle); }
    ~PlatformStartGuard() { release(); }
    PlatformStartGuard(const PlatformStartGuard&) = delete;
    PlatformStartGuard& operator=(const PlatformStartGuard&) = delete;

    void release() {
        if (!previous_) return;
        qInstallMessageHandler(previous_);
        std::vector<Held> held;
        {
            const std::lock_guard lock(mutex_);
            held.swap(held_);
        }
        for (const Held& h : held) {
            const QMessageLogContext context(nullptr, 0, nullptr, h.category.c_str());
            previous_(h.type, context, h.message);
        }
        previous_ = nullptr;
    }

private:
    struct Held {
        QtMsgType type;
        std::string category;
        QString message;
    };

    static void handle(QtMsgType type, const QMessageLogContext& context, const QString& message) {
        const std::lock_guard lock(mutex_);
        if (type != QtFatalMsg) {
            held_.push_back({type, context.category ? context.category : "", message});
            return;
        }
        // Qt's own reason (its platform plugin's warning, such as "could not connect to
        // display :99") is the one worth a line; its fatal text is advice about plugins.
        std::string why;
        for (const Held& h : held_)
            if (h.category.rfind("qt.qpa", 0) == 0 && h.type != QtDebugMsg) {
                why = h.message.toStdString();
                break;
            }
        const std::string display = environment("WAYLAND_DISPLAY").empty() ? "DISPLAY=" + environment("DISPLAY")
                                                                           : "WAYLAND_DISPLAY=" + environment("WAYLAND_DISPLAY");
        const std::string platform = environment("QT_QPA_PLATFORM");
        const std::string subject = platform.empty() ? display : "QT_QPA_PLATFORM=" + platform;
        std::string line = "cudascope: " + subject + ": cannot open the display";
        if (!why.empty()) line += " (" + why.substr(0, why.find('\n')) + ")";
        line += "; " + std::string(kHeadless) + "\n";
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
        // Not exit(): the half-built QApplication must not be destroyed by static destructors.
        std::_Exit(kExitFailure);
    }

    QtMessageHandler previous_ = nullptr;
    static inline std::mutex mutex_;
    static inline std::vector<Held> held_;
};

}  // namespace

void prepareGuiApplication() {
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setSwapInterval(1);   // vsync: presentation paced by the display
    format.setDepthBufferSize(0);
    format.setStencilBufferSize(0);
    QSurfaceFormat::setDefaultFormat(format);
    // Every view's context shares objects with the others: the frame textures are made once
    // in the viewer's context and drawn by every scope panel, docked or floating.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

void styleGuiApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("cudascope"));
    QCoreApplication::setApplicationName(QStringLiteral("cudascope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CS_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("cudascope"));
    QGuiApplication::setDesktopFileName(QStringLiteral("cudascope"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/cudascope.png")));
    if (auto* app = qobject_cast<QApplication*>(QCoreApplication::instance())) applyDarkTheme(*app);
}

int runGui(int argc, char** argv, const std::string& input, const std::string& compare) {
    if (const std::string missing = missingDisplay(); !missing.empty()) {
        std::fprintf(stderr, "cudascope: %s\n", missing.c_str());
        return kExitFailure;
    }
    prepareGuiApplication();
    PlatformStartGuard guard;
    QApplication app(argc, argv);
    guard.release();
    styleGuiApplication();
    MainWindow window;
    window.show();
    window.openInput(input.empty() ? QStringLiteral("pattern:bars") : QString::fromStdString(input));
    if (!compare.empty()) window.compare().openB(QString::fromStdString(compare));
    return app.exec();
}

int runWallGui(int argc, char** argv, const std::vector<std::string>& inputs, const std::string& wallFile) {
    WallConfig wall;
    wall.sources = inputs;
    if (!wallFile.empty()) {
        auto loaded = loadWall(wallFile);
        if (!loaded) {
            std::fprintf(stderr, "cudascope: %s\n", loaded.message().c_str());
            return kExitFailure;
        }
        wall = *loaded;
    }
    if (const std::string missing = missingDisplay(); !missing.empty()) {
        std::fprintf(stderr, "cudascope: %s\n", missing.c_str());
        return kExitFailure;
    }
    prepareGuiApplication();
    PlatformStartGuard guard;
    QApplication app(argc, argv);
    guard.release();
    styleGuiApplication();
    WallWindow window;
    window.setWall(wall);
    window.show();   // maximized: WallWindow fills its screen
    return app.exec();
}

}  // namespace cs
