// The controls above each scope panel (modes, scales, targets, gain; the preview's filter
// and its parameter): part of MainWindow, kept apart because there are many of them. Each
// changes the engine's spec and asks for the displayed frame to be processed again.
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QSignalBlocker>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/FlowLayout.h"
#include "ui/GainControl.h"
#include "MainWindow.h"
#include "core/PeakingColour.h"
#include "core/PeakingWidth.h"
#include "scope/ReferenceLines.h"

namespace cs {
namespace {

using gl::Plane;

QString previewTitle(PreviewFilter f) {
    switch (f) {
        case PreviewFilter::None: return QObject::tr("Picture");
        case PreviewFilter::BoxBlur: return QObject::tr("Blur (box)");
        case PreviewFilter::Gaussian: return QObject::tr("Blur (Gaussian)");
        case PreviewFilter::Edges: return QObject::tr("Edges");
        case PreviewFilter::FocusPeaking: return QObject::tr("Focus peaking");
        case PreviewFilter::Median3: return QObject::tr("Median 3x3");
        case PreviewFilter::Zebra: return QObject::tr("Zebra");
        case PreviewFilter::FalseColour: return QObject::tr("False colour");
        case PreviewFilter::Gamut: return QObject::tr("Gamut (outside target)");
    }
    return {};
}

QComboBox* makeCombo(QWidget* parent, std::initializer_list<std::pair<QString, int>> items, int current) {
    auto* c = new QComboBox(parent);
    c->setFocusPolicy(Qt::NoFocus);
    for (const auto& [text, value] : items) c->addItem(text, value);
    c->setCurrentIndex(std::max(0, c->findData(current)));
    return c;
}

}  // namespace

QWidget* MainWindow::controlsFor(gl::Plane plane) {
    auto* box = new QWidget;
    box->setObjectName(QStringLiteral("scopeControls"));
    box->setAttribute(Qt::WA_StyledBackground);
    // The controls wrap onto further rows in a narrow panel (ui/FlowLayout.h).
    auto* row = new FlowLayout(box, 6);
    row->setContentsMargins(6, 2, 6, 2);
    ScopeSpec& spec = engine_.spec();
    auto changed = [this] { scheduleReprocess(); };
    auto gainFor = [&](float* target) {
        auto* g = new GainControl(box);
        g->setGain(*target);
        connect(g, &GainControl::gainChanged, this, [target, changed](float v) { *target = v; changed(); });
        return g;
    };
    auto scaleCombo = [&] {
        auto* c = makeCombo(box, {{tr("IRE / nits"), int(WaveformScale::Ire)}, {tr("Code values"), int(WaveformScale::CodeValue)}},
                            int(spec.waveformScale));
        c->setToolTip(tr("Graticule scale: IRE (cd/m2 for PQ and HLG sources) or code values at the source's bit depth"));
        connect(c, &QComboBox::activated, this, [this, c, changed] {
            engine_.spec().waveformScale = WaveformScale(c->currentData().toInt());
            // The waveform and parade share the scale: keep both panels' controls in step.
            for (auto* other : findChildren<QComboBox*>(QStringLiteral("waveformScale"))) {
                const QSignalBlocker block(other);
                other->setCurrentIndex(other->findData(int(engine_.spec().waveformScale)));
            }
            changed();
        });
        c->setObjectName(QStringLiteral("waveformScale"));
        return c;
    };
    switch (plane) {
        case Plane::Histogram: {
            auto* channels = makeCombo(box, {{tr("Y + RGB"), int(HistogramChannels::LumaAndRgb)},
                                             {tr("Luma"), int(HistogramChannels::Luma)},
                                             {tr("RGB"), int(HistogramChannels::Rgb)}},
                                       int(engine_.histogramChannels));
            connect(channels, &QComboBox::activated, this, [this, channels, changed] {
                engine_.histogramChannels = HistogramChannels(channels->currentData().toInt());
                changed();
            });
            auto* scale = makeCombo(box, {{tr("Linear"), int(HistogramScale::Linear)}, {tr("Log"), int(HistogramScale::Log)}},
                                    int(spec.histogramScale));
            connect(scale, &QComboBox::activated, this, [this, scale, changed] {
                engine_.spec().histogramScale = HistogramScale(scale->currentData().toInt());
                changed();
            });
            row->addWidget(channels);
            row->addWidget(scale);
            row->addStretch();
            row->addWidget(gainFor(&spec.histogramGain));
            break;
        }
        case Plane::Waveform: {
            auto* mode = makeCombo(box, {{tr("Luma"), int(WaveformMode::Luma)}, {tr("RGB overlay"), int(WaveformMode::RgbOverlay)},
                                         {tr("YRGB"), int(WaveformMode::Yrgb)}},
                                   int(spec.waveformMode));
            mode->setObjectName(QStringLiteral("waveformMode"));
            mode->setToolTip(tr("Luma; R'G'B' overlaid in one plot; or Y', R', G', B' side by side "
                                "(the last two read the R'G'B' parade's counts)"));
            connect(mode, &QComboBox::activated, this, [this, mode, changed] {
                engine_.spec().waveformMode = WaveformMode(mode->currentData().toInt());
                syncParadeMode();
                changed();
            });
            row->addWidget(mode);
            row->addWidget(scaleCombo());
            row->addWidget(referenceCombo(box));
            row->addWidget(traceColourCombo(box));
            addLevelZoomControls(box, row, plane);
            row->addStretch();
            row->addWidget(gainFor(&spec.waveformGain));
            break;
        }
        case Plane::Parade: {
            auto* mode = makeCombo(box, {{tr("R'G'B'"), int(ParadeMode::Rgb)}, {tr("Y'CbCr"), int(ParadeMode::Ycbcr)}},
                                   int(spec.paradeMode));
            mode->setObjectName(QStringLiteral("paradeMode"));
            connect(mode, &QComboBox::activated, this, [this, mode, changed] {
                engine_.spec().paradeMode = ParadeMode(mode->currentData().toInt());
                changed();
            });
            row->addWidget(mode);
            row->addWidget(scaleCombo());
            row->addWidget(referenceCombo(box));
            addLevelZoomControls(box, row, plane);
            row->addStretch();
            row->addWidget(gainFor(&spec.waveformGain));
            break;
        }
        case Plane::Vectorscope: {
            auto* zoom = makeCombo(box, {{tr("1x"), 1}, {tr("2x"), 2}, {tr("4x"), 4}, {tr("8x"), 8}, {tr("16x"), 16}},
                                   spec.vectorscopeZoom);
            zoom->setObjectName(QStringLiteral("vectorscopeZoom"));
            zoom->setToolTip(tr("Zoom around the centre (also the wheel over the vectorscope; double-click: 1x): "
                                "2x and more show low-saturation detail and crop the outer targets"));
            connect(zoom, &QComboBox::activated, this, [this, zoom, changed] {
                engine_.spec().vectorscopeZoom = zoom->currentData().toInt();
                changed();
            });
            auto* targets = makeCombo(box, {{tr("75% + 100%"), 1}, {tr("100%"), 0}}, spec.vectorscopeTargets75 ? 1 : 0);
            targets->setToolTip(tr("Colour-bar targets"));
            connect(targets, &QComboBox::activated, this, [this, targets, changed] {
                engine_.spec().vectorscopeTargets75 = targets->currentData().toInt() != 0;
                changed();
            });
            auto* skin = new QCheckBox(tr("Skin line"), box);
            skin->setFocusPolicy(Qt::NoFocus);
            skin->setChecked(spec.skinToneLine);
            connect(skin, &QCheckBox::toggled, this, [this, changed](bool on) {
                engine_.spec().skinToneLine = on;
                changed();
            });
            row->addWidget(zoom);
            row->addWidget(targets);
            row->addWidget(skin);
            row->addWidget(traceColourCombo(box));
            row->addStretch();
            row->addWidget(gainFor(&spec.vectorscopeGain));
            break;
        }
        case Plane::Cie: {
            auto* mode = makeCombo(box, {{tr("CIE 1931 xy"), int(CieMode::Xy)}, {tr("CIE 1976 u'v'"), int(CieMode::Uv)}},
                                   int(spec.cieMode));
            mode->setObjectName(QStringLiteral("cieMode"));
            connect(mode, &QComboBox::activated, this, [this, mode, changed] {
                engine_.spec().cieMode = CieMode(mode->currentData().toInt());
                changed();
            });
            auto* target = makeCombo(box, {{tr("BT.709"), int(Primaries::Bt709)}, {tr("P3-D65"), int(Primaries::P3D65)},
                                           {tr("BT.2020"), int(Primaries::Bt2020)}},
                                     int(spec.gamutTarget));
            target->setObjectName(QStringLiteral("gamutTarget"));
            target->setToolTip(tr("Target gamut: drawn brighter; the gamut check counts the pixels outside it"));
            connect(target, &QComboBox::activated, this, [this, target, changed] {
                engine_.spec().gamutTarget = Primaries(target->currentData().toInt());
                changed();
            });
            row->addWidget(mode);
            row->addWidget(new QLabel(tr("Target"), box));
            row->addWidget(target);
            row->addStretch();
            break;
        }
        case Plane::GamutDisplay: {
            // Tektronix's gamut displays (core/GamutDisplay.h); the limits only for the Arrowhead.
            auto* mode = makeCombo(box, {{tr("Diamond"), int(GamutDisplay::Diamond)},
                                         {tr("Split Diamond"), int(GamutDisplay::SplitDiamond)},
                                         {tr("Arrowhead"), int(GamutDisplay::Arrowhead)},
                                         {tr("Lightning"), int(GamutDisplay::Lightning)}},
                                   int(engine_.gamutDisplayMode));
            mode->setObjectName(QStringLiteral("gamutDisplayMode"));
            mode->setToolTip(tr("Diamond: R'G'B' gamut, B'/G' above and R'/G' below, EBU R 103's limits dashed; Split Diamond: "
                                "the halves apart at black; Arrowhead: composite luma + chroma against NTSC or PAL limits; "
                                "Lightning: Y' against Pb above and Pr below, with the colour-bar targets"));
            auto* limit = makeCombo(box, {{tr("NTSC 120 IRE"), int(ArrowheadLimit::Ntsc)},
                                          {tr("NTSC 110 IRE"), int(ArrowheadLimit::Ntsc110)},
                                          {tr("PAL 930 mV"), int(ArrowheadLimit::Pal)}},
                                    int(spec.arrowheadLimit));
            limit->setObjectName(QStringLiteral("arrowheadLimit"));
            limit->setToolTip(tr("The Arrowhead's composite limits: the upper and lower limit of luma + chroma"));
            limit->setEnabled(engine_.gamutDisplayMode == GamutDisplay::Arrowhead);
            connect(mode, &QComboBox::activated, this, [this, mode, limit, changed] {
                engine_.gamutDisplayMode = GamutDisplay(mode->currentData().toInt());
                limit->setEnabled(engine_.gamutDisplayMode == GamutDisplay::Arrowhead);
                changed();
            });
            connect(limit, &QComboBox::activated, this, [this, limit, changed] {
                engine_.spec().arrowheadLimit = ArrowheadLimit(limit->currentData().toInt());
                changed();
            });
            row->addWidget(mode);
            row->addWidget(limit);
            row->addStretch();
            row->addWidget(gainFor(&spec.vectorscopeGain));
            break;
        }
        case Plane::Preview: {
            auto* filter = new QComboBox(box);
            filter->setObjectName(QStringLiteral("previewFilter"));
            filter->setFocusPolicy(Qt::NoFocus);
            for (PreviewFilter f : {PreviewFilter::FocusPeaking, PreviewFilter::Zebra, PreviewFilter::FalseColour,
                                    PreviewFilter::Edges, PreviewFilter::BoxBlur, PreviewFilter::Gaussian, PreviewFilter::Median3,
                                    PreviewFilter::Gamut})
                filter->addItem(previewTitle(f), int(f));
            filter->setCurrentIndex(std::max(0, filter->findData(int(previewFilter_))));
            auto* param = new QDoubleSpinBox(box);
            param->setObjectName(QStringLiteral("previewParameter"));
            param->setFocusPolicy(Qt::ClickFocus);
            param->setKeyboardTracking(false);
            auto* paramLabel = new QLabel(box);
            falseColourLegend_ = new QLabel(box);
            falseColourLegend_->setObjectName(QStringLiteral("falseColourLegend"));
            falseColourLegend_->setTextFormat(Qt::RichText);
            falseColourLegend_->setWordWrap(true);   // wraps in a narrow panel, never widens it
            auto* peakColour = new QComboBox(box);
            peakColour->setObjectName(QStringLiteral("peakingColour"));
            peakColour->setFocusPolicy(Qt::NoFocus);
            peakColour->setToolTip(tr("Focus peaking colour"));
            for (const NamedColour& c : peakingColours()) {
                QPixmap swatch(12, 12);
                swatch.fill(QColor(int(c.rgba & 0xffu), int((c.rgba >> 8) & 0xffu), int((c.rgba >> 16) & 0xffu)));
                peakColour->addItem(QIcon(swatch), tr(c.name), QVariant::fromValue(uint(c.rgba)));
            }
            peakColour->setCurrentIndex(std::max(0, peakColour->findText(QString::fromStdString(peakingColourText(spec.filter.peakingColour)))));
            connect(peakColour, &QComboBox::activated, this, [this, peakColour, changed] {
                engine_.spec().filter.peakingColour = uint32_t(peakColour->currentData().toUInt());
                changed();
            });
            auto* peakWidth = new QComboBox(box);
            peakWidth->setObjectName(QStringLiteral("peakingWidth"));
            peakWidth->setFocusPolicy(Qt::NoFocus);
            peakWidth->setToolTip(tr("Focus peaking width: the edges widened to 1, 2 or 3 pixels"));
            for (int w = kMinPeakingWidth; w <= kMaxPeakingWidth; ++w) peakWidth->addItem(tr("%1 px").arg(w), w);
            peakWidth->setCurrentIndex(std::max(0, peakWidth->findData(spec.filter.peakingWidth)));
            connect(peakWidth, &QComboBox::activated, this, [this, peakWidth, changed] {
                engine_.spec().filter.peakingWidth = peakWidth->currentData().toInt();
                changed();
            });
            auto* inViewer = new QCheckBox(tr("In viewer"), box);
            inViewer->setObjectName(QStringLiteral("previewInViewer"));
            inViewer->setFocusPolicy(Qt::NoFocus);
            inViewer->setToolTip(tr("Show the preview in the main viewer instead of the picture"));
            inViewer->setChecked(previewInViewer_);
            // One parameter per filter, shown with its own label and range: the filter the box
            // shows (the gamut check's while it is on, MainWindow::syncPreviewControls).
            auto showParam = [this, filter, param, paramLabel, peakColour, peakWidth] {
                FilterParams& fp = engine_.spec().filter;
                const QSignalBlocker block(param);
                const auto shown = PreviewFilter(filter->currentData().toInt());
                falseColourLegend_->setVisible(shown == PreviewFilter::FalseColour);
                param->setVisible(true);
                paramLabel->setVisible(true);
                peakColour->setVisible(shown == PreviewFilter::FocusPeaking);
                peakWidth->setVisible(shown == PreviewFilter::FocusPeaking);
                switch (shown) {
                    case PreviewFilter::FocusPeaking:
                        paramLabel->setText(tr("Threshold"));
                        param->setRange(0.01, 1.0); param->setSingleStep(0.01); param->setDecimals(2);
                        param->setValue(double(fp.peakingThreshold));
                        break;
                    case PreviewFilter::Zebra:
                        paramLabel->setText(tr("IRE"));
                        param->setRange(0.0, 109.0); param->setSingleStep(1.0); param->setDecimals(0);
                        param->setValue(double(fp.zebraIre));
                        break;
                    case PreviewFilter::BoxBlur:
                        paramLabel->setText(tr("Radius"));
                        param->setRange(1, 64); param->setSingleStep(1); param->setDecimals(0);
                        param->setValue(fp.blurRadius);
                        break;
                    case PreviewFilter::Gaussian:
                        paramLabel->setText(tr("Sigma"));
                        param->setRange(0.3, 20.0); param->setSingleStep(0.1); param->setDecimals(1);
                        param->setValue(double(fp.gaussianSigma));
                        break;
                    default:
                        param->setVisible(false);
                        paramLabel->setVisible(false);
                }
            };
            connect(param, &QDoubleSpinBox::valueChanged, this, [this, changed](double v) {
                FilterParams& fp = engine_.spec().filter;
                switch (previewFilter_) {
                    case PreviewFilter::FocusPeaking: fp.peakingThreshold = float(v); break;
                    case PreviewFilter::Zebra: fp.zebraIre = float(v); break;
                    case PreviewFilter::BoxBlur: fp.blurRadius = int(std::lround(v)); break;
                    case PreviewFilter::Gaussian: fp.gaussianSigma = float(v); break;
                    default: break;
                }
                changed();
            });
            connect(filter, &QComboBox::activated, this, [this, filter] { setPreviewFilter(PreviewFilter(filter->currentData().toInt())); });
            connect(filter, &QComboBox::currentIndexChanged, this, showParam);
            connect(inViewer, &QCheckBox::toggled, this, &MainWindow::setPreviewInViewer);
            showParam();
            row->addWidget(filter);
            row->addWidget(paramLabel);
            row->addWidget(param);
            row->addWidget(falseColourLegend_);
            row->addWidget(peakColour);
            row->addWidget(peakWidth);
            row->addStretch();
            row->addWidget(inViewer);
            break;
        }
        default: break;
    }
    syncParadeMode();
    return box;
}

// The trace colour (every scope, both engines): one setting, its combos on several panels kept in step.
QComboBox* MainWindow::traceColourCombo(QWidget* parent) {
    auto* c = makeCombo(parent, {{tr("Colour"), int(TraceColour::Channel)}, {tr("Green"), int(TraceColour::Green)},
                                 {tr("White"), int(TraceColour::White)}},
                        int(engine_.spec().traceColour));
    c->setObjectName(QStringLiteral("traceColour"));
    c->setToolTip(tr("Trace colour: each channel in its colour (the vectorscope by hue), green or white"));
    connect(c, &QComboBox::activated, this, [this, c] {
        engine_.spec().traceColour = TraceColour(c->currentData().toInt());
        for (auto* other : findChildren<QComboBox*>(QStringLiteral("traceColour"))) {
            const QSignalBlocker block(other);
            other->setCurrentIndex(other->findData(int(engine_.spec().traceColour)));
        }
        scheduleReprocess();
    });
    return c;
}

// Reference lines over the waveform and parade: presets, or any list typed in (the syntax of
// scope/ReferenceLines.h, as export's --reference-lines); a bad list is refused with a message.
QComboBox* MainWindow::referenceCombo(QWidget* parent) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QStringLiteral("referenceLines"));
    c->setEditable(true);
    c->setInsertPolicy(QComboBox::NoInsert);
    c->setFocusPolicy(Qt::ClickFocus);
    c->setMinimumContentsLength(10);
    c->setToolTip(tr("Reference lines: none, 5%,95% (IRE), 16:8,235:8 (8-bit codes), 64:10,940:10 (10-bit codes), "
                     "or a comma list of such levels (a plain number is a code at the source's depth)"));
    for (const char* preset : {"none", "5%,95%", "16:8,235:8", "64:10,940:10"}) c->addItem(QString::fromLatin1(preset));
    c->setCurrentText(QString::fromStdString(referenceLinesText(engine_.spec().referenceLines)));
    auto apply = [this, c] {
        auto lines = parseReferenceLines(c->currentText().trimmed().toStdString());
        if (!lines) {
            showError(tr("Reference lines %1").arg(QString::fromStdString(lines.status().message())));
            c->setCurrentText(QString::fromStdString(referenceLinesText(engine_.spec().referenceLines)));
            return;
        }
        engine_.spec().referenceLines = *lines;
        const QString text = QString::fromStdString(referenceLinesText(*lines));
        for (auto* other : findChildren<QComboBox*>(QStringLiteral("referenceLines"))) {
            const QSignalBlocker block(other);
            other->setCurrentText(text);
        }
        scheduleReprocess();
    };
    connect(c, &QComboBox::activated, this, apply);
    connect(c->lineEdit(), &QLineEdit::editingFinished, this, apply);
    return c;
}

// RGB overlay and YRGB read the R'G'B' parade's counts: while one is shown the parade is
// R'G'B' and its mode cannot be changed.
// The preview's controls show what the viewer and the preview panel show: while the gamut
// check is on, its filter and the preview in the viewer.
void MainWindow::syncPreviewControls() {
    const bool gamut = engine_.gamutCheck, inViewer = previewInViewer_ || gamut;
    if (previewInViewerAction_) {
        const QSignalBlocker block(previewInViewerAction_);
        previewInViewerAction_->setChecked(inViewer);
    }
    if (auto* box = findChild<QCheckBox*>(QStringLiteral("previewInViewer"))) {
        const QSignalBlocker block(box);
        box->setChecked(inViewer);
    }
    if (auto* filter = findChild<QComboBox*>(QStringLiteral("previewFilter")))   // not `activated`: no choice made
        filter->setCurrentIndex(std::max(0, filter->findData(int(gamut ? PreviewFilter::Gamut : previewFilter_))));
}

void MainWindow::syncParadeMode() {
    ScopeSpec& spec = engine_.spec();
    const bool locked = spec.waveformMode != WaveformMode::Luma;
    if (locked) spec.paradeMode = ParadeMode::Rgb;
    for (auto* c : findChildren<QComboBox*>(QStringLiteral("paradeMode"))) {
        const QSignalBlocker block(c);
        c->setCurrentIndex(c->findData(int(spec.paradeMode)));
        c->setEnabled(!locked);
        c->setToolTip(locked ? tr("R'G'B' while the waveform shows RGB overlay or YRGB (they read these counts)") : QString());
    }
}

}  // namespace cs
