// MainWindow, pins: several pinned pixels (Shift+click on the picture adds one, up to
// PictureView::kMaxPins), their readouts in the Pinned Pixels dock, View > Clear Pins.
// The readouts are the picker's (PixelProbe.h: Y'CbCr and R'G'B' in the codes the scopes
// show), read again for each frame shown; each pin is marked on the waveform, parade and
// vectorscope (scope/ScopeMarkers.h). GUI thread only.
#include "MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>

#include "PictureView.h"
#include "ScopeView.h"
#include "scope/ScopeMarkers.h"
#include "ui/MessageBar.h"

namespace cs {

void MainWindow::buildPins(QMenu* view) {
    pinsDock_ = new QDockWidget(tr("Pinned Pixels"), this);
    pinsDock_->setObjectName(QStringLiteral("pinsDock"));
    pinsDock_->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    pinsLabel_ = new QLabel(pinsDock_);
    pinsLabel_->setObjectName(QStringLiteral("pinsReadout"));
    pinsLabel_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    pinsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pinsLabel_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    pinsLabel_->setMargin(6);
    // Three short rows a pin (where, Y'CbCr, R'G'B'): the dock stays narrow beside the panels.
    pinsLabel_->setMinimumWidth(pinsLabel_->fontMetrics().horizontalAdvance(QStringLiteral("  R'G'B' (64-940) 1023 1023 1023 ")) + 12);
    pinsDock_->setWidget(pinsLabel_);
    addDockWidget(Qt::BottomDockWidgetArea, pinsDock_);
    pinsDock_->hide();
    view->addAction(pinsDock_->toggleViewAction());
    QAction* clear = view->addAction(tr("Clear Pins"), this, [this] { viewer_->setPinned(std::nullopt); });
    clear->setObjectName(QStringLiteral("clearPins"));
    clear->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    clear->setToolTip(tr("Removes every pinned pixel from the picture"));
    connect(viewer_, &PictureView::pinRefused, this, [this] {
        showWarning(tr("Pin: %1 pixels are pinned, the most there can be; View > Clear Pins removes them.")
                        .arg(PictureView::kMaxPins));
    });
    connect(viewer_, &PictureView::pinnedChanged, this, [this] {
        updateScopeMarkers();
        // A second pin shows the readouts (one is read in the status bar as well).
        if (viewer_->pins().size() < 2 || !pinsDock_->isHidden()) return;
        pinsDock_->show();
        // As narrow as its rows: the panels beside it keep their room.
        resizeDocks({pinsDock_}, {pinsDock_->minimumSizeHint().width()}, Qt::Horizontal);
    });
    updatePins();
}

std::optional<PixelReading> MainWindow::readAt(PixelPos at) const {
    const std::optional<FrameView> f = shownFrame();
    if (!f) return std::nullopt;
    const ColorInfo color = engine_.hasResults() ? engine_.results().color : applyOverride(f->color, engine_.spec().colorOverride);
    std::optional<PixelReading> p = readPixel(*f, color, at.x, at.y);
    if (!p && f->onDevice) p = engine_.readDevicePixel(*f, color, at.x, at.y);
    return p;
}

void MainWindow::updatePins() {
    if (!pinsLabel_) return;
    const std::vector<PixelPos>& pins = viewer_->pins();
    if (pins.empty()) {
        pinsLabel_->setText(tr("No pixels pinned: click the picture to pin one, Shift+click to add up to %1.")
                                .arg(PictureView::kMaxPins));
        return;
    }
    if (pinsDock_->isHidden()) return;   // read when it shows (its toggle) or on the next frame
    QStringList lines;
    for (size_t i = 0; i < pins.size(); ++i) {
        const std::optional<PixelReading> p = readAt(pins[i]);
        QString reading = p ? QString::fromStdString(describe(*p)) : tr("x %1  y %2").arg(pins[i].x).arg(pins[i].y);
        // describe()'s one line in rows: "x ..  y ..  (8-bit)", "Y'CbCr ..", "R'G'B' (..) ..".
        if (const qsizetype depth = reading.lastIndexOf(QStringLiteral("   (")); depth > 0) {
            const QString suffix = reading.mid(depth);
            reading.truncate(depth);
            reading.replace(QStringLiteral("   Y'CbCr"), suffix + QStringLiteral("\n   Y'CbCr"));
        }
        reading.replace(QStringLiteral("   R'G'B'"), QStringLiteral("\n   R'G'B'"));
        lines << QStringLiteral("%1  %2").arg(i + 1).arg(reading);
    }
    pinsLabel_->setText(lines.join(QLatin1Char('\n')));
}

void MainWindow::updateScopeMarkers() {
    std::array<std::vector<ScopeMarker>, 3> markers;
    using gl::Plane;
    constexpr std::array<Plane, 3> kMarked = {Plane::Waveform, Plane::Parade, Plane::Vectorscope};
    const std::optional<FrameView> shown = shownFrame();
    if (engine_.hasResults() && shown) {
        const ScopeResults& r = engine_.results();
        const FrameRegion area = engine_.region.value_or(FrameRegion{0, 0, shown->width, shown->height});
        const std::vector<PixelPos>& pins = viewer_->pins();
        for (size_t n = 0; n < pins.size(); ++n) {
            const PixelPos& pin = pins[n];
            if (pin.x < area.x || pin.y < area.y || pin.x >= area.x + area.width || pin.y >= area.y + area.height) continue;
            const std::optional<PixelReading> p = readAt(pin);
            if (!p || p->bitDepth != r.bitDepth) continue;
            const MarkedPixel m{pin.x - area.x, p->luma, p->cb, p->cr, p->r, p->g, p->b};
            std::array<std::vector<ScopeMarker>, 3> pinMarkers;
            for (size_t i = 0; i < kMarked.size(); ++i) {
                const ScopePlacement placement = engine_.placement(kMarked[i], viewer_->textures());
                const int w = placement.imageWidth, h = placement.imageHeight;
                if (kMarked[i] == Plane::Waveform) {
                    pinMarkers[i] = waveformMarkers(r, engine_.spec(), w, h, m);
                } else if (kMarked[i] == Plane::Parade) {
                    pinMarkers[i] = paradeMarkers(r, w, h, m, engine_.spec().paradeRange);
                } else if (auto at = vectorscopeMarker(r, engine_.spec(), std::min(w, h), m)) {
                    pinMarkers[i].push_back(*at);
                }
                // Numbered as on the picture when there are several pins.
                for (ScopeMarker& at : pinMarkers[i]) {
                    at.label = pins.size() > 1 ? int(n) + 1 : 0;
                    markers[i].push_back(at);
                }
            }
        }
    }
    for (size_t i = 0; i < kMarked.size(); ++i)
        if (ScopeView* v = views_[size_t(kMarked[i])]) v->setMarkers(std::move(markers[i]));
}

QString MainWindow::pinsText() const { return pinsLabel_ ? pinsLabel_->text() : QString(); }

}  // namespace cs
