#include "widgets/chartexportdialog.h"

#include "widgets/numberedit.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

#include <cmath>

namespace wb {

ChartExportDialog::ChartExportDialog(QSize initial, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Export chart at another size"));
    setMinimumWidth(460);
    auto *form = new QFormLayout(this);
    m_format = new QComboBox(this);
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG drawing (vector)"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF (vector)"), QStringLiteral("pdf"));
    m_width = new NumberEdit(200, 10000, 0, tr("pixels"), tr("the width"), this);
    m_height = new NumberEdit(150, 10000, 0, tr("pixels"), tr("the height"), this);
    m_dpi = new NumberEdit(48, 1200, 0, tr("DPI"), tr("96, as on screen"), this);
    m_width->setValue(initial.width());
    m_height->setValue(initial.height());
    m_dpi->setValue(96);
    m_width->setToolTip(tr("The image's width in pixels (a vector drawing: its width at 96 DPI)"));
    m_height->setToolTip(tr("The image's height in pixels (a vector drawing: its height at 96 DPI)"));
    m_dpi->setToolTip(tr("Dots per inch of the PNG: the text is sized for a print at that density (96: as on a "
                         "screen; 300: a printed page)"));
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Resolution:"), m_dpi);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setAccessibleName(tr("What the export writes"));
    form->addRow(m_summary);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Choose the file…"));
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ChartExportDialog::update);
    for (NumberEdit *e : {m_width, m_height, m_dpi})
        connect(e, &NumberEdit::valueChanged, this, &ChartExportDialog::update);
    update();
}

QString ChartExportDialog::format() const
{
    return m_format->currentData().toString();
}

QSize ChartExportDialog::pixelSize() const
{
    return QSize(int(m_width->value().value_or(0)), int(m_height->value().value_or(0)));
}

QSize ChartExportDialog::layoutSize() const
{
    // The chart is laid out at 96 DPI and drawn at scale(): the image has the pixels typed.
    const QSize pixels = pixelSize();
    return QSize(int(std::lround(pixels.width() / scale())), int(std::lround(pixels.height() / scale())));
}

int ChartExportDialog::dpi() const
{
    return format() == QLatin1String("png") ? int(m_dpi->value().value_or(96)) : 96;  // empty: 96
}

QString ChartExportDialog::problem() const
{
    const QLocale l;
    const std::pair<NumberEdit *, QString> fields[] = {
        {m_width, tr("width")}, {m_height, tr("height")}, {m_dpi, tr("resolution")}};
    for (const auto &[edit, name] : fields) {
        if (edit == m_dpi && format() != QLatin1String("png"))
            continue;
        if (!edit->problem().isEmpty())
            return tr("The %1: %2.").arg(name, edit->problem());
        if (!edit->value() && edit != m_dpi)
            return tr("The %1 is needed.").arg(name);
    }
    const QSize layout = layoutSize();
    if (std::min(layout.width(), layout.height()) < 150)
        return tr("At %1 DPI the chart would be laid out %2 × %3 points: too small to read. Raise the size or "
                  "lower the resolution.")
            .arg(l.toString(dpi()), l.toString(layout.width()), l.toString(layout.height()));
    return {};
}

QString ChartExportDialog::summary() const
{
    return m_summary->text();
}

void ChartExportDialog::update()
{
    m_dpi->setEnabled(format() == QLatin1String("png"));
    const QString problem = this->problem();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    if (!problem.isEmpty()) {
        m_summary->setText(problem);
        return;
    }
    const QLocale l;
    const QSize size = pixelSize();
    if (format() == QLatin1String("png")) {
        const QSize pixels = size;
        const double cmPerInch = 2.54;
        m_summary->setText(tr("A PNG of %1 × %2 pixels, %3 × %4 cm printed at %5 DPI.")
                               .arg(l.toString(pixels.width()), l.toString(pixels.height()),
                                    l.toString(pixels.width() / double(dpi()) * cmPerInch, 'f', 1),
                                    l.toString(pixels.height() / double(dpi()) * cmPerInch, 'f', 1), l.toString(dpi())));
    } else {
        m_summary->setText(tr("A vector drawing laid out at %1 × %2; it stays sharp at any size.")
                               .arg(l.toString(size.width()), l.toString(size.height())));
    }
}

} // namespace wb
