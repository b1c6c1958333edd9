#include "ui/briefform.h"

#include <engine/brief.h>
#include <engine/catalog.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

namespace wb {

namespace {

QString jsonString(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (QChar c : s) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        out += c;
    }
    return out + u'"';
}

QString jsonNumber(double v)
{
    return QString::number(v, 'g', 12);
}

} // namespace

BriefForm::BriefForm(const Catalog &catalog, QWidget *parent) : QWidget(parent)
{
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);

    m_model = new QComboBox(this);
    for (const ModelSpec &m : catalog.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_model->setToolTip(tr("The model sets the weights, the KV cache per token and the work per token"));
    m_precision = new QComboBox(this);
    for (const char *p : {"fp32", "bf16", "fp16", "fp8", "int8", "int4", "fp4", "nf4"})
        m_precision->addItem(QString::fromLatin1(p), QString::fromLatin1(p));
    m_precision->setToolTip(tr("Storage of the weights; fp8 and fp4 need a GPU with that tensor path"));
    m_input = new QSpinBox(this);
    m_input->setRange(1, 10000000);
    m_input->setSuffix(tr(" tokens"));
    m_input->setToolTip(tr("Mean prompt length: prefill work and KV cache per request"));
    m_output = new QSpinBox(this);
    m_output->setRange(0, 10000000);
    m_output->setSuffix(tr(" tokens"));
    m_output->setToolTip(tr("Mean answer length: decode steps per request"));
    m_rate = new QDoubleSpinBox(this);
    m_rate->setRange(0.001, 1e6);
    m_rate->setDecimals(3);
    m_rate->setSuffix(tr(" requests/s"));
    m_rate->setToolTip(tr("Average open-loop arrival rate the service must carry"));
    m_ttft = new QDoubleSpinBox(this);
    m_ttft->setRange(0, 1e7);
    m_ttft->setDecimals(0);
    m_ttft->setSuffix(tr(" ms"));
    m_ttft->setSpecialValueText(tr("no target"));
    m_ttft->setToolTip(tr("99th-percentile time to first token the service must meet (0: none)"));
    m_tpot = new QDoubleSpinBox(this);
    m_tpot->setRange(0, 1e6);
    m_tpot->setDecimals(0);
    m_tpot->setSuffix(tr(" ms"));
    m_tpot->setSpecialValueText(tr("no target"));
    m_tpot->setToolTip(tr("99th-percentile time per output token after the first (0: none)"));

    const auto row = [this](const QString &label, QWidget *field) {
        m_form->addRow(label, field);
        field->setAccessibleName(QString(label).remove(u'&').remove(u':'));
    };
    row(tr("&Model:"), m_model);
    row(tr("&Weights:"), m_precision);
    row(tr("&Input:"), m_input);
    row(tr("&Output:"), m_output);
    row(tr("&Request rate:"), m_rate);
    row(tr("TTFT p99 ≤:"), m_ttft);
    row(tr("TPOT p99 ≤:"), m_tpot);
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d55e00"));
    m_error->setAccessibleName(tr("Brief validation message"));
    m_form->addRow(m_error);

    const auto send = [this](const QString &pointer, const QString &value, const QString &label) {
        if (!m_loading)
            emit edit(pointer, value, label);
    };
    connect(m_model, &QComboBox::currentIndexChanged, this, [=, this] {
        send(QStringLiteral("/workload/model"), jsonString(m_model->currentData().toString()), tr("model"));
    });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [=, this] {
        send(QStringLiteral("/workload/weights_precision"), jsonString(m_precision->currentData().toString()),
             tr("weights precision"));
    });
    connect(m_input, &QSpinBox::valueChanged, this,
            [=](int v) { send(QStringLiteral("/workload/input_tokens"), QString::number(v), tr("input tokens")); });
    connect(m_output, &QSpinBox::valueChanged, this,
            [=](int v) { send(QStringLiteral("/workload/output_tokens"), QString::number(v), tr("output tokens")); });
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, [=](double v) {
        send(QStringLiteral("/workload/traffic/request_rate_per_s"), jsonNumber(v), tr("request rate"));
    });
    connect(m_ttft, &QDoubleSpinBox::valueChanged, this, [=](double v) {
        send(QStringLiteral("/workload/slo/ttft_p99_s"), v > 0 ? jsonNumber(v / 1000) : QStringLiteral("null"),
             tr("TTFT target"));
    });
    connect(m_tpot, &QDoubleSpinBox::valueChanged, this, [=](double v) {
        send(QStringLiteral("/workload/slo/tpot_p99_s"), v > 0 ? jsonNumber(v / 1000) : QStringLiteral("null"),
             tr("TPOT target"));
    });
    setBrief(nullptr);
}

void BriefForm::setRowVisible(QWidget *field, bool visible)
{
    m_form->setRowVisible(field, visible);
}

void BriefForm::setBrief(const Brief *brief)
{
    m_loading = true;
    setEnabled(brief != nullptr);
    m_error->clear();
    if (brief) {
        const Workload &w = brief->workload;
        const int model = m_model->findData(QString::fromStdString(w.model.id));
        m_model->setCurrentIndex(model);
        m_model->setEnabled(model >= 0);  // an inline model is edited in its JSON
        m_precision->setCurrentIndex(m_precision->findData(QString::fromLatin1(enumName(w.weightsPrecision).data())));
        m_input->setValue(int(w.inputTokens));
        m_output->setValue(int(w.outputTokens));
        m_rate->setValue(w.traffic.requestRatePerS.value_or(0));
        m_ttft->setValue(w.slo.ttftP99S.value_or(0) * 1000);
        m_tpot->setValue(w.slo.tpotP99S.value_or(0) * 1000);
        const bool inference = isInference(w.kind);
        for (QWidget *f : {static_cast<QWidget *>(m_input), static_cast<QWidget *>(m_output),
                           static_cast<QWidget *>(m_ttft), static_cast<QWidget *>(m_tpot)})
            setRowVisible(f, inference);
        setRowVisible(m_rate, inference && w.traffic.mode == TrafficMode::OpenLoop);
    }
    m_loading = false;
}

void BriefForm::showError(const QString &message)
{
    m_error->setText(message);
}

} // namespace wb
