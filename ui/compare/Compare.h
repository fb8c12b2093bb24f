// Compare: picture A (the window's source) against picture B, a second source or a frozen
// reference frame (a snapshot), in the viewer (wipe, split, side by side:
// render/CompareLayout.h) and in the scope panels (A's scopes, B's, or B's traces in a
// second colour over A's), with the picker reading both.
//
// B has its own Player (files, patterns, cameras, streams) and its own EngineHost (the same
// engine kind as A's: a second CPU engine with its preparer thread, or a second CUDA engine
// with its own stream and interop registrations; made when B is first opened), writing into the viewer's second set of
// frame textures (PictureView::texturesB, in the viewer's context like A's). B's engine runs
// when B shows a new frame, or when A's settings or panels changed; a snapshot is processed
// once and then costs nothing. With "scopes of A" B's engine computes no scopes (only B's
// picture goes up).
//
// Position: a file or pattern B follows A's timestamp: each frame A shows moves B to the
// frame at the same pts (steps forward from B's read-ahead queue, steps back, or a seek for
// jumps); a B shorter than A holds its last frame. A live B plays live.
//
// Threading: GUI thread only, like MainWindow; B's reader and preparer threads are those of
// its Player (ui/README.md).
#pragma once
#include <QObject>
#include <QString>

#include <array>
#include <functional>
#include <memory>
#include <optional>

#include "playback/EngineHost.h"
#include "render/CompareLayout.h"
#include "render/FrameTextures.h"
#include "render/Layout.h"

class QAction;
class QActionGroup;
class QMenuBar;

namespace cs {

class MainWindow;
class Player;
class Frame;
struct VideoFrame;

// B's engine settings from A's: B's picture shows in the viewer and its scopes only in the
// histogram, waveform, parade and vectorscope panels (which of them EngineHost::setPanel says);
// the CIE panel, the gamut check, the preview panel and the status bar's light levels show A
// only. So B counts no chromaticities and no HDR light levels and draws no preview, and A's
// settings for those (the CIE panel's mode, size and target, the preview's filter) are left
// out, so that changing them does not run B's engine again.
ScopeSpec compareSpecB(const ScopeSpec& a);

class CompareController : public QObject {
    Q_OBJECT
public:
    // `engine`: "cpu" or "cuda", the kind of A's engine. `report`: shows an error message.
    CompareController(MainWindow& window, const std::string& engine, std::function<void(const QString&)> report);
    ~CompareController() override;

    // A file, pattern, camera or stream as B (opens in the background; a failure is reported).
    void openB(const QString& input);
    // A's current frame, copied, as B (a still reference).
    void snapshot();
    void closeB();
    bool hasB() const;
    bool bIsSnapshot() const { return snapshot_ != nullptr; }
    // B's frame on screen (null before B has one).
    const FrameView* frameB() const;

    void setMode(CompareMode mode);
    CompareMode mode() const { return mode_; }
    void setScopes(CompareScopes scopes);
    CompareScopes scopes() const { return scopes_; }
    void setWipe(double wipe);

    // Hooks from MainWindow: A showed a new frame; A's engine ran (its settings or panels may
    // have changed); the viewer's context is about to delete the frame textures.
    void aFrameChanged();
    void aProcessed();
    void releaseGl();
    // The picker's text for B at A's pixel `a` ("" when not comparing).
    QString pickerText(PixelPos a) const;

    // The Compare menu, put before the menu bar's last menu (Help).
    void addMenu(QMenuBar* bar);
    // Shortcuts and what they do, as rows of the help table.
    static QString shortcutRows();

    Player* playerB() { return playerB_; }
    // B's engine (made on first use).
    EngineHost& engineB();
    // B engine runs so far (a still B adds none while nothing changes).
    int64_t framesProcessedB() const { return processedB_; }
    // B's trace colour in the scopes (bytes R, G, B).
    static constexpr unsigned kTint = 0x00c850ffu;   // magenta-pink: R 255, G 80, B 200

signals:
    void changed();

private:
    void onBOpened();
    void onBFrame();
    void processB();
    void updateScopeViews();
    void refreshTraceBase(gl::Plane plane);
    void syncActions();
    struct Inputs {
        ScopeSpec spec;
        std::array<std::array<int, 2>, gl::kPlaneCount> panels{};
        HistogramChannels channels = HistogramChannels::LumaAndRgb;
        CompareScopes scopes = CompareScopes::A;
        bool toneMap = true;   // A's View > Tone Map HDR to SDR, for B's picture too
        bool operator==(const Inputs&) const = default;
    };
    Inputs currentInputs() const;

    MainWindow& window_;
    std::function<void(const QString&)> report_;
    std::string engineKind_;
    std::unique_ptr<EngineHost> engineB_;
    Player* playerB_ = nullptr;           // a source as B
    std::shared_ptr<Frame> snapshot_;     // or a still frame as B
    FrameView snapshotView_;
    CompareMode mode_ = CompareMode::Off;
    CompareScopes scopes_ = CompareScopes::A;
    double wipe_ = 0.5;
    std::optional<Inputs> processedInputs_;
    std::weak_ptr<void> processedHolder_;   // the B frame last processed (identity)
    const void* processedSnapshot_ = nullptr;
    bool following_ = false;      // B is being moved to A's position (its frames processed once after)
    bool seekPending_ = false;    // B was sent to A's position by a seek that has not landed
    bool errorShown_ = false;
    int64_t processedB_ = 0;
    std::array<std::shared_ptr<const RgbaImage>, gl::kPlaneCount> traceBase_;
    std::array<QString, gl::kPlaneCount> traceBaseKey_;
    std::array<ScopeSpec, gl::kPlaneCount> traceBaseSpec_{};
    QActionGroup* modeGroup_ = nullptr;
    QActionGroup* scopesGroup_ = nullptr;
    std::array<QAction*, 4> modeActions_{};
    std::array<QAction*, 3> scopesActions_{};
};

}  // namespace cs
