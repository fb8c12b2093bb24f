// The timeline's background pass: `cudascope qc` run on the file in a child process (the
// binary itself, at the lowest CPU priority, its own decoder and engine: the window's
// playback loses nothing to it but the CPU time the scheduler gives a nice-19 process), into
// a cache folder of the file's own. Its report is read as it is written (qc streams one
// frame line at a time into NAME.qc.json.part), so the graphs fill while the pass runs; the
// whole report, once committed, gives the events. A report qc finds still valid for the file
// (app/QcReuse.h) is read at once without decoding again. A NAME.qc.json beside the video is
// read instead of any pass, else a QCTools document beside it (ui/timeline/QcToolsDocument.h:
// NAME.qctools.xml.gz as QCTools and qc name it, or the plain .xml); qc.json first, as it has
// more (events, the source's timecode). A document beside the video that cannot be read is
// passed over for the pass, its reason kept (problem()) for the status line. open() reads a
// document chosen by hand (Open Statistics...).
//
// Threading: GUI thread; QProcess and a poll timer. Every whole document (a qc.json or a
// QCTools document beside the video or opened by hand, and the pass's own report once qc
// ends: about 90 MB of JSON or 200 MB of XML for an hour of 1080p, seconds of parsing) is
// read on Qt's global thread pool into a TimelineData of its own, handed to the GUI thread
// through reading_ (a promise's future the poll timer looks at); the task shares nothing with
// the GUI thread but its cancel flag. stop() sets the flag (a QCTools document's read looks
// at it every 64 KiB; a qc.json's runs to its end) and drops the future without waiting.
#pragma once
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>

#include <atomic>
#include <future>
#include <memory>
#include <string>

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
    // The pass runs, or its report is being read.
    bool running() const {
        return (process_ && process_->state() != QProcess::NotRunning) || (reading_.valid() && readingKind_ == Reading::PassReport);
    }
    // Reads `document` (a qc.json or a QCTools document) into `data` instead of any pass:
    // finished() once it is in, or failed() with the reason, `data` left as it was (a pass it
    // stopped then starts again, the reason kept as problem()).
    void open(const QString& document, TimelineData* data);
    // A document is being read (beside the file, or opened).
    bool reading() const { return reading_.valid(); }
    // Blocks until no document is being read, its signals sent (tests without an event loop).
    void waitForDocument();
    // Where the data came from: "qc report beside the file", "background pass", "cached pass".
    const QString& origin() const { return origin_; }
    // Why a document beside the file was not read ("" when none was passed over).
    const QString& problem() const { return problem_; }
    // The data came from a QCTools document (its timecodes are the elapsed time).
    bool fromQcTools() const { return fromQcTools_; }

signals:
    void progressed();                  // frames were added
    void finished();                    // the data is whole (with the events)
    void failed(const QString& message);

private:
    void poll();
    void onExited(int code, QProcess::ExitStatus status);
    void startPass();
    void readNext();        // the first of besideDocuments_, on a task
    void takeDocument();    // reading_'s result: in, or the next document, or the pass
    void loadWhole(TimelineData whole, const QString& origin);   // `whole` in, progressed() and finished()

    std::unique_ptr<QProcess> process_;
    QTimer poll_;
    TimelineData* data_ = nullptr;
    QString input_, reportPath_, partPath_, origin_, stderr_, problem_;
    qint64 readBytes_ = 0;             // of the .part file, through the last whole line
    bool inFrames_ = false;
    bool fromQcTools_ = false;
    struct DocumentRead {
        Result<TimelineData> data;
        QString document;
    };
    std::future<DocumentRead> reading_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QStringList besideDocuments_;   // still to try
    // What is being read: documents beside the file (a pass if none reads), one opened by
    // hand, or the pass's report.
    enum class Reading { Beside, ByHand, PassReport } readingKind_ = Reading::Beside;
    QString passOrigin_;
    bool resumePass_ = false;   // open() stopped a running pass: started again if its document fails
    std::string engine_;
    QByteArray pending_;
};

// The NAME.qc.json qc would write beside `input` ("" when `input` is no local file).
QString reportBesideInput(const QString& input);

}  // namespace cs::timeline
