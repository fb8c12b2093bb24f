// The wall's one GL view: every tile drawn in one pass per display refresh (ui/wall/WallRenderer.h),
// not one widget per source. The tiles' workers call wake() from their threads; it posts at
// most one paint at a time to the GUI thread. Click selects a tile, double-click activates it
// (the wall opens it full size).
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "ui/GlView.h"
#include "WallRenderer.h"

class QTimer;

namespace cs {

class WallView : public GlView {
    Q_OBJECT
public:
    explicit WallView(QWidget* parent = nullptr);
    ~WallView() override;

    void setTiles(std::vector<WallTile*> tiles, const WallGrid& grid);
    const std::vector<WallTile*>& tiles() const { return tiles_; }
    const WallGrid& grid() const { return grid_; }
    int selected() const { return selected_; }
    void setSelected(int index);
    const WallRenderer& renderer() const { return renderer_; }
    // The tile under a point in widget coordinates, -1 when none.
    int tileAt(const QPointF& pos) const;

    // A function for the tiles' workers (any thread): asks for a repaint.
    std::function<void()> waker();

    // Milliseconds the GUI thread spent in each paint (uploads and drawing), over the last 600.
    struct PaintTimes {
        double last = 0, median = 0, p99 = 0, max = 0;
        int64_t paints = 0;
    };
    PaintTimes paintTimes() const;
    const std::vector<double>& paintSamples() const { return paintMs_; }

signals:
    void tileActivated(int index);
    void selectionChanged(int index);

protected:
    Status createGl() override;
    void releaseGl() override;
    void paintView(int w, int h) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    Q_INVOKABLE void onWake();   // queued by name from the workers' threads (waker)
    // Outlives the view in the workers' callbacks: the view unhooks itself under its lock.
    struct Hook {
        std::mutex mutex;
        WallView* view = nullptr;   // guarded by mutex
        std::atomic<bool> posted{false};
    };
    std::shared_ptr<Hook> hook_ = std::make_shared<Hook>();
    WallRenderer renderer_;
    std::vector<WallTile*> tiles_;
    WallGrid grid_;
    int selected_ = -1;
    std::vector<double> paintMs_;   // ring of the last 600
    size_t paintNext_ = 0;
    int64_t paints_ = 0;
    QTimer* paceTimer_ = nullptr;   // a paint when the next queued frame comes due
};

}  // namespace cs
