// MainWindow, guides: View > Guides, the safe areas (action 93%, title 90%: SMPTE ST 2046-1,
// EBU R 95), aspect ratio guides and a centre cross over the picture (render/PictureGuides.h,
// drawn by PictureView), and the shown frame's active picture (analysis/ActivePicture.h,
// found again on each frame shown, on a host copy of a frame in GPU memory). Each is a checkable action, remembered between runs.
#include "MainWindow.h"

#include <QAction>
#include <QMenu>

#include "PictureView.h"
#include "analysis/ActivePicture.h"
#include "ui/Settings.h"

namespace cs {

void MainWindow::buildGuides(QMenu* view) {
    QMenu* menu = view->addMenu(tr("Guides"));
    menu->setObjectName(QStringLiteral("guidesMenu"));
    viewer_->setGuides(settings::pictureGuides());
    auto add = [&](const QString& text, const QString& name, bool on, auto apply) {
        QAction* a = menu->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setChecked(on);
        connect(a, &QAction::toggled, this, [this, apply](bool checked) {
            PictureGuides g = viewer_->guides();
            apply(g, checked);
            viewer_->setGuides(g);
            settings::setPictureGuides(g);
            showActivePicture();   // found for the frame shown now, not only the next one
        });
        return a;
    };
    const PictureGuides& g = viewer_->guides();
    add(tr("Action Safe (93%)"), QStringLiteral("guideActionSafe"), g.actionSafe, [](PictureGuides& x, bool on) { x.actionSafe = on; })
        ->setToolTip(tr("SMPTE ST 2046-1 / EBU R 95 action safe area: 93% of the width and height"));
    add(tr("Title Safe (90%)"), QStringLiteral("guideTitleSafe"), g.titleSafe, [](PictureGuides& x, bool on) { x.titleSafe = on; })
        ->setToolTip(tr("SMPTE ST 2046-1 / EBU R 95 title (graphics) safe area: 90% of the width and height"));
    add(tr("Centre Cross"), QStringLiteral("guideCentre"), g.centreCross, [](PictureGuides& x, bool on) { x.centreCross = on; });
    add(tr("Active Picture"), QStringLiteral("guideActivePicture"), g.activePicture, [](PictureGuides& x, bool on) { x.activePicture = on; })
        ->setToolTip(tr("The shown frame's active picture inside letterbox or pillarbox bars (FFmpeg cropdetect's rule, "
                      "as qc's active_area events)"));
    menu->addSeparator();
    for (AspectGuide a : kAspectGuides) {
        const QString name = QString::fromLatin1(aspectName(a));
        add(tr("Aspect %1").arg(name), QStringLiteral("guideAspect") + QString(name).replace(QLatin1Char(':'), QLatin1Char('x')),
            g.shows(a), [a](PictureGuides& x, bool on) { x.set(a, on); })
            ->setToolTip(tr("The frame lines of a centred %1 extraction").arg(name));
    }
}

void MainWindow::showActivePicture() {
    std::optional<FrameRegion> area;
    std::optional<FrameView> shown = viewer_->guides().activePicture ? shownFrame() : std::nullopt;
    // A frame in GPU memory (NVDEC's) is read on the host: copied there once per frame shown
    // while the guide is on (a 4K NV12 frame, 12 MB; the pixel picker's copy on the engine's
    // stream, EngineHost::copyToHost).
    Result<Frame> copied = Status::error("not copied");
    if (shown && shown->onDevice) {
        copied = engine_.copyToHost(*shown);
        shown = copied ? std::optional<FrameView>(copied->view()) : std::nullopt;
    }
    if (shown)
        if (const std::optional<CropArea> a = activePictureOf(*shown); a && a->w > 0 && a->h > 0)
            area = FrameRegion{a->x, a->y, a->w, a->h};
    viewer_->setActiveArea(area);
}

}  // namespace cs
