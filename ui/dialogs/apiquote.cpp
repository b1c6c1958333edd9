#include "dialogs/apiquote.h"

#include "dialogs/quotefields.h"
#include "parts/fieldrange.h"

#include <brief/fields.h>

#include <catalog/prices.h>

#include <QDate>
#include <QDateEdit>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <widgets/numberedit.h>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace wb {

ApiQuoteForm::ApiQuoteForm(QWidget *parent) : QWidget(parent)
{
    auto *form = new QFormLayout(this);
    m_form = form;
    form->setContentsMargins(0, 0, 0, 0);
    m_provider = new QLineEdit(this);
    m_input = new NumberEdit(0, 1e4, 4, tr("USD per million input tokens"), tr("enter the price"), this);
    m_output = new NumberEdit(0, 1e4, 4, tr("USD per million output tokens"), tr("enter the price"), this);
    m_rate = new NumberEdit(0, 1e4, 4, QString(), tr("enter the price"), this);
    m_rateUnit = new QComboBox(this);
    m_rateUnit->addItem(tr("per image"), QStringLiteral("usd_per_image"));
    m_rateUnit->addItem(tr("per megapixel of output"), QStringLiteral("usd_per_megapixel"));
    m_failure = new NumberEdit(0, 99, 3, tr("%"), tr("0 when it does not fail"), this);  // percent, as on the Brief page
    // The ranges a brief's API price takes (brief/fields.h), as the parser reads them.
    setRangeFrom(m_input, briefFields().at("/cost/api/usd_per_million_input"));
    setRangeFrom(m_output, briefFields().at("/cost/api/usd_per_million_output"));
    setRangeFrom(m_rate, briefFields().at("/cost/api/usd_per_image"));
    setRangeFrom(m_failure, briefFields().at("/cost/api/failure_rate"), 100);
    using quotefields::addRow;
    addRow(form, tr("Provider:"), m_provider, tr("Who sells it; shown beside every figure priced with it"));
    addRow(form, tr("Input price:"), m_input, tr("US dollars per million prompt tokens"));
    addRow(form, tr("Output price:"), m_output, tr("US dollars per million generated tokens"));
    addRow(form, tr("Billed:"), m_rateUnit, tr("What the image API bills by: each image, or each megapixel of it"));
    addRow(form, tr("Price:"), m_rate, QString());
    addRow(form, tr("Failure rate:"), m_failure, tr("Share of requests the API fails (errors, timeouts), retried and paid for"));
    const quotefields::Provenance provenance =
        quotefields::addProvenance(form, this, tr("where it was seen: the pricing page's URL, or the quote's reference"),
                                   tr("optional: conditions, rate limits, volume tiers"));
    m_region = provenance.region;
    m_observed = provenance.observed;
    m_source = provenance.source;
    m_note = provenance.note;
    for (QLineEdit *e : {m_provider, m_source})
        connect(e, &QLineEdit::textChanged, this, &ApiQuoteForm::changed);
    for (NumberEdit *b : {m_input, m_output, m_rate, m_failure})
        connect(b, &NumberEdit::valueChanged, this, &ApiQuoteForm::changed);
    connect(m_rateUnit, &QComboBox::currentIndexChanged, this, [this] {
        setUse(m_use);  // the rate's unit follows
        emit changed();
    });
    setUse(ApiUse::Text);
}

void ApiQuoteForm::setUse(ApiUse use)
{
    m_use = use;
    const bool tokens = use == ApiUse::Text || use == ApiUse::Embedding;
    m_provider->setPlaceholderText(use == ApiUse::Image      ? tr("who sells it, and the model (\"Acme AI, SDXL\")")
                                   : use == ApiUse::Video    ? tr("who sells it, and the model (\"Acme AI, Wan 2.1\")")
                                   : use == ApiUse::FineTune ? tr("who sells it (\"Acme AI, managed LoRA tuning\")")
                                   : use == ApiUse::Embedding ? tr("who sells it, and the model (\"Acme AI, BGE-M3 embeddings\")")
                                                             : tr("who sells it, and the model (\"Acme AI, Llama 3.1 8B\")"));
    m_form->setRowVisible(m_input, tokens);
    m_form->setRowVisible(m_output, use == ApiUse::Text);
    m_form->setRowVisible(m_rateUnit, use == ApiUse::Image);
    m_form->setRowVisible(m_rate, !tokens);
    const bool perImage = m_rateUnit->currentIndex() == 0;
    const QString unit = use == ApiUse::Video      ? tr("USD per second of video")
                         : use == ApiUse::FineTune ? tr("USD per million training tokens")
                         : perImage                ? tr("USD per image")
                                                   : tr("USD per megapixel");
    m_rate->setUnit(unit);
    m_rate->setToolTip(use == ApiUse::Video ? tr("US dollars per second of generated video")
                       : use == ApiUse::FineTune
                           ? tr("US dollars per million tokens the managed fine-tuning service trains on (every epoch, "
                                "and the evaluations')")
                           : tr("US dollars per generated image, or per megapixel of it"));
    m_rate->setAccessibleName(unit);
    if (auto *label = qobject_cast<QLabel *>(m_form->labelForField(m_failure)))
        label->setText(use == ApiUse::FineTune ? tr("Failed runs:") : tr("Failure rate:"));
}

QStringList ApiQuoteForm::missing() const
{
    // Every price the unit needs is required (an empty one is not a free one); 0 only when typed.
    QStringList what;
    if (m_provider->text().trimmed().isEmpty())
        what << tr("the provider");
    std::vector<std::pair<NumberEdit *, QString>> prices;
    if (m_use == ApiUse::Text || m_use == ApiUse::Embedding)
        prices.emplace_back(m_input, tr("the input price"));
    if (m_use == ApiUse::Text)
        prices.emplace_back(m_output, tr("the output price"));
    if (m_use != ApiUse::Text && m_use != ApiUse::Embedding)
        prices.emplace_back(m_rate, tr("the price"));
    for (const auto &[field, name] : prices)
        if (field->text().trimmed().isEmpty())
            what << name;
    if (m_source->text().trimmed().isEmpty())
        what << tr("the source");
    return what;
}

QStringList ApiQuoteForm::wrong() const
{
    QStringList what;
    for (const auto &[field, name] : {std::pair{m_input, tr("Input price")}, std::pair{m_output, tr("Output price")},
                                      std::pair{m_rate, tr("Price")}, std::pair{m_failure, tr("Failure rate")}})
        if (const QString problem = field->problem(); !problem.isEmpty() && m_form->isRowVisible(field))
            what << tr("%1: %2").arg(name, problem);
    return what;
}

void ApiQuoteForm::setQuote(const ApiPrice &quote)
{
    m_provider->setText(QString::fromStdString(quote.provider));
    m_input->setValue(quote.unit == ApiUnit::Tokens ? std::optional(quote.usdPerMillionInput) : std::nullopt);
    m_output->setValue(quote.unit == ApiUnit::Tokens ? std::optional(quote.usdPerMillionOutput) : std::nullopt);
    m_rateUnit->setCurrentIndex(quote.unit == ApiUnit::Megapixel ? 1 : 0);
    const double rate = quote.unit == ApiUnit::Image ? quote.usdPerImage
                        : quote.unit == ApiUnit::Megapixel ? quote.usdPerMegapixel
                        : quote.unit == ApiUnit::VideoSecond ? quote.usdPerVideoSecond
                        : quote.usdPerMillionTrainingTokens;
    m_rate->setValue(quote.unit == ApiUnit::Tokens ? std::nullopt : std::optional(rate));
    m_failure->setValue(100 * quote.failureRate);
    m_observed->setDate(QDate::fromString(QString::fromStdString(quote.observed), Qt::ISODate));
    m_source->setText(QString::fromStdString(quote.source));
    m_note->setText(QString::fromStdString(quote.note));
    m_region->setCurrentIndex(quote.region ? std::max(0, m_region->findData(QString::fromLatin1(enumName(*quote.region).data()))) : 0);
}

bool ApiQuoteForm::complete() const
{
    return missing().isEmpty() && wrong().isEmpty();
}

QString ApiQuoteForm::json() const
{
    QJsonObject o;
    o.insert(QStringLiteral("provider"), m_provider->text().trimmed());
    switch (m_use) {
    case ApiUse::Text:
        o.insert(QStringLiteral("usd_per_million_output"), m_output->value().value_or(0));
        [[fallthrough]];
    case ApiUse::Embedding:
        o.insert(QStringLiteral("usd_per_million_input"), m_input->value().value_or(0));
        break;
    case ApiUse::Image:
        o.insert(m_rateUnit->currentData().toString(), m_rate->value().value_or(0));
        break;
    case ApiUse::Video:
        o.insert(QStringLiteral("usd_per_video_second"), m_rate->value().value_or(0));
        break;
    case ApiUse::FineTune:
        o.insert(QStringLiteral("usd_per_million_training_tokens"), m_rate->value().value_or(0));
        break;
    }
    o.insert(QStringLiteral("failure_rate"), m_failure->value().value_or(0) / 100);
    quotefields::insertRegion(o, m_region);
    o.insert(QStringLiteral("observed"), m_observed->date().toString(Qt::ISODate));
    o.insert(QStringLiteral("source"), m_source->text().trimmed());
    if (!m_note->text().trimmed().isEmpty())
        o.insert(QStringLiteral("note"), m_note->text().trimmed());
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

ApiQuoteDialog::ApiQuoteDialog(ApiUse use, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Add a model-API quote"));
    auto *layout = new QVBoxLayout(this);
    m_form = new ApiQuoteForm(this);
    m_form->setUse(use);
    layout->addWidget(m_form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Use for the brief"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *message = quotefields::messageLine(this);
    layout->addWidget(message);
    layout->addWidget(buttons);
    const auto update = [this, message] { quotefields::holdUntil(m_ok, message, m_form->missing(), m_form->wrong()); };
    connect(m_form, &ApiQuoteForm::changed, this, update);
    update();
    setMinimumWidth(560);
}

QString ApiQuoteDialog::json() const
{
    return m_form->json();
}

} // namespace wb
