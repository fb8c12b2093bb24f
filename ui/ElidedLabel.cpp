// The eliding label (see ElidedLabel.h).
#include "ElidedLabel.h"

#include <QPainter>
#include <QStyle>
#include <QStyleOption>

#include <algorithm>

namespace cs {

ElidedLabel::ElidedLabel(QWidget* parent, int minimumChars) : QLabel(parent), minimumChars_(minimumChars) {
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
}

QSize ElidedLabel::minimumSizeHint() const {
    const QSize hint = QLabel::minimumSizeHint();
    const int m = contentsMargins().left() + contentsMargins().right() + 2 * margin();
    const int least = fontMetrics().horizontalAdvance(QLatin1Char('0')) * minimumChars_ + m;
    return QSize(std::min(hint.width(), least), hint.height());
}

bool ElidedLabel::isElided() const {
    return fontMetrics().horizontalAdvance(text()) > contentsRect().width() - 2 * margin();
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QRect r = contentsRect().adjusted(margin(), margin(), -margin(), -margin());
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, r.width());
    QStyleOption option;
    option.initFrom(this);
    style()->drawItemText(&p, r, int(alignment()), option.palette, isEnabled(), shown, foregroundRole());
}

}  // namespace cs
