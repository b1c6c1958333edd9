#include "ui/briefview.h"

#include <engine/brief.h>
#include <engine/modelarch.h>

#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace wb {

namespace {

QString name(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString seconds(const std::optional<double> &s)
{
    if (!s)
        return {};
    return *s < 1 ? BriefView::tr("%1 ms").arg(QLocale().toString(*s * 1000, 'f', 0))
                  : BriefView::tr("%1 s").arg(QLocale().toString(*s, 'g', 3));
}

} // namespace

BriefView::BriefView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_text->setAccessibleName(tr("Brief summary"));
    layout->addWidget(m_text);
    layout->addStretch();
    setBrief(nullptr);
}

void BriefView::setBrief(const Brief *brief)
{
    if (!brief) {
        m_text->setText(tr("No brief is open. Use File → Open to load a brief."));
        return;
    }
    const Workload &w = brief->workload;
    const QLocale locale;
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
    auto row = [&](const QString &label, const QString &value) {
        if (!value.isEmpty())
            html += QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td>%2</td></tr>")
                        .arg(label.toHtmlEscaped(), value.toHtmlEscaped());
    };
    auto section = [&](const QString &title) {
        html += QStringLiteral("<tr><td colspan='2' style='padding-top:10px'><b>%1</b></td></tr>").arg(title.toHtmlEscaped());
    };

    section(tr("Workload and model"));
    row(tr("Name"), QString::fromStdString(brief->name));
    row(tr("Kind"), name(enumName(w.kind)));
    const ParameterCounts params = countParameters(w.model);
    row(tr("Model"), tr("%1 (%2 B parameters%3)")
                         .arg(QString::fromStdString(w.model.name))
                         .arg(locale.toString(params.total() / 1e9, 'f', 1))
                         .arg(w.model.isMoe() ? tr(", %1 B active").arg(locale.toString(params.active() / 1e9, 'f', 1))
                                              : QString()));
    row(tr("Weights"), name(enumName(w.weightsPrecision)));
    if (isInference(w.kind)) {
        row(tr("KV cache"), name(enumName(w.kvCachePrecision)));
        section(tr("Context and outputs"));
        row(tr("Input"), tr("%1 tokens").arg(locale.toString(w.inputTokens, 'f', 0))
                             + (w.inputTokensP95 ? tr(" (p95 %1)").arg(locale.toString(*w.inputTokensP95, 'f', 0)) : QString()));
        row(tr("Output"), tr("%1 tokens").arg(locale.toString(w.outputTokens, 'f', 0))
                              + (w.outputTokensP95 ? tr(" (p95 %1)").arg(locale.toString(*w.outputTokensP95, 'f', 0)) : QString()));
        section(tr("Traffic and latency targets"));
        QString traffic = name(enumName(w.traffic.mode));
        if (w.traffic.requestRatePerS)
            traffic += tr(", %1 requests/s, burstiness %2")
                           .arg(locale.toString(*w.traffic.requestRatePerS, 'g', 4))
                           .arg(locale.toString(w.traffic.burstiness, 'g', 3));
        if (w.traffic.concurrency)
            traffic += tr(", %1 in flight").arg(*w.traffic.concurrency);
        row(tr("Traffic"), traffic);
        row(tr("TTFT p99"), seconds(w.slo.ttftP99S));
        row(tr("TPOT p99"), seconds(w.slo.tpotP99S));
        row(tr("End to end p99"), seconds(w.slo.e2eP99S));
    } else if (w.training) {
        const TrainingSpec &t = *w.training;
        section(tr("Training set-up"));
        row(tr("Sequence"), tr("%1 tokens × micro-batch %2").arg(t.sequenceLength).arg(t.microBatchSize));
        row(tr("Optimizer"), name(enumName(t.optimizer)));
        row(tr("Sharding"), name(enumName(t.sharding)));
        row(tr("Recompute"), name(enumName(t.recompute)));
        if (isAdapter(w.kind))
            row(tr("Adapters"), tr("rank %1, %2").arg(t.loraRank).arg(name(enumName(t.loraTargets))));
    }
    section(tr("Acceptance"));
    row(tr("Quality pass rate"), locale.toString(100 * w.acceptance.qualityPassRate, 'g', 3) + QLatin1Char('%'));
    row(tr("Failure rate"), locale.toString(100 * w.acceptance.failureRate, 'g', 3) + QLatin1Char('%'));
    html += QStringLiteral("</table>");
    m_text->setText(html);
}

} // namespace wb
