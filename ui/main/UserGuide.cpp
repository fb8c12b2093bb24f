// Help > User Guide (see UserGuide.h).
#include "UserGuide.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QScreen>
#include <QImage>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace cs {

namespace {

// The guide's pictures are screenshots at the window's size: each shown at most `width`
// pixels wide (its height in proportion) so that none needs a sideways scroll.
void fitPictures(QTextBrowser& text, int width) {
    QTextDocument* doc = text.document();
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.charFormat().isImageFormat()) continue;
            QTextImageFormat image = f.charFormat().toImageFormat();
            const QVariant v = text.loadResource(QTextDocument::ImageResource, QUrl(image.name()));
            const QImage picture = v.canConvert<QImage>() ? v.value<QImage>() : QImage::fromData(v.toByteArray());
            if (picture.isNull() || picture.width() <= width) continue;
            image.setWidth(width);
            image.setHeight(double(width) * picture.height() / picture.width());
            QTextCursor c(doc);
            c.setPosition(f.position());
            c.setPosition(f.position() + f.length(), QTextCursor::KeepAnchor);
            c.setCharFormat(image);
        }
}

}  // namespace

QUrl userGuideUrl() { return QUrl(QStringLiteral("qrc:/docs/USER_GUIDE.md")); }

QDialog* openUserGuide(QWidget* parent) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("userGuide"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("userGuideText"));
    text->setOpenExternalLinks(true);
    // As Markdown from its resource: relative picture paths (guide/*.png) resolve against it.
    text->setSource(userGuideUrl(), QTextDocument::MarkdownResource);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    // The window's title: the guide's first heading.
    QString title = QObject::tr("User Guide");
    for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().headingLevel() == 1) {
            title = b.text();
            break;
        }
    dialog->setWindowTitle(title);
    // Fits the screen it opens on (the window fits screens from 1280 x 720 up).
    QSize size(900, 760);
    if (const QScreen* screen = (parent ? parent->screen() : dialog->screen()))
        size = size.boundedTo(screen->availableSize() * 9 / 10);
    dialog->resize(size);
    fitPictures(*text, size.width() - 80);
    dialog->show();
    return dialog;
}

}  // namespace cs
