#include "RecordDialog.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>

#include "ui/Settings.h"

namespace cs {

std::optional<RecordRequest> askRecording(QWidget* parent, const QString& source) {
    QString fallback = QStandardPaths::writableLocation(QStandardPaths::MoviesLocation);
    if (fallback.isEmpty() || !QFileInfo(fallback).isDir()) fallback = QDir::homePath();
    settings::RecordChoice choice = settings::recordChoice(fallback);
    if (!QFileInfo(choice.folder).isDir()) choice.folder = fallback;

    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Record"));
    auto* file = new QLineEdit(defaultRecordingPath(choice.folder, source, choice.extension));
    file->setObjectName(QStringLiteral("recordFile"));
    file->setMinimumWidth(420);
    auto* browse = new QPushButton(QObject::tr("Browse..."));
    QObject::connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString f = QFileDialog::getSaveFileName(&dialog, QObject::tr("Record to"), file->text(),
                                                       QObject::tr("MP4 (*.mp4);;Matroska (*.mkv)"));
        if (!f.isEmpty()) file->setText(f);
    });
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(file, 1);
    fileRow->addWidget(browse);

    auto* layout = new QComboBox;
    layout->addItem(QObject::tr("The panels as shown"), int(RecordLayout::Panels));
    layout->addItem(QObject::tr("The picture alone (the source's size)"), int(RecordLayout::Picture));
    layout->setCurrentIndex(choice.picture ? 1 : 0);
    auto* size = new QComboBox;
    for (const char* s : {"1280x720", "1920x1080", "2560x1440", "3840x2160"}) size->addItem(QString::fromLatin1(s));
    const QString current = QStringLiteral("%1x%2").arg(choice.width).arg(choice.height);
    if (size->findText(current) < 0) size->addItem(current);
    size->setCurrentText(current);
    size->setEnabled(!choice.picture);
    QObject::connect(layout, &QComboBox::currentIndexChanged, size, [=] { size->setEnabled(layout->currentIndex() == 0); });
    auto* codec = new QComboBox;
    codec->addItem(QStringLiteral("H.264"));
    codec->addItem(QStringLiteral("HEVC"));
    codec->setCurrentIndex(choice.hevc ? 1 : 0);
    auto* quality = new QSpinBox;
    quality->setRange(0, 51);
    quality->setValue(choice.quality);
    quality->setToolTip(QObject::tr("Constant quality: 0 is best, 51 smallest; 20 looks like the source"));

    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("File"), fileRow);
    form->addRow(QObject::tr("Record"), layout);
    form->addRow(QObject::tr("Size"), size);
    form->addRow(QObject::tr("Codec"), codec);
    form->addRow(QObject::tr("Quality"), quality);
    auto* note = new QLabel(QObject::tr("Encoded with NVENC where the GPU has it, else libx264 / libx265. An MP4 is "
                                        "written in one-second fragments: a recording cut off plays up to its last "
                                        "second. Press Record again (Ctrl+R) to stop."));
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    buttons->addButton(QObject::tr("Record"), QDialogButtonBox::AcceptRole)->setDefault(true);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return std::nullopt;

    RecordRequest r;
    r.path = file->text();
    r.layout = RecordLayout(layout->currentData().toInt());
    const QStringList wh = size->currentText().split(QLatin1Char('x'));
    r.width = wh.value(0).toInt();
    r.height = wh.value(1).toInt();
    r.codec = codec->currentIndex() == 1 ? VideoCodec::Hevc : VideoCodec::H264;
    r.quality = quality->value();

    const QFileInfo info(r.path);
    choice.folder = info.absolutePath();
    if (info.suffix().compare(QStringLiteral("mkv"), Qt::CaseInsensitive) == 0) choice.extension = QStringLiteral("mkv");
    else choice.extension = QStringLiteral("mp4");
    choice.picture = r.layout == RecordLayout::Picture;
    choice.width = r.width;
    choice.height = r.height;
    choice.hevc = r.codec == VideoCodec::Hevc;
    choice.quality = r.quality;
    settings::saveRecordChoice(choice);
    return r;
}

}  // namespace cs
