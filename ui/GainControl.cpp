// The gain slider.
#include "GainControl.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace cs {
namespace {
constexpr int kStepsPerStop = 4, kMin = -2 * kStepsPerStop, kMax = 4 * kStepsPerStop;
}

GainControl::GainControl(QWidget* parent) : QWidget(parent) {
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(kMin, kMax);
    slider_->setValue(0);
    slider_->setFixedWidth(90);
    slider_->setFocusPolicy(Qt::NoFocus);
    slider_->setToolTip(tr("Trace brightness (double-click: x1)"));
    value_ = new QLabel(this);
    value_->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("x0.25 ")));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(4);
    auto* icon = new QLabel(tr("Gain"), this);
    row->addWidget(icon);
    row->addWidget(slider_);
    row->addWidget(value_);
    connect(slider_, &QSlider::valueChanged, this, [this] {
        showValue();
        emit gainChanged(gain());
    });
    showValue();
}

float GainControl::gain() const { return float(std::pow(2.0, double(slider_->value()) / kStepsPerStop)); }

void GainControl::setGain(float gain) {
    const QSignalBlocker block(slider_);
    slider_->setValue(int(std::lround(std::log2(std::max(gain, 1e-3f)) * kStepsPerStop)));
    showValue();
}

void GainControl::showValue() { value_->setText(QStringLiteral("x") + QString::number(double(gain()), 'g', 3)); }

void GainControl::mouseDoubleClickEvent(QMouseEvent*) {
    slider_->setValue(0);
}

}  // namespace cs
