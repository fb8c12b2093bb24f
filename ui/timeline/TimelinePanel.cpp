// The Timeline dock's contents.
#include "TimelinePanel.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

#include <cmath>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/timeline/QcToolsDocument.h"

namespace cs::timeline {

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelinePanel"));
    view_ = new TimelineView(data_, this);
    auto* whole = wholeButton_ = new QToolButton(this);
    whole->setObjectName(QStringLiteral("timelineWhole"));
    whole->setText(tr("Whole file"));
    whole->setToolTip(tr("Show the whole file (the wheel zooms, a click or drag seeks, Shift+drag or a right drag zooms to a range)"));
    openButton_ = new QToolButton(this);
    openButton_->setObjectName(QStringLiteral("timelineOpenStatistics"));
    openButton_->setText(tr("Open Statistics..."));
    openButton_->setToolTip(tr("Fill the timeline from a qc.json or a QCTools document (.qctools.xml.gz, or ffprobe's XML) "
                               "of the file playing, without analysing it again"));
    openButton_->setAutoRaise(true);
    openButton_->setEnabled(false);
    whole->setAutoRaise(true);
    exportButton_ = new QToolButton(this);
    exportButton_->setObjectName(QStringLiteral("timelineExport"));
    exportButton_->setText(tr("Export Range..."));
    exportButton_->setToolTip(tr("Write the recorded frames shown (zoom to choose) as NAME.qc.json and NAME.qc.csv"));
    exportButton_->setAutoRaise(true);
    exportButton_->hide();
    // Live: the hours a live source's recorder keeps, from the next live source opened.
    hoursBox_ = new QWidget(this);
    auto* hoursLabel = new QLabel(tr("Keep"), hoursBox_);
    auto* hours = new QSpinBox(hoursBox_);
    hours->setObjectName(QStringLiteral("flightHours"));
    hours->setRange(1, 48);
    hours->setSuffix(tr(" h"));
    hours->setValue(int(std::lround(QSettings().value(QStringLiteral("flightRecorder/hours"), 1.0).toDouble())));
    hours->setToolTip(tr("How many hours of a live source the flight recorder keeps (from the next live source opened)"));
    connect(hours, &QSpinBox::valueChanged, this, [](int h) { QSettings().setValue(QStringLiteral("flightRecorder/hours"), h); });
    auto* hoursLayout = new QHBoxLayout(hoursBox_);
    hoursLayout->setContentsMargins(0, 0, 6, 0);
    hoursLayout->addWidget(hoursLabel);
    hoursLayout->addWidget(hours);
    hoursBox_->hide();
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(hoursBox_);
    buttons->addWidget(exportButton_);
    buttons->addWidget(openButton_);
    buttons->addWidget(whole);
    // Live: the moment clicked, beside the graphs.
    momentBox_ = new QWidget(this);
    momentBox_->setObjectName(QStringLiteral("timelineMoment"));
    momentPicture_ = new QLabel(momentBox_);
    momentPicture_->setFixedSize(160, 90);
    momentPicture_->setAlignment(Qt::AlignCenter);
    momentValues_ = new QLabel(momentBox_);
    momentValues_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    momentValues_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* momentLayout = new QVBoxLayout(momentBox_);
    momentLayout->setContentsMargins(4, 0, 0, 0);
    momentLayout->addWidget(momentPicture_);
    momentLayout->addWidget(momentValues_, 1);
    momentBox_->hide();
    auto* row = new QHBoxLayout;
    row->addWidget(view_, 1);
    row->addWidget(momentBox_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    layout->addLayout(buttons);
    layout->addLayout(row, 1);
    connect(whole, &QToolButton::clicked, view_, &TimelineView::showWhole);
    connect(view_, &TimelineView::seekRequested, this, [this](double seconds) {
        if (recorder_) showMoment(seconds);
        else emit seekRequested(seconds);
    });
    connect(exportButton_, &QToolButton::clicked, this, &TimelinePanel::exportVisible);
    connect(openButton_, &QToolButton::clicked, this, &TimelinePanel::chooseDocument);
    liveTimer_.setInterval(1000);
    connect(&liveTimer_, &QTimer::timeout, this, &TimelinePanel::refreshLive);
    connect(&pass_, &TimelinePass::progressed, this, &TimelinePanel::showProgress);
    connect(&pass_, &TimelinePass::finished, this, [this] {
        status_ = tr("%1 frames, from the %2").arg(data_.frames()).arg(pass_.origin());
        if (!pass_.problem().isEmpty()) status_ += tr(" (not read: %1)").arg(pass_.problem());
        elapsedLabels_ = pass_.fromQcTools();
        view_->setStatusText(status_);
        emit filled();
    });
    connect(&pass_, &TimelinePass::failed, this, [this](const QString& message) {
        status_ = message;
        if (!pass_.problem().isEmpty()) status_ += tr(" (not read: %1)").arg(pass_.problem());
        view_->setStatusText(status_);
    });
}

void TimelinePanel::clear() {
    pass_.stop();
    liveTimer_.stop();
    if (rebuild_.valid()) rebuild_.get();   // waits for a rebuild in flight (it holds the recorder)
    recorder_.reset();
    builtFirst_ = builtEnd_ = 0;
    momentBox_->hide();
    exportButton_->hide();
    hoursBox_->hide();
    wholeButton_->setText(tr("Whole file"));
    data_.clear();
    elapsedLabels_ = false;
    input_.clear();
    openButton_->setEnabled(false);
    openButton_->show();
    view_->showWhole();
    view_->dataChanged();
}

void TimelinePanel::open(const QString& input, bool isFile, const std::string& engine) {
    clear();
    if (!isFile || !QFileInfo(input).isFile()) {
        status_ = tr("no timeline: %1 is not a file").arg(input);
        view_->setStatusText(status_);
        return;
    }
    input_ = input;
    openButton_->setEnabled(true);
    status_.clear();
    view_->setStatusText(tr("analysing %1...").arg(QFileInfo(input).fileName()));
    pass_.start(input, engine, &data_);
    if (pass_.reading()) view_->setStatusText(tr("reading the statistics beside %1...").arg(QFileInfo(input).fileName()));
}

void TimelinePanel::showProgress() {
    if (pass_.running()) {
        const int64_t expected = data_.expectedFrames();
        view_->setStatusText(tr("analysing: %1 of %2 frames (%3%)")
                                 .arg(data_.frames())
                                 .arg(expected)
                                 .arg(expected > 0 ? 100 * data_.frames() / expected : 0));
    }
    view_->dataChanged();
}

void TimelinePanel::openDocument(const QString& path) {
    status_.clear();
    view_->setStatusText(tr("reading %1...").arg(QFileInfo(path).fileName()));
    view_->showWhole();   // the document's frames, however many
    pass_.open(path, &data_);
}

void TimelinePanel::setSourceTimecode(const FrameTimecode& shown, double seconds) {
    if (!elapsedLabels_ || recorder_ || !shown.known() || shown.isElapsed()) return;
    elapsedLabels_ = false;
    const double rate = data_.frameRate();
    for (int64_t i = 0; i < data_.frames(); ++i)
        data_.setTimecode(i, shown.value.plus(int64_t(std::llround((data_.pts(i) - seconds) * rate))).text());
    view_->update();
}

void TimelinePanel::chooseDocument() {
    const QString folder = input_.isEmpty() ? QString() : QFileInfo(input_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Statistics"), folder,
        tr("Statistics (*.qc.json *.qctools.xml.gz *.qctools.xml *.xml.gz *.xml);;All files (*)"));
    if (!path.isEmpty()) openDocument(path);
}

}  // namespace cs::timeline
