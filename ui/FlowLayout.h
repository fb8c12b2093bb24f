// A layout that places its widgets left to right and wraps them onto further rows when the
// width runs out (a panel's controls): its minimum width is its widest item, so no row of
// controls can make a panel, and with it the window, wider than the screen. A stretch
// (addStretch) pushes the items after it to the right end of their row while they fit on it.
// Heights follow the width (heightForWidth); an item with a height-for-width of its own (a
// word-wrapped label) gets at most the row's width.
#pragma once
#include <QLayout>
#include <QList>

namespace cs {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    // The items added after it go to the right end of the row they land on.
    void addStretch();

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out in `rect` (only measures when !apply); returns the height used.
    int doLayout(const QRect& rect, bool apply) const;

    QList<QLayoutItem*> items_;
    int stretchAt_ = -1;   // index of the first item after addStretch(), -1: none
    int spacing_;
};

}  // namespace cs
