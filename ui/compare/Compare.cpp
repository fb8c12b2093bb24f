// Compare: B's source, engine and position; the viewer's and panels' compare state (see Compare.h).
#include "Compare.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "playback/PixelProbe.h"
#include "ui/main/Player.h"
#include "ui/main/ScopeView.h"
#include "ui/Settings.h"
#include "ui/main/SourceDialog.h"
#include "core/Frame.h"
#include "scope/ScopeRender.h"
#include "decode/Source.h"

namespace cs {
namespace {

using gl::Plane;
constexpr Plane kScopePlanes[] = {Plane::Histogram, Plane::Waveform, Plane::Parade, Plane::Vectorscope};
// A position this many of B's frames ahead of B is reached by stepping through B's read-ahead
// queue; further (or backwards beyond a few frames) by a seek.
constexpr int kMaxFollowSteps = 12;
constexpr int kMaxBackSteps = 3;

// A host copy of a frame in host memory.
std::shared_ptr<Frame> copyFrame(const FrameView& v) {
    auto f = std::make_shared<Frame>(v.format, v.width, v.height, v.color);
    f->pts = v.pts;
    const PixelFormatInfo& info = formatInfo(v.format);
    for (int i = 0; i < info.planeCount; ++i) {
        const size_t bytes = planeRowBytes(v.format, v.width, i);
        const int rows = planeRows(v.format, v.height, i);
        for (int y = 0; y < rows; ++y)
            std::memcpy(f->plane(i) + std::ptrdiff_t(y) * f->pitch(i), v.data[size_t(i)] + std::ptrdiff_t(y) * v.pitch[size_t(i)], bytes);
    }
    return f;
}

// The same scope drawn without counts: background and graticule only (B's trace is the
// difference between B's image and this).
void renderWithoutCounts(Plane plane, const ScopeResults& r, HistogramChannels channels, const ScopeSpec& spec, int width,
                         int height, RgbaImage& out) {
    ScopeResults z;
    z.width = r.width;
    z.height = r.height;
    z.bitDepth = r.bitDepth;
    z.levels = r.levels;
    z.color = r.color;
    z.format = r.format;
    z.paradeMode = r.paradeMode;
    auto zeros = [](const std::vector<uint32_t>& v) { return std::vector<uint32_t>(v.size(), 0u); };
    if (channels != HistogramChannels::Rgb) z.histY = zeros(r.histY);
    if (channels != HistogramChannels::Luma) {
        z.histR = zeros(r.histR);
        z.histG = zeros(r.histG);
        z.histB = zeros(r.histB);
    }
    z.waveform = zeros(r.waveform);
    z.parade = zeros(r.parade);
    z.vectorscope = zeros(r.vectorscope);
    ScopeSpec s = spec;
    s.scopeWidth = width;
    s.scopeHeight = height;
    s.vectorscopeSize = std::min(width, height);
    switch (plane) {
        case Plane::Histogram: renderHistogram(z, s, out); break;
        case Plane::Waveform: renderWaveform(z, s, out); break;
        case Plane::Parade: renderParade(z, s, out); break;
        case Plane::Vectorscope: renderVectorscope(z, s, out); break;
        default: out = {}; break;
    }
}

bool wholeImage(const ScopePlacement& p) {
    return p.pieces.size() == 1 && p.pieces[0].dst.x == 0 && p.pieces[0].dst.y == 0 && p.pieces[0].dst.w == p.imageWidth &&
           p.pieces[0].dst.h == p.imageHeight;
}

}  // namespace

CompareController::CompareController(MainWindow& window, const std::string& engine, std::function<void(const QString&)> report)
    : QObject(&window), window_(window), report_(std::move(report)), engineKind_(engine) {
    connect(window_.viewer(), &PictureView::wipeMoved, this, [this](double w) { wipe_ = w; });
}

CompareController::~CompareController() {
    delete playerB_;   // its frames may reference B's engine stream: before engineB_
    playerB_ = nullptr;
}

bool CompareController::hasB() const { return snapshot_ || (playerB_ && playerB_->hasFrame()); }

const FrameView* CompareController::frameB() const {
    if (snapshot_) return &snapshotView_;
    if (playerB_ && playerB_->hasFrame()) return &playerB_->currentFrame().view;
    return nullptr;
}

ScopeSpec compareSpecB(const ScopeSpec& a) {
    ScopeSpec b = a;
    const ScopeSpec defaults;
    b.preview = PreviewFilter::None;   // the viewer shows B's picture; the preview panel shows A
    b.filter = defaults.filter;
    b.cie = false;
    b.cieMode = defaults.cieMode;
    b.cieSize = defaults.cieSize;
    b.cieCounts = defaults.cieCounts;
    b.gamutTarget = defaults.gamutTarget;
    b.hdr = false;
    return b;
}

// ---- B's source ------------------------------------------------------------------------

EngineHost& CompareController::engineB() {
    // Made when first needed: a second CUDA engine holds a stream and device memory.
    if (!engineB_) engineB_ = std::make_unique<EngineHost>(engineKind_);
    return *engineB_;
}

void CompareController::openB(const QString& input) {
    if (input.isEmpty()) return;
    engineB();
    if (!playerB_) {
        playerB_ = new Player;
        if (!engineB_->usesCuda())
            playerB_->setFramePreparer([host = engineB_.get()](const VideoFrame& f) { return host->prepare(f); });
        connect(playerB_, &Player::opened, this, &CompareController::onBOpened);
        connect(playerB_, &Player::openFailed, this, [this](const QString& in, const QString& message) {
            report_(tr("Compare: B: %1").arg(message.isEmpty() ? tr("%1 could not be opened.").arg(in) : message));
        });
        connect(playerB_, &Player::frameChanged, this, &CompareController::onBFrame);
        connect(playerB_, &Player::sourceError, this, [this](const QString& m) { report_(tr("Compare: B: %1").arg(m)); });
    }
    OpenOptions options;
    options.hwdec = engineB_->usesCuda() ? HwDecode::Auto : HwDecode::None;
    options.deviceStream = engineB_->decodeStream();
    playerB_->open(input.toStdString(), options);
}

void CompareController::onBOpened() {
    snapshot_.reset();
    snapshotView_ = {};
    errorShown_ = false;
    playerB_->setLoop(false);
    seekPending_ = false;
    if (playerB_->info().live) playerB_->play();
    else playerB_->pause();
    if (mode_ == CompareMode::Off) setMode(CompareMode::Wipe);
    emit changed();
}

void CompareController::snapshot() {
    Player& a = window_.player();
    if (!a.hasFrame()) {
        report_(tr("Compare: there is no frame to grab as B yet."));
        return;
    }
    engineB();
    const FrameView& v = a.currentFrame().view;
    if (v.onDevice) {
        // An NVDEC frame: copied to the host through A's engine (it lives on the device).
        auto copy = window_.engineHost().copyToHost(v);
        if (!copy) {
            report_(tr("Compare: cannot grab the frame: %1").arg(QString::fromStdString(copy.message())));
            return;
        }
        snapshot_ = std::make_shared<Frame>(std::move(copy.value()));
        snapshot_->pts = v.pts;
    } else {
        snapshot_ = copyFrame(v);
    }
    snapshotView_ = snapshot_->view();
    if (playerB_) playerB_->close();
    processedSnapshot_ = nullptr;
    if (mode_ == CompareMode::Off) setMode(CompareMode::Wipe);
    else processB();
    emit changed();
}

void CompareController::closeB() {
    snapshot_.reset();
    snapshotView_ = {};
    processedSnapshot_ = nullptr;
    if (playerB_) playerB_->close();
    processedHolder_.reset();
    window_.viewer()->makeCurrent();
    for (int p = 0; p < gl::kPlaneCount; ++p) (void)window_.viewer()->texturesB().upload(Plane(p), {});
    window_.viewer()->doneCurrent();
    setMode(CompareMode::Off);
    emit changed();
}

// ---- Modes -----------------------------------------------------------------------------

void CompareController::setMode(CompareMode mode) {
    if (mode != CompareMode::Off && !hasB() && !(playerB_ && (playerB_->isOpening() || playerB_->hasSource()))) {
        report_(tr("Compare: open a B source (Compare > Open B...) or grab a snapshot (Ctrl+Alt+G) first."));
        mode = CompareMode::Off;
    }
    mode_ = mode;
    window_.viewer()->setCompare(mode_, wipe_);
    syncActions();
    aFrameChanged();   // B to A's position
    processB();
    emit changed();
}

void CompareController::setScopes(CompareScopes scopes) {
    scopes_ = scopes;
    syncActions();
    processB();
    emit changed();
}

void CompareController::setWipe(double wipe) {
    wipe_ = std::clamp(wipe, 0.0, 1.0);
    window_.viewer()->setCompare(mode_, wipe_);
}

// ---- Position --------------------------------------------------------------------------

void CompareController::aFrameChanged() {
    // Compare off: B rests (it catches up when a mode is chosen again).
    if (mode_ == CompareMode::Off || !playerB_ || !playerB_->hasSource() || playerB_->info().live || playerB_->isOpening()) return;
    Player& a = window_.player();
    Player& b = *playerB_;
    if (!a.hasFrame() || !b.hasFrame() || seekPending_) return;
    const double t = a.currentPts(), d = b.frameDuration();
    const int n = int(std::lround((t - b.currentPts()) / d));
    if (n == 0) return;
    const bool known = b.info().duration > 0;
    if (n > 0 && (b.atEnd() || (known && b.currentPts() + d > b.info().duration - 0.5 * d))) return;   // B holds its last frame
    following_ = true;
    const std::weak_ptr<void> before = b.currentFrame().holder;
    if (n > 0 && n <= kMaxFollowSteps) {
        for (int i = 0; i < n && !b.atEnd(); ++i) b.stepForward();
    } else if (n < 0 && n >= -kMaxBackSteps) {
        for (int i = 0; i < -n; ++i) b.stepBack();
    } else if (b.canSeek()) {
        // Pending until B shows a frame (which may happen within the call, from its queue).
        seekPending_ = true;
        if (known && t >= b.info().duration - d) {
            b.goToEnd();
        } else {
            b.seekTo(std::max(0.0, t - 0.25 * d));   // lands on the frame at t (the first at or after)
            b.pause();
        }
    }
    following_ = false;
    // The steps presented frames while following_ held their processing back: once now.
    if (b.hasFrame() && (before.owner_before(b.currentFrame().holder) || b.currentFrame().holder.owner_before(before)))
        processB();
}

void CompareController::onBFrame() {
    seekPending_ = false;
    if (following_) return;
    processB();
}

// ---- B's engine ------------------------------------------------------------------------

CompareController::Inputs CompareController::currentInputs() const {
    Inputs in;
    in.spec = compareSpecB(window_.engineHost().spec());
    in.channels = window_.engineHost().histogramChannels;
    in.scopes = scopes_;
    in.toneMap = window_.engineHost().toneMapHdr;
    if (scopes_ != CompareScopes::A)
        for (Plane p : kScopePlanes) {
            QDockWidget* d = window_.dock(p);
            ScopeView* v = window_.scopeView(p);
            if (d && v && d->isVisible() && !v->visibleRegion().isEmpty()) in.panels[size_t(p)] = {v->pixelWidth(), v->pixelHeight()};
        }
    return in;
}

void CompareController::aProcessed() {
    if (!hasB() || mode_ == CompareMode::Off) return;
    if (!processedInputs_ || *processedInputs_ != currentInputs()) processB();
}

void CompareController::processB() {
    PictureView* viewer = window_.viewer();
    const FrameView* frame = frameB();
    if (!frame || !engineB_ || mode_ == CompareMode::Off || !viewer->glReady()) {
        updateScopeViews();
        return;
    }
    const Inputs in = currentInputs();
    // The same picture with the same settings: nothing to do (a snapshot costs nothing).
    const bool sameFrame = snapshot_ ? processedSnapshot_ == snapshot_.get()
                                     : !processedHolder_.owner_before(playerB_->currentFrame().holder) &&
                                           !playerB_->currentFrame().holder.owner_before(processedHolder_) &&
                                           !processedHolder_.expired();
    if (sameFrame && processedInputs_ && *processedInputs_ == in) return;
    engineB_->spec() = in.spec;
    engineB_->histogramChannels = in.channels;
    engineB_->toneMapHdr = in.toneMap;
    for (int p = 0; p < gl::kPlaneCount; ++p) engineB_->setPanel(Plane(p), in.panels[size_t(p)][0], in.panels[size_t(p)][1]);
    std::shared_ptr<PreparedScopes> prepared = snapshot_ ? nullptr : playerB_->takePrepared();
    viewer->makeCurrent();
    const Status s = engineB_->process(*frame, &viewer->texturesB(), std::move(prepared));
    viewer->doneCurrent();
    if (!snapshot_ && engineB_->settingsChanged()) playerB_->prepareAgain();
    if (!s) {
        if (!errorShown_) report_(tr("Compare: B: %1").arg(QString::fromStdString(s.message())));
        errorShown_ = true;
        return;
    }
    processedInputs_ = in;
    if (snapshot_) processedSnapshot_ = snapshot_.get();
    else processedHolder_ = playerB_->currentFrame().holder;
    ++processedB_;
    viewer->setCompare(mode_, wipe_);
    updateScopeViews();
}

void CompareController::refreshTraceBase(Plane p) {
    const ScopePlacement placement = engineB_->placement(p, window_.viewer()->texturesB());
    if (!wholeImage(placement)) {   // a trace-only texture (CUDA): no base needed
        traceBase_[size_t(p)].reset();
        traceBaseKey_[size_t(p)].clear();
        return;
    }
    const ScopeResults& r = engineB_->results();
    const ScopeSpec& spec = engineB_->spec();
    const QString key = QStringLiteral("%1x%2 d%3 m%4 r%5 w%6 h%7 p%8 z%9 t%10 s%11 c%12 l%13")
                            .arg(placement.imageWidth).arg(placement.imageHeight).arg(r.bitDepth).arg(int(r.color.matrix))
                            .arg(int(r.color.range)).arg(int(spec.waveformScale)).arg(int(spec.histogramScale))
                            .arg(int(r.paradeMode)).arg(spec.vectorscopeZoom).arg(int(spec.vectorscopeTargets75))
                            .arg(int(spec.skinToneLine)).arg(int(engineB_->histogramChannels)).arg(r.width);
    // The spec compared whole as well (settings the scope panels may add).
    if (traceBase_[size_t(p)] && key == traceBaseKey_[size_t(p)] && traceBaseSpec_[size_t(p)] == spec) return;
    auto base = std::make_shared<RgbaImage>();
    renderWithoutCounts(p, r, engineB_->histogramChannels, spec, placement.imageWidth, placement.imageHeight, *base);
    traceBase_[size_t(p)] = std::move(base);
    traceBaseKey_[size_t(p)] = key;
    traceBaseSpec_[size_t(p)] = spec;
}

void CompareController::updateScopeViews() {
    const bool on = mode_ != CompareMode::Off && frameB() && engineB_ && engineB_->hasResults() && scopes_ != CompareScopes::A;
    for (Plane p : kScopePlanes) {
        ScopeView* v = window_.scopeView(p);
        if (!v) continue;
        if (!on || !engineB_->panelVisible(p)) {
            v->setCompare(CompareScopes::A, nullptr, {}, nullptr, kTint);
            continue;
        }
        if (scopes_ == CompareScopes::Both) refreshTraceBase(p);
        v->setCompare(scopes_, &window_.viewer()->texturesB(), engineB_->placement(p, window_.viewer()->texturesB()),
                      scopes_ == CompareScopes::Both ? traceBase_[size_t(p)] : nullptr, kTint);
    }
}

void CompareController::releaseGl() {
    if (engineB_) engineB_->releaseGl();
    processedInputs_.reset();   // B's textures go with the context: B is processed again in the next one
}

// ---- Picker ------------------------------------------------------------------------------

QString CompareController::pickerText(PixelPos a) const {
    const FrameView* b = frameB();
    if (mode_ == CompareMode::Off || !b || !engineB_ || !window_.player().hasFrame()) return {};
    const FrameView& fa = window_.player().currentFrame().view;
    const PixelPos at = mapPixel(a, fa.width, fa.height, b->width, b->height);
    const ColorInfo color = engineB_->hasResults() ? engineB_->results().color : applyOverride(b->color, engineB_->spec().colorOverride);
    std::optional<PixelReading> p = readPixel(*b, color, at.x, at.y);
    if (!p && b->onDevice) p = engineB_->readDevicePixel(*b, color, at.x, at.y);
    if (!p) return {};
    return QStringLiteral("B ") + QString::fromStdString(describe(*p));
}

// ---- Menu ----------------------------------------------------------------------------------

void CompareController::addMenu(QMenuBar* bar) {
    auto* menu = new QMenu(tr("&Compare"), bar);
    QAction* last = bar->actions().isEmpty() ? nullptr : bar->actions().last();
    bar->insertMenu(last, menu);
    auto shortcut = [](QAction* a, QKeySequence key) {
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    shortcut(menu->addAction(tr("Open B File..."), this,
                             [this] {
                                 const QString f = QFileDialog::getOpenFileName(&window_, tr("Open B: a file to compare with"), settings::openFolder(),
                                                                                tr("Video files (*.mp4 *.mov *.mkv *.mxf *.ts *.m2ts *.avi *.webm *.y4m *.mpg *.m4v);;All files (*)"));
                                 if (!f.isEmpty()) openB(f);
                             }),
             QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    menu->addAction(tr("Compare With Source..."), this, [this] {
        SourceDialog dialog(settings::recent(settings::Recent::Files), settings::recent(settings::Recent::Urls), &window_);
        dialog.setWindowTitle(tr("Compare with (B)"));
        if (dialog.exec() == QDialog::Accepted) openB(dialog.input());
    });
    shortcut(menu->addAction(tr("Grab Snapshot as B"), this, &CompareController::snapshot), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_G));
    menu->addAction(tr("Close B"), this, &CompareController::closeB);
    menu->addSeparator();
    modeGroup_ = new QActionGroup(this);
    modeGroup_->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    const std::array<std::pair<QString, QKeySequence>, 3> modes{{{tr("Wipe"), QKeySequence(Qt::CTRL | Qt::Key_W)},
                                                                  {tr("Split"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_W)},
                                                                  {tr("Side by Side"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W)}}};
    for (int i = 0; i < 3; ++i) {
        const CompareMode m = CompareMode(i + 1);
        QAction* a = shortcut(menu->addAction(modes[size_t(i)].first), modes[size_t(i)].second);
        a->setCheckable(true);
        modeGroup_->addAction(a);
        // A mode's shortcut toggles it: again, and the viewer shows A alone.
        connect(a, &QAction::triggered, this, [this, m] { setMode(mode_ == m ? CompareMode::Off : m); });
        modeActions_[size_t(i) + 1] = a;
    }
    menu->addSeparator();
    QMenu* scopesMenu = menu->addMenu(tr("Scopes Of"));
    scopesGroup_ = new QActionGroup(this);
    const std::array<QString, 3> names{tr("A"), tr("B"), tr("A and B Overlaid (B in magenta)")};
    for (int i = 0; i < 3; ++i) {
        QAction* a = shortcut(scopesMenu->addAction(names[size_t(i)]), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        a->setCheckable(true);
        scopesGroup_->addAction(a);
        connect(a, &QAction::triggered, this, [this, i] { setScopes(CompareScopes(i)); });
        scopesActions_[size_t(i)] = a;
    }
    syncActions();
}

void CompareController::syncActions() {
    for (size_t i = 1; i < modeActions_.size(); ++i)
        if (modeActions_[i]) modeActions_[i]->setChecked(int(mode_) == int(i));
    for (size_t i = 0; i < scopesActions_.size(); ++i)
        if (scopesActions_[i]) scopesActions_[i]->setChecked(int(scopes_) == int(i));
}

QString CompareController::shortcutRows() {
    return tr("<tr><td><b>Ctrl+W</b></td><td>compare: wipe A | B (drag the divider); again: off</td></tr>"
              "<tr><td><b>Ctrl+Alt+W</b></td><td>compare: split (the same part of A and B side by side)</td></tr>"
              "<tr><td><b>Ctrl+Shift+W</b></td><td>compare: A and B side by side, whole</td></tr>"
              "<tr><td><b>Ctrl+Alt+G</b></td><td>grab the current frame as B (snapshot)</td></tr>"
              "<tr><td><b>Ctrl+Alt+O</b></td><td>open a file as B</td></tr>"
              "<tr><td><b>Ctrl+Alt+1, 2, 3</b></td><td>scopes of A, of B, of both (B in magenta)</td></tr>");
}

}  // namespace cs
