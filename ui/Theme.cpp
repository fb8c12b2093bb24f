// Dark neutral palette.
#include "Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyleFactory>

namespace cs {

void applyDarkTheme(QApplication& app) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QColor window(0x2a, 0x2a, 0x2a), base(0x1c, 0x1c, 0x1c), alternate(0x24, 0x24, 0x24);
    const QColor text(0xd4, 0xd4, 0xd4), dimText(0x80, 0x80, 0x80), button(0x33, 0x33, 0x33);
    // Selection and focus in a lighter grey: a colour would tint the surround of the picture.
    const QColor highlight(0x5c, 0x5c, 0x5c), highlightText(0xf2, 0xf2, 0xf2);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(0x38, 0x38, 0x38));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, dimText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x3c, 0x3c, 0x3c));
    p.setColor(QPalette::Mid, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0c));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, highlightText);
    p.setColor(QPalette::Link, QColor(0xb8, 0xb8, 0xb8));
    p.setColor(QPalette::LinkVisited, QColor(0x9a, 0x9a, 0x9a));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x6a, 0x6a, 0x6a));
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x40, 0x40, 0x40));
    app.setPalette(p);
    app.setStyleSheet(QStringLiteral(
        "QMainWindow::separator { background: #1a1a1a; width: 4px; height: 4px; }"
        "QMainWindow::separator:hover { background: #4a4a4a; }"
        "QDockWidget { titlebar-close-icon: none; color: #b8b8b8; }"
        "QDockWidget::title { background: #232323; padding: 3px 6px; border-bottom: 1px solid #181818; }"
        "QToolBar { border: none; spacing: 4px; padding: 2px; }"
        "QStatusBar { background: #202020; color: #a8a8a8; }"
        "QStatusBar::item { border: none; }"
        "QStatusBar QLabel { padding: 0px 6px; border-left: 1px solid #333333; }"
        "QLabel#timecode { color: #e6e6e6; }"
        "QFrame#messageBar { background: #3a2626; border: 1px solid #5a3434; border-radius: 3px; }"
        "QFrame#messageBar[severity=\"warning\"] { background: #38331f; border: 1px solid #564d2a; }"
        "QFrame#messageBar QLabel { color: #eeeeee; border: none; }"
        "QWidget#scopeControls { background: #202020; }"
        "QWidget#scopeControls QLabel { color: #9a9a9a; }"
        "QWidget#transport { background: #222222; border-top: 1px solid #181818; }"));
}

}  // namespace cs
