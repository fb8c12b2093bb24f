#include "WindowRecorder.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QPainter>

#include <cstring>

#include "ui/main/ScopeExport.h"
#include "scope/MonitorLayout.h"

namespace cs {

Result<std::unique_ptr<WindowRecorder>> WindowRecorder::start(const RecordRequest& request, int sourceWidth,
                                                              int sourceHeight, double frameRate,
                                                              std::shared_ptr<Yuv420Converter> converter, bool sourceRate) {
    std::unique_ptr<WindowRecorder> r(new WindowRecorder);
    r->request_ = request;
    r->sourceRate_ = sourceRate;
    r->frameRate_ = frameRate > 0 ? frameRate : 30.0;
    if (request.layout == RecordLayout::Picture) {
        r->width_ = std::max(16, (sourceWidth + 1) / 2 * 2);
        r->height_ = std::max(16, (sourceHeight + 1) / 2 * 2);
    } else {
        r->width_ = request.width;
        r->height_ = request.height;
    }
    EncoderOptions o;
    o.path = request.path.toStdString();
    o.width = r->width_;
    o.height = r->height_;
    o.frameRate = r->frameRate_;
    o.wallClock = !sourceRate;
    o.codec = request.codec;
    o.quality = request.quality;
    o.dropWhenBehind = !sourceRate;   // live: the window never waits for the encoder; files: every frame
    o.converter = std::move(converter);
    auto encoder = VideoEncoder::open(o);
    if (!encoder) return encoder.status();
    r->encoder_ = std::move(*encoder);
    r->canvas_.resize(r->width_, r->height_);
    r->clock_.start();
    return r;
}

WindowRecorder::~WindowRecorder() { (void)stop(); }   // the owner stop()s to see the outcome; this is the last resort

Status WindowRecorder::submit() {
    const double seconds = sourceRate_ ? double(submitted_) / frameRate_ : elapsedSeconds();
    ++submitted_;
    const auto queued = encoder_->submit(canvas_, seconds);
    return queued.status();
}

Status WindowRecorder::addPanels(const QImage& panels) {
    if (stopped_) return Status::error(request_.path.toStdString() + ": the recording is closed");
    if (fitted_.size() != QSize(width_, height_)) fitted_ = QImage(width_, height_, QImage::Format_RGBA8888);
    fitted_.fill(Qt::black);
    if (!panels.isNull()) {
        // The composite's own pixels (its device pixel ratio set aside), fitted and centred.
        const QSizeF size = QSizeF(panels.size()).scaled(QSizeF(width_, height_), Qt::KeepAspectRatio);
        const QRectF target((width_ - size.width()) / 2, (height_ - size.height()) / 2, size.width(), size.height());
        QPainter painter(&fitted_);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.drawImage(target, panels, QRectF(QPointF(0, 0), QSizeF(panels.size())));
    }
    for (int y = 0; y < height_; ++y) std::memcpy(canvas_.at(0, y), fitted_.constScanLine(y), size_t(width_) * 4);
    return submit();
}

Status WindowRecorder::addPicture(Engine& engine, const FrameView& frame, const ScopeSpec& shown) {
    if (stopped_) return Status::error(request_.path.toStdString() + ": the recording is closed");
    ScopeSpec spec;
    spec.colorOverride = shown.colorOverride;
    spec.preview = PreviewFilter::None;
    prepareSpecForLayout(MonitorLayout::Picture, width_, height_, spec);
    if (const Status s = engine.process(frame, spec, results_); !s) return s;
    drawMonitorLayout(results_, MonitorLayout::Picture, width_, height_, canvas_);
    return submit();
}

Status WindowRecorder::stop() {
    if (stopped_ || !encoder_) return {};
    stopped_ = true;
    return encoder_->close();
}

QString WindowRecorder::indicatorText(int64_t sourceDropped) const {
    const qint64 s = clock_.elapsed() / 1000;
    const QString time = QStringLiteral("%1:%2:%3")
                             .arg(s / 3600, 2, 10, QLatin1Char('0'))
                             .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
                             .arg(s % 60, 2, 10, QLatin1Char('0'));
    const EncoderStats counts = stats();
    return QStringLiteral("\u25cf REC %1  %2 recorded, %3 dropped").arg(time).arg(counts.encoded).arg(counts.dropped + sourceDropped);
}

QString defaultRecordingPath(const QString& folder, const QString& source, const QString& extension) {
    const QString stem = source.isEmpty() ? QStringLiteral("window") : exportStem(source);
    const QString name = QStringLiteral("cudascope-%1-%2").arg(stem, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    QString path = QDir(folder).filePath(name + QLatin1Char('.') + extension);
    for (int n = 2; QFileInfo::exists(path); ++n) path = QDir(folder).filePath(QStringLiteral("%1-%2.%3").arg(name).arg(n).arg(extension));
    return path;
}

}  // namespace cs
