// The monitoring wall under Xvfb (label gui): a wall of four patterns and two UDP streams
// (ffmpeg senders on loopback) where every tile plays, one sender killed shows "reconnecting"
// on its tile only while the others keep playing, the saved wall reopens the same; alarms on
// clips made here with the ffmpeg CLI (a black segment, a frozen segment, moving content);
// the full-size view of a tile and back; a PQ tile's picture tone mapped as the viewer's (the switch remembered). Conditions are waited for with QTRY_ (bounded
// polling, the bounds scaled for sanitized builds: tests/common/TestTime.h), never with
// sleeps. Set CS_WALL_SCREENSHOTS=DIR to keep screenshots of the walls.
#include <QAction>
#include <QProcess>
#include <QTest>
#include <QFile>
#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

#include "GuiTestSupport.h"
#include "ui/Settings.h"
#include "core/ToneMap.h"
#include "tests/common/TestTime.h"
#include "ui/Gui.h"
#include "ui/main/MainWindow.h"
#include "ui/main/PictureView.h"
#include "ui/wall/WallView.h"
#include "ui/wall/WallWindow.h"
#include "ui/timeline/TimelinePanel.h"

using namespace cs;
using cs::test::freeUdpPort;
using cs::test::scaledMs;

namespace {

// An ffmpeg sender of a moving test picture to udp://127.0.0.1:PORT, killed by the destructor.
std::unique_ptr<QProcess> startSender(int port) {
    auto p = std::make_unique<QProcess>();
    p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p->start(QStringLiteral(CS_TEST_FFMPEG),
             {"-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-c:v",
              "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "10", "-bf", "0", "-pix_fmt", "yuv420p",
              "-threads", "1", "-f", "mpegts", QString("udp://127.0.0.1:%1?pkt_size=1316").arg(port)});
    return p;
}

bool makeClip(const QString& path, const QString& filter) {
    return cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", filter, "-c:v", "libx264",
                                "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25", path});
}

void shoot(QWidget& w, const char* name) {
    const QByteArray dir = qgetenv("CS_WALL_SCREENSHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(QString::fromLocal8Bit(dir));
    w.grab().save(QString::fromLocal8Bit(dir) + "/" + name);
}

bool hasAlarm(const WallWindow& w, const std::string& sourceEnd, const std::string& alarm) {
    for (int i = 0; i < w.alarmRows(); ++i) {
        const auto row = w.alarmRow(i);
        if (row[1].size() >= sourceEnd.size() && row[1].compare(row[1].size() - sourceEnd.size(), sourceEnd.size(), sourceEnd) == 0 &&
            row[2] == alarm && row[3] == "start")
            return true;
    }
    return false;
}

// Built with += (GCC 12 warns falsely on "literal" + std::to_string(...)).
std::string udpUrl(int port) {
    std::string url = "udp://127.0.0.1:";
    url += std::to_string(port);
    return url;
}
std::string portSuffix(int port) {
    std::string s = ":";
    s += std::to_string(port);
    return s;
}

int64_t frames(WallWindow& w, int i) { return w.tile(i).counters().frames; }

// Stops every tile and checks that each frame its reader delivered was presented or dropped
// with a cause: delivered = presented + dropped, nothing pending.
void expectEveryFrameAccountedFor(WallWindow& w) {
    for (int i = 0; i < w.tileCount(); ++i) w.tile(i).requestStop();
    for (int i = 0; i < w.tileCount(); ++i) {
        w.tile(i).stop();
        const TileCounters c = w.tile(i).counters();
        const std::string what = w.tile(i).input() + ": delivered " + std::to_string(c.delivered) + ", presented " +
                                 std::to_string(c.presented) + ", dropped " + std::to_string(c.dropped()) + " (late " +
                                 std::to_string(c.skipped) + ", replaced " + std::to_string(c.liveDropped) + ", unshown " +
                                 std::to_string(c.unshown) + ", failed " + std::to_string(c.failed) + ", stopped " +
                                 std::to_string(c.stopped) + "), pending " + std::to_string(c.pending);
        qInfo("%s", what.c_str());
        QVERIFY2(c.delivered > 0, what.c_str());
        QVERIFY2(c.pending == 0, what.c_str());
        QVERIFY2(c.delivered == c.presented + c.dropped(), what.c_str());
    }
}

}  // namespace

class TestWall : public QObject {
    Q_OBJECT
private slots:
    void patternsAndStreams();
    void alarms();
    void failedSourcesHaveNoSignal();
    void fullViewAndBack();
    void bigWall();
    void everyFrameAccountedFor();
    void hdrTilesAreToneMapped();
};

void TestWall::patternsAndStreams() {
    const int port1 = freeUdpPort();
    int port2 = freeUdpPort();
    while (port2 == port1) port2 = freeUdpPort();
    auto sender1 = startSender(port1);
    auto sender2 = startSender(port2);
    QVERIFY(sender1->waitForStarted());
    QVERIFY(sender2->waitForStarted());
    WallConfig config;
    config.sources = {"pattern:bars", "pattern:ramp", "pattern:zoneplate", "pattern:bars:10bit",
                      udpUrl(port1), udpUrl(port2)};
    config.scopes = {true, true, false};
    WallWindow wall("cpu");
    wall.resize(1280, 800);
    wall.setWall(config);
    wall.show();
    QCOMPARE(wall.windowTitle(), QString::fromUtf8("6 sources \u2014 cudascope"));
    // Every tile updates: its frame counter advances after its first frame.
    std::vector<int64_t> first(6);
    for (int i = 0; i < 6; ++i) {
        QTRY_VERIFY_WITH_TIMEOUT(frames(wall, i) > 0, scaledMs(30000));
        first[size_t(i)] = frames(wall, i);
    }
    for (int i = 0; i < 6; ++i) QTRY_VERIFY_WITH_TIMEOUT(frames(wall, i) > first[size_t(i)] + 5, scaledMs(20000));
    QTRY_VERIFY_WITH_TIMEOUT(wall.view().renderer().stats(wall.tile(5)).presented > 5, scaledMs(10000));
    shoot(wall, "wall-2x3.png");

    // One sender gone: its tile reconnects; the others keep playing.
    sender1->kill();
    sender1->waitForFinished();
    QTRY_VERIFY_WITH_TIMEOUT(wall.tile(4).statusText().rfind("reconnecting", 0) == 0, scaledMs(15000));
    QVERIFY(wall.tile(4).activeAlarms().find("no signal") != std::string::npos);
    std::vector<int64_t> before(6);
    for (int i = 0; i < 6; ++i) before[size_t(i)] = frames(wall, i);
    for (int i : {0, 1, 2, 3, 5}) QTRY_VERIFY_WITH_TIMEOUT(frames(wall, i) > before[size_t(i)] + 5, scaledMs(20000));
    QVERIFY(wall.tile(4).statusText().rfind("reconnecting", 0) == 0);
    for (int i : {0, 1, 2, 3, 5}) QCOMPARE(wall.tile(i).statusText(), std::string("playing"));
    QTRY_VERIFY_WITH_TIMEOUT(hasAlarm(wall, portSuffix(port1), "no signal"), scaledMs(5000));
    QVERIFY(!hasAlarm(wall, portSuffix(port2), "no signal"));
    shoot(wall, "wall-reconnecting.png");
    // The live tile's flight recorder kept its frames and the alarm; the log's row opens that
    // moment (the last frame before the signal went) with its thumbnail. Patterns keep none.
    QVERIFY(!wall.tile(0).flightRecorder());
    const auto recorder = wall.tile(4).flightRecorder();
    QVERIFY(recorder && recorder->end() > 5);
    int lostRow = -1;
    for (int i = 0; i < wall.alarmRows(); ++i)
        if (wall.alarmRow(i)[2] == "no signal" && wall.alarmRow(i)[1].ends_with(portSuffix(port1))) lostRow = i;
    QVERIFY(lostRow >= 0);
    QVERIFY(!wall.openRecordedMoment(-1));
    timeline::TimelinePanel* moment = wall.openRecordedMoment(lostRow);
    QVERIFY(moment && moment->live());
    QCOMPARE(moment->data().frames(), recorder->end() - recorder->first());
    QVERIFY(moment->momentHasThumbnail());
    const auto events = recorder->events();
    QVERIFY(std::any_of(events.begin(), events.end(), [](const FlightEvent& e) { return e.type == "no signal"; }));
    QVERIFY2(moment->momentText().contains(QStringLiteral("no signal")), qPrintable(moment->momentText()));
    shoot(*moment->window(), "wall-recorded-moment.png");
    moment->window()->close();
    // Every frame each reader delivered, live tiles (one of them reconnecting) included, was
    // presented, dropped with its cause (replaced in the mailbox...) or left at the stop.
    expectEveryFrameAccountedFor(wall);
    if (QTest::currentTestFailed()) return;

    // The wall saved and opened again is the same wall.
    QTemporaryDir dir;
    const std::string path = dir.filePath("studio.wall").toStdString();
    QVERIFY(wall.save(path));
    WallWindow again("cpu");
    QVERIFY(again.load(path));
    QCOMPARE(again.wall(), wall.wall());
    QCOMPARE(again.tileCount(), 6);
    QCOMPARE(again.windowTitle(), QString::fromUtf8("6 sources \u2014 cudascope"));
    // A source removed and added from the wall's API (the menu's actions call these).
    wall.removeSource(0);
    QCOMPARE(wall.tileCount(), 5);
    QCOMPARE(wall.windowTitle(), QString::fromUtf8("5 sources \u2014 cudascope"));
    wall.addSource("pattern:ramp");
    QCOMPARE(wall.wall().sources.back(), std::string("pattern:ramp"));
}

void TestWall::alarms() {
    QTemporaryDir dir;
    const QString black = dir.filePath("black.mp4"), frozen = dir.filePath("frozen.mp4"), moving = dir.filePath("moving.mp4");
    // 1 s of moving picture, then 3 s of black; 1 s, then its last frame held 3 s; 5 s moving.
    // testsrc2 desaturated (hue=s=0.6): its full colours put 6.7% of the pixels' chroma out of
    // legal range (signalstats BRNG), which the wall rightly flags; at 60% none are.
    QVERIFY(makeClip(black, "testsrc2=size=320x240:rate=25:d=1,hue=s=0.6[a];color=black:size=320x240:rate=25:d=3[b];[a][b]concat"));
    QVERIFY(makeClip(frozen, "testsrc2=size=320x240:rate=25:d=1,hue=s=0.6,tpad=stop_mode=clone:stop_duration=3"));
    QVERIFY(makeClip(moving, "testsrc2=size=320x240:rate=25:d=5,hue=s=0.6"));
    WallWindow wall("cpu");
    wall.resize(1280, 800);
    WallConfig config;
    config.sources = {black.toStdString(), frozen.toStdString(), moving.toStdString(), "pattern:ramp"};
    config.scopes = {true, true, true};
    wall.setWall(config);
    wall.show();
    QTRY_VERIFY_WITH_TIMEOUT(hasAlarm(wall, "black.mp4", "black"), scaledMs(30000));
    QTRY_VERIFY_WITH_TIMEOUT(hasAlarm(wall, "frozen.mp4", "frozen"), scaledMs(30000));
    QVERIFY(!hasAlarm(wall, "frozen.mp4", "black"));
    if (wall.tile(0).activeAlarms().find("black") != std::string::npos) shoot(wall, "wall-2x2-alarms.png");
    // The moving clip has played through once (and wrapped) with no alarm.
    QTRY_VERIFY_WITH_TIMEOUT(frames(wall, 2) > 140, scaledMs(30000));
    for (int i = 0; i < wall.alarmRows(); ++i) QVERIFY2(wall.alarmRow(i)[1] != moving.toStdString(), wall.alarmRow(i)[2].c_str());
    QVERIFY(wall.tile(2).activeAlarms().empty());
    // The black alarm ends when the picture comes back (the clip loops).
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (int i = 0; i < wall.alarmRows(); ++i)
                if (wall.alarmRow(i)[2] == "black" && wall.alarmRow(i)[3] == "end") return true;
            return false;
        }(),
        scaledMs(30000));
    shoot(wall, "wall-alarms.png");
    // The log as CSV.
    const std::string csv = dir.filePath("alarms.csv").toStdString();
    QVERIFY(wall.exportAlarms(csv));
    QFile f(QString::fromStdString(csv));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.startsWith("time,source,alarm,event,since,timecode,detail\n"));
    QVERIFY(text.contains(",black,start,"));
    QVERIFY(text.contains(",frozen,start,"));
    QCOMPARE(text.count('\n'), wall.alarmRows() + 1);
    QVERIFY(!wall.exportAlarms("/nonexistent/dir/alarms.csv"));
}

// A missing file and an empty one: each a "no signal" alarm, on its tile (the orange border,
// counted in the status bar) and in the log, logged at the time it began.
void TestWall::failedSourcesHaveNoSignal() {
    QTemporaryDir dir;
    const QString missing = dir.filePath("missing.mp4"), empty = dir.filePath("empty.mp4");
    QFile f(empty);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    WallWindow wall("cpu");
    WallConfig config;
    config.sources = {missing.toStdString(), empty.toStdString()};
    wall.setWall(config);
    wall.show();
    QVERIFY(wall.isMaximized());   // a wall opens filling its screen
    QTRY_VERIFY_WITH_TIMEOUT(hasAlarm(wall, "missing.mp4", "no signal"), scaledMs(10000));
    QTRY_VERIFY_WITH_TIMEOUT(hasAlarm(wall, "empty.mp4", "no signal"), scaledMs(10000));
    for (int t = 0; t < 2; ++t) {
        QCOMPARE(wall.tile(t).activeAlarms(), std::string("no signal"));
        QTRY_VERIFY_WITH_TIMEOUT(wall.tile(t).canvas() != nullptr, scaledMs(5000));
        const uint8_t* corner = wall.tile(t).canvas()->image.at(0, 0);   // the border: orange
        QCOMPARE(int(corner[0]), 255);
        QCOMPARE(int(corner[1]), 150);
        QCOMPARE(int(corner[2]), 30);
    }
    QTRY_VERIFY_WITH_TIMEOUT(wall.statusLine().contains("2 in alarm"), scaledMs(5000));
    for (int i = 0; i < wall.alarmRows(); ++i) {
        const auto row = wall.alarmRow(i);
        QCOMPARE(row[3], std::string("start"));
        QCOMPARE(row[0], row[4]);   // a start is logged when its condition began
        QVERIFY2(!row[6].empty(), row[1].c_str());   // the reason the source failed
    }
}

void TestWall::fullViewAndBack() {
    WallWindow wall("cpu");
    WallConfig config;
    config.sources = {"pattern:bars", "pattern:ramp"};
    wall.setWall(config);
    wall.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wall, scaledMs(5000)));
    QTRY_VERIFY_WITH_TIMEOUT(frames(wall, 1) > 0, scaledMs(20000));
    // Double-click the second tile.
    const QPoint centre(wall.view().width() * 3 / 4, wall.view().height() / 2);
    QCOMPARE(wall.view().tileAt(centre), 1);
    QTest::mouseDClick(&wall.view(), Qt::LeftButton, {}, centre);
    QTRY_VERIFY_WITH_TIMEOUT(wall.fullView() != nullptr, scaledMs(5000));
    MainWindow* full = wall.fullView();
    QVERIFY(QTest::qWaitForWindowExposed(full, scaledMs(5000)));
    full->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(full, scaledMs(5000)));
    QTest::keyClick(full, Qt::Key_Escape);
    QTRY_VERIFY_WITH_TIMEOUT(wall.fullView() == nullptr, scaledMs(5000));
    // Again, and back with a double-click on the picture.
    QTest::mouseDClick(&wall.view(), Qt::LeftButton, {}, centre);
    QTRY_VERIFY_WITH_TIMEOUT(wall.fullView() != nullptr, scaledMs(5000));
    QVERIFY(QTest::qWaitForWindowExposed(wall.fullView(), scaledMs(5000)));
    PictureView* picture = wall.fullView()->findChild<PictureView*>();
    QVERIFY(picture);
    QTest::mouseDClick(picture, Qt::LeftButton, {}, picture->rect().center());
    QTRY_VERIFY_WITH_TIMEOUT(wall.fullView() == nullptr, scaledMs(5000));
    // The wall kept playing.
    const int64_t before = frames(wall, 0);
    QTRY_VERIFY_WITH_TIMEOUT(frames(wall, 0) > before + 3, scaledMs(10000));
}

void TestWall::bigWall() {
    // A 4 x 4 wall with every scope (a screenshot when CS_WALL_SCREENSHOTS is set).
    WallWindow wall("cpu");
    wall.resize(1600, 1000);
    WallConfig config;
    const char* patterns[] = {"pattern:bars:320x180", "pattern:ramp:320x180", "pattern:zoneplate:320x180", "pattern:bars:10bit:320x180"};
    for (int i = 0; i < 16; ++i) config.sources.push_back(patterns[i % 4]);
    config.scopes = {true, true, true};
    wall.setWall(config);
    wall.show();
    QCOMPARE(wall.view().grid().columns, 4);
    QCOMPARE(wall.view().grid().rows, 4);
    for (int i = 0; i < 16; ++i) QTRY_VERIFY_WITH_TIMEOUT(wall.view().renderer().stats(wall.tile(i)).presented > 2, scaledMs(30000));
    // The patterns are still pictures: each tile's frozen alarm comes after 2 s.
    QTRY_VERIFY_WITH_TIMEOUT(wall.alarmRows() >= 16, scaledMs(30000));
    shoot(wall, "wall-4x4.png");
}

void TestWall::everyFrameAccountedFor() {
    // Three tiles of a 1 s, 25 fps clip, looping: every frame each reader delivered (across the
    // start, the loop points, a busy worker) is presented or dropped with its cause; and the
    // pacing never delivers a frame before its time on the tile's clock (at most one frame per
    // 40 ms since the tile started, plus the first).
    QTemporaryDir dir;
    const QString clip = dir.filePath("second.mp4");
    QVERIFY(makeClip(clip, "testsrc2=size=320x240:rate=25:d=1"));
    QElapsedTimer since;
    since.start();
    WallWindow wall("cpu");
    wall.resize(1280, 480);
    WallConfig config;
    config.sources = {clip.toStdString(), clip.toStdString(), clip.toStdString()};
    config.scopes = {true, true, true};
    wall.setWall(config);
    wall.show();
    for (int i = 0; i < 3; ++i) QTRY_VERIFY_WITH_TIMEOUT(wall.tile(i).counters().delivered > 60, scaledMs(60000));   // past two loop points
    expectEveryFrameAccountedFor(wall);
    if (QTest::currentTestFailed()) return;
    const double elapsed = double(since.elapsed()) / 1000.0;
    for (int i = 0; i < 3; ++i) {
        const TileCounters c = wall.tile(i).counters();
        QVERIFY2(c.presented > 0, std::to_string(c.presented).c_str());
        QVERIFY2(double(c.delivered) <= elapsed * 25.0 + 2.0,
                 (std::to_string(c.delivered) + " delivered in " + std::to_string(elapsed) + " s").c_str());
    }
}

// A PQ tile's picture goes through the viewer's HDR to SDR transform (Scopes > Tone Map HDR
// to SDR, on by default): a flat grey shows as core's toneMapCode8 of its plain code, and as
// the plain code once the action is off.
void TestWall::hdrTilesAreToneMapped() {
    QTemporaryDir dir;
    const QString clip = dir.filePath("pq.mkv");
    QVERIFY(cs::test::runFfmpeg({"-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=0x909090:s=64x36:r=25",
                                 "-t", "1", "-pix_fmt", "yuv420p10le", "-color_trc", "smpte2084", "-color_primaries", "bt2020",
                                 "-colorspace", "bt2020nc", "-color_range", "tv", "-c:v", "ffv1", clip}));
    WallWindow wall("cpu");
    WallConfig config;
    config.sources = {clip.toStdString()};
    config.scopes = WallScopes{false, false, false};   // the picture fills the tile
    wall.setWall(config);
    wall.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wall, scaledMs(5000)));
    auto centre = [&]() -> int {
        const auto canvas = wall.tile(0).canvas();
        if (!canvas || wall.tile(0).counters().frames == 0) return -1;
        const uint8_t* p = canvas->image.at(canvas->image.width / 2, canvas->image.height / 2);
        return p[0];   // R' (the grey's three are alike, give or take the gamut matrix's rounding)
    };
    QTRY_VERIFY_WITH_TIMEOUT(centre() >= 0, scaledMs(20000));
    const int mapped = centre();
    auto* toneMap = wall.findChild<QAction*>(QStringLiteral("toneMap"));
    QVERIFY(toneMap && toneMap->isChecked());
    toneMap->setChecked(false);
    QTRY_VERIFY_WITH_TIMEOUT(centre() >= 0 && centre() != mapped, scaledMs(10000));
    const int plain = centre();
    const cs::Rgb want = cs::toneMapCode8(cs::makeToneMap(cs::Transfer::Pq, cs::Primaries::Bt2020), plain, plain, plain);
    QCOMPARE(mapped, want.r);
    // The switch is remembered: the next wall starts with it off; the viewer's own is apart.
    QVERIFY(!cs::settings::wallToneMapHdr());
    {
        WallWindow next("cpu");
        auto* again = next.findChild<QAction*>(QStringLiteral("toneMap"));
        QVERIFY(again && !again->isChecked());
        again->setChecked(true);   // as it was, for the cases after
    }
    QVERIFY(cs::settings::wallToneMapHdr());
    cs::settings::Choices viewer;
    cs::settings::load(viewer);
    QVERIFY(viewer.toneMapHdr);
}

CS_GUI_TEST_MAIN(TestWall)

#include "test_wall.moc"
