// Help > User Guide: docs/USER_GUIDE.md and its pictures (docs/guide/*.png), compiled into
// the binary as Qt resources (qrc:/docs/..., ui/CMakeLists.txt) so an installed binary shows
// them without the source tree; the package also installs them under share/doc/cudascope.
#pragma once
#include <QUrl>

class QDialog;
class QWidget;

namespace cs {

// The guide's resource address (qrc:/docs/USER_GUIDE.md); its pictures resolve beside it.
QUrl userGuideUrl();

// A non-modal dialog (object name "userGuide") showing the guide in a QTextBrowser (object
// name "userGuideText"), titled with the guide's first heading; deleted when closed. The
// guide's own links move within it; links to other sites open in the desktop's browser.
QDialog* openUserGuide(QWidget* parent);

}  // namespace cs
