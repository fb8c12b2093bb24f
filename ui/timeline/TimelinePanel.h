// The Timeline dock's contents: the view (TimelineView.h) filled by the background pass
// (TimelinePass.h) or a qc report or QCTools document beside the file, with a button for the
// whole file and one to open such a document by hand (Open Statistics...: a qc.json or a
// QCTools document, ui/timeline/QcToolsDocument.h) for the file playing.
// A live source (a camera, a stream) shows its flight recorder instead (openLive): the
// recorded window's graphs and alarms, newest at the right, refreshed once a second from
// the recorder (frames appended; once the ring has let 1% of itself go, the series are
// rebuilt from its oldest frame on a std::async thread and swapped in at a later refresh,
// so the GUI thread never builds an hour of series itself); a click
// shows that moment's thumbnail and values beside the graphs, and Export Range writes the
// frames shown as NAME.qc.json and NAME.qc.csv (ui/timeline/FlightExport.h).
//
// Threading: GUI thread, but the rebuild: a std::async task that reads the recorder through
// its lock and fills a TimelineData of its own, handed over through rebuild_ (a future the
// GUI thread polls at its refresh; clear() and the destructor wait for one in flight). The
// recorder is written by whoever presents the frames (playback/FlightRecorder.h).
#pragma once
#include <QWidget>

#include <future>
#include <memory>
#include <string>

#include <QTimer>

#include "timecode/Timecode.h"
#include "ui/timeline/TimelineData.h"
#include "ui/timeline/TimelinePass.h"
#include "ui/timeline/TimelineView.h"

class QLabel;
class QToolButton;

namespace cs::timeline {

class TimelinePanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelinePanel(QWidget* parent = nullptr);

    // A source opened: a local file starts filling; anything else clears the panel.
    void open(const QString& input, bool isFile, const std::string& engine);
    void clear();
    // A qc.json or QCTools document for the file open (Open Statistics...), read instead of
    // the pass (on a task: TimelinePass::open); filled() once it is in, or an error naming
    // the document and the reason in the status line, what was shown left as it was.
    void openDocument(const QString& path);
    bool readingDocument() const { return pass_.reading(); }
    // A live source: its recorder's frames and alarms (`source`: qc.json's head "source" for exports).
    void openLive(std::shared_ptr<const FlightRecorder> recorder, const QJsonObject& source, double frameRate);
    bool live() const { return recorder_ != nullptr; }
    // The file's playhead (a live source's panel keeps the moment clicked instead).
    void setPlayhead(double seconds) {
        if (!recorder_) view_->setPlayhead(seconds);
    }
    // The frame on screen's source timecode and time: a QCTools document's frames, which
    // carry no timecode, are labelled by counting from it (once; until then, and where the
    // source has none, they show the elapsed time).
    void setSourceTimecode(const FrameTimecode& shown, double seconds);
    // Live: takes what the recorder has now (the timer calls it every second).
    void refreshLive();
    // Live: the moment at `time` (the recorder's clock): its thumbnail and values beside the graphs.
    void showMoment(double time);
    // Live: the text beside the thumbnail ("" before a click).
    QString momentText() const;
    bool momentHasThumbnail() const;
    // Live: frames [first, last] of the data as `base`.qc.json / .qc.csv.
    Status exportFrames(int64_t first, int64_t last, const QString& base) const;

    const TimelineData& data() const { return data_; }
    TimelineView* view() { return view_; }
    bool passRunning() const { return pass_.running(); }
    // Where the values came from, or why there are none ("" while a pass runs).
    const QString& status() const { return status_; }

signals:
    void seekRequested(double seconds);
    void filled();   // the data is whole

private:
    void showProgress();
    void exportVisible();
    void chooseDocument();

    std::shared_ptr<const FlightRecorder> recorder_;
    QJsonObject liveSource_;
    QTimer liveTimer_;
    int64_t builtFirst_ = 0, builtEnd_ = 0;   // the recorder's serials data_ holds
    struct Rebuilt {
        TimelineData data;
        int64_t first = 0, end = 0;
    };
    std::future<Rebuilt> rebuild_;              // in flight, or ready for the next refresh
    QWidget* momentBox_ = nullptr;
    QLabel* momentPicture_ = nullptr;
    QLabel* momentValues_ = nullptr;
    QToolButton* exportButton_ = nullptr;
    QToolButton* wholeButton_ = nullptr;
    QToolButton* openButton_ = nullptr;
    QWidget* hoursBox_ = nullptr;   // live: Keep N h (the setting flightRecorder/hours)

    TimelineData data_;
    TimelinePass pass_;
    TimelineView* view_;
    QString input_, status_;
    bool elapsedLabels_ = false;   // the data's timecodes are elapsed time, to relabel from the source's
};

}  // namespace cs::timeline
