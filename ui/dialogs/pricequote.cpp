#include "dialogs/pricequote.h"

#include "dialogs/quotefields.h"

#include <catalog/catalog.h>
#include <core/types.h>

#include <QComboBox>
#include <QDate>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <widgets/numberedit.h>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>

namespace wb {

PriceQuoteDialog::PriceQuoteDialog(const Catalog &catalog, const QString &gpu, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Add a price quote"));
    auto *form = new QFormLayout(this);
    m_gpu = new QComboBox(this);
    for (const GpuSpec &g : catalog.gpus())
        m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    m_gpu->setCurrentIndex(std::max(0, m_gpu->findData(gpu)));
    m_provider = new QLineEdit(this);
    m_provider->setPlaceholderText(tr("who sells it, and the product (\"Acme Cloud, 8x H100 instance\")"));
    m_term = new QComboBox(this);
    for (const auto &[term, name] : EnumNames<PricingTerm>::items)
        m_term->addItem(QString::fromLatin1(name.data(), qsizetype(name.size())));
    m_amount = new NumberEdit(0, 1e7, 4, tr("USD per GPU-hour"), tr("enter the price"), this);
    using quotefields::addRow;
    addRow(form, tr("GPU:"), m_gpu, tr("The catalog GPU the quote is for"));
    addRow(form, tr("Provider:"), m_provider, tr("Who sells it; shown beside every figure priced with it"));
    addRow(form, tr("Term:"), m_term, tr("On-demand, spot, 1- or 3-year reservation, or purchase"));
    addRow(form, tr("Price:"), m_amount,
           tr("Per GPU-hour for rentals; per GPU, with its share of the server, for a purchase"));
    const quotefields::Provenance provenance = quotefields::addProvenance(
        form, this, tr("where it was seen: a URL, or the quote's reference"), tr("optional: what is included, conditions"));
    m_observed = provenance.observed;
    m_source = provenance.source;
    m_note = provenance.note;
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add to the brief"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    connect(m_provider, &QLineEdit::textChanged, this, &PriceQuoteDialog::update);
    connect(m_source, &QLineEdit::textChanged, this, &PriceQuoteDialog::update);
    connect(m_term, &QComboBox::currentIndexChanged, this, &PriceQuoteDialog::showUnit);
    connect(m_term, &QComboBox::currentIndexChanged, this, &PriceQuoteDialog::update);
    connect(m_amount, &NumberEdit::valueChanged, this, &PriceQuoteDialog::update);
    setMinimumWidth(560);
    showUnit();
    update();
}

// The unit follows the term; the typed text is never touched (a spin box's suffix once rewrote
// "2.35" being typed into 235).
void PriceQuoteDialog::showUnit()
{
    const bool purchase = m_term->currentText() == QLatin1String("purchase");
    m_amount->setUnit(purchase ? tr("USD per GPU") : tr("USD per GPU-hour"));
}

void PriceQuoteDialog::update()
{
    m_ok->setEnabled(!m_provider->text().trimmed().isEmpty() && !m_source->text().trimmed().isEmpty()
                     && m_amount->value().value_or(0) > 0);
    m_ok->setToolTip(m_ok->isEnabled() ? QString() : tr("Give the provider, the price and the source"));
}

QString PriceQuoteDialog::json() const
{
    QJsonObject o;
    o.insert(QStringLiteral("gpu"), m_gpu->currentData().toString());
    o.insert(QStringLiteral("provider"), m_provider->text().trimmed());
    o.insert(QStringLiteral("term"), m_term->currentText());
    const bool purchase = m_term->currentText() == QLatin1String("purchase");
    o.insert(purchase ? QStringLiteral("usd_per_gpu") : QStringLiteral("usd_per_gpu_hour"), m_amount->value().value_or(0));
    o.insert(QStringLiteral("observed"), m_observed->date().toString(Qt::ISODate));
    o.insert(QStringLiteral("source"), m_source->text().trimmed());
    if (!m_note->text().trimmed().isEmpty())
        o.insert(QStringLiteral("note"), m_note->text().trimmed());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace wb
