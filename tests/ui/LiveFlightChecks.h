// The window's flight recorder on a live source (test_gui's network stream case): the spill
// folder given as a plain file is one line naming the spill file and the reason, and the
// recorder goes on in memory; every frame the engine processed is recorded; the Timeline
// shows the recording, a click its thumbnail, and a range exports as qc.csv rows.
#pragma once
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/main/MainWindow.h"
#include "ui/timeline/TimelinePanel.h"

namespace cs::test {

// A plain file in `dir`, to stand where a folder is expected.
inline QString plainFileIn(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("file"));
    QFile(path).open(QIODevice::WriteOnly);
    return path;
}

// After the live source in `window` showed some frames with its spill folder at `notAFolder`.
inline void checkLiveFlight(MainWindow& window, const QString& notAFolder, const QString& exportDir) {
    QVERIFY2(window.messageText().contains(notAFolder + QStringLiteral("/window-")) &&
                 window.messageText().contains(QStringLiteral("Not a directory")),
             qPrintable(window.messageText()));
    MainWindow::setFlightFolder({});
    const FlightRecorder* flight = window.flightRecorder();
    QVERIFY(flight && flight->end() >= 10);
    timeline::TimelinePanel* panel = window.timeline();
    QVERIFY(panel->live());
    panel->refreshLive();
    QCOMPARE(panel->data().frames(), flight->end() - flight->first());
    panel->showMoment(panel->data().pts(0));
    QVERIFY(panel->momentHasThumbnail());
    const QString base = QDir(exportDir).filePath(QStringLiteral("live"));
    QVERIFY(panel->exportFrames(0, 4, base));
    QFile csv(base + QStringLiteral(".qc.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll().count('\n'), 6);   // the header and five frames
}

}  // namespace cs::test
