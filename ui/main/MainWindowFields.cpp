// MainWindow, fields: View > Fields shows one field of each frame in place of the frame
// (core/FieldView.h through EngineHost::field: the picture, the preview and every scope are
// the field's), the picture at its frame's shape (PictureView::setRowScale); Playback > Step
// Field Forward / Back walks the fields in the order the stream shows them. All on the GUI
// thread, as the rest of the window.
#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>

#include "PictureView.h"
#include "StatusBar.h"
#include "ui/compare/Compare.h"

namespace cs {

namespace {

// A pin's row where `to` shows the frame (a field's rows, or the frame's), from where `from` did.
int pinRow(int row, std::optional<Field> from, std::optional<Field> to) {
    const int inFrame = from ? frameRow(row, *from) : row;
    return to ? fieldRow(inFrame) : inFrame;
}

}  // namespace

void MainWindow::buildFields(QMenu* view, QMenu* playback) {
    fieldsMenu_ = view->addMenu(tr("Fields"));
    fieldsMenu_->setObjectName(QStringLiteral("fieldsMenu"));
    fieldsMenu_->setToolTip(tr("An interlaced frame's fields one at a time: the picture and every scope of one field"));
    auto* group = new QActionGroup(this);
    const std::array<std::pair<QString, QString>, 3> names{{{tr("Whole Frame"), QStringLiteral("fieldWholeFrame")},
                                                           {tr("Top Field"), QStringLiteral("fieldTop")},
                                                           {tr("Bottom Field"), QStringLiteral("fieldBottom")}}};
    const std::array<std::optional<Field>, 3> fields{std::nullopt, Field::Top, Field::Bottom};
    for (size_t i = 0; i < names.size(); ++i) {
        QAction* a = fieldsMenu_->addAction(names[i].first);
        a->setObjectName(names[i].second);
        a->setCheckable(true);
        a->setChecked(i == 0);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, field = fields[i]] { setShownField(field); });
        fieldActions_[i] = a;
    }
    fieldActions_[1]->setToolTip(tr("The frame's even lines (0, 2, 4, ...), shown at the frame's shape"));
    fieldActions_[2]->setToolTip(tr("The frame's odd lines (1, 3, 5, ...), shown at the frame's shape"));
    auto step = [&](const QString& text, const QString& name, QKeySequence key, int direction) {
        QAction* a = playback->addAction(text, this, [this, direction] { stepField(direction); });
        a->setObjectName(name);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
    };
    step(tr("Step Field Forward"), QStringLiteral("stepFieldForward"), QKeySequence(Qt::ALT | Qt::Key_Right), +1);
    step(tr("Step Field Back"), QStringLiteral("stepFieldBack"), QKeySequence(Qt::ALT | Qt::Key_Left), -1);
}

std::optional<FrameView> MainWindow::shownFrame() const {
    if (!player_->hasFrame()) return std::nullopt;
    Result<FrameView> v = engine_.shownView(player_->currentFrame().view);
    if (!v) return std::nullopt;
    return *v;
}

void MainWindow::setShownField(std::optional<Field> field) {
    pendingField_.reset();
    if (field && compare_ && compare_->hasB()) {
        showWarning(tr("Fields are shown without compare: close B first (Compare > Close B)."));
        field.reset();
    }
    fieldActions_[field ? (*field == Field::Top ? 1 : 2) : 0]->setChecked(true);
    const std::optional<Field> was = engine_.field;
    if (was == field) return;
    // The pins stay on their pixels: a field's row is every other frame row. A region is
    // cleared: its rows were the other picture's.
    if (!was != !field) {
        const std::vector<PixelPos> pins = viewer_->pins();
        viewer_->setPinned(std::nullopt);
        for (const PixelPos& p : pins) viewer_->addPin(PixelPos{p.x, pinRow(p.y, was, field)});
    }
    clearRegion();
    engine_.field = field;
    viewer_->setRowScale(field ? 2 : 1);
    if (player_->hasFrame()) {
        const FrameView& frame = player_->currentFrame().view;
        viewer_->setFrameSize(frame.width, field ? fieldHeight(frame.format, frame.height, *field) : frame.height);
    }
    status_->refresh();
    scheduleReprocess();
}

void MainWindow::stepField(int direction) {
    if (!player_->hasFrame() || (compare_ && compare_->hasB())) return;
    player_->pause();
    const Field first = firstField(player_->info().fieldOrder);
    const Field second = first == Field::Top ? Field::Bottom : Field::Top;
    const std::optional<Field> now = engine_.field;
    if (!now) {   // from the whole frame: its first field forwards, its last backwards
        setShownField(direction > 0 ? first : second);
        return;
    }
    if (direction > 0 && *now == first) return setShownField(second);
    if (direction < 0 && *now == second) return setShownField(first);
    // Into the next or the previous frame: its first or last field is shown when it comes
    // (onFrameChanged), not this frame's other field in between.
    pendingField_ = direction > 0 ? first : second;
    if (direction > 0) player_->stepForward();
    else player_->stepBack();
}

void MainWindow::takePendingField() {
    if (!pendingField_) return;
    const Field f = *pendingField_;
    pendingField_.reset();
    if (engine_.field == f) return;
    engine_.field = f;
    fieldActions_[f == Field::Top ? 1 : 2]->setChecked(true);
    status_->refresh();
    scheduleReprocess();   // a still source's frame is not processed again by itself
}

void MainWindow::fieldsFollowCompare() {
    const bool comparing = compare_ && compare_->hasB();
    if (fieldsMenu_) fieldsMenu_->setEnabled(!comparing);
    if (comparing && engine_.field) setShownField(std::nullopt);
}

}  // namespace cs
