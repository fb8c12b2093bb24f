#include "TransferOverride.h"

#include <cmath>
#include <utility>

#include "core/Filters.h"
#include "core/HdrFalseColour.h"

namespace cs {

QString transferLabel(Transfer t) {
    switch (t) {
        case Transfer::Bt709: return QStringLiteral("SDR");
        case Transfer::Pq: return QStringLiteral("PQ");
        case Transfer::Hlg: return QStringLiteral("HLG");
        case Transfer::Srgb: return QStringLiteral("sRGB");
        case Transfer::Linear: return QStringLiteral("linear");
        case Transfer::Unspecified: break;
    }
    return QStringLiteral("unknown");
}

QComboBox* makeTransferCombo(QWidget* parent, std::optional<Transfer> current,
                             std::function<void(std::optional<Transfer>)> changed) {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QStringLiteral("transferCombo"));
    combo->setFocusPolicy(Qt::NoFocus);
    combo->setToolTip(QObject::tr("Transfer function: the stream's tag (Auto) or forced. PQ and HLG show the scopes "
                                  "in nits and measure the light levels (MaxCLL, FALL)"));
    combo->addItem(QObject::tr("Auto"), -1);
    combo->addItem(QStringLiteral("SDR BT.709"), int(Transfer::Bt709));
    combo->addItem(QStringLiteral("PQ"), int(Transfer::Pq));
    combo->addItem(QStringLiteral("HLG"), int(Transfer::Hlg));
    combo->setCurrentIndex(std::max(0, combo->findData(current ? int(*current) : -1)));
    QObject::connect(combo, &QComboBox::activated, combo, [combo, changed = std::move(changed)] {
        const int v = combo->currentData().toInt();
        changed(v < 0 ? std::nullopt : std::optional<Transfer>(Transfer(v)));
    });
    return combo;
}

QAction* makeToneMapAction(QMenu* menu, bool on, std::function<void(bool)> toggled) {
    QAction* a = menu->addAction(QObject::tr("Tone Map HDR to SDR"));
    a->setObjectName(QStringLiteral("toneMap"));
    a->setCheckable(true);
    a->setChecked(on);
    a->setEnabled(false);
    a->setToolTip(QObject::tr("Shows a PQ or HLG picture as an SDR display would show it (BT.2390 tone mapping, BT.709, "
                              "gamma 2.4). The scopes, the picker and the exports read the signal itself"));
    QObject::connect(a, &QAction::toggled, a, [toggled = std::move(toggled)](bool checked) { toggled(checked); });
    return a;
}

void setToneMapAvailable(QAction* action, Transfer shown) {
    if (action) action->setEnabled(isHdr(shown));
}

QString transferStatusText(Transfer t, const HdrStats* hdr, bool toneMapped) {
    QString text = QStringLiteral("  ") + transferLabel(t);
    if (hdr && hdr->measured && hdr->transfer == t)
        text += QObject::tr("  max %1 avg %2 nits")
                    .arg(std::lround(hdr->maxNits))
                    .arg(hdr->avgNits < 10.0 ? QString::number(hdr->avgNits, 'f', 1) : QString::number(std::lround(hdr->avgNits)));
    if (toneMapped && isHdr(t)) text += QStringLiteral("  \u2192 SDR");
    return text;
}

namespace {
QString swatch(uint32_t rgba) {
    const QString colour = rgba == 0 ? QStringLiteral("#808080")
                                     : QStringLiteral("#%1%2%3")
                                           .arg(rgba & 0xff, 2, 16, QLatin1Char('0'))
                                           .arg((rgba >> 8) & 0xff, 2, 16, QLatin1Char('0'))
                                           .arg((rgba >> 16) & 0xff, 2, 16, QLatin1Char('0'));
    return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;</span>").arg(colour);
}
QString nitsText(double nits) {
    if (nits >= 1000.0) return QStringLiteral("%1K").arg(nits / 1000.0);
    return QString::number(nits);
}
}  // namespace

QString falseColourLegendText(Transfer t) {
    QStringList items;
    if (isHdr(t)) {
        for (const HdrFalseColourBand& b : hdrFalseColourBands(t))
            items << swatch(b.rgba) + QStringLiteral("&nbsp;") + (b.loNits <= 0.0 ? QStringLiteral("&lt;0.1") : nitsText(b.loNits));
        return items.join(QStringLiteral(" ")) + QObject::tr(" nits");
    }
    for (const FalseColourBand& b : falseColourBands())
        items << swatch(b.rgba) + QStringLiteral("&nbsp;") +
                     (std::isinf(b.loIre) ? QStringLiteral("&lt;0") : (std::isinf(b.hiIre) ? QStringLiteral("&gt;100") : QString::number(double(b.loIre))));
    return items.join(QStringLiteral(" ")) + QObject::tr(" IRE");
}

QString falseColourLegendToolTip(Transfer t) {
    QStringList lines;
    if (isHdr(t)) {
        for (const HdrFalseColourBand& b : hdrFalseColourBands(t))
            lines << QStringLiteral("%1 .. %2 cd/m2: %3")
                         .arg(nitsText(b.loNits), std::isinf(b.hiNits) ? QStringLiteral("") : nitsText(b.hiNits), QString::fromUtf8(b.name));
    } else {
        for (const FalseColourBand& b : falseColourBands())
            lines << QStringLiteral("%1 .. %2 IRE: %3")
                         .arg(std::isinf(b.loIre) ? QString() : QString::number(double(b.loIre)),
                              std::isinf(b.hiIre) ? QString() : QString::number(double(b.hiIre)), QString::fromUtf8(b.name));
    }
    return lines.join(QLatin1Char('\n')) + QObject::tr("\n(grey bands show the luma itself)");
}

}  // namespace cs
