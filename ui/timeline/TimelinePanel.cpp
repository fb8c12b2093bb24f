// The Timeline dock's contents.
#include "TimelinePanel.h"

#include <QFileInfo>
#include <QToolButton>
#include <QVBoxLayout>

namespace cs::timeline {

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("timelinePanel"));
    view_ = new TimelineView(data_, this);
    auto* whole = new QToolButton(this);
    whole->setObjectName(QStringLiteral("timelineWhole"));
    whole->setText(tr("Whole file"));
    whole->setToolTip(tr("Show the whole file (the wheel zooms, a click or drag seeks)"));
    whole->setAutoRaise(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(0);
    layout->addWidget(whole, 0, Qt::AlignRight);
    layout->addWidget(view_, 1);
    connect(whole, &QToolButton::clicked, view_, &TimelineView::showWhole);
    connect(view_, &TimelineView::seekRequested, this, &TimelinePanel::seekRequested);
    connect(&pass_, &TimelinePass::progressed, this, &TimelinePanel::showProgress);
    connect(&pass_, &TimelinePass::finished, this, [this] {
        status_ = tr("%1 frames, from the %2").arg(data_.frames()).arg(pass_.origin());
        view_->setStatusText(status_);
        emit filled();
    });
    connect(&pass_, &TimelinePass::failed, this, [this](const QString& message) {
        status_ = message;
        view_->setStatusText(message);
    });
}

void TimelinePanel::clear() {
    pass_.stop();
    data_.clear();
    input_.clear();
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
    status_.clear();
    view_->setStatusText(tr("analysing %1...").arg(QFileInfo(input).fileName()));
    pass_.start(input, engine, &data_);
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

}  // namespace cs::timeline
