// The main window: the viewer with its transport, the scope panels as dock widgets
// (histogram, waveform, parade, vectorscope, preview: shown, hidden, rearranged, floated;
// layout remembered), menus and shortcuts, the source dialog, "Save scopes..." and the pixel
// picker; timecode (the transport's readout, Go to Timecode) is in MainWindowTimecode.cpp. It wires the Player (which frame) to the EngineHost (what the scopes show), the
// GL views (where it is drawn) and the status bar (StatusBar.h); what it remembers between
// runs goes through Settings.h. The scope panels' controls are in ScopeControls.cpp.
#pragma once
#include <QMainWindow>
#include <QTimer>

#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "analysis/Alarms.h"
#include "playback/EngineHost.h"
#include "playback/FlightRecorder.h"
#include "engine/Thumbnailer.h"
#include "playback/PixelProbe.h"
#include "Player.h"
#include "ui/record/WindowRecorder.h"
#include "render/FrameTextures.h"
#include "render/Layout.h"
#include "ui/Settings.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;

namespace cs {

class AudioDock;
namespace timeline {
class TimelinePanel;
}
class CompareController;
class FlowLayout;
class MessageBar;
class PictureView;
class ScopeView;
class StatusBar;
class TransportBar;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // engine: "auto", "cpu" or "cuda" (see EngineHost).
    explicit MainWindow(const std::string& engine = "auto", QWidget* parent = nullptr);
    ~MainWindow() override;

    // A file path, "pattern:..." or another openSource input. Opens in the background.
    void openInput(const QString& input);
    // How the next sources opened are decoded, instead of the "Decode on the GPU" setting:
    // NVDEC forced, tried (Auto) or off, and FFmpeg's decoder threads (0: FFmpeg picks).
    // Without the CUDA engine decoding stays in software. For benchmarks (bench/playback).
    void setDecoding(HwDecode hwdec, int decoderThreads = 0);

    Player& player() { return *player_; }
    // A against B (a second source or a snapshot): ui/compare/Compare.h.
    CompareController& compare() { return *compare_; }
    EngineHost& engineHost() { return engine_; }
    PictureView* viewer() { return viewer_; }
    ScopeView* scopeView(gl::Plane plane) { return views_[size_t(plane)]; }
    QDockWidget* dock(gl::Plane plane) { return docks_[size_t(plane)]; }
    // The message strip's text ("" when hidden).
    QString messageText() const;
    // The status bar's picker readout.
    QString pickerText() const;
    // The Pinned Pixels dock (MainWindowPins.cpp): each pin's number and position, then its
    // Y'CbCr and R'G'B' (16-235) rows, the codes as the scopes show them; three lines a pin.
    // It shows when a second pin is added.
    QDockWidget* pinsDock() { return pinsDock_; }
    QString pinsText() const;

    // Layout presets (MainWindowLayouts.cpp, View > Layouts): the built-in "Default" (Reset
    // Layout's), "Scopes only" (no picture: the panels fill the window, for a second screen)
    // and "Picture only" (the picture and transport, no panels), then the saved ones in the
    // order saved; Ctrl+1..Ctrl+9 switch to the first nine. A saved layout holds the docks
    // (saveState), whether the picture shows and the scopes' settings (settings::LayoutPreset);
    // switching leaves the colour override, decoding and playback as they are. The errors name
    // the layout and say why (also shown in the window).
    QStringList layoutNames() const;
    Status applyLayout(const QString& name);
    Status saveLayoutAs(const QString& name);
    Status renameLayout(const QString& from, const QString& to);
    Status deleteLayout(const QString& name);
    bool pictureShown() const;
    // MainWindowRegion.cpp. The scopes of a region of the picture (or of one line: height 1,
    // the whole width), snapped to the frame's chroma grid (core/FrameRegion.h), outlined on
    // the picture and read out in the status bar; an error naming it when it lies outside the
    // frame or there is no frame (also shown in the window by the menu and the mouse).
    // clearRegion: the whole frame again (Esc, View > Region > Clear Region).
    Status setRegion(const FrameRegion& region);
    void clearRegion();
    const std::optional<FrameRegion>& region() const { return engine_.region; }
    // MainWindowFields.cpp. One field of each frame in place of the frame (View > Fields; the
    // picture at its frame's shape, every scope the field's; core/FieldView.h), or the whole
    // frame (nothing). The pins follow their pixels into the field's rows and back; a region
    // is cleared. Not while comparing (B shows whole frames).
    void setShownField(std::optional<Field> field);
    std::optional<Field> shownField() const { return engine_.field; }
    // Playback > Step Field Forward / Back: the stream's fields one at a time in the order
    // it shows them (its field order; top first when it states none), into the next or the
    // previous frame past its last or first field. From the whole frame, its first or last field.
    void stepField(int direction);
    // Frames the engine has been run on (a still source playing adds none).
    int64_t framesProcessed() const { return framesProcessed_; }

    // Go to timecode without the dialog: seeks to the frame labelled `text` (as the transport
    // shows it: the source timecode, or the elapsed time), or says why not, naming the input.
    Status goToTimecode(const QString& text);
    // The current frame's timecode as the transport shows it (not known(): no frame).
    FrameTimecode shownTimecode() const;
    // The Timeline dock (ui/timeline/): graphs of the whole file, filled in the background.
    timeline::TimelinePanel* timeline() { return timeline_; }
    // A live source's flight recorder (null for files and patterns), MainWindowFlight.cpp.
    const FlightRecorder* flightRecorder() const { return flight_.get(); }
    // Where live sources' thumbnails spill (default: the cache folder's flight/); tests.
    static void setFlightFolder(const QString& folder);
    QDockWidget* timelineDock() { return timelineDock_; }

    // Scope zoom (MainWindowScopeZoom.cpp): the codes the waveform or the parade shows
    // (core/ScopeSpec.h's LevelRange; the wheel over the panel zooms around the level under
    // the cursor, a vertical drag pans, a double-click or the panel's "1:1" button shows the
    // whole scale), and the vectorscope's zoom (1 to 16; the wheel doubles or halves it). The
    // panel's controls name the range ("zoom 64-235"): levelZoomLabel ("" when not zoomed).
    void setLevelRange(gl::Plane plane, LevelRange range);
    LevelRange levelRange(gl::Plane plane) const;
    void setVectorscopeZoom(int zoom);
    QString levelZoomLabel(gl::Plane plane) const;

    // Writes the current frame's scopes (see ScopeExport.h) without a dialog.
    Result<QStringList> saveScopesTo(const QString& folder, int width, int height);
    // The scope panels as shown, in one image (docked panels as laid out, floating ones beside).
    QImage scopesComposite();
    void showAllPanels();
    // The first launch's layout: its window size (within the screen), panels and their sizes.
    void resetLayout();
    // MainWindowLayout.cpp. Full screen: the whole window (F11), or the picture alone
    // (double-click on it; no panels, bars or menus); Esc leaves the picture, then the
    // window's full screen, then clears a region, else runs the escape hook (the wall's full
    // view: back to the wall).
    void setFullScreenWindow(bool on);
    void setFullScreenPicture(bool on);
    bool isFullScreenPicture() const { return pictureOnly_.has_value(); }
    void escape();
    void setEscapeHook(std::function<void()> hook) { escapeHook_ = std::move(hook); }
    // The window's size on its first launch: 1600 x 1000, less where the screen is smaller.
    QSize defaultSize() const;
    // Brings the window onto its screen's available area, no larger than it.
    void fitToScreen();
    // Floating panels that are meant to show: shown, moved onto the screen they are nearest
    // to (inside its available area) and raised above the main window. Runs after the first
    // show (a restored layout's floating panels would otherwise open behind the window, or
    // off a screen that is gone).
    void bringFloatingPanelsForward();

    // Recording what the window shows (ui/record/WindowRecorder.h; the Record button and Ctrl+R ask
    // with ui/record/RecordDialog.h). Starting refuses a second recording or a window without a
    // source; stopping closes the file (also on closing the window and at the source's end).
    // The errors are also shown in the window; stopping returns the recording's counts.
    Status startRecording(const RecordRequest& request);
    Result<EncoderStats> stopRecording();
    const WindowRecorder* recorder() const { return recorder_.get(); }

protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildViewer();
    void buildDocks();
    void buildMenusAndToolbar();
    // The scope panels (every dock but the picture), in the order the docks are made.
    static std::span<const gl::Plane> panels();
    QWidget* controlsFor(gl::Plane plane);
    // MainWindowLayout.cpp: the docks where the first launch puts them, and their sizes.
    void arrangeDocks();
    void applyDefaultDockSizes();
    void buildFullScreen();   // the actions in the View menu, every menu shortcut kept without the menu bar
    void loadSettings();
    void saveSettings();
    settings::Choices currentChoices() const;
    // MainWindowLayouts.cpp: the Layouts menu and its actions (rebuilt when the saved ones change).
    void buildLayouts(QMenu* view);
    void rebuildLayoutsMenu();
    void applyScopeChoices(const settings::Choices& preset);
    void rebuildScopeControls();   // every panel's controls made again from the spec
    void setPictureShown(bool on);
    // MainWindowPins.cpp: the Pinned Pixels dock and View > Clear Pins (in `view`).
    void buildPins(QMenu* view);
    void updatePins();
    // MainWindowGuides.cpp: the shown frame's active picture to the viewer (View > Guides).
    void showActivePicture();
    // The picked pixel and the pins marked on the waveform, parade and vectorscope (those the
    // scopes measure: inside the region, when there is one).
    void updateScopeMarkers();
    std::optional<PixelReading> readAt(PixelPos at) const;

    void onOpened();
    void onOpenFailed(const QString& input, const QString& message);
    void onFrameChanged();
    void processCurrentFrame();
    // The current frame is the very picture the engine last processed (a still source, such
    // as a pattern, hands out one shared frame): nothing to compute again.
    bool currentFrameProcessed() const;
    void scheduleReprocess();
    void syncPanel(gl::Plane plane);
    QComboBox* traceColourCombo(QWidget* parent);   // ui/main/ScopeControls.cpp
    QComboBox* referenceCombo(QWidget* parent);
    void addLevelZoomControls(QWidget* box, FlowLayout* row, gl::Plane plane);   // MainWindowScopeZoom.cpp
    void connectScopeZoom(ScopeView* view);
    void updateLevelZoomControls();
    void syncParadeMode();
    void refreshOverlays();
    void updatePicker();
    void showError(const QString& text);
    void showWarning(const QString& text);

    void openFileDialog();
    void openSourceDialog(int page);
    void saveScopesDialog();
    // MainWindowTimecode.cpp: Go to Timecode (in `playback`), Show Elapsed Time (in `view`).
    void buildTimecodeActions(QMenu* playback, QMenu* view);
    void buildTimeline(QMenu* view);   // the Timeline dock, its toggle in `view`
    void buildRegion(QMenu* view);     // MainWindowRegion.cpp: View > Region, the picture's Ctrl+drag and Alt+click
    void buildGuides(QMenu* view);     // MainWindowGuides.cpp: View > Guides (safe areas, aspect guides, centre cross)
    void buildFields(QMenu* view, QMenu* playback);   // MainWindowFields.cpp: View > Fields, Playback > Step Field
    // The current frame as the window shows and measures it: its field (setShownField) or itself.
    std::optional<FrameView> shownFrame() const;
    void takePendingField();      // stepField's field for the frame that just came
    void fieldsFollowCompare();   // View > Fields off, the whole frame, while B is shown
    void openTimeline(const QString& input, bool isFile);
    void followTimeline();             // the playhead at the frame shown
    void startFlight();                // MainWindowFlight.cpp: a live source's recorder
    void recordFlight();               // the frame just processed into it
    void goToTimecodeDialog();
    Result<double> timecodeTarget(const std::string& text) const;
    // MainWindowRecord.cpp: the Record action (in `menu`), the status bar's indicator, the
    // source's end; one frame recorded after each frame shown.
    QAction* buildRecording(QMenu* menu);
    void toggleRecording();
    void recordShownFrame();
    void refreshRecordIndicator();
    void rebuildRecentMenu();
    void shuttle(int direction);
    void setPreviewFilter(PreviewFilter f);
    void setPreviewInViewer(bool on);
    void applyPreviewSpec();
    void syncPreviewControls();   // ui/main/ScopeControls.cpp

    EngineHost engine_;
    Player* player_;
    CompareController* compare_ = nullptr;
    PictureView* viewer_ = nullptr;
    TransportBar* transport_;
    MessageBar* messages_;
    StatusBar* status_;
    std::array<ScopeView*, gl::kPlaneCount> views_{};
    std::array<QDockWidget*, gl::kPlaneCount> docks_{};
    QByteArray defaultState_;
    static constexpr int kStateVersion = 1;
    QMenu* viewMenu_ = nullptr;
    QAction *fullScreenAction_ = nullptr, *fullPictureAction_ = nullptr;
    // What the picture-only full screen hid, to restore on leaving it.
    struct PictureOnly {
        QByteArray state;
        bool wasFullScreen = false, wasMaximized = false;
        bool pictureWasHidden = false;   // View > Layouts > Scopes only
        std::vector<QWidget*> hidden;
    };
    std::optional<PictureOnly> pictureOnly_;
    std::function<void()> escapeHook_;
    bool wasMaximized_ = false;   // before the window went full screen

    QMenu* recentMenu_ = nullptr;
    QComboBox *matrixCombo_ = nullptr, *rangeCombo_ = nullptr;
    QComboBox* transferCombo_ = nullptr;   // transfer override (ui/main/TransferOverride.h)
    QLabel* falseColourLegend_ = nullptr;  // the preview's false colour bands, for the frame's transfer
    int legendTransfer_ = -1;              // the transfer falseColourLegend_ shows
    QAction* gamutCheckAction_ = nullptr;   // View > Gamut Check (EngineHost::gamutCheck)
    QAction* previewInViewerAction_ = nullptr;
    QAction* toneMapAction_ = nullptr;      // View > Tone Map HDR to SDR (EngineHost::toneMapHdr)
    QAction* showElapsedAction_ = nullptr;  // View > Show Elapsed Time (TransportBar::setShowElapsed)
    QMenu* fieldsMenu_ = nullptr;           // View > Fields (disabled while comparing)
    std::array<QAction*, 3> fieldActions_{};   // whole frame, top field, bottom field
    std::optional<Field> pendingField_;        // stepField: the field the next frame shows
    timeline::TimelinePanel* timeline_ = nullptr;
    QDockWidget* timelineDock_ = nullptr;
    QString timelineInput_;                 // the source the timeline is (or is to be) filled for
    bool timelineIsFile_ = false;
    bool timelinePending_ = false;          // opened while the dock was hidden: filled when it shows
    // A live source's flight recorder (written here on the GUI thread, read by the timeline).
    std::shared_ptr<FlightRecorder> flight_;
    std::unique_ptr<Thumbnailer> flightThumbs_;
    std::unique_ptr<AlarmTracker> flightAlarms_;
    std::chrono::steady_clock::time_point flightStart_;

    PreviewFilter previewFilter_ = PreviewFilter::FocusPeaking;
    bool previewInViewer_ = false;
    HwDecode hwdec_ = HwDecode::Auto;
    int decoderThreads_ = 0;
    bool playOnOpen_ = true;
    bool engineErrorShown_ = false;
    bool shownOnce_ = false;
    bool restoredLayout_ = false;   // a saved layout was restored (not the first launch's)
    std::optional<PixelPos> hover_;
    std::weak_ptr<AVFrame> processedFrame_;
    int64_t framesProcessed_ = 0;   // the frame of the last engine run (identity only)
    std::array<QString, gl::kPlaneCount> overlayKeys_;

    QTimer reprocessTimer_, statusTimer_;

    AudioDock* audio_ = nullptr;   // the audio meters' dock (ui/audio/AudioDock.h)
    std::unique_ptr<WindowRecorder> recorder_;
    int64_t recordSourceDropped_ = 0;   // the player's dropped frames when the recording started
    QAction* recordAction_ = nullptr;
    QMenu* layoutsMenu_ = nullptr;
    std::vector<QAction*> layoutActions_;   // the menu's layouts and its Save/Rename/Delete, remade together
    QDockWidget* pinsDock_ = nullptr;
    QLabel* pinsLabel_ = nullptr;
    QLabel* recordIndicator_ = nullptr;
};

}  // namespace cs
