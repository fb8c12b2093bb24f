// The main window's status bar: the pixel picker's readout on the left; on the right the
// displayed frame's source timecode (or its elapsed time, marked so), the source (with the live state when it is not "playing"), its size, the region the scopes measure (while
// there is one: EngineHost::region), the pixel format with the bit depth, matrix (marked "(assumed)" where the stream does not tag it) and range in use,
// the shares of pixels out of R'G'B' range (EBU R 103's -5%..105%) and out of legal range, the
// share outside the colour gamut target (while
// the CIE panel or the gamut check has it measured), the decoder, the engine, frames shown per second,
// frames dropped and the engine's time per frame. refresh() reads them from the Player and
// the EngineHost (MainWindow calls it four times a second and when a source opens); the
// picker's text is composed by MainWindow, which knows where the pointer is.
//
// Threading: GUI thread only, like the Player and EngineHost it reads.
#pragma once
#include <QStatusBar>

class QLabel;

namespace cs {

class EngineHost;
class Player;

class StatusBar : public QStatusBar {
    Q_OBJECT
public:
    // `engine` and `player` outlive the bar (MainWindow owns all three).
    StatusBar(const EngineHost& engine, const Player& player, QWidget* parent = nullptr);

    void refresh();
    void setPickerText(const QString& text);   // "" clears it
    QString pickerText() const;

private:
    const EngineHost& engine_;
    const Player& player_;
    QLabel *picker_, *timecode_, *source_, *size_, *format_, *decoder_, *engineName_, *fps_, *dropped_, *time_;
    QLabel* gamut_;    // colour gamut: the share outside the gamut target, while the frame's gamut is measured
    QLabel* signal_;
    QLabel* region_;   // the region the scopes measure (EngineHost::region), while there is one   // R'G'B' gamut (EBU R 103) and legal range: the shares outside them
};

}  // namespace cs
