// Go to timecode (Ctrl+G): a small dialog that takes HH:MM:SS:FF (HH:MM:SS;FF for
// drop-frame, or the eight digits alone) and asks `resolve` for the frame's time; a bad
// input shows resolve's sentence, naming the input, and the dialog stays open.
#pragma once
#include <QDialog>

#include <functional>
#include <string>

#include "core/Status.h"

class QLabel;
class QLineEdit;

namespace cs {

class GoToTimecodeDialog : public QDialog {
    Q_OBJECT
public:
    using Resolve = std::function<Result<double>(const std::string& text)>;
    // `current`: the timecode shown now (the field starts with it); `dropFrame`: the digits
    // alone are written with ';' before the frames.
    GoToTimecodeDialog(const QString& current, bool dropFrame, Resolve resolve, QWidget* parent = nullptr);

    // The accepted input's presentation time.
    double seconds() const { return seconds_; }
    // Tries the field's text: accepts the dialog, or shows why not.
    void tryAccept();

private:
    QLineEdit* input_;
    QLabel* error_;
    Resolve resolve_;
    bool dropFrame_;
    double seconds_ = 0.0;
};

// "10000402" -> "10:00:04:02" (";02" for drop-frame); anything else is returned trimmed.
QString withTimecodeSeparators(const QString& text, bool dropFrame);

}  // namespace cs
