// MainWindow, layout presets (View > Layouts): the built-in Default, Scopes only and Picture
// only, and the layouts saved under a name (settings::LayoutPreset, kept in QSettings by
// ui/Settings.cpp with the same keys as the window's own scope settings). A saved layout's
// dock state that this build cannot restore (another version's, or damaged) is refused with
// a message and the window is left as it was. GUI thread only.
#include "MainWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QLayout>
#include <QMenu>
#include <QTimer>

#include <algorithm>

#include "PictureView.h"
#include "ui/audio/AudioDock.h"

namespace cs {

namespace {
const QString kDefault = QStringLiteral("Default"), kScopesOnly = QStringLiteral("Scopes only"),
              kPictureOnly = QStringLiteral("Picture only");

QStringList builtInLayouts() { return {kDefault, kScopesOnly, kPictureOnly}; }

QStringList namesOf(const std::vector<settings::LayoutPreset>& presets) {
    QStringList names;
    for (const auto& p : presets) names << p.name;
    return names;
}

std::vector<settings::LayoutPreset>::iterator findLayout(std::vector<settings::LayoutPreset>& presets, const QString& name) {
    return std::find_if(presets.begin(), presets.end(), [&](const auto& p) { return p.name == name; });
}
}  // namespace

QStringList MainWindow::layoutNames() const { return builtInLayouts() + namesOf(settings::layoutPresets()); }

bool MainWindow::pictureShown() const { return !centralWidget()->isHidden(); }

void MainWindow::setPictureShown(bool on) {
    centralWidget()->setVisible(on);
    if (on) viewer_->zoomToFit();
}

void MainWindow::buildLayouts(QMenu* view) {
    layoutsMenu_ = view->addMenu(tr("Layouts"));
    layoutsMenu_->setObjectName(QStringLiteral("layoutsMenu"));
    rebuildLayoutsMenu();
}

void MainWindow::rebuildLayoutsMenu() {
    // Out of the menu and the window now, deleted later: the action that asked for the
    // rebuild (Save Layout As...) is still delivering its signal.
    layoutsMenu_->clear();
    for (QAction* a : layoutActions_) {
        removeAction(a);
        a->setShortcut({});
        a->deleteLater();
    }
    layoutActions_.clear();
    const QStringList names = layoutNames();
    const int builtIn = int(builtInLayouts().size());
    for (int i = 0; i < names.size(); ++i) {
        if (i == builtIn) layoutsMenu_->addSeparator();
        const QString name = names[i];
        auto* a = new QAction(name, this);
        a->setObjectName(QStringLiteral("layout:") + name);
        if (i < 9) a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, name] { (void)applyLayout(name); });
        layoutsMenu_->addAction(a);
        addAction(a);   // its shortcut also with the menu bar hidden (the picture alone)
        layoutActions_.push_back(a);
    }
    layoutsMenu_->addSeparator();
    const bool anySaved = names.size() > builtIn;
    auto* save = new QAction(tr("Save Layout As..."), this);
    save->setObjectName(QStringLiteral("saveLayout"));
    connect(save, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Save Layout"), tr("Name of the layout (the docks, which panels show and their settings):"),
                                                   QLineEdit::Normal, QString(), &ok);
        if (ok) (void)saveLayoutAs(name);
    });
    auto* rename = new QAction(tr("Rename Layout..."), this);
    rename->setEnabled(anySaved);
    connect(rename, &QAction::triggered, this, [this] {
        bool ok = false;
        const QStringList saved = namesOf(settings::layoutPresets());
        const QString from = QInputDialog::getItem(this, tr("Rename Layout"), tr("Layout:"), saved, 0, false, &ok);
        if (!ok) return;
        const QString to = QInputDialog::getText(this, tr("Rename Layout"), tr("New name of \"%1\":").arg(from), QLineEdit::Normal, from, &ok);
        if (ok) (void)renameLayout(from, to);
    });
    auto* remove = new QAction(tr("Delete Layout..."), this);
    remove->setEnabled(anySaved);
    connect(remove, &QAction::triggered, this, [this] {
        bool ok = false;
        const QStringList saved = namesOf(settings::layoutPresets());
        const QString name = QInputDialog::getItem(this, tr("Delete Layout"), tr("Layout:"), saved, 0, false, &ok);
        if (ok) (void)deleteLayout(name);
    });
    for (QAction* a : {save, rename, remove}) {
        layoutsMenu_->addAction(a);
        layoutActions_.push_back(a);
    }
}

Status MainWindow::saveLayoutAs(const QString& name) {
    std::vector<settings::LayoutPreset> presets = settings::layoutPresets();
    const QString problem = settings::checkLayoutName(name, builtInLayouts() + namesOf(presets));
    if (!problem.isEmpty()) {
        showError(problem);
        return Status::error(problem.toStdString());
    }
    setFullScreenPicture(false);   // the panels and bars as they are outside it
    settings::LayoutPreset p;
    p.name = name.trimmed();
    p.state = saveState(kStateVersion);
    p.picture = pictureShown();
    p.choices = currentChoices();
    presets.push_back(std::move(p));
    settings::setLayoutPresets(presets);
    rebuildLayoutsMenu();
    return {};
}

Status MainWindow::renameLayout(const QString& from, const QString& to) {
    std::vector<settings::LayoutPreset> presets = settings::layoutPresets();
    auto it = findLayout(presets, from);
    QString problem;
    if (it == presets.end()) {
        problem = tr("Layout \"%1\": no saved layout of that name.").arg(from);
    } else {
        QStringList taken = builtInLayouts();
        for (const auto& p : presets)
            if (p.name != from) taken << p.name;
        problem = settings::checkLayoutName(to, taken);
    }
    if (!problem.isEmpty()) {
        showError(problem);
        return Status::error(problem.toStdString());
    }
    it->name = to.trimmed();
    settings::setLayoutPresets(presets);
    rebuildLayoutsMenu();
    return {};
}

Status MainWindow::deleteLayout(const QString& name) {
    std::vector<settings::LayoutPreset> presets = settings::layoutPresets();
    auto it = findLayout(presets, name);
    if (it == presets.end()) {
        const QString problem = builtInLayouts().contains(name) ? tr("Layout \"%1\": a built-in layout cannot be deleted.").arg(name)
                                                                : tr("Layout \"%1\": no saved layout of that name.").arg(name);
        showError(problem);
        return Status::error(problem.toStdString());
    }
    presets.erase(it);
    settings::setLayoutPresets(presets);
    rebuildLayoutsMenu();
    return {};
}

Status MainWindow::applyLayout(const QString& name) {
    if (name == kDefault) {
        resetLayout();
        setPictureShown(true);
        return {};
    }
    if (name == kScopesOnly || name == kPictureOnly) {
        setFullScreenPicture(false);
        restoreState(defaultState_, kStateVersion);
        const bool scopes = name == kScopesOnly;
        for (QDockWidget* d : findChildren<QDockWidget*>()) {
            if (d->parentWidget() != this) continue;
            d->setFloating(false);
            if (!scopes) d->hide();
        }
        if (scopes) {
            showAllPanels();
            audio_->dock()->show();
        }
        setPictureShown(!scopes);
        if (scopes) QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
        return {};
    }
    std::vector<settings::LayoutPreset> presets = settings::layoutPresets();
    const auto it = findLayout(presets, name);
    if (it == presets.end()) {
        const QString problem = tr("Layout \"%1\": no layout of that name.").arg(name);
        showError(problem);
        return Status::error(problem.toStdString());
    }
    setFullScreenPicture(false);
    // restoreState checks the whole state before it changes anything: refused, the window is as it was.
    if (!restoreState(it->state, kStateVersion)) {
        const QString problem = tr("Layout \"%1\": its panels were saved by another version of cudascope or are damaged, "
                                   "so it cannot be restored; save it again.").arg(name);
        showError(problem);
        return Status::error(problem.toStdString());
    }
    setPictureShown(it->picture);
    applyScopeChoices(it->choices);
    return {};
}

void MainWindow::applyScopeChoices(const settings::Choices& preset) {
    settings::Choices c = currentChoices();
    settings::applyScopeChoices(preset, c);
    engine_.spec() = c.spec;   // in place: the gain controls hold pointers into it
    engine_.histogramChannels = c.histogramChannels;
    engine_.gamutDisplayMode = c.gamutDisplay;
    previewFilter_ = c.preview;
    previewInViewer_ = c.previewInViewer;
    rebuildScopeControls();
    syncParadeMode();
    syncPreviewControls();
    applyPreviewSpec();
    for (QString& key : overlayKeys_) key.clear();
    scheduleReprocess();
}

void MainWindow::rebuildScopeControls() {
    for (gl::Plane p : panels()) {
        QWidget* panel = docks_[size_t(p)]->widget();
        QWidget* old = panel ? panel->findChild<QWidget*>(QStringLiteral("scopeControls"), Qt::FindDirectChildrenOnly) : nullptr;
        if (!old) continue;
        if (p == gl::Plane::Preview) legendTransfer_ = -1;   // the new legend is written again
        QWidget* fresh = controlsFor(p);
        delete panel->layout()->replaceWidget(old, fresh);
        delete old;
    }
}

}  // namespace cs
