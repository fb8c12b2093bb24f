// Transport controls.
#include "TransportBar.h"

#include <QComboBox>
#include <QMouseEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QProxyStyle>
#include <QSlider>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ui/ElidedLabel.h"
#include "ui/Icons.h"
#include "playback/Timecode.h"

namespace cs {
namespace {
const double kSpeeds[] = {0.25, 0.5, 1.0, 1.5, 2.0, 4.0};

// A left click on the seek bar moves the handle to the click (and from there it drags), as
// players do; QSlider's own click steps a page towards it.
class AbsoluteClickStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    int styleHint(StyleHint hint, const QStyleOption* option, const QWidget* widget, QStyleHintReturn* ret) const override {
        if (hint == SH_Slider_AbsoluteSetButtons) return Qt::LeftButton;
        return QProxyStyle::styleHint(hint, option, widget, ret);
    }
};
}  // namespace

QToolButton* TransportBar::button(const QString& tip, int icon) {
    auto* b = new QToolButton(this);
    b->setIcon(makeIcon(IconKind(icon)));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::NoFocus);   // keys belong to the window's shortcuts
    b->setIconSize(QSize(18, 18));
    return b;
}

TransportBar::TransportBar(QWidget* parent) : QWidget(parent) {
    start_ = button(tr("Go to start (Home)"), int(IconKind::Start));
    back_ = button(tr("Step one frame back (Left)"), int(IconKind::StepBack));
    play_ = button(tr("Play / pause (Space, K, L)"), int(IconKind::Play));
    forward_ = button(tr("Step one frame forward (Right)"), int(IconKind::StepForward));
    end_ = button(tr("Go to end (End)"), int(IconKind::End));
    loop_ = button(tr("Loop playback"), int(IconKind::Loop));
    loop_->setCheckable(true);

    speed_ = new QComboBox(this);
    speed_->setFocusPolicy(Qt::NoFocus);
    speed_->setToolTip(tr("Playback speed (L again: faster)"));
    for (double s : kSpeeds) speed_->addItem(QString::number(s) + QStringLiteral("x"), s);
    speed_->setCurrentIndex(2);

    reverse_ = new QLabel(this);
    reverse_->setObjectName(QStringLiteral("reverseSpeed"));
    reverse_->setToolTip(tr("Playing in reverse (J again: faster; K or Space: pause; L: forward)"));
    reverse_->hide();

    seek_ = new QSlider(Qt::Horizontal, this);
    seek_->setFocusPolicy(Qt::NoFocus);
    seek_->setToolTip(tr("Seek"));
    seek_->setEnabled(false);
    auto* clickStyle = new AbsoluteClickStyle(style()->name());
    clickStyle->setParent(seek_);
    seek_->setStyle(clickStyle);

    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 1.15);
    QFont large = mono;
    large.setPointSizeF(font().pointSizeF() * 1.45);
    large.setBold(true);
    timecode_ = new QLabel(this);
    timecode_->setObjectName(QStringLiteral("timecode"));
    timecode_->setFont(large);
    timecode_->setMinimumWidth(QFontMetrics(large).horizontalAdvance(QStringLiteral("00:00:00:00")) + 4);
    timecode_->setCursor(Qt::PointingHandCursor);
    timecode_->installEventFilter(this);
    // What the readout is: "TC" (the source's timecode) or "elapsed".
    timecodeKind_ = new QLabel(this);
    timecodeKind_->setObjectName(QStringLiteral("timecodeKind"));
    timecodeKind_->setCursor(Qt::PointingHandCursor);
    timecodeKind_->installEventFilter(this);
    duration_ = new ElidedLabel(this);
    duration_->setObjectName(QStringLiteral("duration"));
    duration_->setFont(mono);
    duration_->setToolTip(tr("Duration"));
    frame_ = new ElidedLabel(this);
    frame_->setFont(mono);
    frame_->setToolTip(tr("Frame number of the displayed frame"));

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(6, 2, 6, 2);
    row->setSpacing(2);
    for (QWidget* w : {static_cast<QWidget*>(start_), static_cast<QWidget*>(back_), static_cast<QWidget*>(play_),
                       static_cast<QWidget*>(forward_), static_cast<QWidget*>(end_)})
        row->addWidget(w);
    row->addSpacing(6);
    row->addWidget(loop_);
    row->addWidget(speed_);
    row->addWidget(reverse_);
    row->addSpacing(8);
    row->addWidget(seek_, 1);
    row->addSpacing(8);
    row->addWidget(timecodeKind_);
    row->addSpacing(4);
    row->addWidget(timecode_);
    row->addSpacing(4);
    row->addWidget(duration_);
    row->addSpacing(8);
    row->addWidget(frame_);

    connect(play_, &QToolButton::clicked, this, &TransportBar::playToggled);
    connect(forward_, &QToolButton::clicked, this, &TransportBar::stepForwardClicked);
    connect(back_, &QToolButton::clicked, this, &TransportBar::stepBackClicked);
    connect(start_, &QToolButton::clicked, this, &TransportBar::startClicked);
    connect(end_, &QToolButton::clicked, this, &TransportBar::endClicked);
    connect(loop_, &QToolButton::toggled, this, &TransportBar::loopToggled);
    connect(speed_, &QComboBox::activated, this, [this](int i) { emit speedChosen(speed_->itemData(i).toDouble()); });
    // Scrubbing seeks on every move; the player keeps only the latest target.
    connect(seek_, &QSlider::sliderPressed, this, [this] { emit scrubbingChanged(true); });
    connect(seek_, &QSlider::sliderReleased, this, [this] { emit scrubbingChanged(false); });
    connect(seek_, &QSlider::sliderMoved, this, [this](int v) { emit seekRequested(double(v) / fps_); });
    connect(seek_, &QSlider::actionTriggered, this, [this](int action) {
        // SliderMove without the slider down: a click that put the handle there (AbsoluteClickStyle).
        if ((action == QAbstractSlider::SliderMove && !seek_->isSliderDown()) ||
            action == QAbstractSlider::SliderPageStepAdd || action == QAbstractSlider::SliderPageStepSub ||
            action == QAbstractSlider::SliderSingleStepAdd || action == QAbstractSlider::SliderSingleStepSub)
            emit seekRequested(double(seek_->sliderPosition()) / fps_);
    });
    start_->setObjectName(QStringLiteral("start"));
    back_->setObjectName(QStringLiteral("stepBack"));
    play_->setObjectName(QStringLiteral("play"));
    forward_->setObjectName(QStringLiteral("stepForward"));
    end_->setObjectName(QStringLiteral("end"));
    clearSource();
}

void TransportBar::clearSource() {
    setTimeline(0, 25.0, false);
    for (QToolButton* b : {start_, back_, play_, forward_, end_}) b->setEnabled(false);
    haveFrame_ = false;
    timecode_->setText(QStringLiteral("\u2014"));   // an em dash: no time to show
    timecodeKind_->clear();
    duration_->clear();
    frame_->clear();
    const QSignalBlocker block(seek_);
    seek_->setValue(0);
}

void TransportBar::setTimeline(int64_t frameCount, double fps, bool seekable) {
    fps_ = fps > 0 ? fps : 25.0;
    frameCount_ = frameCount;
    const QSignalBlocker block(seek_);
    seek_->setRange(0, int(std::max<int64_t>(0, std::min<int64_t>(frameCount - 1, INT32_MAX))));
    seek_->setPageStep(std::max(1, int(std::lround(fps_))));
    seek_->setEnabled(seekable && frameCount > 1);
    for (QToolButton* b : {start_, back_, end_}) b->setEnabled(seekable);
    for (QToolButton* b : {play_, forward_}) b->setEnabled(true);
    durationText_ = frameCount > 0 ? QString::fromStdString(timecode(double(frameCount) / fps_, fps_)) : tr("live");
}

void TransportBar::setPosition(double seconds, int64_t frameNumber, const FrameTimecode& source) {
    seconds_ = seconds;
    source_ = source;
    haveFrame_ = true;
    showTimecode();
    frame_->setText(tr("frame %1").arg(frameNumber));
    if (!seek_->isSliderDown()) {
        const QSignalBlocker block(seek_);
        seek_->setValue(int(std::min<int64_t>(frameNumber, INT32_MAX)));
    }
}

void TransportBar::setPlaying(bool playing) {
    play_->setIcon(makeIcon(playing ? IconKind::Pause : IconKind::Play));
    play_->setToolTip(playing ? tr("Pause (Space, K)") : tr("Play (Space, L; J: reverse)"));
}

void TransportBar::setLoop(bool loop) {
    const QSignalBlocker block(loop_);
    loop_->setChecked(loop);
}

void TransportBar::setSpeed(double speed) {
    for (int i = 0; i < speed_->count(); ++i)
        if (std::abs(speed_->itemData(i).toDouble() - speed) < 1e-6) speed_->setCurrentIndex(i);
}

void TransportBar::setReverse(double speed) {
    reverse_->setVisible(speed > 0);
    if (speed > 0) reverse_->setText(QStringLiteral("\u25C0 ") + QString::number(speed) + QStringLiteral("x"));
}

bool TransportBar::isScrubbing() const { return seek_->isSliderDown(); }

void TransportBar::setShowElapsed(bool elapsed) {
    showElapsed_ = elapsed;
    if (haveFrame_) showTimecode();
}

void TransportBar::showTimecode() {
    const FrameTimecode shown = timecodeOrElapsed(showElapsed_ ? FrameTimecode{} : source_, seconds_, fps_);
    timecode_->setText(QString::fromStdString(shown.text()));
    const bool elapsed = shown.isElapsed();
    timecodeKind_->setText(elapsed ? tr("elapsed") : tr("TC"));
    const QString other = showElapsed_ ? tr("Click for the source timecode") : tr("Click for the elapsed time");
    const QString what = elapsed ? (source_.known() || showElapsed_ ? tr("Elapsed time of the displayed frame")
                                                                   : tr("Elapsed time of the displayed frame (the source has no timecode)"))
                                 : tr("Source timecode of the displayed frame (%1)").arg(QString::fromLatin1(timecodeSourceName(shown.source)));
    const QString tip = what + QStringLiteral("\n") + other + tr(" (View > Show Elapsed Time); Ctrl+G: go to timecode");
    timecode_->setToolTip(tip);
    timecodeKind_->setToolTip(tip);
    // The duration is elapsed time: "/ 00:00:40:00" after an elapsed readout, labelled after a timecode.
    duration_->setText(elapsed || frameCount_ <= 0 ? QStringLiteral("/ ") + durationText_ : tr("dur %1").arg(durationText_));
}

bool TransportBar::eventFilter(QObject* watched, QEvent* event) {
    if ((watched == timecode_ || watched == timecodeKind_) && event->type() == QEvent::MouseButtonRelease &&
        static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton && haveFrame_) {
        setShowElapsed(!showElapsed_);
        emit showElapsedToggled(showElapsed_);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace cs
