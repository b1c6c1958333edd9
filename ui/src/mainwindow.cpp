#include "ui/mainwindow.h"

#include "ui/briefform.h"
#include "pageparts.h"

#include <brief/completeness.h>
#include "ui/candidatesmodel.h"
#include "ui/catalogbrowser.h"
#include "ui/comparisonmodel.h"
#include "ui/costtablemodel.h"
#include "ui/document.h"
#include "ui/fittablemodel.h"
#include "ui/performancetablemodel.h"
#include "ui/pricequote.h"
#include "ui/resultcharts.h"
#include "ui/scenariocompare.h"
#include "ui/settings.h"

#include <widgets/chartview.h>
#include <widgets/choicedelegate.h>
#include <widgets/fractionbardelegate.h>

#include <QApplication>

#include <map>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QDate>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QShortcut>
#include <QPushButton>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QLocale>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace wb {

using namespace pageparts;

MainWindow::MainWindow(Document *document, QWidget *parent) : QMainWindow(parent), m_document(document)
{
    setObjectName(QStringLiteral("MainWindow"));
    auto *splitter = new QSplitter(Qt::Horizontal, this);

    // Left: the project's scenarios above the current one's brief.
    auto *left = new QSplitter(Qt::Vertical, splitter);
    auto *scenarioPane = new QWidget(left);
    auto *scenarioLayout = new QVBoxLayout(scenarioPane);
    scenarioLayout->setContentsMargins(0, 0, 0, 0);
    scenarioLayout->addWidget(new QLabel(tr("<b>Scenarios</b>"), scenarioPane));
    m_scenarios = new QListWidget(scenarioPane);
    m_scenarios->setAccessibleName(tr("Scenarios"));
    scenarioLayout->addWidget(m_scenarios);
    auto *buttons = new QHBoxLayout;
    const auto button = [&](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(scenarioPane);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        connect(b, &QToolButton::clicked, this, slot);
        buttons->addWidget(b);
    };
    button(tr("Add…"), tr("Add a scenario from a brief file"), &MainWindow::addScenario);
    button(tr("Duplicate"), tr("Duplicate the selected scenario"), &MainWindow::duplicateScenario);
    button(tr("Rename…"), tr("Rename the selected scenario"), &MainWindow::renameScenario);
    button(tr("Delete"), tr("Delete the selected scenario"), &MainWindow::removeScenario);
    buttons->addStretch();
    scenarioLayout->addLayout(buttons);
    buttons = new QHBoxLayout;
    button(tr("Compare two…"), tr("Compare two scenarios side by side: brief and results"),
           [this] { openComparison(); });
    buttons->addStretch();
    scenarioLayout->addLayout(buttons);
    connect(m_scenarios, &QListWidget::currentTextChanged, this, [this](const QString &name) {
        if (!name.isEmpty() && name != m_document->scenarioName())
            if (auto error = m_document->selectScenario(name))
                QMessageBox::warning(this, tr("Cannot show scenario"), *error);
    });

    // Below the scenarios: how complete the brief is, and what is missing (a click goes to the
    // field that fixes it).
    auto *statusPane = new QWidget(left);
    auto *statusLayout = new QVBoxLayout(statusPane);
    statusLayout->setContentsMargins(0, 0, 0, 0);
    m_completeness = richLabel(tr("Brief completeness"), statusPane);
    statusLayout->addWidget(m_completeness);
    m_completenessBar = new QProgressBar(statusPane);
    m_completenessBar->setRange(0, 100);
    m_completenessBar->setAccessibleName(tr("Share of the brief given"));
    statusLayout->addWidget(m_completenessBar);
    m_missing = new QListWidget(statusPane);
    m_missing->setAccessibleName(tr("Missing from the brief"));
    m_missing->setWordWrap(true);
    m_missing->setToolTip(tr("Click an item to go to the field that gives it"));
    statusLayout->addWidget(m_missing, 1);
    connect(m_missing, &QListWidget::itemActivated, this, &MainWindow::goToBriefItem);
    connect(m_missing, &QListWidget::itemClicked, this, &MainWindow::goToBriefItem);
    left->addWidget(scenarioPane);
    left->addWidget(statusPane);
    left->setStretchFactor(0, 1);
    left->setStretchFactor(1, 1);
    left->setSizes({200, 500});
    m_scenarios->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scenarios->setTextElideMode(Qt::ElideRight);

    // Right: the pages above the warnings, the border between them movable.
    auto *right = new QSplitter(Qt::Vertical, splitter);
    m_tabs = new QTabWidget(right);
    m_tabs->setAccessibleName(tr("Results"));
    right->addWidget(m_tabs);

    // The brief: every field, grouped in the seed's order; a scroll area for small screens.
    auto *briefScroll = new QScrollArea(m_tabs);
    briefScroll->setWidgetResizable(true);
    briefScroll->setFrameShape(QFrame::NoFrame);
    auto *briefPage = new QWidget(briefScroll);
    QVBoxLayout *briefLayout =
        headedPage(briefPage, tr("What is the workload?"),
                   tr("Describe the work before the GPUs: every result follows from these fields. Hover a field for "
                      "why it matters; fields that do not apply to the kind are hidden."));
    m_briefForm = new BriefForm(m_document->catalog(), briefPage);
    briefLayout->addWidget(m_briefForm);
    briefLayout->addStretch();
    briefScroll->setWidget(briefPage);
    briefScroll->setAccessibleName(tr("Brief"));
    connect(m_briefForm, &BriefForm::edit, this, [this](const std::vector<BriefPatch> &patches, const QString &label) {
        const auto error = m_document->editBrief(patches, label);
        m_briefForm->showError(error.value_or(QString()));
    });
    m_tabs->addTab(briefScroll, tr("Brief"));

    // Each results tab: a title, a subtitle, and a table of one of the document's models above a
    // chart of the same figures.
    const auto addPage = [this](const QString &tab, QLabel *&title, QLabel *&subtitle, QAbstractItemModel *model,
                                const QString &tableName, ChartView *&chart) {
        auto *page = new QWidget(m_tabs);
        auto *pageLayout = new QVBoxLayout(page);
        title = titleLabel(page);
        pageLayout->addWidget(title);
        subtitle = subtitleLabel(QString(), page);
        pageLayout->addWidget(subtitle);
        auto *split = new QSplitter(Qt::Vertical, page);
        QTableView *table = resultTable(model, tableName, split);
        chart = new ChartView(split);
        chart->setAccessibleName(tr("%1 chart").arg(tab));
        split->addWidget(table);
        split->addWidget(chart);
        split->setStretchFactor(0, 2);
        split->setStretchFactor(1, 3);
        pageLayout->addWidget(split, 3);
        m_tabs->addTab(page, tab);
        return table;
    };
    // Candidates: the GPUs in the running, edited in place (each change one undo step), with
    // their key specifications and sources.
    auto *candidatesPage = new QWidget(m_tabs);
    QVBoxLayout *candidatesLayout =
        headedPage(candidatesPage, tr("Which GPUs are in the running?"),
                   tr("Double-click a cell to change the GPU, its count, tensor and pipeline parallelism or the serving "
                      "stack; hover a specification for its source and a price for every dated offer."));
    m_candidatesModel = new CandidatesModel(m_document->catalog(), this);
    m_candidatesTable = resultTable(m_candidatesModel, tr("Candidates"), candidatesPage);
    m_candidatesTable->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                                       | QAbstractItemView::AnyKeyPressed);
    QVector<ChoiceDelegate::Choice> gpus, stacks;
    for (const GpuSpec &g : m_document->catalog().gpus())
        gpus.push_back({QString::fromStdString(g.id), QString::fromStdString(g.name)});
    for (const auto &[stack, name] : EnumNames<ServingStack>::items)
        stacks.push_back({QString::fromLatin1(name.data()), QString::fromLatin1(name.data())});
    m_candidatesTable->setItemDelegateForColumn(CandidatesModel::Gpu, new ChoiceDelegate(gpus, m_candidatesTable));
    m_candidatesTable->setItemDelegateForColumn(CandidatesModel::Stack, new ChoiceDelegate(stacks, m_candidatesTable));
    candidatesLayout->addWidget(m_candidatesTable, 1);
    auto *candidateButtons = new QHBoxLayout;
    auto *addButton = new QPushButton(tr("Add from the catalog…"), candidatesPage);
    addButton->setToolTip(tr("Browse every GPU's specifications with their sources, and add one as a candidate"));
    auto *removeCandidate = new QPushButton(tr("Remove selected"), candidatesPage);
    candidateButtons->addWidget(addButton);
    candidateButtons->addWidget(removeCandidate);
    candidateButtons->addStretch();
    candidatesLayout->addLayout(candidateButtons);
    // The brief's own dated prices (vendor quotes), which come before the price book's.
    candidatesLayout->addWidget(new QLabel(tr("<b>Your price quotes</b>: dated prices of your own; the cost model "
                                              "prefers them to the price book's"),
                                           candidatesPage));
    m_quotes = new QListWidget(candidatesPage);
    m_quotes->setAccessibleName(tr("Price quotes in the brief"));
    m_quotes->setMaximumHeight(fontMetrics().height() * 6);
    candidatesLayout->addWidget(m_quotes);
    auto *quoteButtons = new QHBoxLayout;
    auto *addQuote = new QPushButton(tr("Add a price quote…"), candidatesPage);
    auto *removeQuote = new QPushButton(tr("Remove quote"), candidatesPage);
    quoteButtons->addWidget(addQuote);
    quoteButtons->addWidget(removeQuote);
    quoteButtons->addStretch();
    candidatesLayout->addLayout(quoteButtons);
    connect(addQuote, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_candidatesTable->currentIndex();
        const Brief *brief = m_document->brief();
        const QString gpu = brief && current.isValid() && current.row() < int(brief->candidates.size())
                                ? QString::fromStdString(brief->candidates[std::size_t(current.row())].gpu)
                                : QString();
        PriceQuoteDialog dialog(m_document->catalog(), gpu, this);
        if (dialog.exec() == QDialog::Accepted)
            addPriceQuote(dialog.json());
    });
    connect(removeQuote, &QPushButton::clicked, this, [this] {
        const int row = m_quotes->currentRow();
        if (row < 0 || !m_quotes->currentItem()->data(Qt::UserRole).isValid())
            return;
        if (auto error = m_document->editBrief(QStringLiteral("/cost/prices/%1").arg(row), QStringLiteral("null"),
                                               tr("remove price quote"), false))
            QMessageBox::warning(this, tr("Cannot remove the quote"), *error);
    });
    connect(m_candidatesModel, &CandidatesModel::editRequested, this,
            [this](const QString &pointer, const QString &value, const QString &label) {
                if (auto error = m_document->editBrief(pointer, value, label))
                    QMessageBox::warning(this, tr("Cannot change the candidate"), *error);
            });
    connect(addButton, &QPushButton::clicked, this, [this] {
        CatalogBrowser browser(m_document->catalog(), this);
        if (browser.exec() == QDialog::Accepted)
            addCandidate(browser.selectedGpu());
    });
    connect(removeCandidate, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_candidatesTable->currentIndex();
        if (!current.isValid())
            return;
        if (auto error = m_document->editBrief(QStringLiteral("/candidates/%1").arg(current.row()), QStringLiteral("null"),
                                               tr("remove candidate"), false))
            QMessageBox::warning(this, tr("Cannot remove the candidate"), *error);
    });
    m_tabs->addTab(candidatesPage, tr("Candidates"));

    QLabel *fitSubtitle = nullptr, *costSubtitle = nullptr;
    m_fitModel = new FitTableModel(this);
    m_fitTable = addPage(tr("Memory fit"), m_fitTitle, fitSubtitle, m_fitModel, tr("Memory fit per candidate"), m_fitChart);
    fitSubtitle->setText(tr("Memory per GPU by component, for the busiest GPU of each candidate. Headroom is the share "
                            "of the GPU left free; the engine's memory cap keeps the last 10% for fragmentation."));
    m_fitView = new QComboBox(m_fitTable->parentWidget()->parentWidget());
    m_fitView->setAccessibleName(tr("Memory chart"));
    m_fitView->addItems({tr("Memory by component"), tr("Headroom map of the selected candidate")});
    static_cast<QBoxLayout *>(m_fitTable->parentWidget()->parentWidget()->layout())->insertWidget(2, m_fitView, 0, Qt::AlignLeft);
    connect(m_fitView, &QComboBox::currentIndexChanged, this, &MainWindow::showFitView);
    connect(m_fitTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::showFitView);
    auto *bar = new FractionBarDelegate(m_fitTable);
    bar->setWarnBelow(0.1);
    m_fitTable->setItemDelegateForColumn(FitTableModel::Headroom, bar);

    m_perfModel = new PerformanceTableModel(this);
    m_perfTable = addPage(tr("Performance"), m_perfTitle, m_perfSubtitle, m_perfModel, tr("Performance per candidate"),
                          m_perfChart);
    // Which figure the load chart plots.
    m_loadMetric = new QComboBox(m_perfTable->parentWidget()->parentWidget());
    m_loadMetric->setAccessibleName(tr("Load chart figure"));
    m_loadMetric->addItems({tr("TTFT p99 against rate"), tr("TTFT p95 against rate"), tr("TTFT p50 against rate"),
                            tr("TPOT p99 against rate"), tr("TPOT p95 against rate"), tr("TPOT p50 against rate"),
                            tr("Throughput against rate"),
                            tr("Throughput per GPU against rate"), tr("Highest rate within the targets")});
    static_cast<QBoxLayout *>(m_perfTable->parentWidget()->parentWidget()->layout())->insertWidget(2, m_loadMetric, 0, Qt::AlignLeft);
    connect(m_loadMetric, &QComboBox::currentIndexChanged, this, [this](int index) {
        showLoadChart(m_perfChart, m_document->brief(), m_document->results(), LoadMetric(index));
    });

    m_costModel = new CostTableModel(this);
    m_costTable = addPage(tr("Cost"), m_costTitle, costSubtitle, m_costModel, tr("Cost per candidate and pricing"),
                          m_costChart);
    costSubtitle->setText(tr("All-in monthly cost (GPU time busy and idle, retries, storage, serving stack, network, "
                             "observability, platform labour) per accepted output, for each candidate and dated price, "
                             "and for the model API. Hover a row for its cost lines and the price's source."));
    QWidget *costPage = m_costTable->parentWidget()->parentWidget();
    m_costView = new QComboBox(costPage);
    m_costView->setAccessibleName(tr("Cost chart"));
    m_costView->addItems({tr("Cost per accepted output by line item"),
                          tr("Break-even against the API (the selected candidate)")});
    static_cast<QBoxLayout *>(costPage->layout())->insertWidget(2, m_costView, 0, Qt::AlignLeft);
    connect(m_costView, &QComboBox::currentIndexChanged, this, &MainWindow::showCostView);
    connect(m_costTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &MainWindow::showCostView);
    m_recommendation = richLabel(tr("Recommendation"), costPage);
    costPage->layout()->addWidget(m_recommendation);

    // Compare & decide: the normalization table, sortable, best values bold; the recommendation
    // with its reasons; the common mistakes the brief triggers.
    auto *comparePage = new QWidget(m_tabs);
    QVBoxLayout *compareLayout = headedPage(comparePage, tr("Which one, and on what terms?"),
                                            tr("Every candidate and pricing side by side; click a heading to sort. The "
                                               "best value in each column is bold."),
                                            &m_compareTitle);
    m_compareModel = new ComparisonModel(this);
    auto *sorter = new QSortFilterProxyModel(this);
    sorter->setSourceModel(m_compareModel);
    sorter->setSortRole(Qt::UserRole);
    m_compareTable = resultTable(sorter, tr("Comparison of candidates and pricing"), comparePage);
    m_compareTable->setSortingEnabled(true);
    m_compareTable->sortByColumn(ComparisonModel::PerAccepted, Qt::AscendingOrder);
    compareLayout->addWidget(m_compareTable, 3);
    m_compareRecommendation = richLabel(tr("Recommendation"), comparePage);
    compareLayout->addWidget(m_compareRecommendation);
    m_mistakes = richLabel(tr("Common mistakes"), comparePage);
    compareLayout->addWidget(m_mistakes);
    m_tabs->addTab(comparePage, tr("Compare && decide"));

    auto *warningsPane = new QWidget(right);
    auto *warningsLayout = new QVBoxLayout(warningsPane);
    warningsLayout->setContentsMargins(0, 0, 0, 0);
    warningsLayout->addWidget(new QLabel(tr("<b>Warnings</b> (click one to go to what fixes it)"), warningsPane));
    m_warnings = new QListWidget(warningsPane);
    m_warnings->setAccessibleName(tr("Warnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setAlternatingRowColors(true);
    m_warnings->setToolTip(tr("Click a warning to go to the field or page that fixes it"));
    connect(m_warnings, &QListWidget::itemClicked, this, &MainWindow::goToBriefItem);
    connect(m_warnings, &QListWidget::itemActivated, this, &MainWindow::goToBriefItem);
    warningsLayout->addWidget(m_warnings, 1);
    right->addWidget(warningsPane);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    right->setSizes({620, 150});

    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({300, 980});
    setCentralWidget(splitter);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);
    m_progress = new QProgressBar(this);
    m_progress->setAccessibleName(tr("Evaluation progress"));
    m_progress->setMaximumWidth(180);
    m_progress->setTextVisible(false);
    m_progress->setRange(0, 0);  // busy: the simulation's length is not known ahead
    m_progress->hide();
    statusBar()->addPermanentWidget(m_progress);

    createMenus();
    connect(m_document, &Document::changed, this, &MainWindow::refresh);
    connect(m_document, &Document::evaluatingChanged, this, &MainWindow::refresh);
    refresh();
    resize(1280, 800);
    const QByteArray geometry = Settings().windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), this, &MainWindow::newDocument);
    newAction->setShortcut(QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open…"), this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    QAction *saveAction = file->addAction(tr("&Save"), this, [this] { saveDocument(false); });
    saveAction->setShortcut(QKeySequence::Save);
    QAction *saveAsAction = file->addAction(tr("Save &As…"), this, [this] { saveDocument(true); });
    saveAsAction->setShortcut(QKeySequence::SaveAs);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    QAction *closeAction = file->addAction(tr("&Close"), this, [this] {
        if (maybeSave())
            m_document->clear();
    });
    closeAction->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction *quitAction = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *scenario = menuBar()->addMenu(tr("&Scenario"));
    scenario->addAction(tr("&Add from Brief…"), this, &MainWindow::addScenario);
    scenario->addAction(tr("D&uplicate"), this, &MainWindow::duplicateScenario);
    scenario->addAction(tr("&Rename…"), this, &MainWindow::renameScenario);
    scenario->addAction(tr("&Delete"), this, &MainWindow::removeScenario);
    scenario->addSeparator();
    scenario->addAction(tr("&Compare Two…"), this, [this] { openComparison(); });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *present = view->addAction(tr("&Present Chart"), this, &MainWindow::presentChart);
    present->setShortcut(QKeySequence::FullScreen);
    present->setToolTip(tr("Show the current tab's chart full screen with large text, for projecting (Esc returns)"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About GPU Workbench"), this, &MainWindow::about);
}

bool MainWindow::openFile(const QString &path)
{
    if (auto error = m_document->openFile(path)) {
        QMessageBox::warning(this, tr("Cannot open file"), *error);
        return false;
    }
    Settings().addRecentFile(path);
    return true;
}

bool MainWindow::saveDocument(bool askForPath)
{
    QString path = m_document->filePath();
    if (askForPath || path.isEmpty() || m_document->readOnly()) {
        const QString start = path.isEmpty() ? QFileInfo(m_document->sourcePath()).path() : path;
        path = QFileDialog::getSaveFileName(this, tr("Save project"), start, tr("GPU Workbench projects (*.gpuwb)"));
        if (path.isEmpty())
            return false;
        if (!path.endsWith(QLatin1String(".gpuwb")))
            path += QStringLiteral(".gpuwb");
    }
    if (auto error = m_document->saveAs(path)) {
        QMessageBox::warning(this, tr("Cannot save"), *error);
        return false;
    }
    Settings().addRecentFile(path);
    return true;
}

// The fit tab's chart: memory by component for every candidate, or the headroom map of the one
// selected in the table (the first computed one when none is).
void MainWindow::showFitView()
{
    const Brief *brief = m_document->brief();
    const Results &results = m_document->results();
    if (m_fitView->currentIndex() == 0 || !brief || results.results.empty()) {
        showFitChart(m_fitChart, results);
        return;
    }
    int row = m_fitTable->currentIndex().isValid() ? m_fitTable->currentIndex().row() : -1;
    if (row < 0 || row >= int(results.results.size()) || !results.results[std::size_t(row)].fit.computed) {
        row = 0;
        while (row < int(results.results.size()) && !results.results[std::size_t(row)].fit.computed)
            ++row;
    }
    if (row >= int(results.results.size())) {
        showFitChart(m_fitChart, results);
        return;
    }
    showHeadroomMap(m_fitChart, *brief, results.results[std::size_t(row)].candidate, m_document->catalog());
}

// The cost tab's chart: cost per accepted output by line item, or the break-even lines of the
// candidate selected in the table (the recommended or cheapest one when none is).
void MainWindow::showCostView()
{
    const Results &results = m_document->results();
    if (m_costView->currentIndex() == 0) {
        showCostChart(m_costChart, results);
        return;
    }
    std::optional<std::size_t> candidate = m_costModel->candidateAt(m_costTable->currentIndex().row());
    if (!candidate && results.cost.recommendation)
        candidate = results.cost.recommendation->candidate;
    // Else the candidate with the lowest cost per accepted output.
    const bool chosen = candidate.has_value();
    for (std::size_t i = 0; !chosen && i < results.results.size(); ++i) {
        const CostOption *mine = results.results[i].cost.cheapest();
        const CostOption *best = candidate ? results.results[*candidate].cost.cheapest() : nullptr;
        if (mine && (!best || mine->costPerAcceptedOutput < best->costPerAcceptedOutput))
            candidate = i;
    }
    showBreakEvenChart(m_costChart, results, candidate.value_or(results.results.size()));
}

void MainWindow::addCandidate(const QString &gpu)
{
    if (gpu.isEmpty())
        return;
    if (auto error = m_document->editBrief(QStringLiteral("/candidates/-"),
                                           QStringLiteral("{\"gpu\": \"%1\", \"gpus\": 1}").arg(gpu),
                                           tr("add candidate"), false))
        QMessageBox::warning(this, tr("Cannot add the candidate"), *error);
}

std::optional<QString> MainWindow::addPriceQuote(const QString &json)
{
    auto error = m_document->editBrief(QStringLiteral("/cost/prices/-"), json, tr("add price quote"), false);
    if (error)
        QMessageBox::warning(this, tr("Cannot add the quote"), *error);
    return error;
}

void MainWindow::showQuotes(const Brief *brief)
{
    m_quotes->clear();
    // Only the brief's own (the project's price overrides follow them in cost.prices).
    const QJsonArray own = QJsonDocument::fromJson(m_document->briefJson().toUtf8())
                               .object()
                               .value(QStringLiteral("cost"))
                               .toObject()
                               .value(QStringLiteral("prices"))
                               .toArray();
    for (qsizetype i = 0; brief && i < own.size() && i < qsizetype(brief->cost.prices.size()); ++i) {
        const GpuPrice &p = brief->cost.prices[std::size_t(i)];
        auto *item = new QListWidgetItem(tr("%1 — %2 %3, %4, observed %5")
                                             .arg(QString::fromStdString(p.gpu),
                                                  QString::fromLatin1(enumName(p.term).data()),
                                                  p.term == PricingTerm::Purchase
                                                      ? tr("$%1 per GPU").arg(QLocale().toString(p.usdPerGpu, 'f', 0))
                                                      : tr("$%1 per GPU-hour").arg(QLocale().toString(p.usdPerGpuHour, 'f', 2)),
                                                  QString::fromStdString(p.provider), QString::fromStdString(p.observed)));
        item->setToolTip(tr("Source: %1").arg(QString::fromStdString(p.source)));
        item->setData(Qt::UserRole, int(i));
        m_quotes->addItem(item);
    }
    if (m_quotes->count() == 0)
        m_quotes->addItem(tr("None: every price comes from the dated price book (hover a price for its source)."));
}

ScenarioCompareDialog *MainWindow::openComparison()
{
    if (m_document->scenarioNames().isEmpty())
        return nullptr;
    auto *dialog = new ScenarioCompareDialog(m_document, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void MainWindow::presentChart()
{
    ChartView *chart = m_tabs->currentWidget() ? m_tabs->currentWidget()->findChild<ChartView *>() : nullptr;
    if (!chart)
        return;
    // Borrow the chart into a full-screen window and give it back when that closes.
    auto *home = qobject_cast<QSplitter *>(chart->parentWidget());
    const int slot = home ? home->indexOf(chart) : -1;
    QDialog screen(this);
    screen.setWindowTitle(tr("%1 — presentation").arg(windowTitle()));
    auto *layout = new QVBoxLayout(&screen);
    layout->setContentsMargins(24, 24, 24, 24);
    layout->addWidget(chart, 1);
    chart->setTextScale(1.6);
    // The scenario and the date in a corner; the arrow keys step through the page's charts.
    auto *captionRow = new QHBoxLayout;
    auto *hint = new QLabel(tr("← → other charts of this page · Esc returns"), &screen);
    auto *caption = new QLabel(tr("%1 · %2").arg(m_document->scenarioName(), QDate::currentDate().toString(Qt::ISODate)),
                               &screen);
    QFont captionFont = caption->font();
    captionFont.setPointSizeF(captionFont.pointSizeF() * 1.3);
    caption->setFont(captionFont);
    caption->setWordWrap(true);
    caption->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    captionRow->addWidget(hint);
    captionRow->addWidget(caption, 1);
    layout->addLayout(captionRow);
    QWidget *page = m_tabs->currentWidget();
    QComboBox *choice = m_fitView->parentWidget() == page    ? m_fitView
                        : m_loadMetric->parentWidget() == page ? m_loadMetric
                        : m_costView->parentWidget() == page   ? m_costView
                                                               : nullptr;
    auto *next = new QShortcut(QKeySequence(Qt::Key_Right), &screen);
    auto *previous = new QShortcut(QKeySequence(Qt::Key_Left), &screen);
    if (choice) {
        connect(next, &QShortcut::activated, choice,
                [choice] { choice->setCurrentIndex((choice->currentIndex() + 1) % choice->count()); });
        connect(previous, &QShortcut::activated, choice, [choice] {
            choice->setCurrentIndex((choice->currentIndex() + choice->count() - 1) % choice->count());
        });
    }
    m_presenting = &screen;
    screen.showFullScreen();
    screen.exec();
    m_presenting = nullptr;
    chart->setTextScale(1.0);
    if (home)
        home->insertWidget(slot, chart);
}

void MainWindow::newDocument()
{
    if (maybeSave())
        m_document->clear();
}

void MainWindow::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = Settings().recentFiles();
    for (const QString &f : files)
        m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] {
            if (maybeSave())
                openFile(f);
        })->setToolTip(f);
    if (files.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified() || !m_document->brief())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"),
        tr("The project \"%1\" has changes that are not saved as a project file. Save them?")
            .arg(m_document->filePath().isEmpty() ? m_document->scenarioName() : QFileInfo(m_document->filePath()).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return saveDocument(false);
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    Settings().setWindowGeometry(saveGeometry());
    event->accept();
}

QString MainWindow::selectedScenario() const
{
    return m_scenarios->currentItem() ? m_scenarios->currentItem()->text() : QString();
}

void MainWindow::addScenario()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Add scenario from brief"), QString(),
                                                      tr("Briefs (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto error = m_document->addScenarioFromFile(path))
        QMessageBox::warning(this, tr("Cannot add scenario"), *error);
}

void MainWindow::duplicateScenario()
{
    const QString name = selectedScenario();
    if (name.isEmpty())
        return;
    QString copy = tr("%1 (copy)").arg(name);
    for (int i = 2; m_document->scenarioNames().contains(copy); ++i)
        copy = tr("%1 (copy %2)").arg(name).arg(i);
    if (auto error = m_document->duplicateScenario(name, copy))
        QMessageBox::warning(this, tr("Cannot duplicate scenario"), *error);
}

void MainWindow::renameScenario()
{
    const QString name = selectedScenario();
    if (name.isEmpty())
        return;
    bool ok = false;
    const QString to = QInputDialog::getText(this, tr("Rename scenario"), tr("New name:"), QLineEdit::Normal, name, &ok);
    if (!ok)
        return;
    if (auto error = m_document->renameScenario(name, to.trimmed()))
        QMessageBox::warning(this, tr("Cannot rename scenario"), *error);
}

void MainWindow::removeScenario()
{
    const QString name = selectedScenario();
    if (name.isEmpty())
        return;
    if (auto error = m_document->removeScenario(name))
        QMessageBox::warning(this, tr("Cannot delete scenario"), *error);
}

void MainWindow::openWithDialog()
{
    const QString source = m_document->sourcePath();
    const QString start = source.isEmpty() ? QString() : QFileInfo(source).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open project or brief"), start,
                                                      tr("Projects and briefs (*.gpuwb *.json);;All files (*)"));
    if (!path.isEmpty() && maybeSave())
        openFile(path);
}

void MainWindow::about()
{
    QMessageBox::about(this, tr("About GPU Workbench"),
                       tr("<h3>GPU Workbench %1</h3>"
                          "<p>Choose GPUs for AI workloads by memory fit, tail latency and cost per accepted "
                          "output, and keep the evidence.</p>"
                          "<p>Licensed under the GNU General Public License, version 3 or later. "
                          "This program comes with no warranty.</p>")
                           .arg(QStringLiteral(WB_VERSION)));
}

void MainWindow::refresh()
{
    const Brief *brief = m_document->brief();
    {
        const QSignalBlocker block(m_scenarios);
        m_scenarios->clear();
        m_scenarios->addItems(m_document->scenarioNames());
        const auto current = m_scenarios->findItems(m_document->scenarioName(), Qt::MatchExactly);
        if (!current.isEmpty())
            m_scenarios->setCurrentItem(current.front());
    }
    m_briefForm->setBrief(brief);
    const std::optional<Completeness> completeness =
        brief ? std::optional<Completeness>(assessCompleteness(*brief)) : std::nullopt;
    showCompleteness(completeness);
    // The engine decides whether the results may be ranked (Results::rankingHeldBackBy).
    const bool ranked = brief && m_document->results().ranked();
    m_tabs->setTabText(BriefPage, !completeness ? tr("Brief") : ranked ? tr("Brief ✓") : tr("Brief ⚠"));
    m_tabs->setTabToolTip(BriefPage, completeness && !ranked ? tr("The brief misses what the ranking needs") : QString());
    m_fitModel->setResults(m_document->results());
    m_perfModel->setResults(m_document->results());
    m_candidatesModel->setBrief(brief);
    showQuotes(brief);
    m_costModel->setResults(m_document->results());
    showFitView();
    showLoadChart(m_perfChart, brief, m_document->results(), LoadMetric(m_loadMetric->currentIndex()));
    showCostView();
    m_compareModel->setRanked(ranked);
    m_compareModel->setResults(m_document->results());
    m_recommendation->setText(brief ? m_costModel->recommendationText() : QString());
    m_compareRecommendation->setText(brief ? m_costModel->recommendationText() : QString());
    QStringList mistakes;
    for (const Warning &w : m_document->results().cost.warnings)
        if (w.code.rfind("mistake-", 0) == 0)
            mistakes << QStringLiteral("<li>%1</li>").arg(QString::fromStdString(w.message).toHtmlEscaped());
    m_mistakes->setText(mistakes.isEmpty() ? QString()
                                           : tr("<b>Common mistakes this brief invites</b><ul style=\"margin-top:2px\">%1</ul>")
                                                 .arg(mistakes.join(QString())));
    // Columns that are always zero for this kind of workload are hidden, not shown empty.
    const bool inference = !brief || isInference(brief->workload.kind);
    m_fitTable->setColumnHidden(FitTableModel::KvCache, !inference);
    m_fitTable->setColumnHidden(FitTableModel::MaxConcurrency, !inference);
    m_fitTable->setColumnHidden(FitTableModel::Gradients, inference);
    m_fitTable->setColumnHidden(FitTableModel::OptimizerStates, inference);
    const QString name = brief ? QString::fromStdString(brief->name) : tr("Untitled");
    QString where = m_document->filePath().isEmpty() ? tr("not saved as a project")
                                                     : QFileInfo(m_document->filePath()).fileName();
    if (m_document->readOnly())
        where += tr(" (read-only: %1)").arg(m_document->readOnlyReason());
    setWindowTitle(tr("%1 — %2[*] — GPU Workbench").arg(name, where));
    setWindowModified(m_document->isModified());
    m_fitTitle->setText(brief && brief->candidates.empty() ? tr("Does it fit? Add a candidate to compare.")
                        : brief                             ? tr("Does it fit?")
                                                            : tr("Does it fit? Open a brief to see."));

    m_warnings->clear();
    const auto addWarning = [this](const QString &text, const Warning &w) {
        auto *item = new QListWidgetItem(text);
        item->setToolTip(QString::fromStdString(w.code));
        item->setData(Qt::UserRole, fixFor(w.code));
        m_warnings->addItem(item);
    };
    for (const Warning &w : m_document->results().briefWarnings)
        addWarning(tr("Brief: %1").arg(QString::fromStdString(w.message)), w);
    for (const Warning &w : m_document->results().cost.warnings)
        addWarning(tr("Cost: %1").arg(QString::fromStdString(w.message)), w);
    for (const CandidateResult &r : m_document->results().results)
        for (const Warning &w : r.warnings) {
            if (w.code == "catalog-caveat")
                continue;  // shown in the fit table's tooltips, not repeated here
            addWarning(tr("%1 × %2: %3")
                           .arg(r.candidate.gpus)
                           .arg(QString::fromStdString(r.candidate.gpu))
                           .arg(QString::fromStdString(w.message)),
                       w);
        }
    if (m_warnings->count() == 0)
        m_warnings->addItem(tr("No warnings."));

    const bool inferenceBrief = brief && isInference(brief->workload.kind);
    m_perfTitle->setText(!brief ? tr("How fast is it? Open a brief to see.")
                         : inferenceBrief ? tr("How fast is it, and does it meet the latency targets?")
                                          : tr("How fast is it? Training time arrives in a later version."));
    m_perfSubtitle->setText(brief ? performanceSubtitle(*brief) : QString());

    const Catalog &c = m_document->catalog();
    m_progress->setVisible(m_document->evaluating());
    const QString progress = !m_document->evaluating()                ? QString()
                             : m_document->results().preview ? tr("First answer shown; refining the simulation… · ")
                                                             : tr("Simulating performance and cost… · ");
    m_status->setText(progress
                      + tr("Catalog: %1 GPUs, %2 models, %3 dated prices · engine %4")
                            .arg(c.gpus().size())
                            .arg(c.models().size())
                            .arg(c.prices().size() + c.apiPrices().size())
                            .arg(QString::fromLatin1(engineVersion())));
    m_costTitle->setText(!brief ? tr("What does an accepted output cost? Open a brief to see.")
                         : inferenceBrief ? tr("What does an accepted output cost?")
                                          : tr("What does an accepted output cost? Training cost arrives in a later version."));
}

void MainWindow::showCompleteness(const std::optional<Completeness> &c)
{
    m_missing->clear();
    if (!c) {
        m_completeness->setText(tr("<b>Brief</b>: none open"));
        m_completenessBar->setValue(0);
        return;
    }
    const int percent = int(std::lround(c->fraction() * 100));
    m_completenessBar->setValue(percent);
    m_completeness->setText(c->rankable()
                                ? tr("<b>Brief %1% complete</b>: enough to rank the candidates.").arg(percent)
                                : tr("<b>Brief %1% complete</b>: <span style=\"color:#d55e00\">the ranking waits for the "
                                     "items marked ⚠</span>.")
                                      .arg(percent));
    for (const BriefItem *item : c->missing()) {
        auto *row = new QListWidgetItem((item->blocking ? QStringLiteral("⚠ ") : QStringLiteral("○ "))
                                        + QString::fromStdString(item->name));
        row->setToolTip(QString::fromStdString(item->why));
        row->setData(Qt::UserRole, QString::fromStdString(item->pointer));
        m_missing->addItem(row);
    }
    if (m_missing->count() == 0)
        m_missing->addItem(tr("✓ Every item of the brief is given."));
}

// Where a warning is fixed: a field of the brief (a JSON pointer) or a page ("#N").
QString MainWindow::fixFor(const std::string &code) const
{
    static const std::map<std::string, QString> fixes = {
        {"mistake-platform-responsibility", QStringLiteral("/assumptions/platform_fte_self_hosted")},
        {"mistake-generated-not-accepted", QStringLiteral("/workload/acceptance")},
        {"brief-incomplete", QStringLiteral("#%1").arg(BriefPage)},
        {"no-api-volume", QStringLiteral("/cost/requests_per_month")},
        {"mistake-hourly-rate", QStringLiteral("#%1").arg(ComparePage)},
        {"mistake-fit-yes-no", QStringLiteral("#%1").arg(FitPage)},
        {"mistake-todays-model", QStringLiteral("#%1").arg(FitPage)},
        {"mistake-interconnect", QStringLiteral("#%1").arg(CandidatesPage)},
    };
    const auto it = fixes.find(code);
    return it == fixes.end() ? QString() : it->second;
}

void MainWindow::goToBriefItem(QListWidgetItem *item)
{
    const QString pointer = item ? item->data(Qt::UserRole).toString() : QString();
    if (pointer.isEmpty())
        return;
    if (pointer.startsWith(u'#')) {
        m_tabs->setCurrentIndex(pointer.mid(1).toInt());
        return;
    }
    if (pointer == QLatin1String("/candidates")) {
        m_tabs->setCurrentIndex(CandidatesPage);
        return;
    }
    m_tabs->setCurrentIndex(BriefPage);
    m_briefForm->focusField(pointer);
}

QString MainWindow::performanceSubtitle(const Brief &brief) const
{
    const Workload &w = brief.workload;
    const Traffic &t = w.traffic;
    QString traffic;
    switch (t.mode) {
    case TrafficMode::Offline: traffic = tr("every request queued at once"); break;
    case TrafficMode::ClosedLoop: traffic = tr("%1 requests in flight").arg(t.concurrency.value_or(1)); break;
    case TrafficMode::OpenLoop:
        traffic = tr("%1 requests/s arriving (burstiness %2)")
                      .arg(QLocale().toString(t.requestRatePerS.value_or(0), 'g', 4))
                      .arg(QLocale().toString(t.burstiness, 'g', 3));
        break;
    }
    QStringList targets;
    const auto target = [&](const char *name, const std::optional<double> &v) {
        if (v)
            targets << tr("%1 ≤ %2 ms").arg(QLatin1String(name)).arg(QLocale().toString(*v * 1000, 'f', 0));
    };
    target("TTFT p99", w.slo.ttftP99S);
    target("TPOT p99", w.slo.tpotP99S);
    target("E2E p99", w.slo.e2eP99S);
    target("TTFT p95", w.slo.ttftP95S);
    target("TPOT p95", w.slo.tpotP95S);
    target("E2E p95", w.slo.e2eP95S);
    return tr("Simulated serving at the brief's traffic: %1. Latencies in milliseconds; targets: %2. Max req/s is "
              "the highest Poisson rate within the targets; capacity is output tokens/s with everything queued.")
        .arg(traffic, targets.isEmpty() ? tr("none set") : targets.join(QStringLiteral(", ")));
}

} // namespace wb
