#include "dialogs/layoutsearch.h"

#include "parts/messagetext.h"
#include "document/document.h"
#include "parts/pageparts.h"

#include <core/guard.h>
#include <widgets/chartview.h>

#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace wb {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kLayoutRole = Qt::UserRole + 2;

QString choiceText(const LayoutResult &l)
{
    QStringList parts;
    if (l.cheapestOfGpu)
        parts << LayoutSearchDialog::tr("cheapest of its GPU");
    if (l.costFront)
        parts << LayoutSearchDialog::tr("cost front");
    if (l.throughputFront)
        parts << LayoutSearchDialog::tr("throughput front");
    return parts.join(QStringLiteral(", "));
}

QStandardItem *cell(const QString &text, double sortValue)
{
    auto *item = new QStandardItem(text);
    item->setData(sortValue, kSortRole);
    item->setEditable(false);
    return item;
}

} // namespace

LayoutSearchDialog::LayoutSearchDialog(Document *document, QWidget *parent) : QDialog(parent), m_document(document)
{
    setWindowTitle(tr("Find layouts"));
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    layout->addWidget(m_intro);

    auto *split = new QSplitter(Qt::Horizontal, this);
    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("GPUs to search:"), left));
    m_gpus = new QListWidget(left);
    m_gpus->setAccessibleName(tr("GPUs to search"));
    std::vector<std::string> briefGpus;
    if (const Brief *b = document->brief())
        for (const Candidate &c : b->candidates)
            briefGpus.push_back(c.gpu);
    for (const GpuSpec &g : document->catalog().gpus()) {
        auto *item = new QListWidgetItem(QString::fromStdString(g.name), m_gpus);
        item->setData(Qt::UserRole, QString::fromStdString(g.id));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        const bool inBrief = std::find(briefGpus.begin(), briefGpus.end(), g.id) != briefGpus.end();
        item->setCheckState(inBrief ? Qt::Checked : Qt::Unchecked);
    }
    leftLayout->addWidget(m_gpus, 1);
    auto *which = new QHBoxLayout;
    auto *all = new QPushButton(tr("&All"), left);
    auto *none = new QPushButton(tr("&None"), left);
    which->addWidget(all);
    which->addWidget(none);
    leftLayout->addLayout(which);
    const auto tickAll = [this](Qt::CheckState state) {
        for (int i = 0; i < m_gpus->count(); ++i)
            m_gpus->item(i)->setCheckState(state);
    };
    connect(all, &QPushButton::clicked, this, [tickAll] { tickAll(Qt::Checked); });
    connect(none, &QPushButton::clicked, this, [tickAll] { tickAll(Qt::Unchecked); });
    leftLayout->addWidget(new QLabel(tr("Weight precisions the brief accepts:"), left));
    auto *precisionRow = new QHBoxLayout;
    for (Precision p : {Precision::Bf16, Precision::Fp8, Precision::Int8, Precision::Int4, Precision::Fp4}) {
        auto *box = new QCheckBox(QString::fromStdString(std::string(enumName(p))), left);
        box->setProperty("precision", int(p));
        precisionRow->addWidget(box);
        m_precisions << box;
        connect(box, &QCheckBox::clicked, this, &LayoutSearchDialog::setPrecisions);
    }
    precisionRow->addStretch();
    leftLayout->addLayout(precisionRow);
    connect(document, &Document::briefChanged, this, &LayoutSearchDialog::showBriefPrecisions);
    showBriefPrecisions();
    auto *limitRow = new QHBoxLayout;
    auto *limitLabel = new QLabel(tr("At most &GPUs per deployment:"), left);
    m_maxGpus = new QSpinBox(left);
    m_maxGpus->setRange(1, 4096);
    m_maxGpus->setValue(64);
    m_maxGpus->setAccessibleName(tr("At most GPUs per deployment"));
    limitLabel->setBuddy(m_maxGpus);
    limitRow->addWidget(limitLabel);
    limitRow->addWidget(m_maxGpus);
    leftLayout->addLayout(limitRow);
    auto *run = new QHBoxLayout;
    m_search = new QPushButton(tr("&Search"), left);
    m_search->setDefault(true);
    m_cancel = new QPushButton(tr("&Cancel Search"), left);
    m_cancel->setEnabled(false);
    run->addWidget(m_search);
    run->addWidget(m_cancel);
    leftLayout->addLayout(run);
    m_progress = new QProgressBar(left);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    leftLayout->addWidget(m_progress);

    auto *right = new QSplitter(Qt::Vertical, split);
    m_model = new QStandardItemModel(this);
    m_sorted = new QSortFilterProxyModel(this);
    m_sorted->setSourceModel(m_model);
    m_sorted->setSortRole(kSortRole);
    m_table = pageparts::resultTable(m_sorted, tr("Layouts found"), right);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setSortingEnabled(true);
    m_tabs = new QTabWidget(right);
    m_costChart = new ChartView(m_tabs);
    m_throughputChart = new ChartView(m_tabs);
    m_tabs->addTab(m_costChart, tr("Cost against latency"));
    m_tabs->addTab(m_throughputChart, tr("Throughput against interactivity"));
    m_costChart->setEmptyText(tr("Search to see the layouts' cost against their latency"));
    m_throughputChart->setEmptyText(tr("Search to see the layouts' throughput per GPU against tokens/s per user"));
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    split->setSizes({260, 1000});
    layout->addWidget(split, 1);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    // Room for three lines whatever it says, so that the buttons never move under the pointer.
    m_status->setMinimumHeight(3 * fontMetrics().lineSpacing());
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_add = buttons->addButton(tr("A&dd Selected as Candidates"), QDialogButtonBox::ActionRole);
    m_add->setEnabled(false);
    layout->addWidget(buttons);

    // The layouts added are an edit of the document: Ctrl+Z takes them back here too.
    QAction *undo = document->undoStack()->createUndoAction(this);
    undo->setShortcuts(QKeySequence::Undo);
    QAction *redo = document->undoStack()->createRedoAction(this);
    redo->setShortcuts(QKeySequence::Redo);
    addAction(undo);
    addAction(redo);

    connect(m_search, &QPushButton::clicked, this, &LayoutSearchDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &LayoutSearchDialog::cancel);
    connect(m_add, &QPushButton::clicked, this, [this] { addSelected(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &LayoutSearchDialog::updateAddButton);

    const Brief *brief = document->brief();
    if (!brief) {
        m_intro->setText(tr("Open a brief first: the search looks for layouts that serve the current scenario's brief."));
        m_search->setEnabled(false);
    } else if (!isInference(brief->workload.kind) && brief->workload.kind != WorkloadKind::MediaGeneration) {
        m_intro->setText(tr("The layout search covers inference and media generation; compare a training brief's layouts "
                            "as candidates on the Candidates page."));
        m_search->setEnabled(false);
    } else {
        m_intro->setText(
            tr("Tries every tensor- and pipeline-parallel size, weight precision the brief accepts and serving stack of "
               "the GPUs ticked, sizes each to the peak within the SLO and prices it. Layouts are screened with short "
               "simulations (quick); the fronts and each GPU's cheapest layouts are then evaluated in full."));
    }
    setMinimumSize(960, 620);
    resize(1280, 760);
}

void LayoutSearchDialog::showBriefPrecisions()
{
    const Brief *brief = m_document->brief();
    const std::vector<Precision> searched = brief ? searchedPrecisions(*brief) : std::vector<Precision>{};
    for (QCheckBox *box : m_precisions)
        box->setChecked(std::find(searched.begin(), searched.end(), Precision(box->property("precision").toInt()))
                        != searched.end());
}

void LayoutSearchDialog::setPrecisions()
{
    QStringList names;
    for (QCheckBox *box : m_precisions)
        if (box->isChecked())
            names << QStringLiteral("\"%1\"").arg(box->text());
    if (names.isEmpty()) {
        m_status->setText(tr("Keep one precision at least: the search needs one to try."));
        showBriefPrecisions();
        return;
    }
    if (auto error = m_document->editBrief(QStringLiteral("/workload/acceptable_precisions"),
                                           QStringLiteral("[%1]").arg(names.join(QStringLiteral(", "))),
                                           tr("acceptable precisions"), false)) {
        m_status->setText(*error);
        showBriefPrecisions();
    }
}

LayoutSearchDialog::~LayoutSearchDialog()
{
    stopWorker();
}

void LayoutSearchDialog::stopWorker()
{
    m_stop.request_stop();
    if (m_worker.joinable())
        m_worker.join();
}

void LayoutSearchDialog::start()
{
    stopWorker();
    const Brief *brief = m_document->brief();
    if (!brief)
        return;
    SearchOptions options;
    for (int i = 0; i < m_gpus->count(); ++i)
        if (m_gpus->item(i)->checkState() == Qt::Checked)
            options.gpus.push_back(m_gpus->item(i)->data(Qt::UserRole).toString().toStdString());
    if (options.gpus.empty()) {
        m_status->setText(tr("Tick at least one GPU to search."));
        return;
    }
    options.maxGpus = m_maxGpus->value();
    m_brief = *brief;
    m_scenario = m_document->scenarioName();
    m_stop = std::stop_source();
    options.stop = m_stop.get_token();
    // Progress from the pool's threads, at most about a hundred updates a search.
    options.progress = [this](std::size_t done, std::size_t total) {
        if (done == total || done % std::max<std::size_t>(1, total / 100) == 0)
            QMetaObject::invokeMethod(this, [this, done, total] { showProgress(int(done), int(total)); }, Qt::QueuedConnection);
    };
    m_busy = true;
    m_search->setEnabled(false);
    m_cancel->setEnabled(true);
    m_add->setEnabled(false);
    m_progress->setRange(0, 0);  // busy until the first layout is in
    m_status->setText(tr("Searching %n GPU(s)…", nullptr, int(options.gpus.size())));
    const Catalog &catalog = m_document->catalog();
    m_worker = std::thread([this, brief = *m_brief, options, &catalog] {
        // Through the barrier (core/guard.h): an exception leaving this thread would end the app.
        std::string why;
        auto found = guarded("the layout search", [&]() -> Result<std::optional<SearchResult>> {
            return searchLayouts(brief, catalog, options, &why);
        });
        if (!found)
            why = found.error().message;
        auto result = found && *found ? std::make_shared<SearchResult>(std::move(**found)) : nullptr;
        const QString error = QString::fromStdString(why);
        QMetaObject::invokeMethod(this, [this, result, error] { showResult(result, error); }, Qt::QueuedConnection);
    });
}

void LayoutSearchDialog::cancel()
{
    if (!m_busy)
        return;
    m_stop.request_stop();
    m_status->setText(tr("Cancelling…"));
}

void LayoutSearchDialog::showProgress(int done, int total)
{
    if (!m_busy)
        return;
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2 layouts").arg(done).arg(total));
}

void LayoutSearchDialog::showResult(std::shared_ptr<SearchResult> result, const QString &error)
{
    if (m_worker.joinable())
        m_worker.join();
    m_busy = false;
    m_search->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    if (!result) {
        m_status->setText(error);
        m_progress->setValue(0);
        emit finished(false);
        return;
    }
    m_result = std::move(*result);
    fillTable();
    fillCharts();
    std::size_t tried = 0, fits = 0, costed = 0, within = 0, meets = 0;
    for (const LayoutResult &l : m_result->layouts) {
        tried += l.evaluated;
        fits += l.fits;
        costed += l.costed;
        within += l.costed && l.withinGpuLimit;
        meets += l.costed && l.withinGpuLimit && l.meetsSlo;
    }
    m_progress->setFormat(m_result->cancelled ? tr("Cancelled") : tr("Done"));
    QString text = tr("%1 layouts tried: %2 fit, %3 costed, %4 within %5 GPUs, %6 of them meeting the SLO.")
                       .arg(tried)
                       .arg(fits)
                       .arg(costed)
                       .arg(within)
                       .arg(m_maxGpus->value())
                       .arg(meets);
    if (m_result->cancelled)
        text = tr("Cancelled: the figures cover the layouts finished. ") + text;
    for (const Warning &w : m_result->warnings) {
        QString message = messageText(w);
        if (!message.isEmpty())
            message[0] = message[0].toUpper();
        text += QLatin1Char(' ') + message + QLatin1Char('.');
    }
    // A GPU ticked with nothing to show says why (its layouts' commonest reason).
    std::map<std::string, std::map<std::string, int>> why;
    std::map<std::string, bool> shown;
    for (const LayoutResult &l : m_result->layouts) {
        shown[l.gpuName] = shown[l.gpuName] || (l.costed && l.withinGpuLimit);
        if (l.evaluated && !l.costed)
            ++why[l.gpuName][l.why];
    }
    for (const auto &[gpu, any] : shown) {
        if (any || why[gpu].empty())
            continue;
        const auto common = std::max_element(why[gpu].begin(), why[gpu].end(),
                                             [](const auto &a, const auto &b) { return a.second < b.second; });
        text += tr(" %1: %2.").arg(QString::fromStdString(gpu), QString::fromStdString(common->first));
    }
    text += tr(" Figures in italics are screening estimates; the rest, and every layout once added, are evaluated in full."
               " Select layouts and add them as candidates to compare them on every page.");
    m_status->setText(text);
    emit finished(m_result->cancelled);
}

void LayoutSearchDialog::fillTable()
{
    m_model->clear();
    m_rows.clear();
    const bool media = m_brief->workload.kind == WorkloadKind::MediaGeneration;
    m_model->setHorizontalHeaderLabels({tr("Layout"), tr("Replicas"), tr("GPUs"), tr("SLO"), tr("$ per accepted output"),
                                        tr("%1 (s)").arg(QString::fromStdString(m_result->latencyName)),
                                        media ? tr("Outputs/h per GPU") : tr("Most tokens/s per GPU"),
                                        tr("Tokens/s per user"), tr("Figures"), tr("Chosen as")});
    // A layout's capacity, for the throughput-interactivity front; Compare & decide gives the
    // brief's traffic (the same deployment's figure at a lower load) in its own column.
    if (!media)
        m_model->horizontalHeaderItem(6)->setToolTip(
            tr("Output tokens a second per GPU at the highest rate the layout carries within the SLO (its capacity); "
               "Compare & decide gives them at the brief's traffic"));
    const QLocale locale;
    for (const LayoutResult &l : m_result->layouts) {
        if (!l.costed || !l.withinGpuLimit)
            continue;
        QList<QStandardItem *> row;
        auto *name = new QStandardItem(QString::fromStdString(layoutLabel(l, *m_brief)));
        name->setData(name->text(), kSortRole);
        name->setData(int(m_rows.size()), kLayoutRole);
        name->setEditable(false);
        name->setToolTip(QString::fromStdString(l.gpuName));
        row << name << cell(locale.toString(l.replicas), l.replicas) << cell(locale.toString(l.candidate.gpus), l.candidate.gpus)
            << cell(l.meetsSlo ? tr("met") : tr("missed"), l.meetsSlo ? 1 : 0)
            << cell(QStringLiteral("$") + locale.toString(l.costPerAcceptedOutput, 'f', 6), l.costPerAcceptedOutput)
            << cell(std::isfinite(l.p99LatencyS) ? locale.toString(l.p99LatencyS, 'f', 3) : QStringLiteral("–"),
                    std::isfinite(l.p99LatencyS) ? l.p99LatencyS : 1e300)
            << cell(locale.toString(l.outputTokensPerSPerGpu, 'f', 0), l.outputTokensPerSPerGpu)
            << cell(l.tokensPerSPerUser > 0 ? locale.toString(l.tokensPerSPerUser, 'f', 1) : QStringLiteral("–"),
                    l.tokensPerSPerUser)
            << cell(l.full ? tr("full") : tr("quick"), l.full ? 1 : 0) << cell(choiceText(l), l.cheapestOfGpu ? 0 : 1);
        row.at(8)->setToolTip(l.full ? tr("Evaluated in full as deployed")
                                     : tr("From the short screening simulations: an estimate, evaluated in full once chosen"));
        // Screened figures in italics, as the window shows its quick first answer: an estimate,
        // which the row's Compare & decide figures (evaluated in full) may differ from.
        if (!l.full)
            for (QStandardItem *item : row) {
                QFont italic = item->font();
                italic.setItalic(true);
                item->setFont(italic);
                if (item->toolTip().isEmpty())
                    item->setToolTip(row.at(8)->toolTip());
            }
        if (!l.meetsSlo)
            row.at(3)->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
        m_rows.push_back(&l);
        m_model->appendRow(row);
    }
    m_table->sortByColumn(4, Qt::AscendingOrder);
    m_table->resizeColumnsToContents();
    // Each GPU's cheapest layout within the SLO, selected to start with.
    QItemSelection chosen;
    for (int r = 0; r < m_sorted->rowCount(); ++r) {
        const QModelIndex index = m_sorted->index(r, 0);
        if (m_rows[std::size_t(index.data(kLayoutRole).toInt())]->cheapestOfGpu)
            chosen.select(index, m_sorted->index(r, m_sorted->columnCount() - 1));
    }
    m_table->selectionModel()->select(chosen, QItemSelectionModel::ClearAndSelect);
    updateAddButton();
}

void LayoutSearchDialog::fillCharts()
{
    const bool media = m_brief->workload.kind == WorkloadKind::MediaGeneration;
    std::map<std::string, int> colour;  // one per GPU, in catalog order
    for (const LayoutResult *l : m_rows)
        colour.emplace(l->gpuName, 0);
    int next = 0;
    for (const GpuSpec &g : m_document->catalog().gpus())
        if (auto it = colour.find(g.name); it != colour.end())
            it->second = next++;
    const auto scatter = [&](auto x, auto y, auto front) {
        QVector<ChartView::Line> lines;
        std::map<std::string, std::size_t> lineOf;
        std::vector<std::pair<double, double>> frontPoints;
        for (const LayoutResult *l : m_rows) {
            const double px = x(*l), py = y(*l);
            if (!std::isfinite(px) || !std::isfinite(py) || px <= 0)
                continue;
            auto [it, added] = lineOf.emplace(l->gpuName, lines.size());
            if (added) {
                ChartView::Line line;
                line.name = QString::fromStdString(l->gpuName);
                line.pointsOnly = true;
                line.colorIndex = colour[l->gpuName];
                lines.push_back(line);
            }
            lines[int(it->second)].x.push_back(px);
            lines[int(it->second)].y.push_back(py);
            if (front(*l))
                frontPoints.emplace_back(px, py);
        }
        std::sort(frontPoints.begin(), frontPoints.end());
        if (!frontPoints.empty()) {
            ChartView::Line f;
            f.name = tr("Pareto front");
            f.style = Qt::DashLine;
            f.colorIndex = next;
            for (const auto &[px, py] : frontPoints) {
                f.x.push_back(px);
                f.y.push_back(py);
            }
            lines.push_back(f);
        }
        return lines;
    };
    const QString latency = QString::fromStdString(m_result->latencyName);
    m_costChart->setTitle(tr("Cost per accepted output against %1, each layout sized to the peak").arg(latency));
    m_costChart->setAxisLabels(tr("%1 (s)").arg(latency), tr("$ per accepted output"));
    m_costChart->setEmptyText(tr("No layout within the GPU limit is costed"));
    m_costChart->setLines(scatter([](const LayoutResult &l) { return l.p99LatencyS; },
                                  [](const LayoutResult &l) { return l.costPerAcceptedOutput; },
                                  [](const LayoutResult &l) { return l.costFront; }));
    if (m_result->sloLatencyS && !m_rows.empty())
        m_costChart->setVerticalMarker(*m_result->sloLatencyS, tr("SLO %1 s").arg(*m_result->sloLatencyS));

    m_throughputChart->setTitle(tr("Output tokens/s per GPU against tokens/s per user, at each layout's highest rate within the SLO"));
    m_throughputChart->setAxisLabels(tr("Tokens/s per user (1 / TPOT p50)"), tr("Output tokens/s per GPU"));
    m_throughputChart->setEmptyText(media ? tr("Tokens per user apply to language models, not to media generation")
                                          : tr("No layout within the GPU limit is costed"));
    m_throughputChart->setLines(media ? QVector<ChartView::Line>{}
                                      : scatter([](const LayoutResult &l) { return l.tokensPerSPerUser; },
                                                [](const LayoutResult &l) { return l.outputTokensPerSPerGpu; },
                                                [](const LayoutResult &l) { return l.throughputFront; }));
    const QString stamp = QString::fromStdString(m_brief->name) + QStringLiteral(" · ") + tr("layout search");
    m_costChart->setStamp(stamp);
    m_throughputChart->setStamp(stamp);
}

void LayoutSearchDialog::updateAddButton()
{
    const int n = int(m_table->selectionModel()->selectedRows().size());
    m_add->setEnabled(!m_busy && n > 0);
    m_add->setText(n > 0 ? tr("A&dd %n Selected as Candidates", nullptr, n) : tr("A&dd Selected as Candidates"));
}

std::optional<QString> LayoutSearchDialog::addSelected()
{
    if (!m_result || !m_brief)
        return tr("Search first");
    if (m_document->scenarioName() != m_scenario) {
        const QString error = tr("These layouts were found for the scenario \"%1\"; show it again to add them, or search "
                                 "this one.")
                                  .arg(m_scenario);
        m_status->setText(error);
        return error;
    }
    // A layout already among the candidates is not added twice.
    std::vector<std::string> present;
    if (const Brief *brief = m_document->brief())
        for (const Candidate &c : brief->candidates)
            present.push_back(candidateJson(c));
    std::vector<BriefPatch> patches;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &index : rows) {
        const LayoutResult *l = m_rows[std::size_t(index.data(kLayoutRole).toInt())];
        for (const Candidate &c : layoutCandidates(*m_brief, {*l}))
            if (std::find(present.begin(), present.end(), candidateJson(c)) == present.end())
                patches.push_back({"/candidates/-", candidateJson(c)});
    }
    if (patches.empty()) {
        const QString error = rows.isEmpty() ? tr("Select the layouts to add") : tr("The layouts selected are candidates already.");
        m_status->setText(error);
        return error;
    }
    if (auto error = m_document->editBrief(patches, tr("add %n layout(s) as candidates", nullptr, int(patches.size())), false)) {
        m_status->setText(*error);
        return error;
    }
    m_status->setText(tr("Added %n candidate(s) to the scenario; Edit > Undo removes them in one step.", nullptr,
                         int(patches.size())));
    return std::nullopt;
}

} // namespace wb
