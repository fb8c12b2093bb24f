// The timeline panel's view: per-frame graphs of the whole file (Y min/avg/max; Cb, Cr and
// saturation averages; YDIF; out of legal and outside the gamut target; max/avg nits for
// HDR) over event lanes (qc's events) and a timecode axis. Drawing is one min/max query per
// pixel column and series (TimelineData's pyramids) written straight into an image: the
// cost follows the width, not the frame count. Wheel zooms (from the whole file to single
// frames), a click or drag seeks, Shift+drag or a right drag selects a range and zooms to it,
// the playhead is followed while zoomed, hovering shows the frame's values and timecode.
//
// Threading: GUI thread.
#pragma once
#include <QImage>
#include <QString>
#include <QWidget>

#include <array>
#include <cstdint>

#include "ui/timeline/TimelineData.h"

namespace cs::timeline {

// The graphs (not the text) of frames [first, last] into `image` (its size): one vertical
// span per pixel column and series. Separate from the widget for the timing test.
void drawGraphs(QImage& image, const TimelineData& data, int64_t first, int64_t last);

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(const TimelineData& source, QWidget* parent = nullptr);

    // The data changed (frames added, or replaced).
    void dataChanged();
    // "analysing 40%", "from clip.mov.qc.json"..., shown in the corner.
    void setStatusText(const QString& text);
    // The frame on screen, by its time.
    void setPlayhead(double seconds);
    // Frames [first, last] shown; clamped to the file.
    void showFrames(int64_t first, int64_t last);
    // The whole file, however long it grows.
    void showWhole();
    int64_t firstVisible() const { return first_; }
    int64_t lastVisible() const { return last_; }
    // The frame under x (widget coordinates).
    int64_t frameAtX(int x) const;
    // What hovering over frame `i` shows.
    QString describeFrame(int64_t i) const;

signals:
    void seekRequested(double seconds);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    QRect graphRect() const;
    int64_t span() const;
    void seekToX(int x);

    const TimelineData& data_;
    QString status_;
    int64_t first_ = 0, last_ = -1;   // last_ < first_: the whole file
    int64_t playhead_ = -1;
    int hoverX_ = -1;
    bool dragging_ = false;
    bool selecting_ = false;           // Shift+drag or right drag: [selectFromX_, selectToX_] shaded
    int selectFromX_ = 0, selectToX_ = 0;
    QImage graphs_;
    std::array<int64_t, 5> graphsKey_{};   // what graphs_ was drawn for: frames shown, frames known, size
};

}  // namespace cs::timeline
