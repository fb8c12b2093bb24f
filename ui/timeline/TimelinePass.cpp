// The timeline's background pass.
#include "TimelinePass.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QThreadPool>

#include <sys/resource.h>

#include <chrono>
#include <utility>

#include "ui/timeline/QcToolsDocument.h"

namespace cs::timeline {

namespace {
QString& programPath() {
    static QString path;
    return path;
}
QString& cachePath() {
    static QString path;
    return path;
}
constexpr int kPollMs = 100;

// The program run as `PROGRAM qc`: set, else this binary where it is cudascope (a test
// program or tool that embeds the window is not), else $CS_QC_PROGRAM.
QString passProgram() {
    if (!programPath().isEmpty()) return programPath();
    const QString self = QCoreApplication::applicationFilePath();
    if (QFileInfo(self).fileName() == QStringLiteral("cudascope")) return self;
    return qEnvironmentVariable("CS_QC_PROGRAM");
}
}  // namespace

QString reportBesideInput(const QString& input) {
    const QFileInfo info(input);
    if (!info.isFile()) return {};
    return info.absoluteFilePath() + QStringLiteral(".qc.json");
}

void TimelinePass::setProgram(const QString& program) { programPath() = program; }
void TimelinePass::setCacheFolder(const QString& folder) { cachePath() = folder; }

TimelinePass::TimelinePass(QObject* parent) : QObject(parent) {
    poll_.setInterval(kPollMs);
    connect(&poll_, &QTimer::timeout, this, &TimelinePass::poll);
}

TimelinePass::~TimelinePass() { stop(); }

void TimelinePass::stop() {
    poll_.stop();
    besideDocuments_.clear();
    if (reading_.valid()) {   // a document being read: told to stop (a QCTools document's read
        cancel_->store(true);  // looks every 64 KiB), and left to end on its pool thread, unread
        reading_ = {};
    }
    if (!process_) return;
    process_->disconnect(this);
    if (process_->state() != QProcess::NotRunning) {
        // qc stops its worker and removes its .part files on SIGTERM (app/QcCommand.cpp).
        process_->terminate();
        if (!process_->waitForFinished(3000)) {
            process_->kill();
            process_->waitForFinished(1000);
        }
    }
    process_.reset();
}

void TimelinePass::loadWhole(TimelineData whole, const QString& origin) {
    *data_ = std::move(whole);
    origin_ = origin;
    emit progressed();
    emit finished();
}

void TimelinePass::start(const QString& input, const std::string& engine, TimelineData* data) {
    stop();
    data_ = data;
    data_->clear();
    input_ = input;
    origin_.clear();
    stderr_.clear();
    problem_.clear();
    fromQcTools_ = false;
    readBytes_ = 0;
    inFrames_ = false;
    pending_.clear();
    // A report beside the video, else a QCTools document: read, nothing decoded.
    engine_ = engine;
    besideDocuments_.clear();
    if (const QString beside = reportBesideInput(input); !beside.isEmpty() && QFileInfo::exists(beside)) besideDocuments_ << beside;
    for (const QString& document : qcToolsBesideInput(input))
        if (QFileInfo::exists(document)) besideDocuments_ << document;
    if (!besideDocuments_.isEmpty()) {   // the pass only if none of them reads
        readingKind_ = Reading::Beside;
        readNext();
        return;
    }
    startPass();
}

void TimelinePass::open(const QString& document, TimelineData* data) {
    // A pass this read interrupts starts again if the document cannot be read.
    resumePass_ = running() && !input_.isEmpty();
    stop();
    data_ = data;
    origin_.clear();
    problem_.clear();
    fromQcTools_ = false;
    besideDocuments_ = {document};
    readingKind_ = Reading::ByHand;
    readNext();
}

void TimelinePass::readNext() {
    const QString document = besideDocuments_.takeFirst();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    // A promise's future, unlike std::async's, does not wait for its task when dropped.
    auto promise = std::make_shared<std::promise<DocumentRead>>();
    reading_ = promise->get_future();
    QThreadPool::globalInstance()->start([promise, document, cancel = cancel_] {
        promise->set_value(DocumentRead{readStatisticsDocument(document, cancel.get()), document});
    });
    poll_.start();
}

void TimelinePass::takeDocument() {
    DocumentRead read = reading_.get();
    poll_.stop();
    const QString name = QFileInfo(read.document).fileName();
    const bool json = read.document.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive);
    if (read.data) {
        fromQcTools_ = !json;
        QString origin = passOrigin_;
        if (readingKind_ == Reading::ByHand) origin = tr("statistics in %1").arg(name);
        if (readingKind_ == Reading::Beside)
            origin = json ? tr("qc report beside the file") : tr("QCTools document beside the file (%1)").arg(name);
        loadWhole(std::move(*read.data), origin);
        return;
    }
    const QString message = QString::fromStdString(read.data.message());
    if (readingKind_ == Reading::ByHand) {   // opened by hand: what is shown stays
        const bool resume = std::exchange(resumePass_, false);
        if (resume) start(input_, engine_, data_);   // the pass it stopped starts again
        emit failed(message);
        if (resume) problem_ = message;              // and says so once it ends
        return;
    }
    if (readingKind_ == Reading::PassReport) {
        emit failed(tr("%1: the timeline's pass wrote no readable report (%2)").arg(input_, message));
        return;
    }
    if (problem_.isEmpty()) problem_ = message;
    if (!besideDocuments_.isEmpty()) readNext();
    else startPass();
}

void TimelinePass::waitForDocument() {
    while (reading_.valid()) {
        reading_.wait();
        takeDocument();
    }
}

void TimelinePass::startPass() {
    const QString& input = input_;
    const std::string& engine = engine_;
    const QString base = cachePath().isEmpty()
                             ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/timeline")
                             : cachePath();
    // One folder per file (qc names its reports by file name only).
    const QString absolute = QFileInfo(input).absoluteFilePath();
    const QString key = QString::fromLatin1(QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
    const QString folder = base + QLatin1Char('/') + key;
    if (!QDir().mkpath(folder)) {
        emit failed(tr("%1: cannot make the timeline's cache folder %2").arg(input, folder));
        return;
    }
    reportPath_ = folder + QLatin1Char('/') + QFileInfo(input).fileName() + QStringLiteral(".qc.json");
    partPath_ = reportPath_ + QStringLiteral(".part");
    QFile::remove(partPath_);

    const QString program = passProgram();
    if (program.isEmpty()) {
        emit failed(tr("%1: no background pass (no cudascope binary to run qc with)").arg(input));
        return;
    }
    process_ = std::make_unique<QProcess>();
    process_->setProgram(program);
    // qc itself decides whether an earlier report there still stands for this file (same
    // file, settings and version) and then skips it.
    // qc.json alone: the timeline reads nothing else (docs/QC.md: --only-json).
    process_->setArguments({QStringLiteral("qc"), absolute, QStringLiteral("--out"), folder, QStringLiteral("--only-json"),
                            QStringLiteral("--engine"), QString::fromStdString(engine), QStringLiteral("--jobs"), QStringLiteral("1")});
    // The lowest CPU priority, inherited by qc's worker: playback comes first.
    process_->setChildProcessModifier([] { setpriority(PRIO_PROCESS, 0, 19); });
    process_->setProcessChannelMode(QProcess::SeparateChannels);
    process_->setStandardOutputFile(QProcess::nullDevice());
    connect(process_.get(), &QProcess::readyReadStandardError, this, [this] {
        stderr_ += QString::fromLocal8Bit(process_->readAllStandardError());
        if (stderr_.size() > 8192) stderr_ = stderr_.right(8192);
    });
    connect(process_.get(), &QProcess::finished, this, &TimelinePass::onExited);
    connect(process_.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        poll_.stop();
        emit failed(tr("%1: the timeline's pass could not start %2 (%3)").arg(input_, process_->program(), process_->errorString()));
    });
    origin_ = tr("background pass");
    process_->start();
    poll_.start();
}

void TimelinePass::poll() {
    if (reading_.valid()) {
        if (reading_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) takeDocument();
        return;
    }
    QFile part(partPath_);
    if (!part.open(QIODevice::ReadOnly)) return;   // not begun yet
    if (part.size() < readBytes_) return;
    part.seek(readBytes_);
    const QByteArray fresh = part.readAll();
    if (fresh.isEmpty()) return;
    pending_ += fresh;
    readBytes_ += fresh.size();
    bool added = false;
    // Whole lines only: the head's members, then `"frames":[`, then one frame per line
    // (",{...}" after the first), then "],".
    for (qsizetype nl; (nl = pending_.indexOf('\n')) >= 0;) {
        QByteArray line = pending_.left(nl);
        pending_.remove(0, nl + 1);
        if (!inFrames_) {
            if (line.startsWith("\"source\":")) {
                if (line.endsWith(',')) line.chop(1);
                const QJsonDocument d = QJsonDocument::fromJson("{" + line + "}");
                data_->setSource(d.object().value(QStringLiteral("source")).toObject());
            }
            if (line == "\"frames\":[") inFrames_ = true;
            continue;
        }
        if (line.startsWith(']')) {
            inFrames_ = false;
            continue;
        }
        if (line.startsWith(',')) line.remove(0, 1);
        const QJsonDocument d = QJsonDocument::fromJson(line);
        if (!d.isObject()) continue;
        data_->addFrame(d.object());
        added = true;
    }
    if (added) emit progressed();
}

void TimelinePass::onExited(int code, QProcess::ExitStatus status) {
    poll_.stop();
    if (status == QProcess::NormalExit && code == 0) {
        // The whole report (about 90 MB for an hour of 1080p) is read off the GUI thread.
        passOrigin_ = data_->frames() == 0 ? tr("cached pass") : tr("background pass");
        besideDocuments_ = {reportPath_};
        readingKind_ = Reading::PassReport;
        readNext();
        return;
    }
    QString why = stderr_.trimmed().section(QLatin1Char('\n'), -1);
    if (why.isEmpty()) why = status == QProcess::CrashExit ? tr("it crashed") : tr("exit %1").arg(code);
    emit failed(tr("%1: the timeline's pass failed: %2").arg(input_, why));
}

}  // namespace cs::timeline
