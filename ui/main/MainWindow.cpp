// The main window (see MainWindow.h).
#include "MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/audio/AudioDock.h"
#include "ui/compare/Compare.h"
#include "ui/GainControl.h"
#include "ui/MessageBar.h"
#include "PictureView.h"
#include "playback/PixelProbe.h"
#include "ScopeExport.h"
#include "ScopeView.h"
#include "scope/ReferenceLines.h"
#include "ui/Settings.h"
#include "SourceDialog.h"
#include "StatusBar.h"
#include "playback/Timecode.h"
#include "TransportBar.h"
#include "TransferOverride.h"
#include "UserGuide.h"

namespace cs {
namespace {

using gl::Plane;

constexpr Plane kPanels[] = {Plane::Waveform, Plane::Parade,  Plane::Vectorscope, Plane::Histogram,
                             Plane::Preview,  Plane::Cie,     Plane::GamutDisplay};

QString panelTitle(Plane p) {
    switch (p) {
        case Plane::Waveform: return QObject::tr("Waveform");
        case Plane::Parade: return QObject::tr("Parade");
        case Plane::Vectorscope: return QObject::tr("Vectorscope");
        case Plane::Histogram: return QObject::tr("Histogram");
        case Plane::Preview: return QObject::tr("Preview");
        case Plane::Cie: return QObject::tr("CIE Chromaticity");
        case Plane::GamutDisplay: return QObject::tr("Gamut Display");
        default: return {};
    }
}

QString panelKey(Plane p) {
    switch (p) {
        case Plane::Waveform: return QStringLiteral("waveform");
        case Plane::Parade: return QStringLiteral("parade");
        case Plane::Vectorscope: return QStringLiteral("vectorscope");
        case Plane::Histogram: return QStringLiteral("histogram");
        case Plane::Preview: return QStringLiteral("preview");
        case Plane::Cie: return QStringLiteral("cie");
        case Plane::GamutDisplay: return QStringLiteral("gamut");
        default: return QStringLiteral("picture");
    }
}

bool isPattern(const QString& input) { return input.startsWith(QStringLiteral("pattern:")); }

}  // namespace

std::span<const Plane> MainWindow::panels() { return kPanels; }

MainWindow::MainWindow(const std::string& engine, QWidget* parent) : QMainWindow(parent), engine_(engine) {
    setObjectName(QStringLiteral("cudascopeMainWindow"));
    setWindowTitle(QStringLiteral("cudascope"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);

    player_ = new Player(this);
    // CPU engine: the queued frames' scopes are computed ahead, off the GUI thread. The CUDA
    // engine stays on the GUI thread (interop needs the viewer's context).
    if (!engine_.usesCuda()) player_->setFramePreparer([host = &engine_](const VideoFrame& f) { return host->prepare(f); });
    loadSettings();
    buildViewer();
    buildDocks();
    buildMenusAndToolbar();
    syncPreviewControls();
    compare_ = new CompareController(*this, engine_.usesCuda() ? "cuda" : "cpu", [this](const QString& m) { showError(m); });
    compare_->addMenu(menuBar());
    connect(compare_, &CompareController::changed, this, &MainWindow::fieldsFollowCompare);
    status_ = new StatusBar(engine_, *player_, this);
    setStatusBar(status_);
    status_->addPermanentWidget(recordIndicator_);
    status_->refresh();

    connect(player_, &Player::opened, this, &MainWindow::onOpened);
    connect(player_, &Player::openFailed, this, &MainWindow::onOpenFailed);
    connect(player_, &Player::frameChanged, this, &MainWindow::onFrameChanged);
    connect(player_, &Player::playingChanged, transport_, &TransportBar::setPlaying);
    connect(player_, &Player::playingChanged, this, [this] {
        transport_->setReverse(player_->isPlayingReverse() ? player_->reverseSpeed() : 0.0);
    });
    connect(player_, &Player::speedChanged, transport_, &TransportBar::setSpeed);
    connect(player_, &Player::sourceError, this, [this](const QString& m) { showError(m); });
    connect(player_, &Player::warning, this, [this](const QString& m) { showWarning(m); });

    reprocessTimer_.setSingleShot(true);
    reprocessTimer_.setInterval(40);
    connect(&reprocessTimer_, &QTimer::timeout, this, [this] {
        for (Plane p : kPanels) syncPanel(p);
        // Playing, the next frame shows the change, unless the source is still (its frames
        // are not processed again).
        if (!player_->isPlaying() || currentFrameProcessed()) processCurrentFrame();
    });
    statusTimer_.setInterval(250);
    connect(&statusTimer_, &QTimer::timeout, status_, &StatusBar::refresh);
    connect(&statusTimer_, &QTimer::timeout, this, &MainWindow::refreshRecordIndicator);
    connect(player_, &Player::endOfStream, this, [this] { if (recorder_) (void)stopRecording(); });   // it shows its outcome
    statusTimer_.start();

    resize(defaultSize());
    applyDefaultDockSizes();
    defaultState_ = saveState(kStateVersion);
    restoreGeometry(settings::windowGeometry());
    restoredLayout_ = restoreState(settings::windowState(), kStateVersion);
    if (restoredLayout_ && !settings::windowPictureShown()) setPictureShown(false);   // left as Scopes only
    fitToScreen();   // a geometry saved on a larger screen (or wider than this one) is brought onto it
    buildFullScreen();
    if (!engine_.note().empty()) showWarning(QString::fromStdString(engine_.note()));
}

MainWindow::~MainWindow() {
    if (recorder_) (void)recorder_->stop();   // the window is going: nowhere left to show an error
    // The player's frames may reference the engine's stream: stop it first (and B's, whose
    // engine lets go of its CUDA registrations of the viewer's textures in that context).
    if (viewer_->glReady()) {
        viewer_->makeCurrent();
        compare_->releaseGl();
        viewer_->doneCurrent();
    }
    delete compare_;
    compare_ = nullptr;
    delete player_;
    player_ = nullptr;
    reprocessTimer_.stop();
    statusTimer_.stop();
    // QWidget's destructor hides the docks and deletes the views after this object's members
    // are gone: nothing may call back into them. The frame textures go now, while the engine
    // that may hold them (CUDA registrations) still exists.
    for (QDockWidget* d : docks_)
        if (d) d->disconnect(this);
    for (ScopeView* v : views_)
        if (v) v->disconnect(this);
    viewer_->disconnect(this);
    viewer_->releaseGlResources();
    viewer_->setBeforeRelease({});
}

// ---- Construction ------------------------------------------------------------------

void MainWindow::buildViewer() {
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    messages_ = new MessageBar(central);
    viewer_ = new PictureView(central);
    transport_ = new TransportBar(central);
    transport_->setObjectName(QStringLiteral("transport"));
    transport_->setAttribute(Qt::WA_StyledBackground);
    column->addWidget(messages_);
    column->addWidget(viewer_, 1);
    column->addWidget(transport_);
    setCentralWidget(central);

    transport_->setLoop(player_->loops());
    transport_->setSpeed(player_->speed());
    connect(transport_, &TransportBar::playToggled, player_, &Player::togglePlay);
    connect(transport_, &TransportBar::stepForwardClicked, player_, &Player::stepForward);
    connect(transport_, &TransportBar::stepBackClicked, player_, &Player::stepBack);
    connect(transport_, &TransportBar::startClicked, player_, &Player::goToStart);
    connect(transport_, &TransportBar::endClicked, player_, &Player::goToEnd);
    connect(transport_, &TransportBar::loopToggled, player_, &Player::setLoop);
    connect(transport_, &TransportBar::speedChosen, player_, &Player::setSpeed);
    connect(transport_, &TransportBar::seekRequested, player_, &Player::seekTo);

    connect(viewer_, &GlView::glFailed, this, [this](const QString& m) { showError(tr("OpenGL: %1").arg(m)); });
    viewer_->setBeforeRelease([this] {
        engine_.releaseGl();
        if (compare_) compare_->releaseGl();
    });
    // A new viewer context (first show, or re-created): put the last results in again.
    connect(viewer_, &GlView::glInitialised, this, [this] {
        if (engine_.usesCuda() || engine_.showsPlanes()) {
            QTimer::singleShot(0, this, &MainWindow::processCurrentFrame);
        } else if (engine_.hasResults()) {
            if (Status s = engine_.uploadTo(viewer_->textures()); !s) showError(QString::fromStdString(s.message()));
            for (ScopeView* v : views_) if (v) v->update();
        }
    });
    connect(viewer_, &PictureView::hovered, this, [this](std::optional<PixelPos> p) {
        hover_ = p;
        updatePicker();
    });
    connect(viewer_, &PictureView::pinnedChanged, this, &MainWindow::updatePicker);
    connect(viewer_, &PictureView::pinnedChanged, this, &MainWindow::updatePins);
}

void MainWindow::buildDocks() {
    for (Plane p : kPanels) {
        auto* dock = new QDockWidget(panelTitle(p), this);
        dock->setObjectName(panelKey(p) + QStringLiteral("Dock"));
        dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
        auto* view = new ScopeView(p, &viewer_->textures());
        view->setObjectName(panelKey(p) + QStringLiteral("View"));
        auto* panel = new QWidget;
        auto* column = new QVBoxLayout(panel);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(0);
        column->addWidget(controlsFor(p));
        column->addWidget(view, 1);
        dock->setWidget(panel);
        views_[size_t(p)] = view;
        docks_[size_t(p)] = dock;
        connect(view, &ScopeView::pixelSizeChanged, this, [this] { scheduleReprocess(); });
        connect(dock, &QDockWidget::visibilityChanged, this, [this] { scheduleReprocess(); });
        // A floated or re-docked panel gets a new GL context: draw it once it exists.
        connect(view, &GlView::glInitialised, this, [this, p] {
            overlayKeys_[size_t(p)].clear();
            scheduleReprocess();
        });
        connect(view, &GlView::glFailed, this, [this](const QString& m) { showError(tr("OpenGL: %1").arg(m)); });
        connectScopeZoom(view);
    }
    // The audio meters (ui/audio/AudioDock.h), beside the parade.
    audio_ = new AudioDock(this, player_);
    arrangeDocks();
    connect(audio_, &AudioDock::warning, this, [this](const QString& m) { showWarning(m); });
    connect(transport_, &TransportBar::scrubbingChanged, audio_, &AudioDock::setScrubbing);
}

void MainWindow::buildMenusAndToolbar() {
    // File.
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFile = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open File..."), this,
                                        &MainWindow::openFileDialog);
    openFile->setShortcut(QKeySequence::Open);
    QAction* openSource = file->addAction(tr("Open &Source..."), this, [this] { openSourceDialog(int(SourceDialog::Page::File)); });
    openSource->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QMenu* patterns = file->addMenu(tr("Test &Patterns"));
    for (const auto& [title, input] : {std::pair{tr("Colour bars"), QStringLiteral("pattern:bars")},
                                       {tr("Colour bars, 10-bit"), QStringLiteral("pattern:bars:10bit")},
                                       {tr("Luma ramp"), QStringLiteral("pattern:ramp")},
                                       {tr("Luma ramp, 10-bit"), QStringLiteral("pattern:ramp:10bit")},
                                       {tr("Zone plate"), QStringLiteral("pattern:zoneplate")},
                                       {tr("Colour bars, UHD 10-bit"), QStringLiteral("pattern:bars:10bit:3840x2160")}})
        patterns->addAction(title, this, [this, in = input] { openInput(in); });
    patterns->addSeparator();
    patterns->addAction(tr("Other..."), this, [this] { openSourceDialog(int(SourceDialog::Page::Pattern)); });
    file->addAction(tr("&Camera..."), this, [this] { openSourceDialog(int(SourceDialog::Page::Camera)); });
    file->addAction(tr("&Network Stream..."), this, [this] { openSourceDialog(int(SourceDialog::Page::Network)); });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* save = file->addAction(tr("Save Scopes..."), this, &MainWindow::saveScopesDialog);
    save->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QAction* record = buildRecording(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Playback: the shortcuts live on these actions, so they work wherever focus is.
    QMenu* playback = menuBar()->addMenu(tr("&Playback"));
    auto add = [&](const QString& text, QKeySequence key, auto slot) {
        QAction* a = playback->addAction(text, this, slot);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WindowShortcut);
        return a;
    };
    add(tr("Play / Pause"), QKeySequence(Qt::Key_Space), [this] { player_->togglePlay(); });
    add(tr("Play / Faster"), QKeySequence(Qt::Key_L), [this] { shuttle(+1); });
    add(tr("Pause"), QKeySequence(Qt::Key_K), [this] { player_->pause(); });
    add(tr("Play Reverse / Faster"), QKeySequence(Qt::Key_J), [this] { shuttle(-1); });
    playback->addSeparator();
    add(tr("Step Forward"), QKeySequence(Qt::Key_Right), [this] { player_->stepForward(); });
    add(tr("Step Back"), QKeySequence(Qt::Key_Left), [this] { player_->stepBack(); });
    add(tr("Go to Start"), QKeySequence(Qt::Key_Home), [this] { player_->goToStart(); });
    add(tr("Go to End"), QKeySequence(Qt::Key_End), [this] { player_->goToEnd(); });
    playback->addSeparator();
    QAction* loop = playback->addAction(tr("Loop"));
    loop->setCheckable(true);
    loop->setChecked(player_->loops());
    connect(loop, &QAction::toggled, player_, &Player::setLoop);
    connect(loop, &QAction::toggled, transport_, &TransportBar::setLoop);
    connect(transport_, &TransportBar::loopToggled, loop, &QAction::setChecked);
    QMenu* speed = playback->addMenu(tr("Speed"));
    auto* speeds = new QActionGroup(this);
    for (double s : {0.25, 0.5, 1.0, 1.5, 2.0, 4.0}) {
        QAction* a = speed->addAction(QString::number(s) + QStringLiteral("x"), this, [this, s] { player_->setSpeed(s); });
        a->setCheckable(true);
        a->setChecked(s == player_->speed());
        speeds->addAction(a);
        connect(player_, &Player::speedChanged, a, [a, s](double now) { a->setChecked(now == s); });
    }
    QAction* playOnOpen = playback->addAction(tr("Play When Opened"));
    playOnOpen->setCheckable(true);
    playOnOpen->setChecked(playOnOpen_);
    connect(playOnOpen, &QAction::toggled, this, [this](bool on) { playOnOpen_ = on; });
    if (engine_.usesCuda()) {
        QAction* nvdec = playback->addAction(tr("Decode on the GPU (NVDEC)"));
        nvdec->setCheckable(true);
        nvdec->setChecked(hwdec_ != HwDecode::None);
        nvdec->setToolTip(tr("Takes effect for the next source opened"));
        connect(nvdec, &QAction::toggled, this, [this](bool on) { hwdec_ = on ? HwDecode::Auto : HwDecode::None; });
    }

    // View.
    QMenu* view = menuBar()->addMenu(tr("&View"));
    viewMenu_ = view;
    for (Plane p : kPanels) view->addAction(docks_[size_t(p)]->toggleViewAction());
    view->addAction(audio_->dock()->toggleViewAction());
    view->addSeparator();
    view->addAction(tr("Show All Panels"), this, &MainWindow::showAllPanels);
    view->addAction(tr("Reset Layout"), this, &MainWindow::resetLayout);
    buildLayouts(view);
    view->addSeparator();
    gamutCheckAction_ = view->addAction(tr("Gamut Check"));
    gamutCheckAction_->setObjectName(QStringLiteral("gamutCheck"));
    gamutCheckAction_->setCheckable(true);
    gamutCheckAction_->setChecked(engine_.gamutCheck);
    gamutCheckAction_->setToolTip(tr("Paints the pixels outside the CIE panel's target gamut magenta over the picture in the "
                                     "viewer (and the preview panel) and shows their share in the status bar; off restores the view"));
    connect(gamutCheckAction_, &QAction::toggled, this, [this](bool on) {
        engine_.gamutCheck = on;
        syncPreviewControls();
        applyPreviewSpec();
        scheduleReprocess();
    });
    toneMapAction_ = makeToneMapAction(view, engine_.toneMapHdr, [this](bool on) { engine_.toneMapHdr = on; scheduleReprocess(); });
    previewInViewerAction_ = view->addAction(tr("Preview in Viewer"));
    previewInViewerAction_->setCheckable(true);
    previewInViewerAction_->setChecked(previewInViewer_);
    previewInViewerAction_->setShortcut(QKeySequence(Qt::Key_P));
    connect(previewInViewerAction_, &QAction::toggled, this, &MainWindow::setPreviewInViewer);
    QAction* fit = view->addAction(tr("Zoom to Fit"), viewer_, &PictureView::zoomToFit);
    fit->setShortcut(QKeySequence(Qt::Key_F));
    QAction* actual = view->addAction(tr("Zoom 100%"), this, [this] { viewer_->zoomTo(1.0); });
    actual->setShortcut(QKeySequence(Qt::Key_1));
    QAction* twice = view->addAction(tr("Zoom 200%"), this, [this] { viewer_->zoomTo(2.0); });
    twice->setShortcut(QKeySequence(Qt::Key_2));
    buildPins(view);
    buildRegion(view);
    buildGuides(view);
    buildFields(view, playback);
    playback->addSeparator();
    buildTimecodeActions(playback, view);
    buildTimeline(view);

    // Colour override, in a menu and on the toolbar.
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolbar"));
    bar->setMovable(false);
    bar->addAction(openFile);
    auto* patternButton = new QPushButton(tr("Patterns"), bar);
    patternButton->setMenu(patterns);
    patternButton->setFocusPolicy(Qt::NoFocus);
    bar->addWidget(patternButton);
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" Matrix "), bar));
    matrixCombo_ = new QComboBox(bar);
    matrixCombo_->setFocusPolicy(Qt::NoFocus);
    matrixCombo_->setToolTip(tr("Y'CbCr matrix: the stream's tag (Auto) or forced"));
    matrixCombo_->addItem(tr("Auto"), -1);
    matrixCombo_->addItem(QStringLiteral("BT.601"), int(Matrix::Bt601));
    matrixCombo_->addItem(QStringLiteral("BT.709"), int(Matrix::Bt709));
    matrixCombo_->addItem(QStringLiteral("BT.2020"), int(Matrix::Bt2020Ncl));
    bar->addWidget(matrixCombo_);
    bar->addWidget(new QLabel(tr("  Range "), bar));
    rangeCombo_ = new QComboBox(bar);
    rangeCombo_->setFocusPolicy(Qt::NoFocus);
    rangeCombo_->setToolTip(tr("Quantisation range: the stream's tag (Auto) or forced"));
    rangeCombo_->addItem(tr("Auto"), -1);
    rangeCombo_->addItem(tr("Limited"), int(Range::Limited));
    rangeCombo_->addItem(tr("Full"), int(Range::Full));
    bar->addWidget(rangeCombo_);
    bar->addWidget(new QLabel(tr("  Transfer "), bar));
    transferCombo_ = makeTransferCombo(bar, engine_.spec().colorOverride.transfer, [this](std::optional<Transfer> t) {
        engine_.spec().colorOverride.transfer = t;
        scheduleReprocess();
    });
    bar->addWidget(transferCombo_);
    const ColorOverride& o = engine_.spec().colorOverride;
    matrixCombo_->setCurrentIndex(std::max(0, matrixCombo_->findData(o.matrix ? int(*o.matrix) : -1)));
    rangeCombo_->setCurrentIndex(std::max(0, rangeCombo_->findData(o.range ? int(*o.range) : -1)));
    connect(matrixCombo_, &QComboBox::activated, this, [this] {
        const int v = matrixCombo_->currentData().toInt();
        engine_.spec().colorOverride.matrix = v < 0 ? std::nullopt : std::optional<Matrix>(Matrix(v));
        scheduleReprocess();
    });
    connect(rangeCombo_, &QComboBox::activated, this, [this] {
        const int v = rangeCombo_->currentData().toInt();
        engine_.spec().colorOverride.range = v < 0 ? std::nullopt : std::optional<Range>(Range(v));
        scheduleReprocess();
    });
    bar->addSeparator();
    bar->addAction(save);
    bar->addAction(record);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide = help->addAction(tr("User Guide"), QKeySequence::HelpContents, this, [this] { openUserGuide(this); });
    guide->setObjectName(QStringLiteral("userGuide"));
    help->addAction(tr("Keyboard Shortcuts"), this, [this] {
        QMessageBox::information(
            this, tr("Keyboard Shortcuts"),
            tr("<table>"
               "<tr><td><b>Space</b></td><td>play / pause</td></tr>"
               "<tr><td><b>L</b></td><td>play; again: faster (up to 4x)</td></tr>"
               "<tr><td><b>K</b></td><td>pause</td></tr>"
               "<tr><td><b>J</b></td><td>play in reverse; again: faster (up to 4x)</td></tr>"
               "<tr><td><b>Left / Right</b></td><td>one frame back / forward</td></tr>"
               "<tr><td><b>Home / End</b></td><td>first / last frame</td></tr>"
               "<tr><td><b>Ctrl+G</b></td><td>go to timecode (click the timecode: elapsed time)</td></tr>"
               "<tr><td><b>F, 1, 2</b></td><td>zoom to fit, 100%, 200% (wheel zooms, drag pans)</td></tr>"
               "<tr><td><b>Wheel, drag</b></td><td>over the waveform or parade: zoom its scale, pan it "
               "(double-click: the whole scale); over the vectorscope: 1x to 16x</td></tr>"
               "<tr><td><b>P</b></td><td>preview in the viewer</td></tr>"
               "<tr><td><b>F11</b></td><td>full screen window</td></tr>"
               "<tr><td><b>Shift+F11</b>, double-click</td><td>the picture alone, full screen</td></tr>"
               "<tr><td><b>Esc</b></td><td>leave full screen; else clear the region</td></tr>"
               "<tr><td><b>Ctrl+Shift+S</b></td><td>save scopes</td></tr>"
               "<tr><td><b>Ctrl+R</b></td><td>record / stop recording</td></tr>"
               "<tr><td><b>F1</b></td><td>the user guide</td></tr>"
               "<tr><td><b>Ctrl+1 .. Ctrl+9</b></td><td>View &gt; Layouts: the first nine layouts</td></tr>"
               "<tr><td><b>Ctrl+Shift+X</b></td><td>clear the pins</td></tr>"
               "<tr><td><b>Ctrl+drag</b>, <b>Alt+click</b></td><td>the scopes of a region, of a line</td></tr>"
               "<tr><td><b>Ctrl+Shift+L</b></td><td>the scopes of the pinned pixel's line</td></tr>"
               "<tr><td><b>Ctrl+Shift+R</b></td><td>clear the region</td></tr>") +
                CompareController::shortcutRows() +
                tr("</table><p>Click the picture to pin the pixel picker; Shift+click pins up to four pixels.</p>"));
    });
    help->addAction(tr("About cudascope"), this, [this] {
        QMessageBox::about(this, tr("About cudascope"),
                           tr("<b>cudascope</b> %1<br>Live video scopes: histogram, waveform, parade, vectorscope "
                              "and filtered previews.<br>Engine: %2")
                               .arg(QCoreApplication::applicationVersion(), QString::fromUtf8(engine_.name().data(), qsizetype(engine_.name().size()))));
    });
}

// ---- Settings ------------------------------------------------------------------------

void MainWindow::loadSettings() {
    // A first run gets the engine's spec, the focus-peaking preview and Choices' defaults.
    settings::Choices c;
    c.spec = engine_.spec();
    c.histogramChannels = engine_.histogramChannels;
    c.gamutDisplay = engine_.gamutDisplayMode;
    c.preview = previewFilter_;
    settings::load(c);
    engine_.spec() = c.spec;
    engine_.histogramChannels = c.histogramChannels;
    engine_.gamutDisplayMode = c.gamutDisplay;
    previewFilter_ = c.preview;
    previewInViewer_ = c.previewInViewer;
    engine_.gamutCheck = c.gamutCheck;
    engine_.toneMapHdr = c.toneMapHdr;
    player_->setLoop(c.loop);
    playOnOpen_ = c.playOnOpen;
    hwdec_ = c.nvdec ? HwDecode::Auto : HwDecode::None;
    applyPreviewSpec();
}

void MainWindow::saveSettings() {
    settings::saveWindow(saveGeometry(), saveState(kStateVersion), pictureShown());
    settings::save(currentChoices());
}

settings::Choices MainWindow::currentChoices() const {
    settings::Choices c;
    c.spec = engine_.spec();
    c.histogramChannels = engine_.histogramChannels;
    c.gamutDisplay = engine_.gamutDisplayMode;
    c.preview = previewFilter_;
    c.previewInViewer = previewInViewer_;
    c.gamutCheck = engine_.gamutCheck;
    c.toneMapHdr = engine_.toneMapHdr;
    c.loop = player_->loops();
    c.playOnOpen = playOnOpen_;
    c.nvdec = hwdec_ != HwDecode::None;
    return c;
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    if (shownOnce_) return;
    shownOnce_ = true;
    // The first launch's panel sizes once the window has its size on the screen (given before,
    // the docks keep only part of them), as Reset Layout gives them.
    if (!restoredLayout_) QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
    // After the window manager has mapped the main window, so that the panels go on top of it.
    QTimer::singleShot(0, this, &MainWindow::bringFloatingPanelsForward);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    setFullScreenPicture(false);   // the panels and bars are saved as they are outside it
    if (recorder_) (void)stopRecording();   // a playable file whatever closes the window; it shows its outcome
    saveSettings();
    player_->pause();
    QMainWindow::closeEvent(e);
}

void MainWindow::rebuildRecentMenu() {
    if (!recentMenu_) return;
    recentMenu_->clear();
    const QStringList files = settings::recent(settings::Recent::Files);
    for (const QString& f : files) recentMenu_->addAction(QFileInfo(f).fileName() + QStringLiteral("   ") + QFileInfo(f).absolutePath(), this, [this, f] { openInput(f); });
    if (files.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear List"), this, [this] {
        settings::clearRecent(settings::Recent::Files);
        rebuildRecentMenu();
    });
}

// ---- Sources -------------------------------------------------------------------------

void MainWindow::openInput(const QString& input) {
    if (input.isEmpty()) return;
    OpenOptions options;
    options.hwdec = engine_.usesCuda() ? hwdec_ : HwDecode::None;
    options.deviceStream = engine_.decodeStream();
    options.decoderThreads = decoderThreads_;
    player_->open(input.toStdString(), options);
    status_->refresh();
}

void MainWindow::setDecoding(HwDecode hwdec, int decoderThreads) {
    hwdec_ = hwdec;
    decoderThreads_ = std::max(0, decoderThreads);
}

void MainWindow::openFileDialog() {
    const QString dir = settings::openFolder();
    const QString f = QFileDialog::getOpenFileName(this, tr("Open Video File"), dir,
                                                   tr("Video files (*.mp4 *.mov *.mkv *.mxf *.ts *.m2ts *.avi *.webm *.y4m *.mpg *.m4v);;All files (*)"));
    if (f.isEmpty()) return;
    settings::setOpenFolder(QFileInfo(f).absolutePath());
    openInput(f);
}

void MainWindow::openSourceDialog(int page) {
    SourceDialog dialog(settings::recent(settings::Recent::Files), settings::recent(settings::Recent::Urls), this);
    dialog.setPage(SourceDialog::Page(page));
    if (dialog.exec() != QDialog::Accepted) return;
    const QString input = dialog.input();
    if (dialog.page() == SourceDialog::Page::Network) {
        settings::addRecent(settings::Recent::Urls, input);
        rebuildRecentMenu();
    }
    openInput(input);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& url : e->mimeData()->urls()) {
        openInput(url.isLocalFile() ? url.toLocalFile() : url.toString());
        e->acceptProposedAction();
        return;
    }
}

void MainWindow::onOpened() {
    const SourceInfo& info = player_->info();
    const QString input = QString::fromStdString(player_->input());
    messages_->hide();
    engineErrorShown_ = false;
    if (!isPattern(input) && !info.live && QFileInfo::exists(input)) {
        settings::addRecent(settings::Recent::Files, QFileInfo(input).absoluteFilePath());
        rebuildRecentMenu();
    }
    setWindowTitle((isPattern(input) ? input : QFileInfo(input).fileName()) + QStringLiteral(" - cudascope"));
    viewer_->setFrameSize(info.width, engine_.field ? fieldHeight(info.format, info.height, *engine_.field) : info.height);
    viewer_->setPinned(std::nullopt);
    clearRegion();   // the new source's frame may be smaller or of another chroma grid
    int64_t frames = info.frameCount;
    if (frames <= 0 && info.duration > 0) frames = int64_t(std::llround(info.duration * player_->frameRate()));
    transport_->setTimeline(frames, player_->frameRate(), info.seekable && !info.live);
    if (info.live) startFlight();   // the Timeline shows its recorder
    else {
        flight_.reset();
        openTimeline(input, !isPattern(input));
    }
    status_->refresh();
    if (playOnOpen_) player_->play();
}

void MainWindow::onOpenFailed(const QString& input, const QString& message) {
    showError(message.isEmpty() ? tr("%1 could not be opened.").arg(input) : message);
}

bool MainWindow::currentFrameProcessed() const {
    if (!player_ || !player_->hasFrame()) return false;
    const std::shared_ptr<AVFrame>& holder = player_->currentFrame().holder;
    // Same owner: the same decoded picture (the weak pointer keeps its identity from being
    // reused while it is remembered).
    return holder && !processedFrame_.owner_before(holder) && !holder.owner_before(processedFrame_);
}

void MainWindow::onFrameChanged() {
    // A still source presents the same picture at its frame rate: with the settings unchanged
    // (a change processes it at once, see reprocessTimer_) its scopes are what they were.
    takePendingField();
    if (!currentFrameProcessed()) processCurrentFrame();
    if (compare_) compare_->aFrameChanged();
    transport_->setPosition(player_->currentPts(), player_->currentFrameNumber(), player_->currentFrame().timecode);
    followTimeline();
    updatePicker();
    updatePins();
    showActivePicture();
    if (recorder_) recordShownFrame();
}

// ---- The engine -------------------------------------------------------------------

void MainWindow::syncPanel(Plane p) {
    QDockWidget* d = docks_[size_t(p)];
    ScopeView* v = views_[size_t(p)];
    const bool shown = d && v && d->isVisible() && !v->visibleRegion().isEmpty();
    engine_.setPanel(p, shown ? v->pixelWidth() : 0, shown ? v->pixelHeight() : 0);
    if (p == Plane::Preview) applyPreviewSpec();
}

void MainWindow::scheduleReprocess() { reprocessTimer_.start(); }

// The gamut check's highlight is the preview (the gamut filter, whichever is chosen) shown in
// the viewer; its end restores both.
void MainWindow::applyPreviewSpec() {
    const bool gamut = engine_.gamutCheck, inViewer = previewInViewer_ || gamut;
    const bool wanted = inViewer || engine_.panelVisible(Plane::Preview);
    engine_.spec().preview = !wanted ? PreviewFilter::None : gamut ? PreviewFilter::Gamut : previewFilter_;
    if (viewer_ && viewer_->showsPreview() != inViewer) viewer_->setShowPreview(inViewer);
}

// Choosing another filter, or taking the preview out of the viewer, ends the gamut check.
void MainWindow::setPreviewFilter(PreviewFilter f) {
    previewFilter_ = f;
    if (f != PreviewFilter::Gamut && gamutCheckAction_ && gamutCheckAction_->isChecked()) gamutCheckAction_->setChecked(false);
    applyPreviewSpec();
    scheduleReprocess();
}

void MainWindow::setPreviewInViewer(bool on) {
    previewInViewer_ = on;
    if (!on && gamutCheckAction_ && gamutCheckAction_->isChecked()) gamutCheckAction_->setChecked(false);
    syncPreviewControls();
    applyPreviewSpec();
    scheduleReprocess();
}

void MainWindow::processCurrentFrame() {
    if (!player_ || !player_->hasFrame()) return;
    for (Plane p : kPanels) syncPanel(p);
    const FrameView& frame = player_->currentFrame().view;
    std::shared_ptr<PreparedScopes> prepared = player_->takePrepared();
    Status s;
    if (viewer_->glReady()) {
        viewer_->makeCurrent();
        s = engine_.process(frame, &viewer_->textures(), std::move(prepared));
        viewer_->doneCurrent();
    } else {
        s = engine_.process(frame, nullptr, std::move(prepared));
    }
    // The queued frames were prepared with other settings: prepare them again.
    if (engine_.settingsChanged()) player_->prepareAgain();
    if (!s) {
        if (!engineErrorShown_) showError(QString::fromStdString(s.message()));
        engineErrorShown_ = true;
        return;
    }
    const bool newFrame = !currentFrameProcessed();
    processedFrame_ = player_->currentFrame().holder;
    ++framesProcessed_;
    if (newFrame) recordFlight();   // once per frame, not again for a settings change
    if (const std::optional<FrameView> shown = shownFrame()) viewer_->setFrameSize(shown->width, shown->height);
    refreshOverlays();
    viewer_->update();
    for (ScopeView* v : views_)
        if (v) v->update();
    if (compare_) compare_->aProcessed();
}

void MainWindow::refreshOverlays() {
    const ScopeSpec& spec = engine_.spec();
    const ScopeResults& r = engine_.results();
    setToneMapAvailable(toneMapAction_, r.color.transfer);
    if (falseColourLegend_ && legendTransfer_ != int(r.color.transfer)) {
        legendTransfer_ = int(r.color.transfer);
        falseColourLegend_->setText(falseColourLegendText(r.color.transfer));
        falseColourLegend_->setToolTip(falseColourLegendToolTip(r.color.transfer));
    }
    for (Plane p : kPanels) {
        ScopeView* v = views_[size_t(p)];
        if (!v) continue;
        const ScopePlacement placement = engine_.placement(p, viewer_->textures());
        // The overlay is drawn again only when something the graticule depends on changed.
        const QString key = QStringLiteral("%1x%2 d%3 m%4 r%5 w%6 h%7 p%8 z%9 t%10 s%11")
                                .arg(placement.imageWidth).arg(placement.imageHeight).arg(r.bitDepth).arg(int(r.color.matrix))
                                .arg(int(r.color.range)).arg(int(spec.waveformScale)).arg(int(spec.histogramScale))
                                .arg(int(r.paradeMode)).arg(spec.vectorscopeZoom).arg(int(spec.vectorscopeTargets75))
                                .arg(int(spec.skinToneLine)) +
                            QStringLiteral(" x%1").arg(int(r.color.transfer)) +
                            QStringLiteral(" wm%1 ref%2 pv%3 z%4/%5").arg(int(spec.waveformMode))
                                .arg(QString::fromStdString(referenceLinesText(spec.referenceLines))).arg(int(spec.preview))
                                .arg(double(spec.filter.zebraIre)).arg(double(spec.filter.zebraLowIre)) +
                            QStringLiteral(" lz%1/%2 pz%3/%4").arg(spec.waveformRange.lo).arg(spec.waveformRange.hi)
                                .arg(spec.paradeRange.lo).arg(spec.paradeRange.hi);
        v->setPlacement(placement);
        if (key == overlayKeys_[size_t(p)]) continue;
        overlayKeys_[size_t(p)] = key;
        v->setOverlay(engine_.overlayFor(p));
    }
    updateScopeMarkers();
    updateLevelZoomControls();
}

// ---- The picker ------------------------------------------------------------------------

void MainWindow::updatePicker() {
    const std::optional<PixelPos> pinned = viewer_->pinned();
    const std::optional<PixelPos> at = hover_ ? hover_ : pinned;
    if (!at || !player_->hasFrame()) {
        status_->setPickerText({});
        return;
    }
    const std::optional<PixelReading> p = readAt(*at);
    if (!p) {
        status_->setPickerText(tr("x %1  y %2").arg(at->x).arg(at->y));
        return;
    }
    const QString prefix = hover_ ? QString() : tr("pinned  ");
    const QString b = compare_ ? compare_->pickerText(*at) : QString();
    status_->setPickerText(prefix + QString::fromStdString(shownTimecode().text()) + QStringLiteral("  ") + (b.isEmpty() ? QString() : QStringLiteral("A ")) + QString::fromStdString(describe(*p)) +
                           (b.isEmpty() ? QString() : QStringLiteral("   |   ") + b));
}

QString MainWindow::pickerText() const { return status_->pickerText(); }

void MainWindow::showError(const QString& text) {
    messages_->showMessage(text, MessageBar::Severity::Error);
    status_->showMessage(text, 8000);
}

void MainWindow::showWarning(const QString& text) {
    if (messages_->isVisible() && messages_->severity() == MessageBar::Severity::Error) return;   // keep the error
    messages_->showMessage(text, MessageBar::Severity::Warning);
}

QString MainWindow::messageText() const { return messages_->text(); }

void MainWindow::shuttle(int direction) {
    // J/K/L as in NLEs: L plays forward, again faster; J plays in reverse, again faster; K
    // (elsewhere) pauses. Switching direction starts the other way at 1x.
    static const double kSpeeds[] = {0.25, 0.5, 1.0, 1.5, 2.0, 4.0};
    auto faster = [](double speed) {
        for (double s : kSpeeds)
            if (s > speed + 1e-9) return s;
        return speed;
    };
    if (direction > 0) {
        if (player_->isPlayingReverse()) {
            player_->pause();
            player_->setSpeed(1.0);
            player_->play();
        } else if (!player_->isPlaying()) {
            player_->play();
        } else {
            player_->setSpeed(faster(player_->speed()));
        }
        return;
    }
    if (player_->isPlayingReverse()) player_->playReverse(faster(player_->reverseSpeed()));
    else player_->playReverse(1.0);
}

}  // namespace cs
