// MainWindow, layout: where the first launch puts the panels and at what sizes, Reset Layout,
// the window kept on its screen, floating panels brought forward, and full screen (the whole
// window, F11; the picture alone, a double-click on it; Esc leaves).
#include "MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

#include "PictureView.h"
#include "TransportBar.h"
#include "ui/audio/AudioDock.h"
#include "ui/MessageBar.h"

namespace cs {

using gl::Plane;

namespace {
QScreen* screenOf(const QWidget* w) {
    QScreen* s = w->screen();
    return s ? s : QGuiApplication::primaryScreen();
}
}  // namespace

void MainWindow::arrangeDocks() {
    auto dock = [this](Plane p) { return docks_[size_t(p)]; };
    addDockWidget(Qt::BottomDockWidgetArea, dock(Plane::Waveform));
    splitDockWidget(dock(Plane::Waveform), dock(Plane::Parade), Qt::Horizontal);
    addDockWidget(Qt::RightDockWidgetArea, dock(Plane::Preview));
    splitDockWidget(dock(Plane::Preview), dock(Plane::Vectorscope), Qt::Vertical);
    splitDockWidget(dock(Plane::Vectorscope), dock(Plane::Histogram), Qt::Vertical);
    // The CIE diagram shares the vectorscope's place as a tab: counted only while its tab is shown.
    tabifyDockWidget(dock(Plane::Vectorscope), dock(Plane::Cie));
    // So does the gamut display (Diamond, Split Diamond, Arrowhead, Lightning).
    tabifyDockWidget(dock(Plane::Vectorscope), dock(Plane::GamutDisplay));
    dock(Plane::Vectorscope)->raise();
    // The audio meters beside the parade.
    splitDockWidget(dock(Plane::Parade), audio_->dock(), Qt::Horizontal);
    applyDefaultDockSizes();
}

// The sizes are shares of the default window (1600 x 1000): scaled to the window's size now,
// so that the first launch and Reset Layout give the same panels on any screen.
void MainWindow::applyDefaultDockSizes() {
    auto dock = [this](Plane p) { return docks_[size_t(p)]; };
    const double sx = std::min(1.0, width() / 1600.0), sy = std::min(1.0, height() / 1000.0);
    const auto x = [sx](int v) { return int(v * sx); };
    const auto y = [sy](int v) { return int(v * sy); };
    resizeDocks({dock(Plane::Preview)}, {x(460)}, Qt::Horizontal);
    resizeDocks({dock(Plane::Preview), dock(Plane::Vectorscope), dock(Plane::Histogram)}, {y(260), y(460), y(280)}, Qt::Vertical);
    resizeDocks({dock(Plane::Waveform)}, {y(360)}, Qt::Vertical);
    resizeDocks({dock(Plane::Waveform), dock(Plane::Parade), audio_->dock()}, {x(400), x(400), x(520)}, Qt::Horizontal);
}

QSize MainWindow::defaultSize() const {
    // Room for a window frame and a desktop's panels, which availableGeometry may not know of.
    const QSize area = screenOf(this)->availableGeometry().size() - QSize(16, 48);
    return QSize(1600, 1000).boundedTo(area).expandedTo(minimumSizeHint());
}

void MainWindow::fitToScreen() {
    if (isMaximized() || isFullScreen()) return;
    const QRect area = screenOf(this)->availableGeometry();
    // The frame's size around the window (none known before the first show).
    const QSize frame = frameGeometry().size() - geometry().size();
    QRect g = geometry();
    g.setSize(g.size().boundedTo(area.size() - frame));
    g.moveLeft(std::clamp(g.left(), area.left(), std::max(area.left(), area.right() + 1 - g.width() - frame.width())));
    g.moveTop(std::clamp(g.top(), area.top(), std::max(area.top(), area.bottom() + 1 - g.height() - frame.height())));
    setGeometry(g);
}

void MainWindow::showAllPanels() {
    for (Plane p : panels()) docks_[size_t(p)]->show();
}

void MainWindow::bringFloatingPanelsForward() {
    for (Plane p : panels()) {
        QDockWidget* d = docks_[size_t(p)];
        if (!d->isFloating() || d->isHidden()) continue;
        QScreen* screen = QGuiApplication::screenAt(d->geometry().center());
        if (!screen) screen = this->screen();
        const QRect area = screen->availableGeometry();
        QRect g = d->geometry();
        g.setSize(g.size().boundedTo(area.size()));
        g.moveLeft(std::clamp(g.left(), area.left(), area.right() + 1 - g.width()));
        g.moveTop(std::clamp(g.top(), area.top(), area.bottom() + 1 - g.height()));
        d->setGeometry(g);
        d->show();
        d->raise();
    }
}

void MainWindow::resetLayout() {
    setFullScreenPicture(false);
    setFullScreenWindow(false);
    if (isMaximized()) showNormal();
    for (Plane p : panels()) docks_[size_t(p)]->setFloating(false);
    audio_->dock()->setFloating(false);
    resize(defaultSize());
    restoreState(defaultState_, kStateVersion);
    centralWidget()->show();   // after View > Layouts > Scopes only
    showAllPanels();
    audio_->dock()->show();
    fitToScreen();
    // The docks' sizes once the window has its size (the first launch's sizes were given to
    // the window before it was shown).
    applyDefaultDockSizes();
    QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
}

// ---- Full screen ---------------------------------------------------------------------------

void MainWindow::buildFullScreen() {
    QMenu* view = viewMenu_;
    view->addSeparator();
    fullScreenAction_ = view->addAction(tr("Full Screen"));
    fullScreenAction_->setObjectName(QStringLiteral("fullScreen"));
    fullScreenAction_->setCheckable(true);
    fullScreenAction_->setShortcut(QKeySequence(Qt::Key_F11));
    connect(fullScreenAction_, &QAction::triggered, this, [this](bool on) { setFullScreenWindow(on); });
    fullPictureAction_ = view->addAction(tr("Full Screen Picture"));
    fullPictureAction_->setObjectName(QStringLiteral("fullScreenPicture"));
    fullPictureAction_->setCheckable(true);
    fullPictureAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F11));
    fullPictureAction_->setToolTip(tr("The picture alone on the whole screen (double-click the picture; Esc leaves)"));
    connect(fullPictureAction_, &QAction::triggered, this, [this](bool on) { setFullScreenPicture(on); });
    QAction* leave = view->addAction(tr("Leave Full Screen"), this, &MainWindow::escape);
    leave->setObjectName(QStringLiteral("escape"));
    leave->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(viewer_, &PictureView::doubleClicked, this, [this] { setFullScreenPicture(!isFullScreenPicture()); });
    // With the menu bar hidden (the picture alone) its actions' shortcuts would stop: the
    // window holds every menu action too.
    std::vector<QMenu*> menus;
    for (QAction* a : menuBar()->actions())
        if (a->menu()) menus.push_back(a->menu());
    while (!menus.empty()) {
        QMenu* m = menus.back();
        menus.pop_back();
        for (QAction* a : m->actions()) {
            if (a->menu()) menus.push_back(a->menu());
            else if (!a->shortcut().isEmpty()) addAction(a);
        }
    }
}

void MainWindow::setFullScreenWindow(bool on) {
    if (pictureOnly_) {   // the picture alone is left first; the window then is as asked
        pictureOnly_->wasFullScreen = on;
        setFullScreenPicture(false);
        return;
    }
    if (on == isFullScreen()) {
        if (fullScreenAction_) fullScreenAction_->setChecked(on);
        return;
    }
    if (on) {
        wasMaximized_ = isMaximized();
        showFullScreen();
    } else if (wasMaximized_) {
        showMaximized();
    } else {
        showNormal();
    }
    if (fullScreenAction_) fullScreenAction_->setChecked(on);
}

void MainWindow::setFullScreenPicture(bool on) {
    if (on == pictureOnly_.has_value()) return;
    if (on) {
        PictureOnly saved;
        saved.state = saveState(kStateVersion);
        saved.wasFullScreen = isFullScreen();
        saved.wasMaximized = isFullScreen() ? wasMaximized_ : isMaximized();
        for (QWidget* w : findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            const bool bar = qobject_cast<QDockWidget*>(w) || qobject_cast<QToolBar*>(w) || qobject_cast<QMenuBar*>(w) ||
                             qobject_cast<QStatusBar*>(w);
            if (bar && w->isVisible()) saved.hidden.push_back(w);
        }
        for (QWidget* w : {static_cast<QWidget*>(transport_), static_cast<QWidget*>(messages_)})
            if (w->isVisible()) saved.hidden.push_back(w);
        for (QWidget* w : saved.hidden) w->hide();
        saved.pictureWasHidden = centralWidget()->isHidden();   // Scopes only: the picture is wanted now
        centralWidget()->show();
        pictureOnly_ = std::move(saved);
        if (!isFullScreen()) showFullScreen();
        viewer_->zoomToFit();
    } else {
        PictureOnly saved = std::move(*pictureOnly_);
        pictureOnly_.reset();
        for (QWidget* w : saved.hidden) w->show();
        if (saved.pictureWasHidden) centralWidget()->hide();
        restoreState(saved.state, kStateVersion);
        if (!saved.wasFullScreen) {
            if (saved.wasMaximized) showMaximized();
            else showNormal();
        }
        wasMaximized_ = saved.wasMaximized;
        viewer_->zoomToFit();
    }
    if (fullPictureAction_) fullPictureAction_->setChecked(on);
    if (fullScreenAction_) fullScreenAction_->setChecked(isFullScreen() && !on);
}

void MainWindow::escape() {
    if (pictureOnly_) setFullScreenPicture(false);
    else if (isFullScreen()) setFullScreenWindow(false);
    else if (engine_.region) clearRegion();
    else if (escapeHook_) escapeHook_();
}

}  // namespace cs
