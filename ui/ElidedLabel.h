// A one-line label that never asks for more width than a few characters: given less room than
// its text needs it shows the text cut with an ellipsis (the full text stays in text()). The
// status bar's fields and the transport's readouts are such labels, so no text can make the
// window wider than the screen. Plain text only.
#pragma once
#include <QLabel>

namespace cs {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr, int minimumChars = 3);

    QSize minimumSizeHint() const override;
    // The text shown now differs from text() (cut).
    bool isElided() const;

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    int minimumChars_;
};

}  // namespace cs
