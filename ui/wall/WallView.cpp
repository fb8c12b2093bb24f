// The wall's view (ui/wall/WallView.h).
#include "WallView.h"

#include <QMouseEvent>
#include <QScreen>
#include <QTimer>

#include <algorithm>
#include <chrono>

#include "playback/WallTile.h"

namespace cs {

WallView::WallView(QWidget* parent) : GlView(parent, true) {
    hook_->view = this;
    paceTimer_ = new QTimer(this);
    paceTimer_->setSingleShot(true);
    paceTimer_->setTimerType(Qt::PreciseTimer);
    connect(paceTimer_, &QTimer::timeout, this, [this] { update(); });
    setMinimumSize(320, 180);
}

WallView::~WallView() {
    {
        const std::lock_guard lock(hook_->mutex);
        hook_->view = nullptr;
    }
    teardownGl();
}

std::function<void()> WallView::waker() {
    // Queued by name, the call event is made and delivered inside Qt and carries nothing of
    // ours across the threads (as Player::wakeCall): a functor built on the worker's thread and
    // destroyed on the GUI thread is ordered only by Qt's event-queue locks, which
    // ThreadSanitizer cannot see. A view deleted meanwhile drops the queued call.
    return [hook = hook_] {
        if (hook->posted.exchange(true)) return;   // a paint is already on its way
        const std::lock_guard lock(hook->mutex);
        if (hook->view) QMetaObject::invokeMethod(hook->view, "onWake", Qt::QueuedConnection);
    };
}

void WallView::onWake() {
    hook_->posted = false;
    update();
}

void WallView::setTiles(std::vector<WallTile*> tiles, const WallGrid& grid) {
    tiles_ = std::move(tiles);
    grid_ = grid;
    if (selected_ >= int(tiles_.size())) setSelected(int(tiles_.size()) - 1);
    update();
}

void WallView::setSelected(int index) {
    if (index == selected_) return;
    selected_ = index;
    update();
    emit selectionChanged(index);
}

int WallView::tileAt(const QPointF& pos) const {
    const double dpr = devicePixelRatioF();
    const int px = int(pos.x() * dpr), py = int(pos.y() * dpr);
    for (size_t i = 0; i < tiles_.size(); ++i)
        if (wallTileRect(grid_, int(i), pixelWidth(), pixelHeight()).contains(px, py)) return int(i);
    return -1;
}

Status WallView::createGl() { return renderer_.create(); }

void WallView::releaseGl() { renderer_.release(); }

void WallView::paintView(int w, int h) {
    const auto begin = std::chrono::steady_clock::now();
    // The presentation delay follows the display's refresh (60 Hz where the screen does not say).
    if (const QScreen* sc = screen(); sc && sc->refreshRate() >= 20.0)
        renderer_.setRefreshPeriod(std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(1.0 / sc->refreshRate())));
    renderer_.draw(tiles_, grid_, w, h, selected_);
    // Frames drawn for a later refresh: paint again when the first comes due (a timer, not a
    // repaint loop, so a display without vsync does not spin).
    if (const auto due = renderer_.nextDue(); due && !paceTimer_->isActive()) {
        const auto wait = std::chrono::ceil<std::chrono::milliseconds>(*due - std::chrono::steady_clock::now());
        paceTimer_->start(int(std::clamp<int64_t>(wait.count(), 1, 1000)));
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    if (paintMs_.size() < 600) paintMs_.push_back(ms);
    else paintMs_[paintNext_] = ms;
    paintNext_ = (paintNext_ + 1) % 600;
    ++paints_;
}

WallView::PaintTimes WallView::paintTimes() const {
    PaintTimes t;
    t.paints = paints_;
    if (paintMs_.empty()) return t;
    t.last = paintMs_[(paintNext_ + paintMs_.size() - 1) % paintMs_.size()];
    std::vector<double> sorted = paintMs_;
    std::sort(sorted.begin(), sorted.end());
    t.median = sorted[sorted.size() / 2];
    t.p99 = sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
    t.max = sorted.back();
    return t;
}

void WallView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) setSelected(tileAt(e->position()));
    GlView::mousePressEvent(e);
}

void WallView::mouseDoubleClickEvent(QMouseEvent* e) {
    const int i = tileAt(e->position());
    if (i >= 0) emit tileActivated(i);
}

}  // namespace cs
