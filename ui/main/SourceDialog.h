// "Open Source...": one dialog for every kind of source, one page each. It builds the
// input string that openSource takes:
//   File          a path
//   Test pattern  pattern:bars|ramp|zoneplate[:10bit][:WxH]
//   Camera        v4l2:/dev/videoN[?size=WxH&fps=N&format=F] (decode/LiveInput.h), the
//                 devices and their modes as V4L2 reports them (decode/V4l2Devices.h)
//   Network       the URL (rtsp://, rtmp://, srt://, udp://, http(s)://...)
#pragma once
#include <QDialog>
#include <QStringList>

#include <vector>

#include "decode/V4l2Devices.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QTabWidget;

namespace cs {

class SourceDialog : public QDialog {
    Q_OBJECT
public:
    enum class Page { File, Pattern, Camera, Network };
    SourceDialog(const QStringList& recentFiles, const QStringList& recentUrls, QWidget* parent = nullptr);

    void setPage(Page page);
    Page page() const;
    // The input for openSource from the page shown ("" when the page is incomplete).
    QString input() const;

    static QString patternInput(const QString& pattern, bool tenBit, const QString& size);

private:
    QTabWidget* tabs_;
    QLineEdit* filePath_;
    QListWidget* recentFiles_;
    QComboBox *pattern_, *patternSize_;
    QCheckBox* patternTenBit_;
    void fillCameraFormats();
    void fillCameraSizes();
    void fillCameraRates();
    QComboBox *cameraDevice_, *cameraFormat_, *cameraSize_, *cameraRate_;
    std::vector<V4l2Device> cameras_;
    QComboBox* url_;
};

}  // namespace cs
