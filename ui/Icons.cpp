// Vector-drawn transport icons.
#include "Icons.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace cs {
namespace {

// Draws the icon on a 24-unit grid into a pixmap of `size`.
QPixmap draw(IconKind kind, int size, const QColor& colour) {
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 24.0, size / 24.0);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    auto triangle = [&](double x0, double x1, double yTop, double yBottom) {
        QPainterPath path;
        path.moveTo(x0, yTop);
        path.lineTo(x1, (yTop + yBottom) / 2);
        path.lineTo(x0, yBottom);
        path.closeSubpath();
        p.drawPath(path);
    };
    switch (kind) {
        case IconKind::Play: triangle(7, 19, 5, 19); break;
        case IconKind::Pause:
            p.drawRect(QRectF(7, 5, 3.5, 14));
            p.drawRect(QRectF(13.5, 5, 3.5, 14));
            break;
        case IconKind::StepForward:
            triangle(6, 15, 6, 18);
            p.drawRect(QRectF(15.5, 6, 2.5, 12));
            break;
        case IconKind::StepBack:
            triangle(18, 9, 6, 18);
            p.drawRect(QRectF(6, 6, 2.5, 12));
            break;
        case IconKind::End:
            triangle(4, 11, 6, 18);
            triangle(11, 18, 6, 18);
            p.drawRect(QRectF(18, 6, 2.5, 12));
            break;
        case IconKind::Start:
            triangle(20, 13, 6, 18);
            triangle(13, 6, 6, 18);
            p.drawRect(QRectF(3.5, 6, 2.5, 12));
            break;
        case IconKind::Loop: {
            QPen pen(colour, 2.2);
            pen.setCapStyle(Qt::RoundCap);
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            p.drawArc(QRectF(5, 6, 14, 12), 30 * 16, 300 * 16);
            p.setPen(Qt::NoPen);
            p.setBrush(colour);
            QPainterPath head;   // arrow head at the arc's start, pointing up
            head.moveTo(20.5, 7.0);
            head.lineTo(19.5, 12.5);
            head.lineTo(14.5, 10.0);
            head.closeSubpath();
            p.drawPath(head);
            break;
        }
    }
    return pm;
}

}  // namespace

QIcon makeIcon(IconKind kind) {
    QIcon icon;
    for (int size : {16, 24, 32, 48}) {
        icon.addPixmap(draw(kind, size, QColor(0xd0, 0xd0, 0xd0)), QIcon::Normal, QIcon::Off);
        icon.addPixmap(draw(kind, size, QColor(0xff, 0xff, 0xff)), QIcon::Normal, QIcon::On);
        icon.addPixmap(draw(kind, size, QColor(0x5a, 0x5a, 0x5a)), QIcon::Disabled, QIcon::Off);
    }
    return icon;
}

}  // namespace cs
