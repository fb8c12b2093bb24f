// Go to timecode.
#include "GoToTimecodeDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <utility>

namespace cs {

QString withTimecodeSeparators(const QString& text, bool dropFrame) {
    const QString t = text.trimmed();
    if (t.size() != 8) return t;
    for (QChar c : t)
        if (!c.isDigit()) return t;
    return t.mid(0, 2) + QLatin1Char(':') + t.mid(2, 2) + QLatin1Char(':') + t.mid(4, 2) +
           QLatin1Char(dropFrame ? ';' : ':') + t.mid(6, 2);
}

GoToTimecodeDialog::GoToTimecodeDialog(const QString& current, bool dropFrame, Resolve resolve, QWidget* parent)
    : QDialog(parent), resolve_(std::move(resolve)), dropFrame_(dropFrame) {
    setObjectName(QStringLiteral("goToTimecode"));
    setWindowTitle(tr("Go to Timecode"));
    input_ = new QLineEdit(current, this);
    input_->setObjectName(QStringLiteral("timecodeInput"));
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(font().pointSizeF() * 1.4);
    input_->setFont(mono);
    input_->selectAll();
    input_->setToolTip(dropFrame ? tr("HH:MM:SS;FF (drop-frame), or the eight digits") : tr("HH:MM:SS:FF, or the eight digits"));
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("timecodeError"));
    error_->setStyleSheet(QStringLiteral("color: #ff6b6b;"));
    error_->setWordWrap(true);
    error_->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Go"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Timecode:"), this));
    layout->addWidget(input_);
    layout->addWidget(error_);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &GoToTimecodeDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(input_, &QLineEdit::textEdited, error_, &QLabel::hide);
}

void GoToTimecodeDialog::tryAccept() {
    const QString text = withTimecodeSeparators(input_->text(), dropFrame_);
    Result<double> target = resolve_(text.toStdString());
    if (!target) {
        error_->setText(QString::fromStdString(target.message()));
        error_->show();
        input_->setFocus();
        input_->selectAll();
        return;
    }
    seconds_ = *target;
    accept();
}

}  // namespace cs
