// Scope zoom in the window (MainWindow.h): the wheel, drag and double-click over the waveform,
// parade and vectorscope panels (ScopeView's signals), the panels' "zoom 64-235" label and
// "1:1" button. The ranges live in the engine's spec (core/ScopeSpec.h), so both engines draw
// them (core/ScopeZoom.h), the settings and layout presets keep them (ui/Settings.cpp), and a
// change is one more reprocess of the shown frame. All of it runs on the GUI thread.
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>

#include <algorithm>
#include <cmath>

#include "MainWindow.h"
#include "ScopeView.h"
#include "ui/FlowLayout.h"
#include "core/ScopeZoom.h"
#include "scope/Graticule.h"
#include "scope/LevelZoom.h"

namespace cs {
namespace {

using gl::Plane;

// Each wheel notch (120 eighths of a degree) shows this share of the range (or its inverse).
constexpr double kWheelZoom = 0.8;

QString zoomName(Plane p) { return p == Plane::Parade ? QStringLiteral("paradeZoom") : QStringLiteral("waveformZoom"); }

// The panel whose rows the mouse reads, in an image of w x h: the parade's panels share their
// rows; the waveform's first (luma, or the RGB overlay's one, with its headroom).
PlotRect levelPanel(const ScopeSpec& spec, bool parade, int w, int h) {
    const PlotRect plot = waveformPlotRect(w, h);
    const int textScale = graticuleTextScale(w, h);
    if (parade) return paradePanelRect(plot, 0, textScale, spec.paradeMode == ParadeMode::Rgb);
    if (spec.waveformMode == WaveformMode::RgbOverlay) return waveformPanelRect(plot, 0, 1, textScale, true);
    return plot;
}

}  // namespace

LevelRange MainWindow::levelRange(Plane plane) const {
    const ScopeSpec& spec = engine_.spec();
    return levelRangeOf(plane == Plane::Parade ? spec.paradeRange : spec.waveformRange);
}

void MainWindow::setLevelRange(Plane plane, LevelRange range) {
    if (plane != Plane::Waveform && plane != Plane::Parade) return;
    ScopeSpec& spec = engine_.spec();
    (plane == Plane::Parade ? spec.paradeRange : spec.waveformRange) = levelRangeOf(range);
    updateLevelZoomControls();
    scheduleReprocess();
}

void MainWindow::setVectorscopeZoom(int zoom) {
    engine_.spec().vectorscopeZoom = vectorscopeZoomFactor(zoom);
    for (auto* combo : findChildren<QComboBox*>(QStringLiteral("vectorscopeZoom"))) {
        const QSignalBlocker block(combo);
        combo->setCurrentIndex(std::max(0, combo->findData(engine_.spec().vectorscopeZoom)));
    }
    scheduleReprocess();
}

QString MainWindow::levelZoomLabel(Plane plane) const {
    if (plane != Plane::Waveform && plane != Plane::Parade) return {};
    const EngineHost& engine = engine_;
    const bool known = engine.hasResults();
    const ScopeResults& r = engine.results();
    const std::string text = levelZoomText(engine.spec(), plane == Plane::Parade, engine.spec().paradeMode, known ? r.bitDepth : 8,
                                           known ? r.color.range : Range::Limited, known ? r.color.transfer : Transfer::Unspecified);
    return text.empty() ? QString() : tr("zoom %1").arg(QString::fromStdString(text));
}

void MainWindow::addLevelZoomControls(QWidget* box, FlowLayout* row, Plane plane) {
    auto* label = new QLabel(levelZoomLabel(plane), box);
    label->setObjectName(zoomName(plane));
    label->setToolTip(tr("The codes shown: the wheel over the panel zooms around the cursor, a vertical drag pans, "
                         "a double-click shows the whole scale"));
    auto* reset = new QToolButton(box);
    reset->setObjectName(zoomName(plane) + QStringLiteral("Reset"));
    reset->setText(tr("1:1"));
    reset->setFocusPolicy(Qt::NoFocus);
    reset->setToolTip(tr("The whole scale (or double-click the panel)"));
    reset->setEnabled(!label->text().isEmpty());
    connect(reset, &QToolButton::clicked, this, [this, plane] { setLevelRange(plane, LevelRange{}); });
    row->addWidget(label);
    row->addWidget(reset);
}

void MainWindow::updateLevelZoomControls() {
    for (Plane p : {Plane::Waveform, Plane::Parade}) {
        const QString text = levelZoomLabel(p);
        if (auto* label = findChild<QLabel*>(zoomName(p)); label && label->text() != text) label->setText(text);
        if (auto* reset = findChild<QToolButton*>(zoomName(p) + QStringLiteral("Reset"))) reset->setEnabled(!text.isEmpty());
    }
}

void MainWindow::connectScopeZoom(ScopeView* view) {
    const Plane p = view->plane();
    if (p == Plane::Vectorscope) {
        connect(view, &ScopeView::scopeWheel, this, [this](double, int delta) {
            const int z = engine_.spec().vectorscopeZoom;
            setVectorscopeZoom(delta > 0 ? z * 2 : z / 2);
        });
        connect(view, &ScopeView::scopeReset, this, [this] { setVectorscopeZoom(1); });
        return;
    }
    if (p != Plane::Waveform && p != Plane::Parade) return;
    // The wheel keeps the level under the cursor where it is; a drag moves the trace with the
    // mouse (down: higher codes come into view), as the timeline's wheel and drag do.
    connect(view, &ScopeView::scopeWheel, this, [this, view, p](double imageY, int delta) {
        const QSize image = view->imageSize();
        const PlotRect panel = levelPanel(engine_.spec(), p == Plane::Parade, image.width(), image.height());
        if (panel.height < 2) return;
        const LevelRange r = levelRange(p);
        const double f = std::clamp(1.0 - (imageY - panel.top) / double(panel.height - 1), 0.0, 1.0);
        setLevelRange(p, zoomLevelRange(r, r.lo + f * (r.hi - r.lo), std::pow(kWheelZoom, delta / 120.0)));
    });
    connect(view, &ScopeView::scopeDrag, this, [this, view, p](double imageDy) {
        const QSize image = view->imageSize();
        const PlotRect panel = levelPanel(engine_.spec(), p == Plane::Parade, image.width(), image.height());
        if (panel.height < 2) return;
        const LevelRange r = levelRange(p);
        if (isWholeScale(r)) return;
        setLevelRange(p, panLevelRange(r, imageDy / double(panel.height - 1) * (r.hi - r.lo)));
    });
    connect(view, &ScopeView::scopeReset, this, [this, p] { setLevelRange(p, LevelRange{}); });
}

}  // namespace cs
