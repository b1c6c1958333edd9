#include "dialogs/newcomparison.h"
#include "settings.h"

#include "dialogs/apiquote.h"
#include "dialogs/wizardpage.h"
#include "parts/fieldrange.h"
#include "parts/hfimport.h"
#include "parts/words.h"

#include <brief/brief.h>
#include <brief/fields.h>
#include <catalog/catalog.h>
#include <fit/fit.h>

#include <QComboBox>
#include <QCompleter>
#include <widgets/numberedit.h>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QKeyEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QTimer>
#include <QVBoxLayout>
#include <QWizardPage>

#include <tuple>

namespace wb {

using namespace wizardparts;

namespace {

NumberEdit *number(double max, int decimals, const QString &unit, const QString &unset, QWidget *parent)
{
    return new NumberEdit(0, max, decimals, unit, unset, parent);
}

QComboBox *levels(QWidget *parent)
{
    auto *box = new QComboBox(parent);
    box->addItem(NewComparisonWizard::tr("not stated (medium assumed)"), QString());
    for (const char *level : {"low", "medium", "high"})
        box->addItem(QString::fromLatin1(level), QString::fromLatin1(level));
    return box;
}

} // namespace

NewComparisonWizard::NewComparisonWizard(const Catalog &catalog, QWidget *parent) : QWizard(parent), m_catalog(catalog)
{
    setWindowTitle(tr("New comparison"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnStartPage);

    // 1. The workload: the kind first, since it decides which of the rows below are asked.
    auto *workload = new FormPage(tr("What runs?"), tr("The workload: the kind decides what is asked. A service is "
                                                       "described per request, a run by what it trains on."),
                                  this);
    auto *form = new QFormLayout(workload);
    m_name = new QLineEdit(tr("New comparison"), workload);
    m_kind = new QComboBox(workload);
    for (const auto &[kind, text] : EnumNames<WorkloadKind>::items)
        m_kind->addItem(words(text), QString::fromLatin1(text.data(), qsizetype(text.size())));
    // Typed with completion (any part of the name: "3.1 8B"), or picked from the list.
    m_model = new QComboBox(workload);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setPlaceholderText(tr("type or choose a model"));
    for (const ModelSpec &m : catalog.models())
        m_model->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_model->setCurrentIndex(-1);
    m_model->completer()->setFilterMode(Qt::MatchContains);
    m_model->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_model->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    auto *import = new QPushButton(tr("Import Hugging Face config.json…"), workload);
    auto *modelRow = new QWidget(workload);
    auto *modelLayout = new QHBoxLayout(modelRow);
    modelLayout->setContentsMargins(0, 0, 0, 0);
    modelLayout->addWidget(m_model, 1);
    modelLayout->addWidget(import);
    m_pipeline = new QComboBox(workload);
    m_pipeline->addItem(tr("choose a pipeline"), QString());
    for (const MediaModelSpec &m : catalog.mediaModels())
        m_pipeline->addItem(QString::fromStdString(m.name), QString::fromStdString(m.id));
    m_precision = new QComboBox(workload);
    for (const auto &[precision, text] : EnumNames<Precision>::items)
        m_precision->addItem(words(text), QString::fromLatin1(text.data(), qsizetype(text.size())));
    m_precision->setCurrentIndex(m_precision->findData(QStringLiteral("bf16")));
    // A spin box showing "required" as its lowest value swallowed the first digits typed into it.
    m_input = number(1e8, 0, tr("tokens"), tr("required"), workload);
    m_output = number(1e8, 0, tr("tokens"), tr("required"), workload);
    // The long requests size the KV cache and the tail: asked, with the mean as the default.
    m_inputP95 = number(1e8, 0, tr("tokens"), tr("the mean"), workload);
    m_outputP95 = number(1e8, 0, tr("tokens"), tr("the mean"), workload);
    m_sequence = number(1e8, 0, tr("tokens"), tr("required"), workload);
    m_microBatch = number(1e6, 0, tr("sequences"), tr("1 sequence"), workload);
    m_trainingTokens = number(1e10, 3, tr("M tokens"), tr("required"), workload);
    m_loraRank = number(65536, 0, QString(), tr("16"), workload);
    m_width = number(8192, 0, tr("px"), tr("the model card's"), workload);
    m_height = number(8192, 0, tr("px"), tr("the model card's"), workload);
    m_frames = number(10000, 0, tr("frames"), tr("the model card's"), workload);
    m_steps = number(1000, 0, tr("steps"), tr("the model card's"), workload);
    form->addRow(tr("Kind:"), m_kind);
    form->addRow(tr("Model:"), modelRow);
    form->addRow(tr("Pipeline:"), m_pipeline);
    form->addRow(tr("Input per request:"), m_input);
    form->addRow(tr("Output per request:"), m_output);
    form->addRow(tr("Input at p95:"), m_inputP95);
    form->addRow(tr("Output at p95:"), m_outputP95);
    form->addRow(tr("Sequence length:"), m_sequence);
    form->addRow(tr("Micro-batch:"), m_microBatch);
    form->addRow(tr("Tokens to train on:"), m_trainingTokens);
    form->addRow(tr("LoRA rank:"), m_loraRank);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    form->addRow(tr("Frames:"), m_frames);
    form->addRow(tr("Steps:"), m_steps);
    form->addRow(tr("Weights precision:"), m_precision);
    form->addRow(tr("Name:"), m_name);
    // Tab visits the rows in order; hidden rows are passed over.
    QWidget *previous = m_kind;
    for (QWidget *next : std::initializer_list<QWidget *>{m_model, import, m_pipeline, m_input, m_output, m_inputP95,
                                                          m_outputP95, m_sequence,
                                                          m_microBatch, m_trainingTokens, m_loraRank, m_width, m_height,
                                                          m_frames, m_steps, m_precision, m_name}) {
        setTabOrder(previous, next);
        previous = next;
    }
    workload->first = m_kind;
    workload->missing = [this] {
        QStringList what;
        if (m_name->text().trimmed().isEmpty())
            what << tr("a name");
        if (kind() == WorkloadKind::MediaGeneration) {
            if (!pipeline())
                what << tr("a pipeline");
        } else if (modelValue().isNull()) {
            what << (m_model->currentText().trimmed().isEmpty() ? tr("a model")
                                                                 : tr("a model of the catalog (\"%1\" is not one)").arg(m_model->currentText().trimmed()));
        }
        // An empty required field is still needed; one holding what cannot be taken is said by
        // the page as a number to correct.
        const auto needs = [&what](NumberEdit *box, const QString &name) {
            if (box->text().trimmed().isEmpty())
                what << name;
        };
        if (isInference(kind())) {
            needs(m_input, tr("the input length"));
            if (kind() != WorkloadKind::Embedding)
                needs(m_output, tr("the output length"));
        } else if (runs()) {
            needs(m_sequence, tr("the sequence length"));
            needs(m_trainingTokens, tr("the tokens to train on"));
        }
        return what;
    };
    connect(import, &QPushButton::clicked, this, [this, workload] {
        const QString path = openFileName(this, tr("Import a Hugging Face config.json"),
                                                          tr("config.json (*.json)"));
        if (path.isEmpty())
            return;
        if (auto error = importHfConfig(path))
            m_problem->setText(*error);
        workload->changed();
    });
    setPage(WorkloadPage, workload);

    // 2a. A service: traffic and targets.
    auto *traffic = new FormPage(tr("How much, and how fast?"),
                                 tr("The average request rate (the monthly volume follows from it) and the latency "
                                    "targets at the 99th percentile. A real-time service needs at least one target to "
                                    "rank."),
                                 this);
    auto *trafficForm = new QFormLayout(traffic);
    m_rate = number(1e6, 3, tr("requests/s"), tr("required"), traffic);
    // Units as the Brief page shows them: token targets in milliseconds, whole answers in seconds.
    m_ttft = number(3.6e6, 1, tr("ms"), tr("none"), traffic);
    m_tpot = number(6e4, 2, tr("ms"), tr("none"), traffic);
    m_e2e = number(8.64e4, 2, tr("s"), tr("none"), traffic);
    trafficForm->addRow(tr("Request rate:"), m_rate);
    trafficForm->addRow(tr("Time to first token, p99:"), m_ttft);
    trafficForm->addRow(tr("Time per output token, p99:"), m_tpot);
    trafficForm->addRow(tr("End to end, p99:"), m_e2e);
    traffic->first = m_rate;
    traffic->missing = [this] {
        QStringList what;
        if (m_rate->text().trimmed().isEmpty())
            what << tr("the request rate");
        if (kind() == WorkloadKind::RealtimeInference && !m_ttft->value() && !m_tpot->value() && !m_e2e->value())
            what << tr("a latency target");
        return what;
    };
    setPage(TrafficPage, traffic);

    // 2b. A run: the campaign it belongs to and the data it reads.
    auto *campaign = new FormPage(tr("How many runs, on what data?"),
                                  tr("Runs like this one a year share a reservation's or purchase's term. A dataset "
                                     "kept elsewhere is moved to the GPUs once a run, and staged beside them."),
                                  this);
    auto *campaignForm = new QFormLayout(campaign);
    m_runsPerYear = number(1e5, 2, tr("runs"), tr("one run"), campaign);
    m_dataset = number(1e9, 3, tr("GB"), tr("not priced"), campaign);
    m_datasetLocation = new QComboBox(campaign);
    m_datasetLocation->addItem(tr("elsewhere (moved to the GPUs each run)"), QStringLiteral("elsewhere"));
    m_datasetLocation->addItem(tr("already with the GPUs"), QStringLiteral("with-gpus"));
    campaignForm->addRow(tr("Runs a year:"), m_runsPerYear);
    campaignForm->addRow(tr("Dataset size:"), m_dataset);
    campaignForm->addRow(tr("Dataset is:"), m_datasetLocation);
    campaign->first = m_runsPerYear;
    setPage(RunsPage, campaign);

    // 3. Acceptance and the decision.
    auto *decision = new FormPage(tr("What counts, and what may be used?"),
                                  tr("What is accepted is what the cost is divided by. The data boundary decides "
                                     "whether a model API is an option."),
                                  this);
    auto *decisionForm = new QFormLayout(decision);
    m_quality = number(100, 2, tr("%"), tr("required"), decision);
    m_failure = number(99, 3, tr("%"), tr("0 when nothing fails"), decision);
    m_apiAllowed = new QComboBox(decision);
    m_apiAllowed->addItem(tr("choose"), QString());
    m_apiAllowed->addItem(tr("yes: a third-party model API may see the data"), QStringLiteral("true"));
    m_apiAllowed->addItem(tr("no: the data must stay on our GPUs"), QStringLiteral("false"));
    m_demand = levels(decision);
    m_churn = levels(decision);
    m_fte = number(100, 2, tr("engineers"), tr("not stated (0.5 assumed)"), decision);
    decisionForm->addRow(tr("Quality pass rate:"), m_quality);
    decisionForm->addRow(tr("Failure rate:"), m_failure);
    decisionForm->addRow(tr("Model API allowed:"), m_apiAllowed);
    decisionForm->addRow(tr("Demand certainty:"), m_demand);
    decisionForm->addRow(tr("Model churn:"), m_churn);
    decisionForm->addRow(tr("Who runs the platform:"), m_fte);
    decision->first = m_quality;
    decision->missing = [this] {
        QStringList what;
        if (serves() && m_quality->text().trimmed().isEmpty())
            what << tr("the quality pass rate");
        if (kind() != WorkloadKind::Training && m_apiAllowed->currentData().toString().isEmpty())
            what << tr("whether a model API is allowed");
        return what;
    };
    setPage(DecisionPage, decision);

    // 4. Candidates and an API quote.
    auto *candidates = new FormPage(tr("Which options?"),
                                    tr("Tick the GPUs to compare: each is sized to the smallest count that holds the "
                                       "brief, on its recommended stack (change them on the Candidates page). "
                                       "Add a model API's quote to compare against it."),
                                    this);
    auto *candidatesLayout = new QVBoxLayout(candidates);
    m_filter = new QLineEdit(candidates);
    m_filter->setPlaceholderText(tr("filter GPUs (\"H100\", \"48GB\", \"AMD\"); Return ticks the first"));
    m_filter->setClearButtonEnabled(true);
    m_gpus = new QListWidget(candidates);
    m_gpus->setAccessibleName(tr("GPUs"));
    for (const GpuSpec &g : catalog.gpus()) {
        auto *item = new QListWidgetItem(QString::fromStdString(g.name), m_gpus);
        item->setData(Qt::UserRole, QString::fromStdString(g.id));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(Qt::Unchecked);
    }
    m_apiGroup = new QGroupBox(tr("Compare with a model-API quote"), candidates);
    m_apiGroup->setCheckable(true);
    m_apiGroup->setChecked(false);
    auto *apiLayout = new QVBoxLayout(m_apiGroup);
    m_api = new ApiQuoteForm(m_apiGroup);
    apiLayout->addWidget(m_api);
    m_problem = new QLabel(candidates);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #d55e00"));
    candidatesLayout->addWidget(m_filter);
    candidatesLayout->addWidget(m_gpus, 1);
    candidatesLayout->addWidget(m_apiGroup);
    candidatesLayout->addWidget(m_problem);
    candidates->first = m_filter;
    candidates->missing = [this] {
        QStringList what;
        bool any = false;
        for (int i = 0; i < m_gpus->count(); ++i)
            any = any || m_gpus->item(i)->checkState() == Qt::Checked;
        if (!any)
            what << tr("a GPU");
        if (kind() != WorkloadKind::Training && m_apiGroup->isEnabled() && m_apiGroup->isChecked() && !m_api->complete())
            what << tr("for the API quote, %1").arg((m_api->missing() + m_api->wrong()).join(QStringLiteral(", ")));
        return what;
    };
    // Return in the filter ticks the first GPU it shows and selects the filter's text for the
    // next; it is not also the wizard's Finish (eventFilter).
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_gpus->count(); ++i)
            m_gpus->item(i)->setHidden(!m_gpus->item(i)->text().contains(text.trimmed(), Qt::CaseInsensitive));
    });
    setPage(CandidatesPage, candidates);

    const std::initializer_list<FormPage *> pages{workload, traffic, campaign, decision, candidates};
    // Every edit re-checks its page, and the status line under the buttons says what is missing.
    for (FormPage *page : pages) {
        const auto recheck = [page] { page->changed(); };
        for (QLineEdit *e : page->findChildren<QLineEdit *>())
            connect(e, &QLineEdit::textChanged, page, recheck);
        for (QAbstractSpinBox *b : page->findChildren<QAbstractSpinBox *>())
            connect(b, &QAbstractSpinBox::editingFinished, page, recheck);
        for (NumberEdit *b : page->findChildren<NumberEdit *>())
            connect(b, &NumberEdit::valueChanged, page, recheck);
        for (QComboBox *c : page->findChildren<QComboBox *>()) {
            connect(c, &QComboBox::currentIndexChanged, page, recheck);
            connect(c, &QComboBox::editTextChanged, page, recheck);
        }
    }
    connect(m_gpus, &QListWidget::itemChanged, candidates, [candidates] { candidates->changed(); });
    connect(m_apiGroup, &QGroupBox::toggled, candidates, [candidates] { candidates->changed(); });
    connect(m_api, &ApiQuoteForm::changed, candidates, [candidates] { candidates->changed(); });
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { kindChanged(); });
    // With the data kept off third-party APIs there is no API quote to weigh.
    connect(m_apiAllowed, &QComboBox::currentIndexChanged, this, [this, candidates] {
        const bool allowed = m_apiAllowed->currentData().toString() != QLatin1String("false");
        m_apiGroup->setEnabled(allowed);
        m_apiGroup->setToolTip(allowed ? QString() : tr("The data boundary keeps the data off third-party model APIs"));
        candidates->changed();
    });
    connect(m_pipeline, &QComboBox::currentIndexChanged, this, [this] { kindChanged(); });
    connect(m_dataset, &NumberEdit::valueChanged, this, [this] { kindChanged(); });
    // Under each page's fields, what it still needs and what is to be corrected before Next (or
    // Finish) is offered; what the engine refused stays until the page is edited.
    for (FormPage *page : pages) {
        auto *status = new QLabel(page);
        status->setWordWrap(true);
        status->setAccessibleName(tr("Still needed"));
        page->layout()->addWidget(status);
        const auto showMissing = [page, status] {
            QStringList lines;
            if (const QStringList what = page->missing ? page->missing() : QStringList(); !what.isEmpty())
                lines << NewComparisonWizard::tr("Still needed: %1.").arg(what.join(QStringLiteral(", ")));
            if (const QStringList wrong = page->wrong(); !wrong.isEmpty())
                lines << NewComparisonWizard::tr("To correct: %1.").arg(wrong.join(QStringLiteral("; ")));
            status->setText(lines.join(u'\n'));
        };
        connect(page, &QWizardPage::completeChanged, this, showMissing);
        const auto edited = [this, page] {
            m_touched = true;
            page->engineProblem.clear();
            page->changed();
        };
        for (QLineEdit *e : page->findChildren<QLineEdit *>())
            connect(e, &QLineEdit::textEdited, page, edited);
        for (QComboBox *c : page->findChildren<QComboBox *>())
            connect(c, &QComboBox::activated, page, edited);
        showMissing();
    }
    kindChanged();
    resize(760, 640);
}

WorkloadKind NewComparisonWizard::kind() const
{
    return enumFromString<WorkloadKind>(m_kind->currentData().toString().toStdString()).value_or(WorkloadKind::RealtimeInference);
}

bool NewComparisonWizard::serves() const
{
    return isInference(kind()) || kind() == WorkloadKind::MediaGeneration;
}

const MediaModelSpec *NewComparisonWizard::pipeline() const
{
    return m_catalog.mediaModel(m_pipeline->currentData().toString().toStdString());
}

int NewComparisonWizard::nextId() const
{
    switch (currentId()) {
    case WorkloadPage:
        return serves() ? TrafficPage : RunsPage;
    case TrafficPage:
    case RunsPage:
        return DecisionPage;
    case DecisionPage:
        return CandidatesPage;
    default:
        return -1;
    }
}

void NewComparisonWizard::kindChanged()
{
    const WorkloadKind k = kind();
    const bool media = k == WorkloadKind::MediaGeneration;
    const bool language = !media;
    const bool inference = isInference(k);
    const MediaModelSpec *spec = pipeline();
    // A field's row in its page's form, or the field itself elsewhere.
    const auto show = [](QWidget *field, bool shown) {
        if (auto *rows = qobject_cast<QFormLayout *>(field->parentWidget()->layout()))
            rows->setRowVisible(field, shown);
        else
            field->setVisible(shown);
    };
    show(m_model->parentWidget(), language);
    show(m_pipeline, media);
    show(m_input, inference);
    show(m_output, inference && k != WorkloadKind::Embedding);
    show(m_inputP95, inference);
    show(m_outputP95, inference && k != WorkloadKind::Embedding);
    for (NumberEdit *e : {m_sequence, m_microBatch, m_trainingTokens})
        show(e, runs());
    show(m_loraRank, isAdapter(k));
    for (NumberEdit *e : {m_width, m_height, m_steps})
        show(e, media);
    show(m_frames, media && spec && spec->video);
    // A service's targets: a token stream's for text, a whole output's for media.
    const bool realtime = k == WorkloadKind::RealtimeInference;
    show(m_ttft, realtime);
    show(m_tpot, realtime);
    show(m_e2e, realtime || media);
    page(TrafficPage)->setSubTitle(realtime ? tr("The average request rate (the monthly volume follows from it) and the "
                                                 "latency targets at the 99th percentile: at least one is needed to rank.")
                                   : media ? tr("The average request rate (the monthly volume follows from it) and, if the "
                                                "outputs are awaited, the time to a finished output at the 99th percentile.")
                                           : tr("The average request rate: the monthly volume follows from it. Work that "
                                                "is not awaited has no latency target here."));
    if (spec) {
        m_width->lineEdit()->setPlaceholderText(tr("the model card's, %1").arg(spec->defaultWidth));
        m_height->lineEdit()->setPlaceholderText(tr("the model card's, %1").arg(spec->defaultHeight));
        m_frames->lineEdit()->setPlaceholderText(tr("the model card's, %1").arg(spec->defaultFrames));
        m_steps->lineEdit()->setPlaceholderText(tr("the model card's, %1").arg(spec->defaultSteps));
    }
    // QLoRA quantizes its frozen base: NF4 unless another precision was chosen.
    const QString precision = m_precision->currentData().toString();
    if (k == WorkloadKind::Qlora && precision == QLatin1String("bf16"))
        m_precision->setCurrentIndex(m_precision->findData(QStringLiteral("nf4")));
    else if (k != WorkloadKind::Qlora && precision == QLatin1String("nf4"))
        m_precision->setCurrentIndex(m_precision->findData(QStringLiteral("bf16")));
    show(m_datasetLocation, m_dataset->value().has_value());
    // Each number takes what the engine's row of its field takes for this kind (brief/fields.h).
    const std::initializer_list<std::tuple<NumberEdit *, const char *, double>> ranges{
        {m_input, "/workload/input_tokens", 1}, {m_output, "/workload/output_tokens", 1},
        {m_inputP95, "/workload/input_tokens_p95", 1}, {m_outputP95, "/workload/output_tokens_p95", 1},
        {m_sequence, "/workload/training/sequence_length", 1}, {m_microBatch, "/workload/training/micro_batch_size", 1},
        {m_trainingTokens, "/workload/training/tokens", 1e-6}, {m_loraRank, "/workload/training/lora_rank", 1},
        {m_width, "/workload/media/width", 1}, {m_height, "/workload/media/height", 1},
        {m_frames, "/workload/media/frames", 1}, {m_steps, "/workload/media/steps", 1},
        {m_rate, "/workload/traffic/request_rate_per_s", 1}, {m_ttft, "/workload/slo/ttft_p99_s", 1000},
        {m_tpot, "/workload/slo/tpot_p99_s", 1000}, {m_e2e, "/workload/slo/e2e_p99_s", 1},
        {m_runsPerYear, "/workload/training/runs_per_year", 1}, {m_dataset, "/workload/training/dataset/size_gb", 1},
        {m_quality, "/workload/acceptance/quality_pass_rate", 100}, {m_failure, "/workload/acceptance/failure_rate", 100}};
    for (const auto &[box, pointer, scale] : ranges)
        if (const FieldRow *row = briefFields().find(pointer, k))
            setRangeFrom(box, *row, scale);
    // A run's acceptance is its evaluation, and may be left unstated (every run passes).
    auto *decisionForm = qobject_cast<QFormLayout *>(m_quality->parentWidget()->layout());
    const auto label = [decisionForm](QWidget *field, const QString &text) {
        if (auto *l = qobject_cast<QLabel *>(decisionForm->labelForField(field)))
            l->setText(text);
    };
    label(m_quality, runs() ? tr("Runs that pass evaluation:") : tr("Quality pass rate:"));
    label(m_failure, runs() ? tr("Runs that fail:") : tr("Failure rate:"));
    label(m_fte, runs() ? tr("Engineers watching a run:") : tr("Who runs the platform:"));
    m_quality->lineEdit()->setPlaceholderText(runs() ? tr("all") : tr("required"));
    show(m_apiAllowed, k != WorkloadKind::Training);
    // The model API's quote bills the kind's own work; pre-training has none to weigh.
    show(m_apiGroup, k != WorkloadKind::Training);
    Workload w;
    w.kind = k;
    if (media && spec) {
        w.media.emplace();
        w.media->model = *spec;
    }
    m_api->setUse(apiUseOf(w));
    for (int id : pageIds())
        if (auto *p = static_cast<FormPage *>(page(id)))
            p->changed();
}

bool NewComparisonWizard::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            // The first GPU the filter names as a whole word ("L4" is the L4, not the L40S),
            // else the first it shows.
            const QRegularExpression word(QStringLiteral("(^|\\W)%1($|\\W)").arg(QRegularExpression::escape(m_filter->text().trimmed())),
                                          QRegularExpression::CaseInsensitiveOption);
            QListWidgetItem *pick = nullptr;
            for (int i = 0; i < m_gpus->count(); ++i) {
                QListWidgetItem *item = m_gpus->item(i);
                if (item->isHidden())
                    continue;
                if (!pick)
                    pick = item;
                if (word.match(item->text()).hasMatch()) {
                    pick = item;
                    break;
                }
            }
            if (pick)
                pick->setCheckState(Qt::Checked);
            m_filter->selectAll();
            return true;
        }
    }
    return QWizard::eventFilter(watched, event);
}

void NewComparisonWizard::reject()
{
    // Escape or Cancel after answers were typed asks first: they are not kept anywhere else.
    if (m_touched
        && QMessageBox::question(this, tr("Discard the new comparison?"),
                                 tr("The answers typed in this wizard are lost if it is closed now."),
                                 QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel)
               != QMessageBox::Discard)
        return;
    QWizard::reject();
}

QString NewComparisonWizard::name() const
{
    return m_name->text().trimmed();
}

QJsonValue NewComparisonWizard::modelValue() const
{
    // What the field says decides, typed or picked: a catalog model's exact name, or the import.
    const int at = m_model->findText(m_model->currentText().trimmed(), Qt::MatchFixedString);
    const QString id = at >= 0 ? m_model->itemData(at).toString() : QString();
    if (id == QLatin1String("(imported)"))
        return QJsonDocument::fromJson(m_importedModel.toUtf8()).object();
    return id.isEmpty() ? QJsonValue() : QJsonValue(id);
}

std::optional<QString> NewComparisonWizard::importHfConfig(const QString &path)
{
    HfModel model;
    if (auto error = readHfModel(path, &model))
        return error;
    m_importedModel = model.briefValue;
    int at = m_model->findData(QStringLiteral("(imported)"));
    if (at < 0) {
        m_model->insertItem(1, QString(), QStringLiteral("(imported)"));
        at = 1;
    }
    m_model->setItemText(at, tr("%1 (imported)").arg(model.name));
    m_model->setCurrentIndex(at);
    return std::nullopt;
}

QString NewComparisonWizard::briefJson() const
{
    return m_brief;
}

} // namespace wb
