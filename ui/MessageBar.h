// A non-modal message strip above the picture: errors stay until dismissed (or until a
// source opens), warnings fade after a while. The window stays usable meanwhile.
#pragma once
#include <QFrame>
#include <QTimer>

class QLabel;

namespace cs {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Severity { Error, Warning };
    explicit MessageBar(QWidget* parent = nullptr);
    void showMessage(const QString& text, Severity severity);
    QString text() const;
    Severity severity() const { return severity_; }

private:
    QLabel* label_;
    QTimer hideTimer_;
    Severity severity_ = Severity::Error;
};

}  // namespace cs
