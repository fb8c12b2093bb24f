// MainWindow's recording (the Record button, Ctrl+R): part of MainWindow, kept apart from
// the window's construction. The recorder itself is ui/record/WindowRecorder.h.
#include <QAction>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPixmap>

#include "MainWindow.h"
#include "PictureView.h"
#include "ui/record/RecordDialog.h"
#include "StatusBar.h"
#include "engine/EngineChoice.h"

namespace cs {
namespace {

// A red dot: the Record button's icon.
QIcon recordIcon() {
    QPixmap pixmap(32, 32);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xe0, 0x20, 0x20));
    p.drawEllipse(QRectF(6, 6, 20, 20));
    return QIcon(pixmap);
}

}  // namespace

QAction* MainWindow::buildRecording(QMenu* menu) {
    // Ctrl+R: no other action of the window takes it.
    recordAction_ = menu->addAction(recordIcon(), tr("&Record..."), this, &MainWindow::toggleRecording);
    recordAction_->setObjectName(QStringLiteral("record"));
    recordAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    recordAction_->setCheckable(true);
    recordAction_->setToolTip(tr("Record what the window shows to a video file (Ctrl+R); again to stop"));
    recordIndicator_ = new QLabel(this);
    recordIndicator_->setObjectName(QStringLiteral("recordIndicator"));
    recordIndicator_->setStyleSheet(QStringLiteral("QLabel { color: #ff3030; font-weight: bold; }"));
    recordIndicator_->hide();
    return recordAction_;
}

void MainWindow::toggleRecording() {
    if (recorder_) {
        (void)stopRecording();   // it shows its outcome
        return;
    }
    {
        const QSignalBlocker block(recordAction_);
        recordAction_->setChecked(false);   // checked once a recording runs
    }
    if (!player_->hasFrame()) {
        showError(tr("Record: there is no source to record yet."));
        return;
    }
    const auto request = askRecording(this, QString::fromStdString(player_->input()));
    if (request) (void)startRecording(*request);   // a failure is shown by startRecording itself
}

Status MainWindow::startRecording(const RecordRequest& request) {
    const auto fail = [this](const Status& s) {
        showError(tr("Record: %1").arg(QString::fromStdString(s.message())));
        return s;
    };
    if (recorder_) return fail(Status::error(request.path.toStdString() + ": a recording is already running"));
    if (!player_->hasFrame()) return fail(Status::error(request.path.toStdString() + ": there is no source to record"));
    const SourceInfo& info = player_->info();
    // With the CUDA engine the conversion runs on its GPU (NVENC fed device frames, else the
    // planes downloaded once); where no converter can be made, on the CPU.
    std::shared_ptr<Yuv420Converter> converter;
    if (engine_.engine().name() == "cuda") {
        auto made = makeGpuConverter(engine_.engine());
        if (made) converter = std::move(*made);
    }
    // Files and patterns: every frame, at the source's rate (WindowRecorder.h); live: as shown.
    const bool sourceRate = !info.live;
    auto started = WindowRecorder::start(request, info.width, info.height, player_->frameRate(), std::move(converter), sourceRate);
    if (!started) return fail(started.status());
    recorder_ = std::move(*started);
    player_->setEveryFrame(sourceRate);
    recordSourceDropped_ = player_->frameCounts().dropped();
    {
        const QSignalBlocker block(recordAction_);
        recordAction_->setChecked(true);
    }
    recordAction_->setText(tr("Stop &Recording"));
    QString message = tr("Recording to %1 (%2, %3x%4, conversion %5)")
                          .arg(request.path, recorder_->encoderName())
                          .arg(recorder_->width())
                          .arg(recorder_->height())
                          .arg(recorder_->conversion());
    if (!recorder_->fallbackReason().isEmpty()) message += tr("; NVENC not used: %1").arg(recorder_->fallbackReason());
    status_->showMessage(message, 10000);
    recordIndicator_->setToolTip(message);
    refreshRecordIndicator();
    recordShownFrame();   // the frame on screen now is the first
    return {};
}

Result<EncoderStats> MainWindow::stopRecording() {
    if (!recorder_) return Status::error("no recording is running");
    const std::unique_ptr<WindowRecorder> recorder = std::move(recorder_);
    player_->setEveryFrame(false);
    const int64_t sourceDropped = player_->frameCounts().dropped() - recordSourceDropped_;
    const Status closed = recorder->stop();
    {
        const QSignalBlocker block(recordAction_);
        recordAction_->setChecked(false);
    }
    recordAction_->setText(tr("&Record..."));
    refreshRecordIndicator();
    if (!closed) {
        showError(tr("Record: %1").arg(QString::fromStdString(closed.message())));
        return closed;
    }
    const EncoderStats stats = recorder->stats();
    status_->showMessage(tr("Recorded %1 frames to %2 (%3 dropped)")
                             .arg(stats.encoded)
                             .arg(recorder->request().path)
                             .arg(stats.dropped + sourceDropped),
                         10000);
    return stats;
}

void MainWindow::recordShownFrame() {
    if (!recorder_ || !player_->hasFrame()) return;
    Status s;
    if (recorder_->request().layout == RecordLayout::Picture) {
        s = recorder_->addPicture(engine_.engine(), player_->currentFrame().view, engine_.spec());
    } else {
        const QImage panels = scopesComposite();   // empty when no panel shows: the viewer alone
        s = recorder_->addPanels(panels.isNull() ? viewer_->grabFramebuffer() : panels);
    }
    if (!s) {
        showError(tr("Record: %1").arg(QString::fromStdString(s.message())));
        (void)stopRecording();   // the first error is shown; the file is closed playable
    }
}

void MainWindow::refreshRecordIndicator() {
    if (!recordIndicator_) return;
    recordIndicator_->setVisible(recorder_ != nullptr);
    if (recorder_) recordIndicator_->setText(recorder_->indicatorText(player_->frameCounts().dropped() - recordSourceDropped_));
}

}  // namespace cs
