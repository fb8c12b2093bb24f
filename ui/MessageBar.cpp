// The message strip.
#include "MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace cs {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("messageBar"));
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    // A long word (a path, a URL) is cut rather than widen the window.
    label_->setMinimumWidth(1);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setToolTip(tr("Dismiss"));
    close->setFocusPolicy(Qt::NoFocus);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(label_, 1);
    row->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hideTimer_.setSingleShot(true);
    connect(&hideTimer_, &QTimer::timeout, this, &QWidget::hide);
    hide();
}

void MessageBar::showMessage(const QString& text, Severity severity) {
    severity_ = severity;
    setProperty("severity", severity == Severity::Error ? "error" : "warning");
    style()->unpolish(this);
    style()->polish(this);
    label_->setText(text);
    show();
    if (severity == Severity::Warning) hideTimer_.start(8000);
    else hideTimer_.stop();
}

QString MessageBar::text() const { return isHidden() ? QString() : label_->text(); }

}  // namespace cs
