#include "QcFonts.h"

#include <QCoreApplication>
#include <QGuiApplication>

#include <cstdlib>

namespace cs {
void qcQuiet(QtMsgType, const QMessageLogContext&, const QString&) {}

bool qcHaveFonts() {
    static const bool have = [] {
        if (QCoreApplication::instance()) return qobject_cast<QGuiApplication*>(QCoreApplication::instance()) != nullptr;
        static int argc = 1;
        static char name[] = "cudascope";
        static char* argv[] = {name, nullptr};
        setenv("QT_QPA_PLATFORM", "offscreen", 1);   // no display is needed, nor used if there is one
        const QtMessageHandler before = qInstallMessageHandler(qcQuiet);
        static QGuiApplication* app = new QGuiApplication(argc, argv);   // for the process's life
        qInstallMessageHandler(before);
        return app != nullptr;
    }();
    return have;
}

}  // namespace cs
