// MainWindow, regions: the scopes of a part of the picture. Ctrl+drag on the picture draws a
// region, Alt+click picks a line (the whole width, one row: its waveform is that line's),
// View > Region > Line Through Pinned Pixel picks the pinned pixel's line; Esc or View >
// Region > Clear Region measures the whole frame again. The region is snapped to the
// frame's chroma grid (core/FrameRegion.h), outlined on the picture (PictureView) and read
// out in the status bar; EngineHost::region has every scope measure it, on either engine.
// A source opened anew clears it. GUI thread only.
#include "MainWindow.h"

#include <QAction>
#include <QMenu>

#include "PictureView.h"
#include "StatusBar.h"

namespace cs {

void MainWindow::buildRegion(QMenu* view) {
    QMenu* menu = view->addMenu(tr("Region"));
    menu->setObjectName(QStringLiteral("regionMenu"));
    menu->setToolTipsVisible(true);
    QAction* line = menu->addAction(tr("Line Through Pinned Pixel"), this, [this] {
        const std::optional<PixelPos> pin = viewer_->pinned();
        if (!pin) {
            showWarning(tr("Line: no pixel is pinned; click the picture to pin one, or Alt+click a line."));
            return;
        }
        if (Status s = setRegion(FrameRegion{0, pin->y, player_->info().width, 1}); !s) showError(QString::fromStdString(s.message()));
    });
    line->setObjectName(QStringLiteral("regionLine"));
    line->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    line->setToolTip(tr("The scopes measure the pinned pixel's line alone (Alt+click on the picture picks a line)"));
    QAction* clear = menu->addAction(tr("Clear Region"), this, [this] { clearRegion(); });
    clear->setObjectName(QStringLiteral("clearRegion"));
    clear->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    clear->setToolTip(tr("The scopes measure the whole frame again (Esc as well)"));
    connect(viewer_, &PictureView::regionDrawn, this, [this](FrameRegion r) {
        if (Status s = setRegion(r); !s) showError(QString::fromStdString(s.message()));
    });
}

Status MainWindow::setRegion(const FrameRegion& region) {
    const std::optional<FrameView> shown = shownFrame();
    if (!shown) return Status::error("the region " + regionName(region) + " has no frame to measure: open a source first");
    const FrameView& frame = *shown;   // a field's rows when one field is shown
    const FrameRegion snapped = snapRegion(region, frame.format, frame.width, frame.height);
    if (snapped.width <= 0 || snapped.height <= 0)
        return Status::error("the region " + regionName(region) + " lies outside the " + std::to_string(frame.width) + "x" +
                             std::to_string(frame.height) + " frame");
    engine_.region = snapped;
    viewer_->setRegion(snapped);
    status_->refresh();
    scheduleReprocess();
    return {};
}

void MainWindow::clearRegion() {
    if (!engine_.region && !viewer_->region()) return;
    engine_.region.reset();
    viewer_->setRegion(std::nullopt);
    status_->refresh();
    scheduleReprocess();
}

}  // namespace cs
