#include "dialogs/scenariocompare.h"

#include "document/document.h"
#include "parts/pageparts.h"

#include <evaluate/compare.h>
#include <report/labels.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace wb {

namespace {

QTableView *table(QStandardItemModel *model, const QString &name, QWidget *parent)
{
    QTableView *view = pageparts::resultTable(model, name, parent);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    return view;
}

bool isLatency(const std::string &figure)
{
    return figure.rfind("TTFT", 0) == 0 || figure.rfind("TPOT", 0) == 0;
}

// A figure's name with the unit its values are shown in.
QString figureName(const std::string &figure)
{
    const QString name = QString::fromStdString(figure);
    return isLatency(figure) ? ScenarioCompareDialog::tr("%1 (ms)").arg(name) : name;
}

// A figure in the unit a person reads it in.
QString figureText(const std::string &figure, const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("–");
    const QLocale locale;
    if (figure.rfind("memory headroom", 0) == 0)
        return locale.toString(*v * 100, 'f', 1) + QStringLiteral(" %");
    if (isLatency(figure))
        return locale.toString(*v * 1000, 'f', 0);
    if (figure.rfind("cost", 0) == 0)
        return QStringLiteral("$") + locale.toString(*v, 'f', 6);
    if (figure.rfind("GPUs", 0) == 0)
        return locale.toString(*v, 'f', 0);
    return locale.toString(*v, 'f', *v < 100 ? 2 : 0);
}

// A brief value as a person reads it: strings without their JSON quotes, true/false as yes/no.
QString valueText(const std::string &json)
{
    if (json.empty())
        return ScenarioCompareDialog::tr("(not given)");
    if (json == "true" || json == "false")
        return json == "true" ? ScenarioCompareDialog::tr("yes") : ScenarioCompareDialog::tr("no");
    if (json.size() >= 2 && json.front() == '"' && json.back() == '"')
        return QString::fromStdString(json.substr(1, json.size() - 2)).replace(QLatin1String("\\\""), QLatin1String("\""));
    return QString::fromStdString(json);
}

} // namespace

ScenarioCompareDialog::ScenarioCompareDialog(Document *document, QWidget *parent)
    : QDialog(parent), m_document(document), m_firstEvaluator(document->catalog()), m_secondEvaluator(document->catalog())
{
    setWindowTitle(tr("Compare scenarios"));
    auto *layout = new QVBoxLayout(this);
    auto *choose = new QHBoxLayout;
    m_first = new QComboBox(this);
    m_second = new QComboBox(this);
    m_first->setAccessibleName(tr("First scenario"));
    m_second->setAccessibleName(tr("Second scenario"));
    const QStringList names = document->scenarioNames();
    m_first->addItems(names);
    m_second->addItems(names);
    const int current = std::max(0, int(names.indexOf(document->scenarioName())));
    m_first->setCurrentIndex(current);
    m_second->setCurrentIndex(names.size() > 1 ? (current + 1) % int(names.size()) : 0);
    choose->addWidget(new QLabel(tr("Compare"), this));
    choose->addWidget(m_first, 1);
    choose->addWidget(new QLabel(tr("with"), this));
    choose->addWidget(m_second, 1);
    layout->addLayout(choose);
    auto *statusRow = new QHBoxLayout;
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->setAccessibleName(tr("Evaluation progress"));
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progress);
    layout->addLayout(statusRow);

    auto *split = new QSplitter(Qt::Vertical, this);
    auto *briefPane = new QWidget(split);
    auto *briefLayout = new QVBoxLayout(briefPane);
    briefLayout->setContentsMargins(0, 0, 0, 0);
    briefLayout->addWidget(new QLabel(tr("<b>What changed in the brief</b>"), briefPane));
    m_briefModel = new QStandardItemModel(0, 3, this);
    m_briefModel->setHorizontalHeaderLabels({tr("Field"), tr("First"), tr("Second")});
    m_briefTable = table(m_briefModel, tr("Brief differences"), briefPane);
    briefLayout->addWidget(m_briefTable);
    auto *resultsPane = new QWidget(split);
    auto *resultsLayout = new QVBoxLayout(resultsPane);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(new QLabel(tr("<b>What changed in the results</b> (green: better in the second, "
                                           "orange: worse)"),
                                        resultsPane));
    m_resultsModel = new QStandardItemModel(0, 5, this);
    m_resultsModel->setHorizontalHeaderLabels({tr("Candidate"), tr("Figure"), tr("First"), tr("Second"), tr("Change")});
    m_resultsTable = table(m_resultsModel, tr("Result differences"), resultsPane);
    // Sized when filled (showResults), so that a long headline can be capped.
    m_resultsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    resultsLayout->addWidget(m_resultsTable);
    split->addWidget(briefPane);
    split->addWidget(resultsPane);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    for (Evaluator *e : {&m_firstEvaluator, &m_secondEvaluator}) {
        connect(e, &Evaluator::resultsReady, this, [this, e](std::shared_ptr<const Results> r) {
            (e == &m_firstEvaluator ? m_firstResults : m_secondResults) = r;
            resultArrived();
        });
        connect(e, &Evaluator::failed, this, [this](const QString &message) { m_status->setText(message); });
    }
    // A scenario renamed, added or deleted while the dialog is open: the lists follow, keeping
    // the choices by position.
    connect(document, &Document::scenariosChanged, this, [this] {
        const QStringList now = m_document->scenarioNames();
        for (QComboBox *box : {m_first, m_second}) {
            const int at = box->currentIndex();
            const QSignalBlocker block(box);
            box->clear();
            box->addItems(now);
            box->setCurrentIndex(std::min(std::max(0, at), int(now.size()) - 1));
        }
        compare(m_first->currentText(), m_second->currentText());
    });
    const auto again = [this] { compare(m_first->currentText(), m_second->currentText()); };
    connect(m_first, &QComboBox::currentIndexChanged, this, again);
    connect(m_second, &QComboBox::currentIndexChanged, this, again);
    resize(1100, 720);
    again();
}

ScenarioCompareDialog::~ScenarioCompareDialog() = default;  // the evaluators stop and wait

void ScenarioCompareDialog::resultArrived()
{
    if (!m_firstResults || !m_secondResults)
        return;
    m_busy = false;
    m_progress->hide();
    showResults(*m_firstResults, *m_secondResults);
}

void ScenarioCompareDialog::compare(const QString &a, const QString &b)
{
    m_firstEvaluator.stop();
    m_secondEvaluator.stop();
    m_firstResults.reset();
    m_secondResults.reset();
    m_busy = false;
    m_briefModel->removeRows(0, m_briefModel->rowCount());
    m_resultsModel->removeRows(0, m_resultsModel->rowCount());
    const QString jsonA = m_document->scenarioJson(a), jsonB = m_document->scenarioJson(b);
    if (jsonA.isEmpty() || jsonB.isEmpty()) {
        m_status->setText(tr("Choose two scenarios of the project."));
        m_progress->hide();
        return;
    }
    const auto changes = diffBriefs(jsonA.toStdString(), jsonB.toStdString());
    m_briefChanges = int(changes.size());
    for (const FieldChange &c : changes) {
        auto *field = new QStandardItem(QString::fromStdString(fieldLabel(c.pointer)));
        field->setToolTip(QString::fromStdString(c.pointer));  // where it is in the brief's JSON
        m_briefModel->appendRow({field, new QStandardItem(valueText(c.before)), new QStandardItem(valueText(c.after))});
    }
    if (m_briefModel->rowCount() == 0)
        m_briefModel->appendRow({new QStandardItem(tr("(the briefs are the same)")), new QStandardItem, new QStandardItem});
    m_briefTable->resizeColumnsToContents();
    auto briefA = m_document->parsedScenario(a);
    auto briefB = m_document->parsedScenario(b);
    if (!briefA || !briefB) {
        m_status->setText(QString::fromStdString((briefA ? briefB.error() : briefA.error()).toString()));
        m_progress->hide();
        return;
    }
    m_status->setText(tr("Evaluating both scenarios…"));
    m_progress->show();
    m_busy = true;
    m_firstEvaluator.start(briefA.value(), Evaluator::Passes::FullOnly);
    m_secondEvaluator.start(briefB.value(), Evaluator::Passes::FullOnly);
}

void ScenarioCompareDialog::showResults(const Results &a, const Results &b)
{
    // Only the figures that differ are listed (by more than 0.5%, or present in one scenario
    // only), and the count above says how many rows that is.
    const QColor better(0, 158, 115), worse(213, 94, 0);
    m_resultsModel->removeRows(0, m_resultsModel->rowCount());
    // The two decisions first, side by side: what each recommends and its cheapest option.
    const auto decision = [&](const QString &what, const std::string &first, const std::string &second) {
        const auto text = [](const std::string &s) { return s.empty() ? tr("(none)") : QString::fromStdString(s); };
        auto *one = new QStandardItem(text(first)), *other = new QStandardItem(text(second));
        one->setToolTip(one->text());  // a headline is long: the column is capped and the cell elided
        other->setToolTip(other->text());
        m_resultsModel->appendRow({new QStandardItem(tr("Decision")), new QStandardItem(what), one, other,
                                   new QStandardItem(first == second ? tr("the same") : tr("differs"))});
    };
    decision(tr("Recommendation"), recommendationHeadline(a), recommendationHeadline(b));
    const auto cheapest = [](const Results &r) { return r.cost.ranking ? r.cost.ranking->first : std::string(); };
    decision(tr("Cheapest option"), cheapest(a), cheapest(b));
    const int decisions = m_resultsModel->rowCount();
    for (const FigureChange &c : compareResults(a, b)) {
        QString text;
        std::optional<QColor> colour;
        if (c.before && c.after) {
            const double relative = *c.before != 0 ? (*c.after - *c.before) / std::abs(*c.before) : (*c.after != 0 ? 1.0 : 0.0);
            if (std::abs(relative) <= 0.005)
                continue;
            text = *c.before != 0 ? QLocale().toString(relative * 100, 'f', 1) + QStringLiteral(" %") : tr("from zero");
            colour = (relative < 0) == c.lowerIsBetter ? better : worse;
        } else if (c.before.has_value() != c.after.has_value()) {
            text = c.before ? tr("only in the first") : tr("only in the second");
        } else {
            continue;  // in neither: nothing to compare
        }
        auto *change = new QStandardItem(text);  // made only for a row that is listed
        if (colour)
            change->setForeground(*colour);
        m_resultsModel->appendRow({new QStandardItem(QString::fromStdString(c.candidate)), new QStandardItem(figureName(c.figure)),
                                   new QStandardItem(figureText(c.figure, c.before)),
                                   new QStandardItem(figureText(c.figure, c.after)), change});
    }
    const int changed = m_resultsModel->rowCount() - decisions;
    if (changed == 0)
        m_resultsModel->appendRow({new QStandardItem(tr("(no result figure differs by more than 0.5%)")), new QStandardItem,
                                   new QStandardItem, new QStandardItem, new QStandardItem});
    m_resultsTable->resizeColumnsToContents();
    // The two values side by side within the view: a long headline does not push the second
    // scenario's column off the dialog.
    const int room = m_resultsTable->viewport()->width() - m_resultsTable->columnWidth(0) - m_resultsTable->columnWidth(1)
        - m_resultsTable->columnWidth(4);
    for (int column : {2, 3})
        m_resultsTable->setColumnWidth(column, std::min(m_resultsTable->columnWidth(column), std::max(120, room / 2)));
    m_status->setText(tr("%n brief field(s)", nullptr, m_briefChanges) + tr(" and ")
                      + tr("%n result figure(s) differ (changes under 0.5% are not listed).", nullptr, changed));
}

} // namespace wb
