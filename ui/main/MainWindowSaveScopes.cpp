// MainWindow's Save Scopes (File > Save Scopes, Ctrl+Shift+S): the visible panels composed
// as they are laid out, and each scope's image written to a folder. Part of MainWindow, kept
// apart from the window's construction; the file names come from ScopeExport.h.
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>

#include "MainWindow.h"
#include "PictureView.h"
#include "ScopeExport.h"
#include "ScopeView.h"
#include "StatusBar.h"
#include "ui/Settings.h"

namespace cs {

using gl::Plane;

// ---- Export ---------------------------------------------------------------------------

QImage MainWindow::scopesComposite() {
    // Docked panels keep their places relative to each other, with the picture where the viewer
    // is among them; floating panels follow on the right.
    QRect docked;
    std::vector<QDockWidget*> inWindow, floating;
    for (Plane p : panels()) {
        QDockWidget* d = docks_[size_t(p)];
        if (!d->isVisible() || views_[size_t(p)]->visibleRegion().isEmpty()) continue;
        if (d->isFloating()) {
            floating.push_back(d);
        } else {
            inWindow.push_back(d);
            docked = docked.united(d->geometry());
        }
    }
    int width = docked.width(), height = docked.height();
    for (QDockWidget* d : floating) {
        width += d->width();
        height = std::max(height, d->height());
    }
    if (width <= 0 || height <= 0) return {};
    const qreal dpr = devicePixelRatioF();
    QImage out(QSize(width, height) * dpr, QImage::Format_RGB32);
    out.setDevicePixelRatio(dpr);
    out.fill(QColor(0x1a, 0x1a, 0x1a));
    QPainter painter(&out);
    // The picture where the viewer sits among the docked panels.
    if (!inWindow.empty()) {
        const QRect picture(viewer_->mapTo(this, QPoint(0, 0)), viewer_->size());
        if (picture.intersects(docked)) painter.drawImage(QRectF(picture.translated(-docked.topLeft())), viewer_->grabFramebuffer());
    }
    for (QDockWidget* d : inWindow) painter.drawPixmap(d->geometry().topLeft() - docked.topLeft(), d->grab());
    int x = docked.width();
    for (QDockWidget* d : floating) {
        painter.drawPixmap(QPoint(x, 0), d->grab());
        x += d->width();
    }
    return out;
}

Result<QStringList> MainWindow::saveScopesTo(const QString& folder, int width, int height) {
    if (!player_->hasFrame()) return Status::error("there is no frame to take the scopes of");
    ScopeExportRequest request;
    request.folder = folder;
    request.source = QString::fromStdString(player_->input());
    request.frameNumber = player_->currentFrameNumber();
    if (player_->currentFrame().timecode.known()) request.timecode = player_->currentFrame().timecode.text();
    request.spec = engine_.spec();
    request.spec.gamutDisplay = engine_.gamutDisplayMode;   // the gamut display panel's mode, shown or not
    request.width = width;
    request.height = height;
    request.composite = scopesComposite();
    const std::optional<FrameView> shown = shownFrame();   // the field, when one is shown
    if (!shown) return Status::error("the shown field of the frame could not be taken");
    return saveScopes(engine_.engine(), *shown, request);
}

void MainWindow::saveScopesDialog() {
    if (!player_->hasFrame()) {
        showError(tr("Save scopes: there is no frame yet."));
        return;
    }
    player_->pause();
    settings::ScopeExportChoice choice = settings::scopeExport(QStandardPaths::writableLocation(QStandardPaths::PicturesLocation));
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Save Scopes"));
    auto* folder = new QLineEdit(choice.folder);
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString d = QFileDialog::getExistingDirectory(&dialog, tr("Folder for the scope images"), folder->text());
        if (!d.isEmpty()) folder->setText(d);
    });
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder, 1);
    folderRow->addWidget(browse);
    auto* width = new QSpinBox;
    width->setRange(64, 8192);
    width->setValue(choice.width);
    auto* height = new QSpinBox;
    height->setRange(64, 8192);
    height->setValue(choice.height);
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(width);
    sizeRow->addWidget(new QLabel(QStringLiteral("x")));
    sizeRow->addWidget(height);
    sizeRow->addStretch(1);
    auto* presets = new QComboBox;
    presets->addItem(tr("Preset..."));
    for (const char* p : {"512x270", "1024x540", "1920x1080", "3840x2160"}) presets->addItem(QString::fromLatin1(p));
    sizeRow->addWidget(presets);
    connect(presets, &QComboBox::activated, &dialog, [&](int i) {
        const QStringList wh = presets->itemText(i).split(QLatin1Char('x'));
        if (wh.size() == 2) {
            width->setValue(wh[0].toInt());
            height->setValue(wh[1].toInt());
        }
    });
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("Folder"), folderRow);
    form->addRow(tr("Scope size"), sizeRow);
    auto* note = new QLabel(tr("Writes frame %1's picture, histogram, waveform, parade and vectorscope (the vectorscope "
                               "is height x height) as headless export draws them, plus scopes.png: the panels as shown. Files are named by "
                               "source and frame; names already taken get a number, nothing is overwritten.")
                                .arg(player_->currentFrameNumber()));
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;
    choice = {folder->text(), width->value(), height->value()};
    settings::saveScopeExport(choice);
    auto written = saveScopesTo(folder->text(), width->value(), height->value());
    if (!written) {
        showError(tr("Save scopes: %1").arg(QString::fromStdString(written.message())));
        return;
    }
    status_->showMessage(tr("Saved %1 images to %2").arg(written->size()).arg(folder->text()), 8000);
}

}  // namespace cs
