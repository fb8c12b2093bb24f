// The window's recording (the Record button): what the window shows, frame by frame, to a
// video file through encode/VideoEncoder (NVENC where the GPU has it, else libx264/libx265,
// the reason kept). Two layouts:
//   Panels: the window's visible panels as "Save scopes..." composes them
//     (MainWindow::scopesComposite: the picture where the viewer sits, each docked panel as
//     laid out, floating ones beside), fitted into a fixed size (default 1920x1080) every
//     frame, so resizing the window or a panel mid-recording changes nothing in the file's size;
//   Picture: the frame alone, drawn by scope/MonitorLayout as `cudascope record --layout
//     picture` draws it (the engine's picture with the colour override of the window), at
//     the source's size rounded up to even.
// Files and patterns (`sourceRate`): the window shows every frame while it records
// (Player::setEveryFrame: none dropped as late, the clock waits instead), each is recorded and
// stamped at the source's rate (frame n at n / rate: constant frame rate, whatever the
// machine's load), and the window waits for the encoder rather than drop. Live sources:
// timestamps are the wall clock from the start (what the window showed, when it showed it),
// in milliseconds, and the encoder drops frames when it falls behind (counted), never the window.
//
// Threading: GUI thread only; the encoder has its own thread behind a bounded queue.
#pragma once
#include <QElapsedTimer>
#include <QImage>
#include <QString>

#include <memory>

#include "core/Engine.h"
#include "core/Frame.h"
#include "core/ScopeResults.h"
#include "core/Status.h"
#include "encode/VideoEncoder.h"

namespace cs {

enum class RecordLayout { Panels, Picture };

struct RecordRequest {
    QString path;                          // .mp4 (fragmented) or .mkv
    RecordLayout layout = RecordLayout::Panels;
    int width = 1920, height = 1080;       // Panels: the recording's size (even); Picture: unused
    VideoCodec codec = VideoCodec::H264;
    int quality = 20;                      // CRF / CQ, 0..51
};

class WindowRecorder {
public:
    // Opens the file and the encoder. Picture layout: sourceWidth x sourceHeight rounded up to
    // even. frameRate sets the keyframe interval (a keyframe and an MP4 fragment a second).
    // `converter` (the GPU's, with the CUDA engine) converts for the encoder; null: the CPU.
    static Result<std::unique_ptr<WindowRecorder>> start(const RecordRequest& request, int sourceWidth, int sourceHeight,
                                                         double frameRate, std::shared_ptr<Yuv420Converter> converter = {},
                                                         bool sourceRate = false);
    ~WindowRecorder();

    // One frame as the window shows it. Panels: `panels` (may be empty: the viewer alone is
    // then `picture`); Picture: `engine` draws `frame` with `shown`'s colour override.
    // An error once the encoder failed (the recording is over: stop() it).
    Status addPanels(const QImage& panels);
    Status addPicture(Engine& engine, const FrameView& frame, const ScopeSpec& shown);
    // Encodes what is queued and closes the file (playable); the recording's first error.
    Status stop();

    const RecordRequest& request() const { return request_; }
    int width() const { return width_; }
    int height() const { return height_; }
    double elapsedSeconds() const { return double(clock_.elapsed()) / 1000.0; }
    EncoderStats stats() const { return encoder_->stats(); }
    QString encoderName() const { return QString::fromStdString(encoder_->encoderName()); }
    QString fallbackReason() const { return QString::fromStdString(encoder_->fallbackReason()); }
    QString conversion() const { return QString::fromLatin1(encoder_->conversion()); }
    bool sourceRate() const { return sourceRate_; }
    // The status bar's indicator: "REC 00:01:05  1625 recorded, 2 dropped"; `sourceDropped`: frames
    // the player dropped (late, replaced) while recording, added to the encoder's.
    QString indicatorText(int64_t sourceDropped = 0) const;

private:
    WindowRecorder() = default;
    Status submit();

    RecordRequest request_;
    int width_ = 0, height_ = 0;
    std::unique_ptr<VideoEncoder> encoder_;
    QElapsedTimer clock_;
    RgbaImage canvas_;        // the frame being submitted, reused
    QImage fitted_;           // Panels: the composite fitted into the recording's size
    ScopeResults results_;    // Picture: the engine's picture
    bool stopped_ = false;
    bool sourceRate_ = false;
    double frameRate_ = 30.0;
    int64_t submitted_ = 0;   // pictures handed to the encoder (sourceRate: the next one's place)
};

// A file name for a new recording in `folder`: cudascope-<source stem>-<yyyyMMdd-hhmmss>.<ext>.
QString defaultRecordingPath(const QString& folder, const QString& source, const QString& extension);

}  // namespace cs
