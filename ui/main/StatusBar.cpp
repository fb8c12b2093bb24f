// The main window's status bar (see StatusBar.h).
#include "StatusBar.h"

#include <QFileInfo>
#include <QLabel>

#include <string>
#include <string_view>

#include "playback/EngineHost.h"
#include "Player.h"
#include "playback/Timecode.h"
#include "TransferOverride.h"
#include "ui/ElidedLabel.h"
#include "core/Gamut.h"
#include "decode/PatternSource.h"

namespace cs {

StatusBar::StatusBar(const EngineHost& engine, const Player& player, QWidget* parent)
    : QStatusBar(parent), engine_(engine), player_(player) {
    auto label = [this](const QString& tip) {
        auto* l = new ElidedLabel(this);
        l->setToolTip(tip);
        return l;
    };
    picker_ = label(tr("Pixel picker: hover the picture; click to pin"));
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    picker_->setFont(mono);
    timecode_ = label(tr("The displayed frame's source timecode (\"elapsed\": the source has none)"));
    timecode_->setObjectName(QStringLiteral("statusTimecode"));
    timecode_->setFont(mono);
    source_ = label(tr("Source"));
    size_ = label(tr("Resolution"));
    format_ = label(tr("Pixel format, bit depth, matrix and range in use"));
    decoder_ = label(tr("Decoder"));
    engineName_ = label(tr("Scope engine"));
    fps_ = label(tr("Frames shown per second"));
    dropped_ = label(tr("Frames dropped (late) since the source opened"));
    time_ = label(tr("Engine time per frame (picture, preview and scopes)"));
    gamut_ = label(tr("Colour gamut: the pixels whose chromaticity is outside the target gamut (the CIE panel's "
                      "target; View > Gamut Check)"));
    gamut_->setObjectName(QStringLiteral("gamutReadout"));
    signal_ = label(tr("R'G'B' gamut: the pixels whose R'G'B' is outside EBU R 103's -5%..105% (before clamping); "
                       "out of legal: Y' or Cb/Cr outside the legal range (signalstats BRNG)"));
    signal_->setObjectName(QStringLiteral("signalReadout"));
    region_ = label(tr("The scopes measure this region of the frame alone (Ctrl+drag on the picture; Alt+click: a line); "
                       "Esc or View > Region > Clear Region: the whole frame"));
    region_->setObjectName(QStringLiteral("regionReadout"));
    region_->hide();
    addWidget(picker_, 1);
    for (QLabel* l : {timecode_, source_, size_, region_, format_, signal_, gamut_, decoder_, engineName_, fps_, dropped_, time_}) addPermanentWidget(l);
    engineName_->setText(tr("engine %1").arg(QString::fromUtf8(engine_.name().data(), qsizetype(engine_.name().size()))));
}

void StatusBar::refresh() {
    const SourceInfo& info = player_.info();
    if (!player_.hasSource()) {
        source_->setText(player_.isOpening() ? tr("opening %1...").arg(QString::fromStdString(player_.openingInput())) : tr("no source"));
        for (QLabel* l : {timecode_, size_, format_, decoder_}) l->clear();
    } else {
        const QString input = QString::fromStdString(player_.input());
        QString name = isPatternInput(player_.input()) || info.live ? input : QFileInfo(input).fileName();
        if (const std::string live = player_.liveStatusText(); !live.empty() && live != "playing")
            name += QStringLiteral("  (%1)").arg(QString::fromStdString(live));
        source_->setText(name);
        source_->setToolTip(input);
        if (player_.hasFrame()) {
            const FrameTimecode tc = shownTimecode(player_.currentFrame(), player_.frameRate());
            timecode_->setText((tc.isElapsed() ? tr("elapsed %1") : tr("TC %1")).arg(QString::fromStdString(tc.text())));
            timecode_->setToolTip(tc.isElapsed() ? tr("Elapsed time of the displayed frame: the source has no timecode")
                                                 : tr("Source timecode of the displayed frame, from the %1")
                                                       .arg(QString::fromLatin1(timecodeSourceName(tc.source))));
        }
        // Interlaced sources say so, and which field comes first (the stream's own field order).
        const bool interlaced = isInterlacedFieldOrder(info.fieldOrder);
        const QString order = QString::fromStdString(info.fieldOrder).toUpper();
        QString size = interlaced ? tr("%1x%2 interlaced %3").arg(info.width).arg(info.height).arg(order)
                                  : QStringLiteral("%1x%2").arg(info.width).arg(info.height);
        // One field shown (View > Fields): which, and whether the stream shows it first.
        if (engine_.field)
            size += tr("  %1 (%2)").arg(QString::fromLatin1(fieldName(*engine_.field)),
                                        *engine_.field == firstField(info.fieldOrder) ? tr("1st") : tr("2nd"));
        size_->setText(size);
        size_->setToolTip(info.fieldOrder.empty() ? tr("Resolution; the stream does not state its field order")
                                                  : tr("Resolution; fields: %1 (as the stream states it)")
                                                        .arg(QString::fromStdString(fieldOrderText(info.fieldOrder))));
        const ScopeResults& r = engine_.results();
        const ColorInfo c = engine_.hasResults() ? r.color : applyOverride(info.color, engine_.spec().colorOverride);
        const auto sv = [](std::string_view v) { return QString::fromLatin1(v.data(), qsizetype(v.size())); };
        // A matrix the stream does not tag is guessed from the frame size (HD: BT.709): said so.
        const bool assumed = !c.matrixTagged && !formatInfo(info.format).isRgb;
        format_->setText(QStringLiteral("%1  %2-bit  %3 %4")
                             .arg(QString::fromStdString(info.sourcePixFmt.empty() ? std::string(formatInfo(info.format).name) : info.sourcePixFmt))
                             .arg(formatInfo(info.format).bitDepth)
                             .arg(sv(matrixName(c.matrix)) + (assumed ? tr(" (assumed)") : QString()), sv(rangeName(c.range))) +
                         transferStatusText(c.transfer, engine_.hasResults() ? &r.hdr : nullptr,
                                            engine_.hasResults() && engine_.toneMapped()));
        decoder_->setText(QString::fromStdString(info.decoder));
    }
    const GamutResults& g = engine_.results().gamut;
    if (player_.hasSource() && engine_.hasResults() && g.measured) {
        const std::string_view target = primariesLabel(g.target);
        gamut_->setText(tr("outside %1 (colour gamut) %2%").arg(QString::fromLatin1(target.data(), qsizetype(target.size())))
                            .arg(g.outsideShare * 100.0, 0, 'f', 1));
        gamut_->show();
    } else {
        gamut_->clear();
        gamut_->hide();
    }
    // The R'G'B' gamut and the legal range of the frame's signal (the engine's statistics).
    if (player_.hasSource() && engine_.hasResults() && engine_.spec().stats) {
        const FrameStats& st = engine_.results().stats;
        signal_->setText(tr("R'G'B' out of range %1%  out of legal %2%").arg(st.outOfGamut * 100.0, 0, 'f', 1)
                             .arg(st.outOfLegal * 100.0, 0, 'f', 1));
        signal_->show();
    } else {
        signal_->clear();
        signal_->hide();
    }
    // The region the scopes measure: "region 640x360 at (320,180)", or "line 540".
    if (const std::optional<FrameRegion>& r = engine_.region) {
        const bool line = r->height == 1 && r->width == info.width;
        region_->setText(line ? tr("line %1").arg(r->y)
                              : tr("region %1x%2 at (%3,%4)").arg(r->width).arg(r->height).arg(r->x).arg(r->y));
        region_->show();
    } else {
        region_->clear();
        region_->hide();
    }
    fps_->setText(tr("%1 fps").arg(player_.presentedFps(), 0, 'f', 1));
    // Every frame the source delivered since it opened: shown, dropped (late, replaced), skipped
    // by a seek or a step, or waiting (Player::FrameCounts).
    const Player::FrameCounts fc = player_.frameCounts();
    dropped_->setText(tr("dropped %1").arg(fc.dropped()));
    dropped_->setToolTip(tr("%1 delivered = %2 shown + %3 dropped (%4 late, %5 replaced in the live mailbox) + %6 skipped "
                            "by seeks and steps + %7 waiting")
                             .arg(fc.delivered)
                             .arg(fc.shown)
                             .arg(fc.dropped())
                             .arg(fc.late)
                             .arg(fc.replaced)
                             .arg(fc.skipped)
                             .arg(fc.waiting));
    time_->setText(tr("%1 ms").arg(engine_.averageComputeMilliseconds(), 0, 'f', 1));
}

void StatusBar::setPickerText(const QString& text) {
    if (text.isEmpty()) picker_->clear();
    else picker_->setText(text);
}

QString StatusBar::pickerText() const { return picker_->text(); }

}  // namespace cs
