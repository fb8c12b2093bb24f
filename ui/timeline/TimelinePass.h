// The timeline's background pass: `cudascope qc` run on the file in a child process (the
// binary itself, at the lowest CPU priority, its own decoder and engine: the window's
// playback loses nothing to it but the CPU time the scheduler gives a nice-19 process), into
// a cache folder of the file's own. Its report is read as it is written (qc streams one
// frame line at a time into NAME.qc.json.part), so the graphs fill while the pass runs; the
// whole report, once committed, gives the events. A report qc finds still valid for the file
// (app/QcReuse.h) is read at once without decoding again. A NAME.qc.json beside the video is
// read instead of any pass.
//
// Threading: GUI thread; QProcess and poll timers. A whole report (a qc.json beside the
// video, or the pass's once it ends: about 90 MB for an hour of 1080p, seconds of parsing)
// is read on Qt's global thread pool into a `Loading` the pool's task and the pass share;
// the task touches nothing else, and the GUI thread takes the data once `done` is set (a
// 20 ms timer). stop() drops the pass's share: a read in flight ends unread.
#pragma once
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include "ui/timeline/TimelineData.h"

namespace cs::timeline {

class TimelinePass : public QObject {
    Q_OBJECT
public:
    explicit TimelinePass(QObject* parent = nullptr);
    ~TimelinePass() override;

    // The program run as `PROGRAM qc` (default: this application's own binary where it is
    // cudascope, else $CS_QC_PROGRAM; without either there is no pass). Tests set the
    // cudascope binary.
    static void setProgram(const QString& program);
    // The folder passes write into (default: the user's cache folder, .../timeline).
    static void setCacheFolder(const QString& folder);

    // Starts filling `data` for `input` (a file path); stops any pass in progress.
    // `engine`: the window's ("auto", "cpu", "cuda").
    void start(const QString& input, const std::string& engine, TimelineData* data);
    void stop();
    // A pass running, or a whole report being read.
    bool running() const { return (process_ && process_->state() != QProcess::NotRunning) || loading_; }
    // Where the data came from: "qc report beside the file", "background pass", "cached pass".
    const QString& origin() const { return origin_; }

signals:
    void progressed();                  // frames were added
    void finished();                    // the data is whole (with the events)
    void failed(const QString& message);

private:
    void startPass();
    void poll();
    void onExited(int code, QProcess::ExitStatus status);
    // Reads the whole report at `path` off the GUI thread; then the data, or `otherwise` with why not.
    void loadWhole(const QString& path, const QString& origin, std::function<void(const Status&)> otherwise);
    void takeLoaded();

    struct Loading {
        QString origin;
        std::function<void(const Status&)> otherwise;   // GUI thread only
        std::atomic<bool> done{false};
        std::optional<Result<TimelineData>> result;     // the pool's task writes it, then sets done
    };
    std::shared_ptr<Loading> loading_;
    QTimer loadPoll_;
    std::string engine_;

    std::unique_ptr<QProcess> process_;
    QTimer poll_;
    TimelineData* data_ = nullptr;
    QString input_, reportPath_, partPath_, origin_, stderr_;
    qint64 readBytes_ = 0;             // of the .part file, through the last whole line
    bool inFrames_ = false;
    QByteArray pending_;
};

// The NAME.qc.json qc would write beside `input` ("" when `input` is no local file).
QString reportBesideInput(const QString& input);

}  // namespace cs::timeline
