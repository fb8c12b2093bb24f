// The monitoring wall: `cudascope IN1 IN2 ...` or `cudascope --wall FILE`. One view draws every
// tile (ui/wall/WallView.h); each source is a playback/WallTile with its own reader, engines and worker.
// Menus: add and remove sources, the small scopes (waveform, vectorscope, histogram), save and
// open wall files (ui/wall/WallFile.h), export the alarm log as CSV. Double-click a tile (or Enter on
// the selected one) to open that source full size in the single-source window with every scope,
// over the wall (which keeps playing, its alarms included); Esc or a double-click on its
// picture (or closing it) comes back to the wall. The wall is not hidden meanwhile: a hidden
// GL surface that still receives update requests has no context to paint with.
//
// The alarm log (a dock): one row per alarm that began or ended on a tile (time, source,
// alarm, start/end, since, timecode, detail), taken from the tiles every 250 ms. A live
// tile's row links to its flight recorder: a double-click (or Enter) opens that moment (its
// thumbnail and values) in a Timeline panel of the tile's recording, in a window of its own.
//
// Threading: GUI thread only. Tiles removed from the wall are stopped and destroyed on a
// std::async task (a read blocked on a network never freezes the window).
#pragma once
#include <QMainWindow>
#include <QPointer>
#include <QTimer>

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "WallFile.h"
#include "playback/WallTile.h"

namespace cs::timeline {
class TimelinePanel;
}

class QLabel;
class QTableWidget;

namespace cs {

class MainWindow;
class WallView;

class WallWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit WallWindow(const std::string& engine = "auto", QWidget* parent = nullptr);
    ~WallWindow() override;

    // Replaces the wall (sources, grid, scopes).
    void setWall(const WallConfig& wall);
    WallConfig wall() const;
    void addSource(const std::string& input);
    void removeSource(int index);
    void setScopes(const WallScopes& scopes);
    Status save(const std::string& path) const;
    Status load(const std::string& path);
    // The alarm log as CSV (time,source,alarm,event,since,timecode,detail).
    Status exportAlarms(const std::string& path) const;

    int tileCount() const { return int(tiles_.size()); }
    WallTile& tile(int index) { return *tiles_[size_t(index)]; }
    WallView& view() { return *view_; }
    // The status bar's line: sources, how many in alarm, frames, engine, paint times.
    QString statusLine() const;
    int alarmRows() const;
    // The recorded moment of alarm row `row` in a window of its own (a live tile's); null
    // (and nothing opened) for a file's or pattern's alarm.
    timeline::TimelinePanel* openRecordedMoment(int row);
    // Row `row` of the log as CSV fields.
    std::vector<std::string> alarmRow(int row) const;
    // The full-size window of a tile, while it is open.
    MainWindow* fullView() const;
    void openFull(int index);
    void closeFull();

signals:
    void alarmLogged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void poll();
    void updateTitle();
    void buildMenus();
    void retire(std::unique_ptr<WallTile> tile);

    std::string engine_;
    WallScopes scopes_;
    // Scopes > Tone Map HDR to SDR: the tiles' PQ and HLG pictures as the viewer shows them;
    // starts from the viewer's saved choice (View > Tone Map HDR to SDR).
    bool toneMapHdr_ = true;
    int columns_ = 0;
    std::vector<std::unique_ptr<WallTile>> tiles_;
    std::vector<std::future<void>> retiring_;
    WallView* view_ = nullptr;
    QTableWidget* log_ = nullptr;
    QLabel* status_ = nullptr;
    QTimer poll_;
    QPointer<MainWindow> full_;   // made at the first openFull, hidden when closed
    bool fullOpen_ = false;
    std::vector<std::vector<std::string>> rows_;
    struct RowLink {   // rows_[i]'s tile recording and moment (recorder null for files)
        std::shared_ptr<const FlightRecorder> recorder;
        double time = -1.0;
        std::string source;
    };
    std::vector<RowLink> links_;
    WallTile::Options tileOptions() const;
};

}  // namespace cs
