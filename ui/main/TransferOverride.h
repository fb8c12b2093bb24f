// The transfer function in the window: the override combo of the toolbar's matrix/range
// row (Auto: the stream's tag; SDR BT.709, PQ, HLG forced) and its text in the status bar,
// with the frame's HDR light levels (core/Hdr.h) when it is PQ or HLG.
#pragma once
#include <QAction>
#include <QComboBox>
#include <QMenu>
#include <QString>

#include <functional>
#include <optional>

#include "core/Hdr.h"

namespace cs {

// "SDR", "PQ", "HLG", "sRGB", "linear", "unknown".
QString transferLabel(Transfer t);

// A combo (object name "transferCombo") showing `current`; `changed` gets the choice
// (nullopt: Auto) each time the user picks one.
QComboBox* makeTransferCombo(QWidget* parent, std::optional<Transfer> current,
                             std::function<void(std::optional<Transfer>)> changed);

// "  PQ" or, for a measured frame, "  PQ  max 1000 avg 87 nits"; with `toneMapped` (the
// viewer shows the picture through the HDR to SDR transform) "  → SDR" after it.
QString transferStatusText(Transfer t, const HdrStats* hdr, bool toneMapped = false);

// View > Tone Map HDR to SDR (object name "toneMap"): a checkable action added to `menu`,
// checked as `on`; `toggled` gets each change. Enabled only while the frame shown is PQ or
// HLG (setToneMapAvailable).
QAction* makeToneMapAction(QMenu* menu, bool on, std::function<void(bool)> toggled);
void setToneMapAvailable(QAction* action, Transfer shown);

// The false colour legend for frames of that transfer (rich text: a swatch and the lower
// bound of each band, in nits for PQ and HLG, IRE otherwise) and its tooltip (the bands' names).
QString falseColourLegendText(Transfer t);
QString falseColourLegendToolTip(Transfer t);

}  // namespace cs
