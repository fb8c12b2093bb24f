#include "TransferOverride.h"

#include <cmath>
#include <utility>

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

QString transferStatusText(Transfer t, const HdrStats* hdr) {
    QString text = QStringLiteral("  ") + transferLabel(t);
    if (hdr && hdr->measured && hdr->transfer == t)
        text += QObject::tr("  max %1 avg %2 nits")
                    .arg(std::lround(hdr->maxNits))
                    .arg(hdr->avgNits < 10.0 ? QString::number(hdr->avgNits, 'f', 1) : QString::number(std::lround(hdr->avgNits)));
    return text;
}

}  // namespace cs
