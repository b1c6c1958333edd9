// ChartView's export: the file name offered, the stamp, the formats, the menu of slide sizes
// and the dialog for any other size or resolution.
#include "widgets/chartview.h"

#include "widgets/chartexportdialog.h"

#include <qcustomplot.h>

#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace wb {

QString ChartView::defaultExportName() const
{
    const QString scenario = m_stamp.section(QStringLiteral(" · "), 0, 0);
    QString name = (scenario.isEmpty() ? QString() : scenario + u' ') + m_title.left(60);
    name = name.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    name = name.left(80);
    while (name.startsWith(u'-'))
        name.remove(0, 1);
    while (name.endsWith(u'-'))
        name.chop(1);
    return (name.isEmpty() ? QStringLiteral("chart") : name) + u'-' + QDate::currentDate().toString(Qt::ISODate);
}

QString ChartView::exportTo(const QString &path, int width, int height, double scale, QSize pixels)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    // Text for the image's size: a slide twice the chart's width gets text twice as large.
    const double textScale = std::clamp(double(width) / std::max(1, this->width()), 1.0, 2.0);
    if (textScale > 1)
        setTextScale(textScale);
    m_plot->yAxis->setLabel(m_yLabel);  // whole at the export's size (elided again after)
    // The stamp in the corner for the export only.
    QCPItemText *stamp = nullptr;
    if (!m_stamp.isEmpty()) {
        stamp = new QCPItemText(m_plot);
        stamp->setClipToAxisRect(false);
        stamp->position->setType(QCPItemPosition::ptViewportRatio);
        stamp->position->setCoords(0.995, 0.995);
        stamp->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        stamp->setText(m_stamp);
        stamp->setColor(palette().color(QPalette::PlaceholderText));
        QFont small = scaledFont();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        stamp->setFont(small);
        stamp->setLayer(QStringLiteral("overlay"));  // above the legend's background
    }
    const auto done = [&](bool ok) {
        if (stamp)
            m_plot->removeItem(stamp);
        if (textScale > 1)
            setTextScale(1.0);
        replotFitted();
        return ok ? QString() : tr("%1: the chart could not be written there").arg(path);
    };
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        // Drawn into an image of exactly the pixels asked for (a scale such as 300/96 would
        // round them), whose DPI agrees with its pixels: 2x is 192 DPI.
        const QSize out = pixels.isValid() ? pixels : QSize(int(std::lround(width * scale)), int(std::lround(height * scale)));
        QImage image(out, QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        QCPPainter painter;
        ok = painter.begin(&image);
        if (ok) {
            painter.scale(double(out.width()) / width, double(out.height()) / height);
            m_plot->toPainter(&painter, width, height);
            painter.end();
            const int dotsPerMetre = int(std::lround(96 * scale / 0.0254));
            image.setDotsPerMeterX(dotsPerMetre);
            image.setDotsPerMeterY(dotsPerMetre);
            ok = image.save(path, "PNG");
        }
    } else if (suffix == QLatin1String("pdf")) {
        ok = m_plot->savePdf(path, width, height);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            m_plot->toPainter(&painter, width, height);
            ok = painter.end();
        }
        ok = ok && QFileInfo(path).size() > 0;
    } else {
        done(true);
        return tr("%1: choose a .png, .svg or .pdf file").arg(path);
    }
    return done(ok);
}

void ChartView::showExportMenu(const QPoint &pos)
{
    // A slide's size (16:9 or 4:3), the chart as shown, and for PNG a double-density slide; the
    // file name offered says the scenario, the chart and the date, in the last folder used.
    struct Choice
    {
        QString format;  // the file suffix
        QString label;
        QSize size;
        double scale;
        QSize pixels = {};  // a PNG's exact size, when not size x scale
    };
    const QSize shown = size();
    const std::vector<Choice> choices = {
        {QStringLiteral("png"), tr("PNG for a 16:9 slide (1920 × 1080)…"), {1920, 1080}, 1},
        {QStringLiteral("png"), tr("PNG for a 16:9 slide, sharp (3840 × 2160)…"), {1920, 1080}, 2},
        {QStringLiteral("png"), tr("PNG for a 4:3 slide (1024 × 768)…"), {1024, 768}, 1},
        {QStringLiteral("png"), tr("PNG as shown (%1 × %2)…").arg(shown.width()).arg(shown.height()), shown, 1},
        {QStringLiteral("svg"), tr("SVG for a 16:9 slide…"), {1920, 1080}, 1},
        {QStringLiteral("pdf"), tr("PDF for a 16:9 slide…"), {1920, 1080}, 1},
    };
    QMenu menu(this);
    const auto save = [this](const Choice &c) {
        static QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const QString &suffix = c.format;
        QString path = QFileDialog::getSaveFileName(this, tr("Export chart"),
                                                    QDir(folder).filePath(defaultExportName() + u'.' + suffix),
                                                    tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QLatin1Char('.') + suffix;
        folder = QFileInfo(path).absolutePath();
        const QString error = exportTo(path, c.size.width(), c.size.height(), c.scale, c.pixels);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Cannot export"), error);
    };
    for (const Choice &c : choices)
        menu.addAction(c.label, this, [save, c] { save(c); });
    menu.addSeparator();
    menu.addAction(tr("Another size or resolution…"), this, [this, save, shown] {
        ChartExportDialog dialog(shown, this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        save({dialog.format(), {}, dialog.layoutSize(), dialog.scale(), dialog.pixelSize()});
    });
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace wb
