// The Timeline dock for a live source: the flight recorder's window (TimelinePanel.h).
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPixmap>
#include <QStandardPaths>
#include <QToolButton>

#include <chrono>
#include <cmath>

#include "ui/timeline/FlightExport.h"
#include "ui/timeline/TimelinePanel.h"

namespace cs::timeline {

void TimelinePanel::openLive(std::shared_ptr<const FlightRecorder> recorder, const QJsonObject& source, double frameRate) {
    clear();
    recorder_ = std::move(recorder);
    liveSource_ = source;
    data_.setFrameRate(frameRate);
    exportButton_->show();
    hoursBox_->show();
    openButton_->hide();   // statistics documents are of files
    wholeButton_->setText(tr("Whole recording"));
    momentPicture_->clear();
    momentValues_->setText(tr("Click the graphs or an alarm\nto see that moment."));
    momentBox_->show();
    refreshLive();
    liveTimer_.start();
}

void TimelinePanel::refreshLive() {
    if (!recorder_) return;
    const int64_t first = recorder_->first(), end = recorder_->end();
    const int64_t zoomFirst = view_->firstVisible(), zoomLast = view_->lastVisible();
    const bool zoomed = zoomLast >= zoomFirst;
    int64_t shift = 0;
    // A rebuild finished: its series replace data_ (the view keeps its reference), from its first frame on.
    if (rebuild_.valid() && rebuild_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        Rebuilt r = rebuild_.get();
        shift = r.first - builtFirst_;
        data_ = std::move(r.data);
        builtFirst_ = r.first;
        builtEnd_ = r.end;
    }
    if (data_.frames() == 0 || end < builtEnd_) {   // the first refresh (or a new recording): small, here
        const double rate = data_.frameRate();
        data_.clear();
        data_.setFrameRate(rate);
        builtFirst_ = builtEnd_ = first;
    } else if (first - builtFirst_ > int64_t(recorder_->capacity() / 100) && !rebuild_.valid()) {
        // The ring let 1% of what data_ holds go: the series are built again from its oldest
        // frame off the GUI thread (an hour of 50p takes a good part of a second); data_ keeps growing meanwhile.
        rebuild_ = std::async(std::launch::async, [recorder = recorder_, rate = data_.frameRate()] {
            Rebuilt r;
            r.data.setFrameRate(rate);
            r.end = recorder->end();
            for (const FlightFrame& f : recorder->frames(0, r.end, &r.first)) r.data.addFlight(f);
            return r;
        });
    }
    for (const FlightFrame& f : recorder_->frames(builtEnd_, end)) data_.addFlight(f);
    builtEnd_ = std::max(builtEnd_, end);
    std::vector<TimelineEvent> events;
    for (const FlightEvent& e : recorder_->events()) {
        if (data_.frames() == 0 || e.lastTime < data_.pts(0)) continue;
        TimelineEvent t;
        t.type = e.type;
        t.first = data_.frameAt(e.firstTime);
        t.last = std::max(t.first, data_.frameAt(e.lastTime));
        t.firstTimecode = data_.timecode(t.first);
        t.lastTimecode = data_.timecode(t.last);
        t.message = e.message;
        events.push_back(std::move(t));
    }
    const size_t alarms = events.size();
    data_.setEventList(std::move(events));
    if (zoomed && shift > 0) view_->showFrames(zoomFirst - shift, zoomLast - shift);
    const double seconds = data_.frames() > 1 ? data_.pts(data_.frames() - 1) - data_.pts(0) : 0.0;
    const int minutes = int(seconds / 60.0);
    status_ = tr("live: the last %1:%2 recorded (keeps %3 h), %4 alarms")
                  .arg(minutes)
                  .arg(int(seconds) % 60, 2, 10, QLatin1Char('0'))
                  .arg(recorder_->options().hours, 0, 'g', 3)
                  .arg(alarms);
    if (const Status spill = recorder_->spillStatus(); !spill) status_ += QStringLiteral("; ") + QString::fromStdString(spill.message());
    view_->setStatusText(status_);
    view_->dataChanged();
}

void TimelinePanel::showMoment(double time) {
    if (!recorder_ || data_.frames() == 0) return;
    const int64_t i = data_.frameAt(time);
    view_->setPlayhead(data_.pts(i));
    QString text = view_->describeFrame(i);
    if (const auto f = recorder_->frame(builtFirst_ + i)) {
        text += tr("\nshown at %1").arg(QDateTime::fromMSecsSinceEpoch(qint64(f->wallClock * 1000.0)).toString(QStringLiteral("HH:mm:ss.zzz")));
        text += tr("\nout of gamut: %1\nout of R 103: %2").arg(f->outOfGamut, 0, 'g', 5).arg(f->outOfR103, 0, 'g', 5);
    }
    momentValues_->setText(text);
    auto thumb = recorder_->thumbnailAt(data_.pts(i));
    if (!thumb) {
        momentPicture_->setText(QString::fromStdString(thumb.status().message()));
    } else if (!*thumb || std::abs((*thumb)->time - data_.pts(i)) > 1.5 * recorder_->options().thumbnailInterval) {
        momentPicture_->setText(tr("no thumbnail\nof this moment"));
    } else {
        momentPicture_->setPixmap(QPixmap::fromImage(decodeThumbnail((*thumb)->bytes)));
    }
}

QString TimelinePanel::momentText() const { return momentValues_->text(); }

bool TimelinePanel::momentHasThumbnail() const { return !momentPicture_->pixmap().isNull(); }

Status TimelinePanel::exportFrames(int64_t first, int64_t last, const QString& base) const {
    if (!recorder_ || data_.frames() == 0) return Status::error(base.toStdString() + ".qc.json: nothing is recorded yet");
    first = std::clamp<int64_t>(first, 0, data_.frames() - 1);
    last = std::clamp<int64_t>(last, first, data_.frames() - 1);
    return exportFlightRange(*recorder_, data_.pts(first), data_.pts(last), base, liveSource_);
}

void TimelinePanel::exportVisible() {
    if (!recorder_ || data_.frames() == 0) return;
    const bool zoomed = view_->lastVisible() >= view_->firstVisible();
    const int64_t first = zoomed ? view_->firstVisible() : 0, last = zoomed ? view_->lastVisible() : data_.frames() - 1;
    const QString suggested = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                                  .filePath(QStringLiteral("live-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    QString base = QFileDialog::getSaveFileName(this, tr("Export Recorded Range"), suggested, tr("qc reports (*.qc.json)"));
    if (base.isEmpty()) return;
    if (base.endsWith(QStringLiteral(".qc.json"))) base.chop(8);
    if (const Status s = exportFrames(first, last, base); !s)
        QMessageBox::warning(this, tr("Export Range"), QString::fromStdString(s.message()));
}

}  // namespace cs::timeline
