// runGui: application set-up around the main window.
#include "Gui.h"

#include <QApplication>
#include <QIcon>
#include <QSurfaceFormat>

#include "MainWindow.h"
#include "Theme.h"

namespace cs {

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

int runGui(int argc, char** argv, const std::string& input) {
    prepareGuiApplication();
    QApplication app(argc, argv);
    styleGuiApplication();
    MainWindow window;
    window.show();
    window.openInput(input.empty() ? QStringLiteral("pattern:bars") : QString::fromStdString(input));
    return app.exec();
}

}  // namespace cs
