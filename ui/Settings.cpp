// The window's remembered settings (see Settings.h).
#include "Settings.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>
#include <string_view>

#include "core/Color.h"
#include "core/Gamut.h"
#include "core/PeakingColour.h"
#include "core/PeakingWidth.h"
#include "core/ScopeZoom.h"
#include "scope/ReferenceLines.h"

namespace cs::settings {
namespace {

QString latin1(std::string_view s) { return QString::fromLatin1(s.data(), qsizetype(s.size())); }

// A zoom the window offers: a power of two from 1 to kMaxVectorscopeZoom.
int vectorscopeZoomChoice(int zoom) {
    int z = vectorscopeZoomFactor(zoom);
    while ((z & (z - 1)) != 0) z &= z - 1;
    return z;
}

LevelRange loadRange(const QSettings& s, const QString& key, LevelRange fallback) {
    return levelRangeOf(LevelRange{s.value(key + QStringLiteral("Lo"), fallback.lo).toDouble(),
                                   s.value(key + QStringLiteral("Hi"), fallback.hi).toDouble()});
}
void saveRange(QSettings& s, const QString& key, LevelRange r) {
    s.setValue(key + QStringLiteral("Lo"), r.lo);
    s.setValue(key + QStringLiteral("Hi"), r.hi);
}

QString recentKey(Recent kind) {
    return kind == Recent::Files ? QStringLiteral("recent/files") : QStringLiteral("recent/urls");
}

}  // namespace

namespace {

// One reader and one writer of the choices: the window's own (the file's top level) and a
// layout preset's (its group, the scope fields alone) go through them.
void loadFrom(const QSettings& s, Choices& c, bool scopesOnly) {
    ScopeSpec& spec = c.spec;
    spec.histogramScale = HistogramScale(s.value(QStringLiteral("scopes/histogramScale"), int(spec.histogramScale)).toInt() == 1 ? 1 : 0);
    c.histogramChannels = HistogramChannels(
        std::clamp(s.value(QStringLiteral("scopes/histogramChannels"), int(c.histogramChannels)).toInt(), 0, 2));
    spec.waveformScale = WaveformScale(s.value(QStringLiteral("scopes/waveformScale"), int(spec.waveformScale)).toInt() == 1 ? 1 : 0);
    spec.paradeMode = ParadeMode(s.value(QStringLiteral("scopes/paradeMode"), int(spec.paradeMode)).toInt() == 1 ? 1 : 0);
    spec.vectorscopeZoom = vectorscopeZoomChoice(s.value(QStringLiteral("scopes/vectorscopeZoom"), spec.vectorscopeZoom).toInt());
    spec.waveformRange = loadRange(s, QStringLiteral("scopes/waveformZoom"), spec.waveformRange);
    spec.paradeRange = loadRange(s, QStringLiteral("scopes/paradeZoom"), spec.paradeRange);
    spec.vectorscopeTargets75 = s.value(QStringLiteral("scopes/targets75"), spec.vectorscopeTargets75).toBool();
    spec.skinToneLine = s.value(QStringLiteral("scopes/skinLine"), spec.skinToneLine).toBool();
    auto gain = [&](const char* key, float fallback) {
        return std::clamp(s.value(QString::fromLatin1(key), fallback).toFloat(), 0.25f, 16.0f);
    };
    spec.histogramGain = gain("scopes/histogramGain", spec.histogramGain);
    spec.waveformGain = gain("scopes/waveformGain", spec.waveformGain);
    spec.vectorscopeGain = gain("scopes/vectorscopeGain", spec.vectorscopeGain);
    spec.waveformMode = WaveformMode(std::clamp(s.value(QStringLiteral("scopes/waveformMode"), int(spec.waveformMode)).toInt(), 0, 2));
    if (spec.waveformMode != WaveformMode::Luma) spec.paradeMode = ParadeMode::Rgb;   // they read its R'G'B' counts
    spec.traceColour = TraceColour(std::clamp(s.value(QStringLiteral("scopes/traceColour"), int(spec.traceColour)).toInt(), 0, 2));
    if (auto lines = parseReferenceLines(s.value(QStringLiteral("scopes/referenceLines"), QStringLiteral("none")).toString().toStdString()))
        spec.referenceLines = *lines;
    if (auto colour = parsePeakingColour(s.value(QStringLiteral("filters/peakingColour"), QString()).toString().toStdString()))
        spec.filter.peakingColour = *colour;
    if (auto width = parsePeakingWidth(s.value(QStringLiteral("filters/peakingWidth"), QString()).toString().toStdString()))
        spec.filter.peakingWidth = *width;
    if (auto f = previewFromName(s.value(QStringLiteral("scopes/preview"), QString()).toString().toStdString());
        f && *f != PreviewFilter::None)
        c.preview = *f;
    c.previewInViewer = s.value(QStringLiteral("scopes/previewInViewer"), c.previewInViewer).toBool();
    if (auto m = cieModeFromName(s.value(QStringLiteral("scopes/cieMode"), QString()).toString().toStdString())) spec.cieMode = *m;
    if (auto d = gamutDisplayFromName(s.value(QStringLiteral("scopes/gamutDisplay"), QString()).toString().toStdString());
        d && *d != GamutDisplay::None)
        c.gamutDisplay = *d;
    if (auto l = arrowheadLimitFromName(s.value(QStringLiteral("scopes/arrowheadLimit"), QString()).toString().toStdString()))
        spec.arrowheadLimit = *l;
    if (auto t = gamutTargetFromName(s.value(QStringLiteral("scopes/gamutTarget"), QString()).toString().toStdString()))
        spec.gamutTarget = *t;
    FilterParams& fp = spec.filter;
    fp.peakingThreshold = std::clamp(s.value(QStringLiteral("filters/peakingThreshold"), fp.peakingThreshold).toFloat(), 0.01f, 1.0f);
    fp.zebraIre = std::clamp(s.value(QStringLiteral("filters/zebraIre"), fp.zebraIre).toFloat(), 0.0f, 109.0f);
    fp.blurRadius = std::clamp(s.value(QStringLiteral("filters/blurRadius"), fp.blurRadius).toInt(), 1, 64);
    fp.gaussianSigma = std::clamp(s.value(QStringLiteral("filters/gaussianSigma"), fp.gaussianSigma).toFloat(), 0.3f, 20.0f);
    if (scopesOnly) return;
    c.gamutCheck = s.value(QStringLiteral("scopes/gamutCheck"), c.gamutCheck).toBool();
    c.toneMapHdr = s.value(QStringLiteral("view/toneMapHdr"), c.toneMapHdr).toBool();
    spec.colorOverride.matrix = matrixFromName(s.value(QStringLiteral("colour/matrix"), QString()).toString().toStdString());
    spec.colorOverride.range = rangeFromName(s.value(QStringLiteral("colour/range"), QString()).toString().toStdString());
    spec.colorOverride.transfer = transferFromName(s.value(QStringLiteral("colour/transfer"), QString()).toString().toStdString());
    c.loop = s.value(QStringLiteral("playback/loop"), c.loop).toBool();
    c.playOnOpen = s.value(QStringLiteral("playback/playOnOpen"), c.playOnOpen).toBool();
    c.nvdec = s.value(QStringLiteral("decode/nvdec"), c.nvdec).toBool();
}

void saveTo(QSettings& s, const Choices& c, bool scopesOnly) {
    const ScopeSpec& spec = c.spec;
    s.setValue(QStringLiteral("scopes/histogramScale"), int(spec.histogramScale));
    s.setValue(QStringLiteral("scopes/histogramChannels"), int(c.histogramChannels));
    s.setValue(QStringLiteral("scopes/waveformScale"), int(spec.waveformScale));
    s.setValue(QStringLiteral("scopes/paradeMode"), int(spec.paradeMode));
    s.setValue(QStringLiteral("scopes/vectorscopeZoom"), spec.vectorscopeZoom);
    saveRange(s, QStringLiteral("scopes/waveformZoom"), spec.waveformRange);
    saveRange(s, QStringLiteral("scopes/paradeZoom"), spec.paradeRange);
    s.setValue(QStringLiteral("scopes/targets75"), spec.vectorscopeTargets75);
    s.setValue(QStringLiteral("scopes/skinLine"), spec.skinToneLine);
    s.setValue(QStringLiteral("scopes/histogramGain"), spec.histogramGain);
    s.setValue(QStringLiteral("scopes/waveformGain"), spec.waveformGain);
    s.setValue(QStringLiteral("scopes/vectorscopeGain"), spec.vectorscopeGain);
    s.setValue(QStringLiteral("scopes/waveformMode"), int(spec.waveformMode));
    s.setValue(QStringLiteral("scopes/traceColour"), int(spec.traceColour));
    s.setValue(QStringLiteral("scopes/referenceLines"), QString::fromStdString(referenceLinesText(spec.referenceLines)));
    s.setValue(QStringLiteral("filters/peakingColour"), QString::fromStdString(peakingColourText(spec.filter.peakingColour)));
    s.setValue(QStringLiteral("filters/peakingWidth"), QString::number(spec.filter.peakingWidth));
    s.setValue(QStringLiteral("scopes/preview"), latin1(previewName(c.preview)));
    s.setValue(QStringLiteral("scopes/previewInViewer"), c.previewInViewer);
    s.setValue(QStringLiteral("scopes/cieMode"), latin1(cieModeName(spec.cieMode)));
    s.setValue(QStringLiteral("scopes/gamutDisplay"), latin1(gamutDisplayName(c.gamutDisplay)));
    s.setValue(QStringLiteral("scopes/arrowheadLimit"), latin1(arrowheadLimitName(spec.arrowheadLimit)));
    s.setValue(QStringLiteral("scopes/gamutTarget"), latin1(gamutTargetName(spec.gamutTarget)));
    s.setValue(QStringLiteral("filters/peakingThreshold"), spec.filter.peakingThreshold);
    s.setValue(QStringLiteral("filters/zebraIre"), spec.filter.zebraIre);
    s.setValue(QStringLiteral("filters/blurRadius"), spec.filter.blurRadius);
    s.setValue(QStringLiteral("filters/gaussianSigma"), spec.filter.gaussianSigma);
    if (scopesOnly) return;
    s.setValue(QStringLiteral("scopes/gamutCheck"), c.gamutCheck);
    s.setValue(QStringLiteral("view/toneMapHdr"), c.toneMapHdr);
    const ColorOverride& o = spec.colorOverride;
    s.setValue(QStringLiteral("colour/matrix"), o.matrix ? latin1(matrixName(*o.matrix)) : QString());
    s.setValue(QStringLiteral("colour/range"), o.range ? latin1(rangeName(*o.range)) : QString());
    s.setValue(QStringLiteral("colour/transfer"), o.transfer ? latin1(transferName(*o.transfer)) : QString());
    s.setValue(QStringLiteral("playback/loop"), c.loop);
    s.setValue(QStringLiteral("playback/playOnOpen"), c.playOnOpen);
    s.setValue(QStringLiteral("decode/nvdec"), c.nvdec);
}

}  // namespace

void load(Choices& c) { loadFrom(QSettings(), c, false); }

void save(const Choices& c) {
    QSettings s;
    saveTo(s, c, false);
}

void applyScopeChoices(const Choices& from, Choices& to) {
    const ColorOverride keep = to.spec.colorOverride;
    const PreviewFilter active = to.spec.preview;
    to.spec = from.spec;
    to.spec.colorOverride = keep;
    to.spec.preview = active;
    to.histogramChannels = from.histogramChannels;
    to.gamutDisplay = from.gamutDisplay;
    to.preview = from.preview;
    to.previewInViewer = from.previewInViewer;
}

bool wallToneMapHdr() {
    const QSettings s;
    // Until the wall's own switch is used it follows the viewer's.
    return s.value(QStringLiteral("wall/toneMapHdr"), s.value(QStringLiteral("view/toneMapHdr"), true)).toBool();
}
void setWallToneMapHdr(bool on) { QSettings().setValue(QStringLiteral("wall/toneMapHdr"), on); }

// ---- Layout presets ------------------------------------------------------------------------

QString checkLayoutName(const QString& name, const QStringList& taken) {
    const QString n = name.trimmed();
    if (n.isEmpty()) return QObject::tr("Layout name \"%1\": a layout needs a name.").arg(name);
    if (n.size() > kLayoutNameMax)
        return QObject::tr("Layout name \"%1\": longer than %2 characters.").arg(n.left(kLayoutNameMax) + QStringLiteral("...")).arg(kLayoutNameMax);
    for (const QString& t : taken)
        if (t.compare(n, Qt::CaseInsensitive) == 0) return QObject::tr("Layout name \"%1\": a layout of that name exists.").arg(n);
    return {};
}

std::vector<LayoutPreset> layoutPresets(QSettings& r) {
    std::vector<LayoutPreset> out;
    const int n = r.beginReadArray(QStringLiteral("layouts"));
    for (int i = 0; i < n; ++i) {
        r.setArrayIndex(i);
        LayoutPreset p;
        p.name = r.value(QStringLiteral("name")).toString().trimmed();
        p.state = r.value(QStringLiteral("state")).toByteArray();
        p.picture = r.value(QStringLiteral("picture"), true).toBool();
        loadFrom(r, p.choices, true);
        // A damaged entry (no name, or a name twice) is left out rather than shown wrong.
        QStringList taken;
        for (const LayoutPreset& q : out) taken << q.name;
        if (!checkLayoutName(p.name, taken).isEmpty()) continue;
        out.push_back(std::move(p));
    }
    r.endArray();
    return out;
}

void setLayoutPresets(QSettings& s, const std::vector<LayoutPreset>& presets) {
    s.remove(QStringLiteral("layouts"));
    s.beginWriteArray(QStringLiteral("layouts"), int(presets.size()));
    for (size_t i = 0; i < presets.size(); ++i) {
        s.setArrayIndex(int(i));
        const LayoutPreset& p = presets[i];
        s.setValue(QStringLiteral("name"), p.name);
        s.setValue(QStringLiteral("state"), p.state);
        s.setValue(QStringLiteral("picture"), p.picture);
        saveTo(s, p.choices, true);
    }
    s.endArray();
}

std::vector<LayoutPreset> layoutPresets() {
    QSettings s;
    return layoutPresets(s);
}
void setLayoutPresets(const std::vector<LayoutPreset>& presets) {
    QSettings s;
    setLayoutPresets(s, presets);
}

PictureGuides pictureGuides() {
    const QSettings s;
    PictureGuides g;
    g.actionSafe = s.value(QStringLiteral("view/guideActionSafe"), false).toBool();
    g.titleSafe = s.value(QStringLiteral("view/guideTitleSafe"), false).toBool();
    g.centreCross = s.value(QStringLiteral("view/guideCentre"), false).toBool();
    g.activePicture = s.value(QStringLiteral("view/guideActivePicture"), false).toBool();
    g.aspects = s.value(QStringLiteral("view/guideAspects"), 0u).toUInt() & ((1u << std::size(kAspectGuides)) - 1u);
    return g;
}

void setPictureGuides(const PictureGuides& g) {
    QSettings s;
    s.setValue(QStringLiteral("view/guideActionSafe"), g.actionSafe);
    s.setValue(QStringLiteral("view/guideTitleSafe"), g.titleSafe);
    s.setValue(QStringLiteral("view/guideCentre"), g.centreCross);
    s.setValue(QStringLiteral("view/guideActivePicture"), g.activePicture);
    s.setValue(QStringLiteral("view/guideAspects"), g.aspects);
}

Listening listening() {
    QSettings s;
    Listening l;
    l.volume = std::clamp(s.value(QStringLiteral("audio/volume"), l.volume).toInt(), 0, 100);
    l.muted = s.value(QStringLiteral("audio/muted"), l.muted).toBool();
    l.channels = s.value(QStringLiteral("audio/listen"), l.channels).toString();
    return l;
}

void setListening(const Listening& l) {
    QSettings s;
    s.setValue(QStringLiteral("audio/volume"), l.volume);
    s.setValue(QStringLiteral("audio/muted"), l.muted);
    s.setValue(QStringLiteral("audio/listen"), l.channels);
}

QByteArray windowGeometry() { return QSettings().value(QStringLiteral("window/geometry")).toByteArray(); }
QByteArray windowState() { return QSettings().value(QStringLiteral("window/state")).toByteArray(); }

bool windowPictureShown() { return QSettings().value(QStringLiteral("window/picture"), true).toBool(); }

void saveWindow(const QByteArray& geometry, const QByteArray& state, bool pictureShown) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), geometry);
    s.setValue(QStringLiteral("window/state"), state);
    s.setValue(QStringLiteral("window/picture"), pictureShown);
}

QStringList recent(Recent kind) { return QSettings().value(recentKey(kind)).toStringList(); }

void addRecent(Recent kind, const QString& input) {
    QSettings s;
    QStringList list = s.value(recentKey(kind)).toStringList();
    list.removeAll(input);
    list.prepend(input);
    while (list.size() > kRecentMax) list.removeLast();
    s.setValue(recentKey(kind), list);
}

void clearRecent(Recent kind) { QSettings().remove(recentKey(kind)); }

QString openFolder() {
    // A folder that does not exist would be taken by the file dialog as a file name to fill in.
    const QString last = QSettings().value(QStringLiteral("recent/folder")).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
    const QString videos = QStandardPaths::writableLocation(QStandardPaths::MoviesLocation);
    if (!videos.isEmpty() && QFileInfo(videos).isDir()) return videos;
    return QDir::homePath();
}
void setOpenFolder(const QString& folder) { QSettings().setValue(QStringLiteral("recent/folder"), folder); }

ScopeExportChoice scopeExport(const QString& fallbackFolder) {
    QSettings s;
    ScopeExportChoice c;
    c.folder = s.value(QStringLiteral("export/folder"), fallbackFolder).toString();
    c.width = s.value(QStringLiteral("export/width"), c.width).toInt();
    c.height = s.value(QStringLiteral("export/height"), c.height).toInt();
    return c;
}

void saveScopeExport(const ScopeExportChoice& c) {
    QSettings s;
    s.setValue(QStringLiteral("export/folder"), c.folder);
    s.setValue(QStringLiteral("export/width"), c.width);
    s.setValue(QStringLiteral("export/height"), c.height);
}

RecordChoice recordChoice(const QString& fallbackFolder) {
    QSettings s;
    RecordChoice c;
    c.folder = s.value(QStringLiteral("record/folder"), fallbackFolder).toString();
    if (s.value(QStringLiteral("record/extension")).toString() == QStringLiteral("mkv")) c.extension = QStringLiteral("mkv");
    c.picture = s.value(QStringLiteral("record/picture"), false).toBool();
    c.width = std::clamp(s.value(QStringLiteral("record/width"), c.width).toInt() / 2 * 2, 64, 8192);
    c.height = std::clamp(s.value(QStringLiteral("record/height"), c.height).toInt() / 2 * 2, 64, 8192);
    c.hevc = s.value(QStringLiteral("record/hevc"), false).toBool();
    c.quality = std::clamp(s.value(QStringLiteral("record/quality"), c.quality).toInt(), 0, 51);
    return c;
}

void saveRecordChoice(const RecordChoice& c) {
    QSettings s;
    s.setValue(QStringLiteral("record/folder"), c.folder);
    s.setValue(QStringLiteral("record/extension"), c.extension);
    s.setValue(QStringLiteral("record/picture"), c.picture);
    s.setValue(QStringLiteral("record/width"), c.width);
    s.setValue(QStringLiteral("record/height"), c.height);
    s.setValue(QStringLiteral("record/hevc"), c.hevc);
    s.setValue(QStringLiteral("record/quality"), c.quality);
}

}  // namespace cs::settings
