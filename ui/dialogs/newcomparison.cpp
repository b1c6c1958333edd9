#include "dialogs/newcomparison.h"

#include "dialogs/apiquote.h"
#include "parts/hfimport.h"
#include "parts/words.h"

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <fit/fit.h>

#include <QComboBox>
#include <QCompleter>
#include <widgets/numberedit.h>
#include <QFileDialog>
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
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QWizardPage>

namespace wb {

namespace {

// A page whose Next waits for `complete`, and says what is missing.
class FormPage : public QWizardPage
{
public:
    FormPage(const QString &title, const QString &subtitle, QWidget *parent) : QWizardPage(parent)
    {
        setTitle(title);
        setSubTitle(subtitle);
    }
    std::function<QString()> missing;  // empty text: complete
    QWidget *first = nullptr;          // where typing starts when the page opens
    bool isComplete() const override { return !missing || missing().isEmpty(); }
    void initializePage() override
    {
        // After the page is shown (the wizard leaves the focus on its Next button otherwise),
        // with the field's text selected so that what is typed replaces it.
        if (QWidget *field = first)
            QTimer::singleShot(0, field, [field] {
                field->setFocus(Qt::TabFocusReason);
                if (auto *spin = qobject_cast<QAbstractSpinBox *>(field))
                    spin->selectAll();
                else if (auto *number = qobject_cast<NumberEdit *>(field))
                    number->lineEdit()->selectAll();
            });
    }
    void changed() { emit completeChanged(); }
};

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

    // 1. The workload.
    auto *workload = new FormPage(tr("What runs?"), tr("The workload and its model. The kind decides which figures "
                                                       "apply; lengths are tokens per request."),
                                  this);
    auto *form = new QFormLayout(workload);
    m_name = new QLineEdit(tr("New comparison"), workload);
    m_kind = new QComboBox(workload);
    for (const auto &[kind, text] : EnumNames<WorkloadKind>::items)
        if (isInference(kind))
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
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_model, 1);
    modelRow->addWidget(import);
    m_precision = new QComboBox(workload);
    for (const auto &[precision, text] : EnumNames<Precision>::items)
        m_precision->addItem(words(text), QString::fromLatin1(text.data(), qsizetype(text.size())));
    m_precision->setCurrentIndex(m_precision->findData(QStringLiteral("bf16")));
    // A spin box showing "required" as its lowest value swallowed the first digits typed into it.
    m_input = number(1e8, 0, tr("tokens"), tr("required"), workload);
    m_output = number(1e8, 0, tr("tokens"), tr("required"), workload);
    // The fields every comparison needs first, in the order Tab visits them; the rest have defaults.
    form->addRow(tr("Model:"), modelRow);
    form->addRow(tr("Input per request:"), m_input);
    form->addRow(tr("Output per request:"), m_output);
    form->addRow(tr("Kind:"), m_kind);
    form->addRow(tr("Weights precision:"), m_precision);
    form->addRow(tr("Name:"), m_name);
    setTabOrder(m_model, m_input);
    setTabOrder(m_input, m_output);
    setTabOrder(m_output, m_kind);
    setTabOrder(m_kind, m_precision);
    setTabOrder(m_precision, m_name);
    setTabOrder(m_name, import);
    workload->first = m_model;
    workload->missing = [this] {
        QStringList what;
        if (m_name->text().trimmed().isEmpty())
            what << tr("a name");
        if (modelValue().isNull())
            what << (m_model->currentText().trimmed().isEmpty() ? tr("a model")
                                                                 : tr("a model of the catalog (\"%1\" is not one)").arg(m_model->currentText().trimmed()));
        if (m_input->value().value_or(0) <= 0)
            what << tr("the input length");
        if (m_output->value().value_or(0) <= 0 && m_kind->currentData().toString() != QLatin1String("embedding"))
            what << tr("the output length");
        return what.join(QStringLiteral(", "));
    };
    connect(import, &QPushButton::clicked, this, [this, workload] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import a Hugging Face config.json"), {},
                                                          tr("config.json (*.json)"));
        if (path.isEmpty())
            return;
        if (auto error = importHfConfig(path))
            m_problem->setText(*error);
        workload->changed();
    });
    addPage(workload);

    // 2. Traffic and targets.
    auto *traffic = new FormPage(tr("How much, and how fast?"),
                                 tr("The average request rate (the monthly volume follows from it) and the latency "
                                    "targets at the 99th percentile. At least one target is needed to rank."),
                                 this);
    auto *trafficForm = new QFormLayout(traffic);
    m_rate = number(1e6, 3, tr("requests/s"), tr("required"), traffic);
    // Units as the Brief page shows them: latency targets in milliseconds, fractions in percent.
    m_ttft = number(3.6e6, 1, tr("ms"), tr("none"), traffic);
    m_tpot = number(6e4, 2, tr("ms"), tr("none"), traffic);
    trafficForm->addRow(tr("Request rate:"), m_rate);
    trafficForm->addRow(tr("Time to first token, p99:"), m_ttft);
    trafficForm->addRow(tr("Time per output token, p99:"), m_tpot);
    traffic->first = m_rate;
    traffic->missing = [this] {
        QStringList what;
        if (m_rate->value().value_or(0) <= 0)
            what << tr("the request rate");
        if (m_ttft->value().value_or(0) <= 0 && m_tpot->value().value_or(0) <= 0)
            what << tr("a latency target");
        return what.join(QStringLiteral(", "));
    };
    addPage(traffic);

    // 3. Acceptance and the decision.
    auto *decision = new FormPage(tr("What counts, and what may be used?"),
                                  tr("Outputs that pass the quality filter and do not fail are what the cost is divided "
                                     "by. The data boundary decides whether a model API is an option."),
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
        if (m_quality->value().value_or(0) <= 0)
            what << tr("the quality pass rate");
        if (m_apiAllowed->currentData().toString().isEmpty())
            what << tr("whether a model API is allowed");
        return what.join(QStringLiteral(", "));
    };
    addPage(decision);

    // 4. Candidates and an API quote.
    auto *candidates = new FormPage(tr("Which options?"),
                                    tr("Tick the GPUs to compare: each is sized to the smallest count that holds the "
                                       "brief, on its recommended serving stack (change them on the Candidates page). "
                                       "Add the model API's quote to compare against it."),
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
        if (m_apiGroup->isChecked() && !m_api->complete())
            what << tr("for the API quote, %1").arg((m_api->missing() + m_api->wrong()).join(QStringLiteral(", ")));
        return what.join(QStringLiteral(", "));
    };
    // Return in the filter ticks the first GPU it shows and selects the filter's text for the
    // next; it is not also the wizard's Finish (eventFilter).
    m_filter->installEventFilter(this);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int i = 0; i < m_gpus->count(); ++i)
            m_gpus->item(i)->setHidden(!m_gpus->item(i)->text().contains(text.trimmed(), Qt::CaseInsensitive));
    });
    addPage(candidates);

    // Every edit re-checks its page, and the status line under the buttons says what is missing.
    for (FormPage *page : {workload, traffic, decision, candidates}) {
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
    // Under each page's fields, what it still needs before Next (or Finish) is offered.
    for (FormPage *page : {workload, traffic, decision, candidates}) {
        auto *status = new QLabel(page);
        status->setWordWrap(true);
        status->setAccessibleName(tr("Still needed"));
        page->layout()->addWidget(status);
        const auto showMissing = [page, status] {
            const QString what = page->missing ? page->missing() : QString();
            status->setText(what.isEmpty() ? QString() : NewComparisonWizard::tr("Still needed: %1.").arg(what));
        };
        connect(page, &QWizardPage::completeChanged, this, showMissing);
        showMissing();
    }
    resize(760, 600);
}

bool NewComparisonWizard::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_filter && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            for (int i = 0; i < m_gpus->count(); ++i)
                if (!m_gpus->item(i)->isHidden()) {
                    m_gpus->item(i)->setCheckState(Qt::Checked);
                    break;
                }
            m_filter->selectAll();
            return true;
        }
    }
    return QWizard::eventFilter(watched, event);
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

// On Finish: the brief is built, each ticked GPU sized for it by the engine, and the whole parsed
// as the engine will; an error stays on the page, naming the field.
bool NewComparisonWizard::validateCurrentPage()
{
    if (currentId() != pageIds().back())
        return QWizard::validateCurrentPage();
    QJsonObject workload;
    workload.insert(QStringLiteral("kind"), m_kind->currentData().toString());
    workload.insert(QStringLiteral("model"), modelValue());
    workload.insert(QStringLiteral("weights_precision"), m_precision->currentData().toString());
    workload.insert(QStringLiteral("input_tokens"), m_input->value().value_or(0));
    if (m_output->value().value_or(0) > 0)
        workload.insert(QStringLiteral("output_tokens"), m_output->value().value_or(0));
    workload.insert(QStringLiteral("traffic"), QJsonObject{{QStringLiteral("mode"), QStringLiteral("open-loop")},
                                                           {QStringLiteral("request_rate_per_s"), m_rate->value().value_or(0)}});
    QJsonObject slo;
    if (m_ttft->value().value_or(0) > 0)
        slo.insert(QStringLiteral("ttft_p99_s"), *m_ttft->value() / 1000);
    if (m_tpot->value().value_or(0) > 0)
        slo.insert(QStringLiteral("tpot_p99_s"), *m_tpot->value() / 1000);
    workload.insert(QStringLiteral("slo"), slo);
    workload.insert(QStringLiteral("acceptance"),
                    QJsonObject{{QStringLiteral("quality_pass_rate"), m_quality->value().value_or(0) / 100},
                                {QStringLiteral("failure_rate"), m_failure->value().value_or(0) / 100}});
    QJsonObject decision{{QStringLiteral("api_allowed"), m_apiAllowed->currentData().toString() == QLatin1String("true")}};
    if (!m_demand->currentData().toString().isEmpty())
        decision.insert(QStringLiteral("demand_certainty"), m_demand->currentData().toString());
    if (!m_churn->currentData().toString().isEmpty())
        decision.insert(QStringLiteral("model_churn"), m_churn->currentData().toString());
    QJsonObject cost{{QStringLiteral("decision"), decision}};
    if (m_apiGroup->isChecked())
        cost.insert(QStringLiteral("api"), QJsonDocument::fromJson(m_api->json().toUtf8()).object());
    QStringList gpus;
    for (int i = 0; i < m_gpus->count(); ++i)
        if (m_gpus->item(i)->checkState() == Qt::Checked)
            gpus << m_gpus->item(i)->data(Qt::UserRole).toString();
    QJsonObject root{{QStringLiteral("format"), QStringLiteral("gpu-workbench-brief")},
                     {QStringLiteral("version"), 1},
                     {QStringLiteral("name"), name()},
                     {QStringLiteral("workload"), workload},
                     {QStringLiteral("cost"), cost}};
    if (m_fte->value().value_or(0) > 0)
        root.insert(QStringLiteral("assumptions"), QJsonObject{{QStringLiteral("platform_fte_self_hosted"), *m_fte->value()}});
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
