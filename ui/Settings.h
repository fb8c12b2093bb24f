// What the window remembers between runs, through QSettings (organisation and application
// names as ui/Gui.cpp sets them): every key the window reads or writes is named here and
// nowhere else. Values the engine depends on are clamped to their ranges when read back
// (gains, filter parameters, modes), so a damaged settings file never reaches it.
//
// Keys: scopes/* and filters/* (the remembered fields of ScopeSpec, the histogram channels,
// the preview filter and whether it shows in the viewer, the CIE panel's diagram and target
// gamut, the gamut check), view/toneMapHdr (the viewer's HDR to SDR display transform),
// wall/toneMapHdr (the wall's own switch), layouts/* (the layout presets: name, dock state,
// whether the picture shows, and the scope fields under the same keys as the window's),
// colour/matrix and colour/range
// (the override; empty: the stream's own), playback/loop, playback/playOnOpen, decode/nvdec, window/geometry and window/state (the dock layout),
// recent/files, recent/urls, recent/folder (the Open File dialog's folder), export/folder,
// export/width, export/height (the Save Scopes dialog), audio/volume, audio/muted and
// audio/listen (the Audio dock's listening).
//
// The playback speed is not remembered: every launch starts at 1x, as players and NLEs do
// (a speed left at 4x would otherwise make the next session's first clip look wrong).
//
// Threading: GUI thread only (QSettings is not shared between threads here).
#pragma once
#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

#include "core/ScopeSpec.h"
#include "playback/EngineHost.h"
#include "render/PictureGuides.h"

class QSettings;

namespace cs::settings {

// The window's remembered choices other than its layout.
struct Choices {
    // Of the spec, only these fields are remembered: histogram, waveform, parade and
    // vectorscope modes, scales and gains, the vectorscope's targets and skin-tone line, the
    // filter parameters (peaking threshold, zebra IRE, blur radius, Gaussian sigma) and the
    // colour override. The other fields pass through load() unchanged.
    ScopeSpec spec;
    HistogramChannels histogramChannels = HistogramChannels::LumaAndRgb;
    GamutDisplay gamutDisplay = GamutDisplay::Diamond;   // the gamut display panel's mode (never None)
    PreviewFilter preview = PreviewFilter::FocusPeaking;   // never None
    bool previewInViewer = false;
    bool gamutCheck = false;   // the share outside the gamut target in the status bar
    bool toneMapHdr = true;    // View > Tone Map HDR to SDR (EngineHost::toneMapHdr)
    bool loop = true;
    bool playOnOpen = true;
    bool nvdec = true;   // decode on the GPU where the CUDA engine runs
};

// Reads the saved choices over `c`: a value that was never saved keeps what `c` holds, except
// the colour override, which is the stream's own unless one was saved.
void load(Choices& c);
void save(const Choices& c);

// The scope fields of `from` (its spec but the colour override, the histogram channels, the
// preview filter and whether it shows in the viewer) over `to`: what a layout preset carries.
void applyScopeChoices(const Choices& from, Choices& to);

// The wall's View > Tone Map HDR to SDR (WallWindow); until it was switched, the viewer's.
bool wallToneMapHdr();
void setWallToneMapHdr(bool on);

// A named layout (View > Layouts): the docks (QMainWindow::saveState), whether the picture
// shows (a second screen's "scopes only"), and the scope fields (as applyScopeChoices takes them).
struct LayoutPreset {
    QString name;
    QByteArray state;
    bool picture = true;
    Choices choices;
};
constexpr int kLayoutNameMax = 40;
// "" when `name` (trimmed) can name a new layout; else one sentence naming it and why not
// (empty, too long, or one of `taken`, case aside).
QString checkLayoutName(const QString& name, const QStringList& taken);
// The saved presets in their order; an entry without a name, or with a name taken before it,
// is left out. The scope fields are read clamped as load() reads them.
std::vector<LayoutPreset> layoutPresets(QSettings& s);
void setLayoutPresets(QSettings& s, const std::vector<LayoutPreset>& presets);
std::vector<LayoutPreset> layoutPresets();   // the application's settings
void setLayoutPresets(const std::vector<LayoutPreset>& presets);

// The main window's geometry and dock layout (QMainWindow::saveGeometry / saveState), and
// whether the picture showed (View > Layouts > Scopes only hides it; true when never saved).
QByteArray windowGeometry();
QByteArray windowState();
bool windowPictureShown();
void saveWindow(const QByteArray& geometry, const QByteArray& state, bool pictureShown);

// The guides over the picture (View > Guides).
PictureGuides pictureGuides();
void setPictureGuides(const PictureGuides& g);

// The Audio dock's listening: volume 0..100 (the slider), mute, and the channels heard as
// audio/Listen.h names them ("downmix", "pair:3", "solo:1").
struct Listening {
    int volume = 80;
    bool muted = false;
    QString channels = QStringLiteral("downmix");
};
Listening listening();
void setListening(const Listening& l);

// The most recently opened inputs, newest first, at most kRecentMax of each kind.
enum class Recent { Files, Urls };
constexpr int kRecentMax = 10;
QStringList recent(Recent kind);
void addRecent(Recent kind, const QString& input);
void clearRecent(Recent kind);

// The folder the Open File dialog starts in: the last one a file was opened from, else the
// user's videos folder (~/Videos), else the home folder; always a folder that exists.
QString openFolder();
void setOpenFolder(const QString& folder);

// The Save Scopes dialog's last choices.
struct ScopeExportChoice {
    QString folder;
    int width = 1024;
    int height = 540;
};
// `fallbackFolder` until a folder was chosen.
ScopeExportChoice scopeExport(const QString& fallbackFolder);
void saveScopeExport(const ScopeExportChoice& c);

// The Record dialog's last choices (ui/record/RecordDialog.h); read clamped to what the dialog offers.
struct RecordChoice {
    QString folder;
    QString extension = QStringLiteral("mp4");   // mp4 or mkv
    bool picture = false;                        // the picture alone, else the panels as shown
    int width = 1920, height = 1080;             // the panels' recording size
    bool hevc = false;
    int quality = 20;
};
RecordChoice recordChoice(const QString& fallbackFolder);
void saveRecordChoice(const RecordChoice& c);

}  // namespace cs::settings
