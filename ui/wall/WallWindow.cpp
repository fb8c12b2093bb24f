// The monitoring wall's window (ui/wall/WallWindow.h).
#include "WallWindow.h"

#include <algorithm>
#include <utility>

#include <QAction>
#include <QDateTime>
#include <QTimeZone>
#include <QDir>
#include <QDockWidget>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QFileDialog>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QShortcut>
#include <QStatusBar>
#include <QTableWidget>

#include <cstdio>

#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/Settings.h"
#include "ui/main/SourceDialog.h"
#include "WallView.h"
#include "ui/timeline/FlightExport.h"
#include "ui/timeline/TimelinePanel.h"

namespace cs {
namespace {

QString isoTime(std::chrono::system_clock::time_point t) {
    const qint64 ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc()).toString(Qt::ISODateWithMs);
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

const char* const kColumns[] = {"time", "source", "alarm", "event", "since", "timecode", "detail"};

}  // namespace

WallWindow::WallWindow(const std::string& engine, QWidget* parent) : QMainWindow(parent), engine_(engine) {
    view_ = new WallView(this);
    setCentralWidget(view_);
    connect(view_, &WallView::tileActivated, this, &WallWindow::openFull);

    log_ = new QTableWidget(0, int(std::size(kColumns)), this);
    QStringList headers;
    for (const char* c : kColumns) headers << QString::fromLatin1(c);
    log_->setHorizontalHeaderLabels(headers);
    log_->horizontalHeader()->setStretchLastSection(true);
    // The times whole (an ISO time with milliseconds), whatever the font.
    const QFontMetrics fm(log_->font());
    const int time = fm.horizontalAdvance(QStringLiteral("0000-00-00T00:00:00.000Z")) + 16;
    const int widths[] = {time, 220, fm.horizontalAdvance(QStringLiteral("R'G'B' out of range")) + 16,
                          fm.horizontalAdvance(QStringLiteral("start")) + 16, time, fm.horizontalAdvance(QStringLiteral("00:00:00:00")) + 16};
    for (int c = 0; c < int(std::size(widths)); ++c) log_->horizontalHeader()->resizeSection(c, widths[c]);
    log_->verticalHeader()->hide();
    log_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    log_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connect(log_, &QTableWidget::cellActivated, this, [this](int row, int) { openRecordedMoment(row); });
    auto* dock = new QDockWidget(tr("Alarms"), this);
    dock->setObjectName(QStringLiteral("alarmsDock"));
    dock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, dock);

    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    buildMenus();
    resize(1280, 860);   // the size un-maximized
    setWindowState(Qt::WindowMaximized);   // a wall fills its screen when shown

    poll_.setInterval(250);
    connect(&poll_, &QTimer::timeout, this, &WallWindow::poll);
    poll_.start();
    updateTitle();
}

WallWindow::~WallWindow() {
    poll_.stop();
    // full_ is cleared first: while the full view is destroyed, its children's events still
    // reach eventFilter(), which must not take the half-destroyed widget for a MainWindow.
    delete std::exchange(full_, nullptr).data();
    view_->setTiles({}, {});
    for (auto& t : tiles_) t->requestStop();
    tiles_.clear();   // joins each worker (their reads are cancelled or end within a read)
    for (auto& f : retiring_) f.wait();
}

void WallWindow::buildMenus() {
    QMenu* wallMenu = menuBar()->addMenu(tr("&Wall"));
    wallMenu->addAction(tr("&Add source..."), QKeySequence(Qt::CTRL | Qt::Key_O), this, [this] {
        SourceDialog dialog({}, {}, this);
        if (dialog.exec() == QDialog::Accepted && !dialog.input().isEmpty()) addSource(dialog.input().toStdString());
    });
    wallMenu->addAction(tr("&Remove source"), QKeySequence::Delete, this, [this] {
        if (view_->selected() >= 0) removeSource(view_->selected());
    });
    wallMenu->addAction(tr("Open &full size"), QKeySequence(Qt::Key_Return), this, [this] {
        if (view_->selected() >= 0) openFull(view_->selected());
    });
    wallMenu->addSeparator();
    wallMenu->addAction(tr("&Open wall..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open wall"), {}, tr("Walls (*.wall *.json);;All files (*)"));
        if (path.isEmpty()) return;
        if (Status s = load(path.toStdString()); !s) QMessageBox::warning(this, tr("Open wall"), QString::fromStdString(s.message()));
    });
    wallMenu->addAction(tr("&Save wall..."), QKeySequence::Save, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save wall"), QStringLiteral("monitoring.wall"), tr("Walls (*.wall)"));
        if (path.isEmpty()) return;
        if (Status s = save(path.toStdString()); !s) QMessageBox::warning(this, tr("Save wall"), QString::fromStdString(s.message()));
    });
    wallMenu->addAction(tr("&Export alarm log..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export alarm log"), QStringLiteral("alarms.csv"), tr("CSV (*.csv)"));
        if (path.isEmpty()) return;
        if (Status s = exportAlarms(path.toStdString()); !s)
            QMessageBox::warning(this, tr("Export alarm log"), QString::fromStdString(s.message()));
    });
    wallMenu->addSeparator();
    wallMenu->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* scopes = menuBar()->addMenu(tr("&Scopes"));
    const auto add = [&](const QString& name, bool WallScopes::*member) {
        QAction* a = scopes->addAction(name);
        a->setCheckable(true);
        a->setObjectName(name);
        connect(scopes, &QMenu::aboutToShow, a, [this, a, member] { a->setChecked(scopes_.*member); });
        connect(a, &QAction::toggled, this, [this, member](bool on) {
            WallScopes s = scopes_;
            s.*member = on;
            setScopes(s);
        });
    };
    add(tr("Luma waveform"), &WallScopes::waveform);
    add(tr("Vectorscope"), &WallScopes::vectorscope);
    add(tr("Histogram"), &WallScopes::histogram);
    scopes->addSeparator();
    toneMapHdr_ = settings::wallToneMapHdr();
    QAction* toneMap = scopes->addAction(tr("Tone Map HDR to SDR"));
    toneMap->setObjectName(QStringLiteral("toneMap"));
    toneMap->setCheckable(true);
    toneMap->setChecked(toneMapHdr_);
    toneMap->setToolTip(tr("Shows the PQ and HLG tiles' pictures as the viewer does on an SDR display; the tiles' scopes "
                           "and alarms read the signal itself"));
    connect(toneMap, &QAction::toggled, this, [this](bool on) {
        toneMapHdr_ = on;
        settings::setWallToneMapHdr(on);
        for (auto& t : tiles_) t->setToneMapHdr(on);
    });
}

void WallWindow::setWall(const WallConfig& wall) {
    view_->setTiles({}, {});
    for (auto& t : tiles_) retire(std::move(t));
    tiles_.clear();
    scopes_ = wall.scopes;
    columns_ = wall.columns;
    for (const std::string& input : wall.sources) {
        tiles_.push_back(std::make_unique<WallTile>(input, tileOptions(), view_->waker()));
        tiles_.back()->setScopes(scopes_);
        tiles_.back()->setToneMapHdr(toneMapHdr_);
    }
    rebuild();
}

WallConfig WallWindow::wall() const {
    WallConfig w;
    for (const auto& t : tiles_) w.sources.push_back(t->input());
    w.columns = columns_;
    w.scopes = scopes_;
    return w;
}

// Each tile's options: the engine, and for live tiles their flight recorders (the window kept:
// the setting flightRecorder/hours; spill files under the cache folder's flight/).
WallTile::Options WallWindow::tileOptions() const {
    WallTile::Options o;
    o.engine = engine_;
    o.flightHours = std::clamp(QSettings().value(QStringLiteral("flightRecorder/hours"), 1.0).toDouble(), 1.0 / 60.0, 48.0);
    const QString folder = QDir(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)).filePath(QStringLiteral("flight"));
    if (QDir().mkpath(folder)) o.flightFolder = folder.toStdString();
    o.encodeThumbnail = [](const RgbaImage& picture) { return timeline::encodeThumbnail(picture); };
    return o;
}

timeline::TimelinePanel* WallWindow::openRecordedMoment(int row) {
    if (row < 0 || row >= int(links_.size()) || !links_[size_t(row)].recorder) return nullptr;
    const RowLink& link = links_[size_t(row)];
    auto* window = new QWidget(this, Qt::Window);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setObjectName(QStringLiteral("recordedMoment"));
    window->setWindowTitle(tr("%1 - recorded").arg(QString::fromStdString(link.source)));
    auto* panel = new timeline::TimelinePanel(window);
    auto* layout = new QVBoxLayout(window);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(panel);
    panel->openLive(link.recorder, QJsonObject{{"input", QString::fromStdString(link.source)}}, link.recorder->options().frameRate);
    panel->showMoment(link.time);
    window->resize(1000, 320);
    window->show();
    return panel;
}

void WallWindow::addSource(const std::string& input) {
    tiles_.push_back(std::make_unique<WallTile>(input, tileOptions(), view_->waker()));
    tiles_.back()->setScopes(scopes_);
    tiles_.back()->setToneMapHdr(toneMapHdr_);
    rebuild();
}

void WallWindow::removeSource(int index) {
    if (index < 0 || index >= int(tiles_.size())) return;
    std::unique_ptr<WallTile> tile = std::move(tiles_[size_t(index)]);
    tiles_.erase(tiles_.begin() + index);
    rebuild();   // the view lets go of the tile first
    retire(std::move(tile));
}

void WallWindow::retire(std::unique_ptr<WallTile> tile) {
    if (!tile) return;
    tile->requestStop();
    std::erase_if(retiring_, [](std::future<void>& f) { return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready; });
    retiring_.push_back(std::async(std::launch::async, [t = std::shared_ptr<WallTile>(std::move(tile))]() mutable { t.reset(); }));
}

void WallWindow::setScopes(const WallScopes& scopes) {
    scopes_ = scopes;
    for (auto& t : tiles_) t->setScopes(scopes);
    for (QAction* a : findChildren<QAction*>()) {
        if (a->objectName() == tr("Luma waveform")) a->setChecked(scopes.waveform);
        if (a->objectName() == tr("Vectorscope")) a->setChecked(scopes.vectorscope);
        if (a->objectName() == tr("Histogram")) a->setChecked(scopes.histogram);
    }
}

void WallWindow::rebuild() {
    std::vector<WallTile*> tiles;
    for (auto& t : tiles_) tiles.push_back(t.get());
    view_->setTiles(tiles, wallGrid(int(tiles.size()), columns_));
    updateTitle();
}

void WallWindow::updateTitle() {
    const int n = int(tiles_.size());
    setWindowTitle(QString::number(n) + (n == 1 ? tr(" source") : tr(" sources")) + QStringLiteral(" \u2014 cudascope"));
}

Status WallWindow::save(const std::string& path) const { return saveWall(wall(), path); }

Status WallWindow::load(const std::string& path) {
    auto wall = loadWall(path);
    if (!wall) return wall.status();
    setWall(*wall);
    return {};
}

QString WallWindow::statusLine() const { return status_->text(); }

int WallWindow::alarmRows() const { return int(rows_.size()); }

std::vector<std::string> WallWindow::alarmRow(int row) const { return rows_[size_t(row)]; }

Status WallWindow::exportAlarms(const std::string& path) const {
    std::string text;
    for (const char* c : kColumns) {
        if (!text.empty()) text += ',';
        text += c;
    }
    text += '\n';
    for (const auto& row : rows_) {
        for (size_t i = 0; i < row.size(); ++i) {
            if (i) text += ',';
            text += csvField(row[i]);
        }
        text += '\n';
    }
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit())
        return Status::error(path + ": " + file.errorString().toStdString());
    return {};
}

void WallWindow::poll() {
    bool logged = false;
    for (auto& t : tiles_)
        for (WallAlarmRecord& r : t->takeAlarms()) {
            // A start is logged at the time its condition began (the black's first frame, not
            // the frame 2 s later that raised it); an end at the time it ended.
            std::vector<std::string> row = {isoTime(r.event.start ? r.since : r.at).toStdString(), r.source,
                                            std::string(alarmName(r.event.kind)),
                                            r.event.start ? "start" : "end", isoTime(r.since).toStdString(), r.timecode,
                                            r.event.detail};
            const int at = log_->rowCount();
            log_->insertRow(at);
            for (size_t c = 0; c < row.size(); ++c) {
                auto* item = new QTableWidgetItem(QString::fromStdString(row[c]));
                if (r.event.start) item->setForeground(QColor(255, 110, 90));
                log_->setItem(at, int(c), item);
            }
            rows_.push_back(std::move(row));
            links_.push_back({r.recorderTime >= 0 ? t->flightRecorder() : nullptr, r.recorderTime, r.source});
            logged = true;
        }
    if (logged) {
        log_->scrollToBottom();
        emit alarmLogged();
    }
    const WallView::PaintTimes pt = view_->paintTimes();
    int alarms = 0;
    int64_t delivered = 0, presented = 0, dropped = 0;   // every tile's frames (WallTile.h's TileCounters)
    for (auto& t : tiles_) {
        if (!t->activeAlarms().empty()) ++alarms;
        const TileCounters c = t->counters();
        delivered += c.delivered;
        presented += c.presented;
        dropped += c.dropped();
    }
    const std::string engine = tiles_.empty() ? std::string("-") : tiles_.front()->engineName();
    char text[320];
    std::snprintf(text, sizeof text,
                  "%d sources   %d in alarm   frames: %lld delivered, %lld presented, %lld dropped   engine %s   "
                  "GUI %.1f ms a refresh (median; max %.1f)",
                  int(tiles_.size()), alarms, static_cast<long long>(delivered), static_cast<long long>(presented),
                  static_cast<long long>(dropped), engine.c_str(), pt.median, pt.max);
    status_->setText(QString::fromUtf8(text));
}

void WallWindow::openFull(int index) {
    if (index < 0 || index >= int(tiles_.size())) return;
    // One single-source window, made once and hidden when closed: a MainWindow deleted while
    // the application goes on leaves its GL surfaces' pending updates without a context.
    if (!full_) {
        full_ = new MainWindow(engine_);   // a top level of its own from the start (deleted by ~WallWindow)
        full_->installEventFilter(this);
        // Esc leaves the full view's full screen first, then goes back to the wall.
        full_->setEscapeHook([this] { if (full_) full_->close(); });
        for (PictureView* picture : full_->findChildren<PictureView*>()) picture->installEventFilter(this);
    }
    full_->setGeometry(geometry());
    full_->show();
    full_->raise();
    full_->activateWindow();
    full_->openInput(QString::fromStdString(tiles_[size_t(index)]->input()));
    fullOpen_ = true;
}

MainWindow* WallWindow::fullView() const { return fullOpen_ ? full_.data() : nullptr; }

void WallWindow::closeFull() {
    if (full_ && fullOpen_) full_->close();
}

bool WallWindow::eventFilter(QObject* watched, QEvent* event) {
    if (full_ && event->type() == QEvent::MouseButtonDblClick && qobject_cast<PictureView*>(watched) &&
        watched->parent() && full_->isAncestorOf(static_cast<QWidget*>(watched))) {
        QTimer::singleShot(0, full_.data(), &QWidget::close);
        return true;   // back to the wall, not the picture's full screen
    }
    if (watched == full_.data() && event->type() == QEvent::Close) {
        fullOpen_ = false;
        raise();
        activateWindow();
    }
    return QMainWindow::eventFilter(watched, event);
}

}  // namespace cs
