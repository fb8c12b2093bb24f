// MainWindow, the flight recorder of a live source (playback/FlightRecorder.h): opened with
// each camera or stream, fed by the GUI thread with every frame the engine processed for
// the screen (its measured statistics, a thumbnail a second) and the alarms those values
// raise (analysis/Alarms.h: black, out of legal, R'G'B' out of range; frozen needs a frame
// difference the window's engine does not measure), shown in the Timeline dock.
#include "MainWindow.h"

#include <QDir>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <chrono>
#include <unistd.h>

#include "analysis/Alarms.h"
#include "analysis/SignalStats.h"
#include "engine/Thumbnailer.h"
#include "ui/timeline/FlightExport.h"
#include "ui/timeline/TimelinePanel.h"

namespace cs {

namespace {
QString flightFolderOverride;
}

void MainWindow::setFlightFolder(const QString& folder) { flightFolderOverride = folder; }

void MainWindow::startFlight() {
    flight_.reset();
    timelinePending_ = false;   // no file to fill the timeline for
    const SourceInfo& info = player_->info();
    FlightOptions o;
    // The window kept (Settings: flightRecorder/hours, default 1).
    o.hours = std::clamp(QSettings().value(QStringLiteral("flightRecorder/hours"), 1.0).toDouble(), 1.0 / 60.0, 48.0);
    o.frameRate = player_->frameRate();
    const QString folder = !flightFolderOverride.isEmpty()
                               ? flightFolderOverride
                               : QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(QStringLiteral("flight"));
    QDir().mkpath(folder);   // a failure shows as the spill file's own error below
    o.spillPath = QDir(folder).filePath(QStringLiteral("window-%1.spill").arg(::getpid())).toStdString();
    flight_ = std::make_shared<FlightRecorder>(o);
    if (const Status s = flight_->spillStatus(); !s) showWarning(QString::fromStdString(s.message()));
    flightThumbs_ = std::make_unique<Thumbnailer>();
    flightAlarms_ = std::make_unique<AlarmTracker>();
    flightStart_ = std::chrono::steady_clock::now();
    const QJsonObject source{{"input", QString::fromStdString(player_->input())},
                             {"width", info.width},
                             {"height", info.height},
                             {"frame_rate", player_->frameRate()},
                             {"decoder", QString::fromStdString(info.decoder)}};
    timeline_->openLive(flight_, source, player_->frameRate());
}

void MainWindow::recordFlight() {
    if (!flight_) return;
    const VideoFrame& frame = player_->currentFrame();
    const ScopeResults& r = engine_.results();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - flightStart_).count();
    const double wall = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    const int64_t serial = flight_->add(flightFrameOf(r, t, frame.view.pts, wall, frame.timecode.known() ? frame.timecode.text() : ""));
    if (flight_->wantsThumbnail(t)) {
        RgbaImage picture;
        if (flightThumbs_->picture(frame.view, engine_.gpuEngine(), timeline::kThumbnailWidth, timeline::kThumbnailHeight, picture))
            flight_->addThumbnail(serial, t, timeline::encodeThumbnail(picture));
    }
    AlarmMeasure m;
    m.blackShare = shareAtOrBelow(r.histY, blackThresholdFor(flightAlarms_->rules().black.pixelThreshold, r.bitDepth,
                                                             r.color.range == Range::Full));
    m.outOfLegal = r.stats.outOfLegal;
    m.outOfGamut = r.stats.outOfGamut;
    std::vector<AlarmEvent> events;
    flightAlarms_->frame(t, m, events);
    for (const AlarmEvent& e : events) {
        const std::string name(alarmName(e.kind));
        if (e.start) flight_->beginEvent(name, e.since, e.detail);
        else flight_->endEvent(name, e.at);
    }
}

}  // namespace cs
