// The wrapping layout (see FlowLayout.h).
#include "FlowLayout.h"

#include <QWidget>

#include <algorithm>

namespace cs {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), spacing_(spacing) {}

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addStretch() { stretchAt_ = int(items_.size()); }

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::itemAt(int index) const { return index >= 0 && index < items_.size() ? items_[index] : nullptr; }

QLayoutItem* FlowLayout::takeAt(int index) {
    if (index < 0 || index >= items_.size()) return nullptr;
    if (stretchAt_ > index) --stretchAt_;
    return items_.takeAt(index);
}

int FlowLayout::heightForWidth(int width) const { return doLayout(QRect(0, 0, width, 0), false); }

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    // Everything on one row.
    int width = 0, height = 0, shown = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        const QSize s = item->sizeHint();
        width += s.width();
        height = std::max(height, s.height());
        ++shown;
    }
    const QMargins m = contentsMargins();
    return QSize(width + std::max(0, shown - 1) * spacing_ + m.left() + m.right(), height + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    doLayout(rect, true);
}

int FlowLayout::doLayout(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int right = area.x() + area.width();
    // Rows of (item, size); each row is placed when it is complete.
    struct Placed {
        QLayoutItem* item;
        QSize size;
        bool pushed;   // after the stretch
    };
    QList<Placed> row;
    int y = area.y(), rowHeight = 0, x = area.x();
    const auto place = [&] {
        if (apply) {
            // The items after the stretch go to the row's right end.
            int tail = 0, tailCount = 0;
            for (const Placed& p : row)
                if (p.pushed) tail += p.size.width(), ++tailCount;
            int px = area.x();
            bool inTail = false;
            for (const Placed& p : row) {
                if (p.pushed && !inTail) {
                    inTail = true;
                    px = std::max(px, right - tail - (tailCount - 1) * spacing_);
                }
                p.item->setGeometry(QRect(QPoint(px, y + (rowHeight - p.size.height()) / 2), p.size));
                px += p.size.width() + spacing_;
            }
        }
        row.clear();
    };
    for (int i = 0; i < items_.size(); ++i) {
        QLayoutItem* item = items_[i];
        if (item->isEmpty()) continue;
        QSize s = item->sizeHint().boundedTo(item->maximumSize()).expandedTo(item->minimumSize());
        s.setWidth(std::min(s.width(), std::max(1, area.width())));
        if (item->hasHeightForWidth()) s.setHeight(item->heightForWidth(s.width()));
        if (!row.isEmpty() && x + s.width() > right) {
            place();
            y += rowHeight + spacing_ / 2;
            x = area.x();
            rowHeight = 0;
        }
        row.append({item, s, stretchAt_ >= 0 && i >= stretchAt_});
        x += s.width() + spacing_;
        rowHeight = std::max(rowHeight, s.height());
    }
    place();
    const QMargins m = contentsMargins();
    return y + rowHeight - rect.y() + m.bottom();
}

}  // namespace cs
