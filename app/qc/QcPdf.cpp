#include "QcPdf.h"

#include <QBuffer>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>


#include "QcFonts.h"
#include "app/cli/AtomicFile.h"

namespace cs {
namespace {

QImage qImage(const RgbaImage& image) {
    return QImage(image.pixels.data(), image.width, image.height, image.width * 4, QImage::Format_RGBA8888).copy();
}

}  // namespace

Status writeQcPdf(const std::string& path, const QcHtmlReport& report, const RgbaImage& graphs) {
    if (!qcHaveFonts()) return Status::error(path + ": no PDF: this process's Qt application has no fonts (not a QGuiApplication)");
    // Laid out as a browser lays out the HTML report on an A4-wide page: one unit is a CSS pixel
    // (1/96 inch), the writer's resolution too, so the report's styles keep their sizes.
    constexpr double kDpi = 96, kPageW = 210 / 25.4 * kDpi, kPageH = 297 / 25.4 * kDpi, kMargin = 40;
    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans")));
    doc.setDocumentMargin(kMargin);
    doc.setPageSize(QSizeF(kPageW, kPageH));
    if (!graphs.empty())
        doc.addResource(QTextDocument::ImageResource, QUrl(QString::fromLatin1(kQcGraphsResource)),
                        qImage(graphs));
    if (report.thumbnails)
        for (const auto& [frame, picture] : report.thumbnails->pictures)
            doc.addResource(QTextDocument::ImageResource, QUrl(QString::fromStdString(qcThumbnailResource(frame))), qImage(picture));
    doc.setHtml(QString::fromStdString(qcHtml(report, QcHtmlFor::Print)));

    QBuffer pdf;
    pdf.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&pdf);
        writer.setTitle(QString::fromStdString(report.name + " - cudascope qc"));
        writer.setCreator(QStringLiteral("cudascope"));
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(), QPageLayout::Millimeter));
        writer.setResolution(int(kDpi));
        const QtMessageHandler before = qInstallMessageHandler(qcQuiet);
        QPainter painter(&writer);
        const int pages = doc.pageCount();
        const QString foot = QString::fromStdString(report.name) +
                             (report.verdict.empty() ? QString() : QStringLiteral(" \u00b7 verdict ") + QString::fromStdString(report.verdict));
        painter.setFont(QFont(QStringLiteral("DejaVu Sans"), 7));
        for (int i = 0; i < pages; ++i) {
            if (i > 0) writer.newPage();
            painter.save();
            painter.translate(0, -i * kPageH);
            doc.drawContents(&painter, QRectF(0, i * kPageH, kPageW, kPageH));
            painter.restore();
            painter.setPen(QColor(0x66, 0x66, 0x66));
            const QRectF footer(kMargin, kPageH - kMargin + 8, kPageW - 2 * kMargin, 16);
            painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter, foot);
            painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("page %1 of %2").arg(i + 1).arg(pages));
        }
        painter.end();
        qInstallMessageHandler(before);
    }
    if (pdf.data().isEmpty()) return Status::error(path + ": Qt's PDF writer wrote nothing");
    return writeFileAtomically(path, {std::string_view(pdf.data().constData(), size_t(pdf.data().size()))});
}

}  // namespace cs
