// A scope's brightness control: a slider in quarter stops from x1/4 to x16 with its value
// shown; double-click resets to x1.
#pragma once
#include <QWidget>

class QLabel;
class QSlider;

namespace cs {

class GainControl : public QWidget {
    Q_OBJECT
public:
    explicit GainControl(QWidget* parent = nullptr);
    float gain() const;
    void setGain(float gain);   // no signal

signals:
    void gainChanged(float gain);

protected:
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    void showValue();
    QSlider* slider_;
    QLabel* value_;
};

}  // namespace cs
