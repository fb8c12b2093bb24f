// The source dialog's pages.
#include "SourceDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace cs {

SourceDialog::SourceDialog(const QStringList& recentFiles, const QStringList& recentUrls, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Open Source"));
    setMinimumWidth(560);
    tabs_ = new QTabWidget(this);

    // File.
    auto* filePage = new QWidget;
    filePath_ = new QLineEdit;
    filePath_->setPlaceholderText(tr("A video file: .mp4, .mov, .mkv, .mxf, .ts ..."));
    auto* browse = new QPushButton(tr("Browse..."));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(filePath_, 1);
    fileRow->addWidget(browse);
    recentFiles_ = new QListWidget;
    recentFiles_->addItems(recentFiles);
    auto* fileLayout = new QVBoxLayout(filePage);
    fileLayout->addLayout(fileRow);
    fileLayout->addWidget(new QLabel(tr("Recent files")));
    fileLayout->addWidget(recentFiles_, 1);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open Video File"), filePath_->text());
        if (!f.isEmpty()) filePath_->setText(f);
    });
    connect(recentFiles_, &QListWidget::currentTextChanged, filePath_, &QLineEdit::setText);
    connect(recentFiles_, &QListWidget::itemDoubleClicked, this, [this] { if (!input().isEmpty()) accept(); });

    // Test pattern.
    auto* patternPage = new QWidget;
    pattern_ = new QComboBox;
    pattern_->addItem(tr("SMPTE RP 219 colour bars"), QStringLiteral("bars"));
    pattern_->addItem(tr("Luma ramp (every code value)"), QStringLiteral("ramp"));
    pattern_->addItem(tr("Zone plate (moving)"), QStringLiteral("zoneplate"));
    patternTenBit_ = new QCheckBox(tr("10-bit"));
    patternSize_ = new QComboBox;
    for (const char* s : {"1920x1080", "3840x2160", "1280x720", "720x576", "720x486"}) patternSize_->addItem(QString::fromLatin1(s));
    patternSize_->setEditable(true);
    auto* patternForm = new QFormLayout(patternPage);
    patternForm->addRow(tr("Pattern"), pattern_);
    patternForm->addRow(tr("Bit depth"), patternTenBit_);
    patternForm->addRow(tr("Size"), patternSize_);
    patternForm->addRow(new QLabel(tr("25 fps, 10 s, BT.709 limited range.")));

    // Camera: the devices and the modes each reports (format, size, rate).
    auto* cameraPage = new QWidget;
    cameras_ = listV4l2Devices();
    cameraDevice_ = new QComboBox;
    cameraDevice_->setEditable(true);
    for (const V4l2Device& d : cameras_)
        cameraDevice_->addItem(QString::fromStdString(d.name + "  (" + d.path + ")"), QString::fromStdString(d.path));
    if (cameras_.empty()) cameraDevice_->setEditText(QStringLiteral("/dev/video0"));
    cameraFormat_ = new QComboBox;
    cameraSize_ = new QComboBox;
    cameraRate_ = new QComboBox;
    auto* cameraForm = new QFormLayout(cameraPage);
    cameraForm->addRow(tr("Device"), cameraDevice_);
    cameraForm->addRow(tr("Format"), cameraFormat_);
    cameraForm->addRow(tr("Size"), cameraSize_);
    cameraForm->addRow(tr("Frame rate"), cameraRate_);
    auto* cameraNote = new QLabel(cameras_.empty() ? tr("No video capture device was found (/dev/video*).")
                                                   : tr("Video4Linux capture devices; the modes are those the device reports."));
    cameraNote->setWordWrap(true);
    cameraForm->addRow(cameraNote);
    connect(cameraDevice_, &QComboBox::currentIndexChanged, this, &SourceDialog::fillCameraFormats);
    connect(cameraFormat_, &QComboBox::currentIndexChanged, this, &SourceDialog::fillCameraSizes);
    connect(cameraSize_, &QComboBox::currentIndexChanged, this, &SourceDialog::fillCameraRates);
    fillCameraFormats();

    // Network.
    auto* networkPage = new QWidget;
    url_ = new QComboBox;
    url_->setEditable(true);
    url_->addItems(recentUrls);
    url_->setCurrentIndex(-1);
    url_->lineEdit()->setPlaceholderText(QStringLiteral("rtsp://host:554/stream   srt://host:9000   udp://@:1234"));
    auto* networkForm = new QFormLayout(networkPage);
    networkForm->addRow(tr("URL"), url_);
    auto* networkNote = new QLabel(tr("Recent URLs are in the list. Live streams are shown as they arrive: late frames are dropped."));
    networkNote->setWordWrap(true);
    networkForm->addRow(networkNote);

    tabs_->addTab(filePage, tr("File"));
    tabs_->addTab(patternPage, tr("Test pattern"));
    tabs_->addTab(cameraPage, tr("Camera"));
    tabs_->addTab(networkPage, tr("Network"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_);
    layout->addWidget(buttons);

    auto ok = [this, buttons] { buttons->button(QDialogButtonBox::Open)->setEnabled(!input().isEmpty()); };
    connect(tabs_, &QTabWidget::currentChanged, this, ok);
    connect(filePath_, &QLineEdit::textChanged, this, ok);
    connect(url_, &QComboBox::editTextChanged, this, ok);
    connect(cameraDevice_, &QComboBox::editTextChanged, this, ok);
    connect(patternSize_, &QComboBox::editTextChanged, this, ok);
    ok();
}

void SourceDialog::setPage(Page page) { tabs_->setCurrentIndex(int(page)); }
SourceDialog::Page SourceDialog::page() const { return Page(tabs_->currentIndex()); }

QString SourceDialog::patternInput(const QString& pattern, bool tenBit, const QString& size) {
    QString s = QStringLiteral("pattern:") + pattern;
    if (tenBit) s += QStringLiteral(":10bit");
    if (!size.isEmpty() && size != QStringLiteral("1920x1080")) s += QStringLiteral(":") + size;
    return s;
}

// The chosen device's formats, then the chosen format's sizes, then the chosen size's rates;
// each list starts with the driver's own choice.
void SourceDialog::fillCameraFormats() {
    cameraFormat_->clear();
    cameraFormat_->addItem(tr("Device default"), -1);
    const int d = cameraDevice_->currentIndex();
    if (d >= 0 && d < int(cameras_.size()) && cameraDevice_->currentData().isValid()) {
        const auto& formats = cameras_[size_t(d)].formats;
        for (size_t i = 0; i < formats.size(); ++i)
            if (!formats[i].name.empty())
                cameraFormat_->addItem(QString::fromStdString(formats[i].description + "  (" + formats[i].name + ")"), int(i));
    }
    fillCameraSizes();
}

void SourceDialog::fillCameraSizes() {
    cameraSize_->clear();
    cameraSize_->addItem(tr("Device default"), -1);
    const int d = cameraDevice_->currentIndex(), f = cameraFormat_->currentData().toInt();
    if (d >= 0 && d < int(cameras_.size()) && f >= 0 && f < int(cameras_[size_t(d)].formats.size())) {
        const auto& sizes = cameras_[size_t(d)].formats[size_t(f)].sizes;
        for (size_t i = 0; i < sizes.size(); ++i)
            cameraSize_->addItem(QStringLiteral("%1x%2").arg(sizes[i].width).arg(sizes[i].height), int(i));
    }
    fillCameraRates();
}

void SourceDialog::fillCameraRates() {
    cameraRate_->clear();
    cameraRate_->addItem(tr("Device default"), QString());
    const int d = cameraDevice_->currentIndex(), f = cameraFormat_->currentData().toInt(), z = cameraSize_->currentData().toInt();
    if (d >= 0 && d < int(cameras_.size()) && f >= 0 && f < int(cameras_[size_t(d)].formats.size()) && z >= 0 &&
        z < int(cameras_[size_t(d)].formats[size_t(f)].sizes.size()))
        for (const V4l2FrameRate& r : cameras_[size_t(d)].formats[size_t(f)].sizes[size_t(z)].rates)
            cameraRate_->addItem(QStringLiteral("%1 fps").arg(r.fps(), 0, 'g', 4), QString::fromStdString(r.text()));
}

QString SourceDialog::input() const {
    switch (page()) {
        case Page::File: return filePath_->text().trimmed();
        case Page::Pattern: {
            static const QRegularExpression size(QStringLiteral("^\\d{2,5}x\\d{2,5}$"));
            const QString sz = patternSize_->currentText().trimmed();
            if (!size.match(sz).hasMatch()) return {};
            return patternInput(pattern_->currentData().toString(), patternTenBit_->isChecked(), sz);
        }
        case Page::Camera: {
            // A listed device by its path; a typed one as typed.
            const QString listed = cameraDevice_->currentData().toString();
            const QString device = !listed.isEmpty() && cameraDevice_->currentText() == cameraDevice_->itemText(cameraDevice_->currentIndex())
                                       ? listed
                                       : cameraDevice_->currentText().trimmed();
            if (device.isEmpty()) return {};
            CameraMode mode;
            const int d = cameraDevice_->currentIndex(), f = cameraFormat_->currentData().toInt(), z = cameraSize_->currentData().toInt();
            if (d >= 0 && d < int(cameras_.size()) && f >= 0 && f < int(cameras_[size_t(d)].formats.size())) {
                const V4l2PixelFormat& format = cameras_[size_t(d)].formats[size_t(f)];
                mode.format = format.name;
                if (z >= 0 && z < int(format.sizes.size())) {
                    mode.width = format.sizes[size_t(z)].width;
                    mode.height = format.sizes[size_t(z)].height;
                }
            }
            mode.fps = cameraRate_->currentData().toString().toStdString();
            return QString::fromStdString(v4l2Input(device.toStdString(), mode));
        }
        case Page::Network: return url_->currentText().trimmed();
    }
    return {};
}

}  // namespace cs
