#include "dialogs/newcomparison.h"

#include "dialogs/apiquote.h"
#include "dialogs/wizardpage.h"

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <fit/fit.h>

#include <QComboBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>

#include <map>

namespace wb {

using namespace wizardparts;

QJsonObject NewComparisonWizard::briefObject() const
{
    const WorkloadKind k = kind();
    // Scaled to 12 significant digits: 95 % typed is 0.95 in the brief, not 0.9500000000000001.
    const auto set = [](QJsonObject &o, const char *key, std::optional<double> v, double scale = 1) {
        if (v)
            o.insert(QLatin1String(key), QString::number(*v * scale, 'g', 12).toDouble());
    };
    QJsonObject workload;
    workload.insert(QStringLiteral("kind"), m_kind->currentData().toString());
    workload.insert(QStringLiteral("weights_precision"), m_precision->currentData().toString());
    if (k == WorkloadKind::MediaGeneration) {
        QJsonObject media{{QStringLiteral("model"), m_pipeline->currentData().toString()}};
        set(media, "width", m_width->value());
        set(media, "height", m_height->value());
        if (pipeline() && pipeline()->video)
            set(media, "frames", m_frames->value());
        set(media, "steps", m_steps->value());
        workload.insert(QStringLiteral("media"), media);
    } else {
        workload.insert(QStringLiteral("model"), modelValue());
    }
    if (isInference(k)) {
        workload.insert(QStringLiteral("input_tokens"), m_input->value().value_or(0));
        set(workload, "input_tokens_p95", m_inputP95->value());
        if (k != WorkloadKind::Embedding) {
            workload.insert(QStringLiteral("output_tokens"), m_output->value().value_or(0));
            set(workload, "output_tokens_p95", m_outputP95->value());
        }
        // The KV cache at the weights' precision when they are quantized to 8 bits or fewer (an
        // FP8 model served with a BF16 cache was the wizard's default): FP8, the cache format
        // the serving stacks offer beside 16-bit.
        const QString weights = m_precision->currentData().toString();
        const bool quantized = weights != QLatin1String("fp32") && weights != QLatin1String("bf16") && weights != QLatin1String("fp16");
        if (quantized)
            workload.insert(QStringLiteral("kv_cache_precision"), QStringLiteral("fp8"));
    }
    if (serves()) {
        workload.insert(QStringLiteral("traffic"), QJsonObject{{QStringLiteral("mode"), QStringLiteral("open-loop")},
                                                               {QStringLiteral("request_rate_per_s"), m_rate->value().value_or(0)}});
        QJsonObject slo;
        // The targets the kind is asked for (kindChanged): a token stream's and a whole answer's.
        if (k == WorkloadKind::RealtimeInference) {
            set(slo, "ttft_p99_s", m_ttft->value(), 1e-3);
            set(slo, "tpot_p99_s", m_tpot->value(), 1e-3);
        }
        if (k == WorkloadKind::RealtimeInference || k == WorkloadKind::MediaGeneration)
            set(slo, "e2e_p99_s", m_e2e->value());
        if (!slo.isEmpty())
            workload.insert(QStringLiteral("slo"), slo);
    } else {
        QJsonObject training;
        set(training, "sequence_length", m_sequence->value());
        set(training, "micro_batch_size", m_microBatch->value());
        set(training, "tokens", m_trainingTokens->value(), 1e6);
        if (isAdapter(k))
            set(training, "lora_rank", m_loraRank->value());
        set(training, "runs_per_year", m_runsPerYear->value());
        if (m_dataset->value())
            training.insert(QStringLiteral("dataset"), QJsonObject{{QStringLiteral("size_gb"), *m_dataset->value()},
                                                                   {QStringLiteral("location"), m_datasetLocation->currentData().toString()}});
        workload.insert(QStringLiteral("training"), training);
    }
    // A service's acceptance is always asked; a run's may be left unstated (every run passes).
    QJsonObject acceptance;
    set(acceptance, "quality_pass_rate", m_quality->value(), 0.01);
    set(acceptance, "failure_rate", m_failure->value(), 0.01);
    if (serves() && !acceptance.contains(QStringLiteral("failure_rate")))
        acceptance.insert(QStringLiteral("failure_rate"), 0);
    if (!acceptance.isEmpty())
        workload.insert(QStringLiteral("acceptance"), acceptance);
    QJsonObject decision;
    if (k != WorkloadKind::Training)
        decision.insert(QStringLiteral("api_allowed"), m_apiAllowed->currentData().toString() == QLatin1String("true"));
    if (!m_demand->currentData().toString().isEmpty())
        decision.insert(QStringLiteral("demand_certainty"), m_demand->currentData().toString());
    if (!m_churn->currentData().toString().isEmpty())
        decision.insert(QStringLiteral("model_churn"), m_churn->currentData().toString());
    QJsonObject cost{{QStringLiteral("decision"), decision}};
    if (k != WorkloadKind::Training && m_apiGroup->isEnabled() && m_apiGroup->isChecked())
        cost.insert(QStringLiteral("api"), QJsonDocument::fromJson(m_api->json().toUtf8()).object());
    QJsonObject root{{QStringLiteral("format"), QStringLiteral("gpu-workbench-brief")},
                     {QStringLiteral("version"), 1},
                     {QStringLiteral("name"), name()},
                     {QStringLiteral("workload"), workload},
                     {QStringLiteral("cost"), cost}};
    // The engineers the kind's cost reads: a service's platform team, or those watching a run.
    if (m_fte->value())
        root.insert(QStringLiteral("assumptions"),
                    QJsonObject{{runs() ? QStringLiteral("training_platform_fte") : QStringLiteral("platform_fte_self_hosted"),
                                 *m_fte->value()}});
    return root;
}

// Leaving the workload page, the engine reads the brief so far, with a request a second standing
// in for a service's traffic and the first catalog GPU for the candidates: an error on one of the
// page's rows (a size off the pipeline's grid, more frames than it makes) stays on the page, named
// by the row's label, until the page is edited.
bool NewComparisonWizard::checkWorkload()
{
    auto *page = static_cast<FormPage *>(this->page(WorkloadPage));
    if (!page->isComplete())
        return true;  // what is missing is said already; the engine reads a complete page
    QJsonObject root = briefObject();
    QJsonObject workload = root.value(QStringLiteral("workload")).toObject();
    if (serves())
        workload.insert(QStringLiteral("traffic"), QJsonObject{{QStringLiteral("mode"), QStringLiteral("open-loop")},
                                                               {QStringLiteral("request_rate_per_s"), 1}});
    root.insert(QStringLiteral("workload"), workload);
    root.insert(QStringLiteral("cost"), QJsonObject());
    root.insert(QStringLiteral("candidates"),
                QJsonArray{QJsonObject{{QStringLiteral("gpu"), QString::fromStdString(m_catalog.gpus().front().id)}}});
    const auto parsed = parseBrief(QJsonDocument(root).toJson().toStdString(), name().toStdString(), m_catalog);
    if (parsed) {
        page->engineProblem.clear();
        return true;
    }
    const Error &e = parsed.error();
    const std::map<std::string, QWidget *> rows{
        {"/workload/model", m_model->parentWidget()}, {"/workload/media/model", m_pipeline},
        {"/workload/input_tokens", m_input}, {"/workload/output_tokens", m_output},
        {"/workload/training/sequence_length", m_sequence}, {"/workload/training/micro_batch_size", m_microBatch},
        {"/workload/training/tokens", m_trainingTokens}, {"/workload/training/lora_rank", m_loraRank},
        {"/workload/media/width", m_width}, {"/workload/media/height", m_height}, {"/workload/media/frames", m_frames},
        {"/workload/media/steps", m_steps}, {"/workload/weights_precision", m_precision}};
    const auto row = rows.find(e.path);
    if (e.path.rfind("/workload/traffic", 0) == 0 || e.path.rfind("/workload/slo", 0) == 0
        || e.path.rfind("/workload/acceptance", 0) == 0)
        return true;  // a later page's, checked there
    page->engineProblem = row == rows.end() ? QString::fromStdString(e.toString())
                                            : tr("%1: %2").arg(page->rowName(row->second), QString::fromStdString(e.message));
    page->changed();
    return false;
}

// On Finish: the brief is built, each ticked GPU sized for it by the engine, and the whole parsed
// as the engine will; an error stays on the page, naming the field.
bool NewComparisonWizard::validateCurrentPage()
{
    if (currentId() == WorkloadPage)
        return checkWorkload();
    if (currentId() != CandidatesPage)
        return QWizard::validateCurrentPage();
    QJsonObject root = briefObject();
    QStringList gpus;
    for (int i = 0; i < m_gpus->count(); ++i)
        if (m_gpus->item(i)->checkState() == Qt::Checked)
            gpus << m_gpus->item(i)->data(Qt::UserRole).toString();
    // First with one GPU of each, to size each candidate against the brief itself.
    const auto withCandidates = [&](const std::vector<Candidate> &list) {
        QJsonArray array;
        for (const Candidate &c : list)
            array.append(QJsonDocument::fromJson(QByteArray::fromStdString(candidateJson(c))).object());
        root.insert(QStringLiteral("candidates"), array);
        return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
    };
    std::vector<Candidate> candidates;
    for (const QString &gpu : gpus) {
        Candidate c;
        c.gpu = gpu.toStdString();
        candidates.push_back(c);
    }
    auto draft = parseBrief(withCandidates(candidates), name().toStdString(), m_catalog);
    if (!draft) {
        m_problem->setText(QString::fromStdString(draft.error().toString()));
        return false;
    }
    for (Candidate &c : candidates)
        c = defaultCandidate(draft.value(), c.gpu, m_catalog);
    const std::string text = withCandidates(candidates);
    auto brief = parseBrief(text, name().toStdString(), m_catalog);
    if (!brief) {
        m_problem->setText(QString::fromStdString(brief.error().toString()));
        return false;
    }
    m_problem->clear();
    m_brief = QString::fromStdString(text);
    return true;
}

} // namespace wb
