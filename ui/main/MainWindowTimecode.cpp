// MainWindow, timecode: the transport's readout (source timecode or elapsed time, View >
// Show Elapsed Time), Go to Timecode (Ctrl+G) and the timecode the picker, the status bar
// and Save Scopes use. The frames' timecodes come from the source (decode/Source.h's
// VideoFrame::timecode, timecode/TimecodeReader.h); playback/Timecode.h turns them into what is shown.
#include "MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>

#include "GoToTimecodeDialog.h"
#include "StatusBar.h"
#include "playback/Timecode.h"
#include "TransportBar.h"
#include "ui/timeline/TimelinePanel.h"

namespace cs {

FrameTimecode MainWindow::shownTimecode() const {
    if (!player_->hasFrame()) return {};
    return cs::shownTimecode(player_->currentFrame(), player_->frameRate(), transport_->showsElapsed());
}

void MainWindow::buildTimecodeActions(QMenu* playback, QMenu* view) {
    QAction* go = playback->addAction(tr("Go to Timecode..."), this, [this] { goToTimecodeDialog(); });
    go->setObjectName(QStringLiteral("goToTimecode"));
    go->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    go->setShortcutContext(Qt::WindowShortcut);

    showElapsedAction_ = view->addAction(tr("Show Elapsed Time"));
    showElapsedAction_->setObjectName(QStringLiteral("showElapsed"));
    showElapsedAction_->setCheckable(true);
    showElapsedAction_->setToolTip(tr("The transport shows the elapsed time instead of the source timecode"));
    connect(showElapsedAction_, &QAction::toggled, this, [this](bool on) {
        transport_->setShowElapsed(on);
        updatePicker();
    });
    connect(transport_, &TransportBar::showElapsedToggled, showElapsedAction_, &QAction::setChecked);
}

void MainWindow::buildTimeline(QMenu* view) {
    timeline_ = new timeline::TimelinePanel(this);
    timelineDock_ = new QDockWidget(tr("Timeline"), this);
    timelineDock_->setObjectName(QStringLiteral("timelineDock"));
    timelineDock_->setWidget(timeline_);
    // Under the bottom panels, across the area's width (Qt::Vertical: stacked, not beside them).
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock_, Qt::Vertical);
    // Hidden until asked for (View > Timeline): it takes height from the viewer and the panels,
    // and its pass CPU time. A file opened while it is hidden is analysed once it shows.
    timelineDock_->hide();
    timelineDock_->toggleViewAction()->setObjectName(QStringLiteral("showTimeline"));
    view->addAction(timelineDock_->toggleViewAction());
    connect(timelineDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible || !timelinePending_) return;
        timelinePending_ = false;
        timeline_->open(timelineInput_, timelineIsFile_, std::string(engine_.name()));
        timeline_->setPlayhead(player_->currentPts());
    });
    connect(timeline_, &timeline::TimelinePanel::filled, this, [this] { followTimeline(); });
    connect(timeline_, &timeline::TimelinePanel::seekRequested, this, [this](double seconds) {
        if (player_->canSeek()) player_->seekTo(seconds);
    });
}

void MainWindow::openTimeline(const QString& input, bool isFile) {
    timelineInput_ = input;
    timelineIsFile_ = isFile;
    timelinePending_ = !timelineDock_->isVisible();
    if (timelinePending_) timeline_->clear();
    else timeline_->open(input, isFile, std::string(engine_.name()));
}

void MainWindow::followTimeline() {
    if (!timelineDock_->isVisible()) return;
    timeline_->setPlayhead(player_->currentPts());
    // A QCTools document's frames are labelled from the source's timecode (it carries none).
    if (player_->hasFrame()) timeline_->setSourceTimecode(player_->currentFrame().timecode, player_->currentPts());
}

Result<double> MainWindow::timecodeTarget(const std::string& text) const {
    if (!player_->hasFrame()) return Status::error(text + ": there is no frame to count from");
    if (!player_->canSeek()) return Status::error(text + ": this source cannot seek");
    return timecodeSeekTarget(text, shownTimecode(), player_->currentPts(), player_->frameRate(), player_->info().duration);
}

Status MainWindow::goToTimecode(const QString& text) {
    auto target = timecodeTarget(withTimecodeSeparators(text, shownTimecode().value.dropFrame).toStdString());
    if (!target) return target.status();
    player_->pause();
    player_->seekTo(*target);
    return {};
}

void MainWindow::goToTimecodeDialog() {
    if (!player_->hasFrame()) {
        showError(tr("Go to timecode: there is no frame yet."));
        return;
    }
    if (!player_->canSeek()) {
        showError(tr("Go to timecode: %1 cannot seek.").arg(QString::fromStdString(player_->input())));
        return;
    }
    player_->pause();
    const FrameTimecode now = shownTimecode();
    GoToTimecodeDialog dialog(QString::fromStdString(now.text()), now.value.dropFrame,
                              [this](const std::string& text) { return timecodeTarget(text); }, this);
    if (dialog.exec() != QDialog::Accepted) return;
    player_->seekTo(dialog.seconds());
}

}  // namespace cs
