#include "dialogs/pricequote.h"

#include "dialogs/quotefields.h"
#include "parts/fieldrange.h"

#include <brief/fields.h>

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
    m_region = provenance.region;
    m_observed = provenance.observed;
    m_source = provenance.source;
    m_note = provenance.note;
    // Commercial terms, all optional.
    m_offer = new QComboBox(this);
    for (const auto &[offer, name] : EnumNames<Offer>::items)
        m_offer->addItem(QString::fromLatin1(name.data(), qsizetype(name.size())));
    m_commitment = new NumberEdit(0, 120, 1, tr("months"), tr("none"), this);
    m_upfront = new NumberEdit(0, 100, 1, tr("% of the commitment"), tr("none"), this);
    m_cancellation = new QLineEdit(this);
    m_cancellation->setPlaceholderText(tr("optional: e.g. \"30 days' notice\", \"none before term end\""));
    m_support = new NumberEdit(0, 1e7, 2, tr("USD per GPU a month"), tr("none"), this);
    m_egress = new NumberEdit(0, 10, 4, tr("USD per GB"), tr("the default"), this);
    m_storage = new NumberEdit(0, 1e6, 0, tr("GB per GPU"), tr("none"), this);
    m_interruptions = new NumberEdit(0, 10000, 1, tr("per GPU a month"), tr("the default"), this);
    addRow(form, tr("Offer:"), m_offer, tr("Cloud instances, a marketplace's offer, a dedicated cluster or a managed endpoint "
                                           "billed per hour (one billed per token is a model-API quote)"));
    addRow(form, tr("Minimum commitment:"), m_commitment,
           tr("Months the offer binds; one longer than the brief's demand certainty supports is warned about"));
    addRow(form, tr("Paid up front:"), m_upfront, tr("Share of the commitment paid at signing"));
    addRow(form, tr("Cancellation:"), m_cancellation, tr("How the commitment can be ended early"));
    addRow(form, tr("Support fee:"), m_support, tr("Support the offer charges per GPU a month: a cost line of its own"));
    addRow(form, tr("Egress price:"), m_egress, tr("The provider's price for data sent out, instead of the default"));
    addRow(form, tr("Storage included:"), m_storage, tr("Storage that comes with each GPU, taken off the storage line"));
    addRow(form, tr("Interruptions:"), m_interruptions,
           tr("Spot only: how often the provider takes a GPU's instance back; each costs a replacement's start"));
    // The ranges a brief's price entry takes (brief/fields.h), as the parser reads them.
    const auto row = [](const char *key) -> const FieldRow & {
        return briefFields().at(std::string("/cost/prices/*/") + key);
    };
    setRangeFrom(m_amount, row("usd_per_gpu_hour"));
    setRangeFrom(m_commitment, row("min_commitment_months"));
    setRangeFrom(m_upfront, row("upfront_fraction"), 100);
    setRangeFrom(m_support, row("support_usd_per_gpu_month"));
    setRangeFrom(m_egress, row("egress_usd_per_gb"));
    setRangeFrom(m_storage, row("included_storage_gb_per_gpu"));
    setRangeFrom(m_interruptions, row("interruptions_per_gpu_month"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Add to the brief"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_message = quotefields::messageLine(this);
    form->addRow(m_message);
    form->addRow(buttons);
    connect(m_provider, &QLineEdit::textChanged, this, &PriceQuoteDialog::update);
    connect(m_source, &QLineEdit::textChanged, this, &PriceQuoteDialog::update);
    connect(m_term, &QComboBox::currentIndexChanged, this, &PriceQuoteDialog::showUnit);
    connect(m_term, &QComboBox::currentIndexChanged, this, &PriceQuoteDialog::update);
    connect(m_amount, &NumberEdit::valueChanged, this, &PriceQuoteDialog::update);
    for (NumberEdit *e : {m_commitment, m_upfront, m_support, m_egress, m_storage, m_interruptions})
        connect(e, &NumberEdit::valueChanged, this, &PriceQuoteDialog::update);
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
    // Spot capacity can be taken back at any time: it binds no commitment, and only it is interrupted.
    const bool spot = m_term->currentText() == QLatin1String("spot");
    m_interruptions->setEnabled(spot);
    m_commitment->setEnabled(!spot);
    m_upfront->setEnabled(!spot);
}

void PriceQuoteDialog::update()
{
    QStringList missing, wrong;
    if (m_provider->text().trimmed().isEmpty())
        missing << tr("the provider");
    if (m_amount->text().trimmed().isEmpty())
        missing << tr("the price");
    if (m_source->text().trimmed().isEmpty())
        missing << tr("the source");
    // An optional term typed wrong is not left out silently: its problem holds the button.
    const std::pair<NumberEdit *, QString> numbers[] = {
        {m_amount, tr("Price")},           {m_commitment, tr("Minimum commitment")}, {m_upfront, tr("Paid up front")},
        {m_support, tr("Support fee")},    {m_egress, tr("Egress price")},          {m_storage, tr("Storage included")},
        {m_interruptions, tr("Interruptions")}};
    for (const auto &[edit, name] : numbers)
        if (edit->isEnabled() && !edit->problem().isEmpty())
            wrong << tr("%1: %2").arg(name, edit->problem());
    const bool purchase = m_term->currentText() == QLatin1String("purchase");
    if (m_upfront->isEnabled() && m_upfront->value().value_or(0) > 0 && !m_commitment->value() && !purchase)
        wrong << tr("A share paid up front is a share of a commitment: give the minimum commitment too");
    quotefields::holdUntil(m_ok, m_message, missing, wrong);
}

QString PriceQuoteDialog::json() const
{
    QJsonObject o;
    o.insert(QStringLiteral("gpu"), m_gpu->currentData().toString());
    o.insert(QStringLiteral("provider"), m_provider->text().trimmed());
    o.insert(QStringLiteral("term"), m_term->currentText());
    const bool purchase = m_term->currentText() == QLatin1String("purchase");
    o.insert(purchase ? QStringLiteral("usd_per_gpu") : QStringLiteral("usd_per_gpu_hour"), m_amount->value().value_or(0));
    quotefields::insertRegion(o, m_region);
    o.insert(QStringLiteral("observed"), m_observed->date().toString(Qt::ISODate));
    o.insert(QStringLiteral("source"), m_source->text().trimmed());
    if (!m_note->text().trimmed().isEmpty())
        o.insert(QStringLiteral("note"), m_note->text().trimmed());
    if (m_offer->currentIndex() > 0)
        o.insert(QStringLiteral("offer"), m_offer->currentText());
    const auto insert = [&](const char *key, NumberEdit *e, double scale) {
        if (const auto v = e->value())
            o.insert(QLatin1String(key), *v * scale);
    };
    if (m_commitment->isEnabled())
        insert("min_commitment_months", m_commitment, 1);
    if (m_upfront->isEnabled())
        insert("upfront_fraction", m_upfront, 0.01);
    insert("support_usd_per_gpu_month", m_support, 1);
    insert("egress_usd_per_gb", m_egress, 1);
    insert("included_storage_gb_per_gpu", m_storage, 1);
    if (m_interruptions->isEnabled())
        insert("interruptions_per_gpu_month", m_interruptions, 1);
    if (!m_cancellation->text().trimmed().isEmpty())
        o.insert(QStringLiteral("cancellation"), m_cancellation->text().trimmed());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

} // namespace wb
