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
constexpr int kLoadPollMs = 20;   // a whole report read on a pool thread: looked for this often

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
    loadPoll_.setInterval(kLoadPollMs);
    connect(&loadPoll_, &QTimer::timeout, this, &TimelinePass::takeLoaded);
}

TimelinePass::~TimelinePass() { stop(); }

void TimelinePass::stop() {
    poll_.stop();
    loadPoll_.stop();
    loading_.reset();   // a read in flight finishes on its pool thread, unread
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

void TimelinePass::loadWhole(const QString& path, const QString& origin, std::function<void(const Status&)> otherwise) {
    auto loading = std::make_shared<Loading>();
    loading->origin = origin;
    loading->otherwise = std::move(otherwise);
    loading_ = loading;
    QThreadPool::globalInstance()->start([loading, path] {
        loading->result.emplace(TimelineData::fromQcJson(path));
        loading->done.store(true, std::memory_order_release);
    });
    loadPoll_.start();
}

void TimelinePass::takeLoaded() {
    if (!loading_ || !loading_->done.load(std::memory_order_acquire)) return;
    loadPoll_.stop();
    const std::shared_ptr<Loading> loading = std::move(loading_);
    if (!*loading->result) {
        loading->otherwise(loading->result->status());
        return;
    }
    *data_ = std::move(**loading->result);
    origin_ = loading->origin;
    emit progressed();
    emit finished();
}

void TimelinePass::start(const QString& input, const std::string& engine, TimelineData* data) {
    stop();
    engine_ = engine;
    data_ = data;
    data_->clear();
    input_ = input;
    origin_.clear();
    stderr_.clear();
    readBytes_ = 0;
    inFrames_ = false;
    pending_.clear();
    // A report beside the video: read, nothing decoded (one that cannot be read: a pass).
    if (const QString beside = reportBesideInput(input); !beside.isEmpty() && QFileInfo::exists(beside)) {
        loadWhole(beside, tr("qc report beside the file"), [this](const Status&) { startPass(); });
        return;
    }
    startPass();
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
        loadWhole(reportPath_, data_->frames() == 0 ? tr("cached pass") : tr("background pass"), [this](const Status& why) {
            emit failed(tr("%1: the timeline's pass wrote no readable report (%2)").arg(input_, QString::fromStdString(why.message())));
        });
        return;
    }
    QString why = stderr_.trimmed().section(QLatin1Char('\n'), -1);
    if (why.isEmpty()) why = status == QProcess::CrashExit ? tr("it crashed") : tr("exit %1").arg(code);
    emit failed(tr("%1: the timeline's pass failed: %2").arg(input_, why));
}

}  // namespace cs::timeline
