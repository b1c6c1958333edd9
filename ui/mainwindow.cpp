#include "mainwindow.h"
#include <algorithm>

#include "dialogs/helpguide.h"
#include "dialogs/layoutsearch.h"
#include "dialogs/newcomparison.h"

#include "docks/scenariospanel.h"
#include "docks/warningspanel.h"
#include "document/document.h"
#include "pages/briefform.h"
#include "pages/briefpage.h"
#include "pages/candidatespage.h"
#include "pages/checklistpage.h"
#include "pages/comparepage.h"
#include "pages/costpage.h"
#include "pages/fitpage.h"
#include "pages/performancepage.h"
#include "pages/planpage.h"
#include "pages/recordpage.h"
#include "pages/evidencepage.h"
#include "settings.h"

#include <core/fileio.h>
#include <widgets/chartview.h>

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDate>
#include <QDialog>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTabWidget>

namespace wb {

MainWindow::MainWindow(Document *document, QWidget *parent) : QMainWindow(parent), m_document(document)
{
    setObjectName(QStringLiteral("MainWindow"));
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    m_scenarios = new ScenariosPanel(document, splitter);

    // Right: the pages above the warnings, the border between them movable.
    auto *right = new QSplitter(Qt::Vertical, splitter);
    m_tabs = new QTabWidget(right);
    m_tabs->setAccessibleName(tr("Results"));
    m_briefPage = new BriefPage(document, m_tabs);
    m_candidatesPage = new CandidatesPage(document, m_tabs);
    m_fitPage = new FitPage(document, m_tabs);
    m_performancePage = new PerformancePage(document, m_tabs);
    m_costPage = new CostPage(document, m_tabs);
    m_checklistPage = new ChecklistPage(document, m_tabs);
    m_evidencePage = new EvidencePage(document, m_tabs);
    m_planPage = new PlanPage(document, m_tabs);
    m_comparePage = new ComparePage(document, m_tabs);
    m_recordPage = new RecordPage(document, m_tabs);
    m_tabs->addTab(m_briefPage, tr("Brief"));
    m_tabs->addTab(m_candidatesPage, tr("Candidates"));
    m_tabs->addTab(m_fitPage, tr("Memory fit"));
    m_tabs->addTab(m_performancePage, tr("Performance"));
    m_tabs->addTab(m_costPage, tr("Cost"));
    m_tabs->addTab(m_checklistPage, tr("Checklist"));
    m_tabs->addTab(m_evidencePage, tr("Evidence"));
    m_tabs->addTab(m_planPage, tr("Plan"));
    m_tabs->addTab(m_comparePage, tr("Compare && decide"));
    m_tabs->addTab(m_recordPage, tr("Record"));
    for (wb::Page *page : {static_cast<wb::Page *>(m_briefPage), static_cast<wb::Page *>(m_candidatesPage),
                           static_cast<wb::Page *>(m_fitPage), static_cast<wb::Page *>(m_performancePage),
                           static_cast<wb::Page *>(m_costPage), static_cast<wb::Page *>(m_checklistPage),
                           static_cast<wb::Page *>(m_evidencePage), static_cast<wb::Page *>(m_planPage),
                           static_cast<wb::Page *>(m_comparePage), static_cast<wb::Page *>(m_recordPage)})
        connect(page, &wb::Page::goTo, this, &MainWindow::goTo);
    right->addWidget(m_tabs);
    m_warnings = new WarningsPanel(document,
                                   {int(Tab::Brief), int(Tab::Candidates), int(Tab::Fit), int(Tab::Checklist), int(Tab::Compare),
                                    int(Tab::Evidence)},
                                   right);
    right->addWidget(m_warnings);
    right->setStretchFactor(0, 4);
    right->setStretchFactor(1, 1);
    right->setSizes({620, 150});
    connect(m_scenarios, &ScenariosPanel::goTo, this, &MainWindow::goTo);
    connect(m_warnings, &WarningsPanel::goTo, this, &MainWindow::goTo);

    splitter->addWidget(m_scenarios);
    splitter->addWidget(right);
    // A wider window widens the pages, where the tables are, not the list of scenarios: at 1920
    // pixels a quarter of the width went to the list and Compare & decide scrolled sideways.
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
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
    connect(m_document, &Document::stateChanged, this, &MainWindow::showState);
    connect(m_document, &Document::resultsChanged, this, &MainWindow::showState);
    // An undo or redo that could not be stored: said at once, without stopping the undo under way.
    connect(m_document, &Document::storeFailed, this, [this](const QString &message) {
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot store the change"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    showState();
    // 1280x800, or the screen's free area where it is smaller (a 1280x800 screen less its panels
    // and the window frame): the status bar stays on screen.
    QSize size(1280, 800);
    if (const QScreen *s = screen())
        size = size.boundedTo(s->availableGeometry().size() - (frameGeometry().size() - geometry().size()));
    resize(size);
    const QByteArray geometry = Settings().windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
}

QListWidget *MainWindow::scenarioList() const { return m_scenarios->list(); }
BriefForm *MainWindow::briefForm() const { return m_briefPage->form(); }
QTableView *MainWindow::fitTable() const { return m_fitPage->table(); }
QTableView *MainWindow::performanceTable() const { return m_performancePage->table(); }
QTableView *MainWindow::costTable() const { return m_costPage->table(); }
ChartView *MainWindow::fitChart() const { return m_fitPage->chart(); }
QComboBox *MainWindow::fitChartChoice() const { return m_fitPage->chartChoice(); }
QComboBox *MainWindow::loadChartChoice() const { return m_performancePage->chartChoice(); }
QComboBox *MainWindow::costChartChoice() const { return m_costPage->chartChoice(); }
ChartView *MainWindow::loadChart() const { return m_performancePage->chart(); }
ChartView *MainWindow::costChart() const { return m_costPage->chart(); }
QTableView *MainWindow::comparisonTable() const { return m_comparePage->table(); }
QTableView *MainWindow::candidatesTable() const { return m_candidatesPage->table(); }
QListWidget *MainWindow::quoteList() const { return m_candidatesPage->quotes(); }
QListWidget *MainWindow::warningList() const { return m_warnings->list(); }
QListWidget *MainWindow::missingList() const { return m_scenarios->missing(); }
QLabel *MainWindow::recommendationLabel() const { return m_comparePage->recommendation(); }

ScenarioCompareDialog *MainWindow::openComparison()
{
    return m_scenarios->openComparison();
}

void MainWindow::addCandidate(const QString &gpu)
{
    m_candidatesPage->addCandidate(gpu);
}

std::optional<QString> MainWindow::addPriceQuote(const QString &json)
{
    return m_candidatesPage->addPriceQuote(json);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New Comparison…"), this, [this] { newDocument(false); });
    newAction->setToolTip(tr("Describe a workload and pick candidates in a short wizard"));
    newAction->setShortcut(QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open…"), this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    QAction *saveAction = file->addAction(tr("&Save"), this, [this] { saveDocument(false); });
    saveAction->setShortcut(QKeySequence::Save);
    QAction *saveAsAction = file->addAction(tr("Save &As…"), this, [this] { saveDocument(true); });
    // Bound explicitly too: QKeySequence::SaveAs has no binding outside KDE and GNOME sessions.
    saveAsAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)});
    QAction *exportAction = file->addAction(tr("&Export Brief…"), this, [this] {
        if (!m_document->brief())
            return;
        QString name = m_document->scenarioName().toLower();
        name.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
        name.remove(QRegularExpression(QStringLiteral("^-+|-+$")));  // "(Llama 3.1 70B)" ends in a bracket
        const QString path = saveFileName(this, tr("Export the brief"), name + QStringLiteral(".brief.json"),
                                          tr("Briefs (*.json)"), m_document->filePath());
        if (path.isEmpty())
            return;
        if (auto error = exportBrief(path))
            QMessageBox::warning(this, tr("Export the brief"), *error);
    });
    exportAction->setToolTip(tr("Write the current scenario's brief to a JSON file, for the command line or another project"));
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
    undo->setShortcuts(QKeySequence::Undo);  // every binding the platform has
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(QKeySequence::Redo);  // Ctrl+Y and Ctrl+Shift+Z
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu *scenario = menuBar()->addMenu(tr("&Scenario"));
    scenario->addAction(tr("&New Scenario…"), this, [this] { newDocument(true); })
        ->setStatusTip(tr("Describe another workload or set of candidates in the wizard and add it to this project"));
    const QList<QAction *> actions = m_scenarios->scenarioActions();
    for (QAction *a : actions) {
        if (a == actions.back())
            scenario->addSeparator();
        scenario->addAction(a);
    }
    scenario->addSeparator();
    QAction *layouts = scenario->addAction(tr("Find &Layouts…"), this, [this] { findLayouts(); });
    layouts->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    layouts->setStatusTip(tr("Search every GPU layout, precision and stack for the cheapest within the SLO"));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *present = view->addAction(tr("&Present Chart"), this, &MainWindow::presentChart);
    // Bound explicitly: QKeySequence::FullScreen has no binding on most Linux desktops.
    present->setShortcuts({QKeySequence(Qt::Key_F11), QKeySequence(Qt::CTRL | Qt::Key_F11)});
    present->setToolTip(tr("Show the current tab's chart full screen with large text, for projecting (Esc or F11 returns)"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&Guide and Glossary"), this, &MainWindow::showGuide);
    guide->setShortcuts({QKeySequence(Qt::Key_F1)});
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

std::optional<QString> MainWindow::exportBrief(const QString &path)
{
    const QString json = m_document->briefJson();
    if (json.isEmpty())
        return tr("There is no brief to export.");
    const auto readable = readableBriefJson(json.toStdString());
    if (!readable)
        return QString::fromStdString(readable.error().toString());
    if (Status s = writeFileAtomically(path.toStdString(), *readable); !s)
        return QString::fromStdString(s.error().toString());
    return std::nullopt;
}

bool MainWindow::saveDocument(bool askForPath)
{
    QString path = m_document->filePath();
    if (askForPath || path.isEmpty() || m_document->readOnly()) {
        // Beside the project's own file; a brief or sample opened from elsewhere starts in the
        // last folder used, not beside the file it came from (a sample lives with the program).
        const QString name = path.isEmpty() ? QFileInfo(m_document->sourcePath()).baseName() + QStringLiteral(".gpuwb")
                                            : QFileInfo(path).fileName();
        path = saveFileName(this, tr("Save project"), name, tr("GPU Workbench projects (*.gpuwb)"), path);
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

void MainWindow::presentChart()
{
    // F11 while presenting ends it, wherever the key lands (before the presentation window is
    // active it reaches this action): never a second presentation inside the first.
    if (m_presenting) {
        m_presenting->close();
        return;
    }
    auto *page = qobject_cast<wb::Page *>(m_tabs->currentWidget());
    ChartView *chart = page ? page->chart() : nullptr;
    if (!chart)
        return;
    // Borrow the chart into a full-screen window and give it back when that closes.
    auto *home = qobject_cast<QSplitter *>(chart->parentWidget());
    const int slot = home ? home->indexOf(chart) : -1;
    const QList<int> sizes = home ? home->sizes() : QList<int>();  // the page is given back as it was
    QDialog screen(this);
    screen.setWindowTitle(tr("%1 — presentation").arg(windowTitle()));
    auto *layout = new QVBoxLayout(&screen);
    layout->setContentsMargins(24, 24, 24, 24);
    layout->addWidget(chart, 1);
    // Large text for a projector, but never larger than lets the title fit the screen's width.
    const QRect area = this->screen() ? this->screen()->geometry() : QRect(0, 0, 1280, 800);
    const double titleWidth = std::max(1, chart->fontMetrics().horizontalAdvance(chart->title()) * 5 / 4 + 1);
    chart->setTextScale(std::clamp((area.width() - 96) / (titleWidth * 1.25), 1.0, 1.6));
    // The scenario and the date in a corner; the arrow keys step through the page's charts.
    auto *captionRow = new QHBoxLayout;
    auto *hint = new QLabel(tr("← → other charts of this page · Esc or F11 returns"), &screen);
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
    QComboBox *choice = page->chartChoice();
    const int shownChart = choice ? choice->currentIndex() : -1;  // the arrow keys step; Esc restores
    if (choice) {
        const auto step = [choice](int by) {
            choice->setCurrentIndex((choice->currentIndex() + by + choice->count()) % choice->count());
        };
        connect(new QShortcut(QKeySequence(Qt::Key_Right), &screen), &QShortcut::activated, choice, [step] { step(1); });
        connect(new QShortcut(QKeySequence(Qt::Key_Left), &screen), &QShortcut::activated, choice, [step] { step(-1); });
    }
    // The keys that start it end it too.
    for (const QKeySequence &key : {QKeySequence(Qt::Key_F11), QKeySequence(Qt::CTRL | Qt::Key_F11)})
        connect(new QShortcut(key, &screen), &QShortcut::activated, &screen, &QDialog::reject);
    m_presenting = &screen;
    // The screen's whole area even where no window manager honours "full screen".
    screen.setGeometry(area);
    screen.showFullScreen();
    screen.exec();
    m_presenting = nullptr;
    chart->setTextScale(1.0);
    if (home) {
        home->insertWidget(slot, chart);
        home->setSizes(sizes);
    }
    if (choice)
        choice->setCurrentIndex(shownChart);
}

// File > New Comparison: the wizard's brief joins the open project as a new scenario (issue 39:
// it once replaced the project, its scenarios and vendors, without asking), or starts a new
// project when the user chooses so or nothing is open. Cancelled, nothing changes.
// Scenario > New Scenario: the same wizard, its brief added to the open project without asking.
void MainWindow::newDocument(bool asScenario)
{
    NewComparisonWizard wizard(m_document->catalog(), this);
    if (wizard.exec() != QDialog::Accepted)
        return;
    bool fresh = m_document->scenarioNames().isEmpty();
    if (!fresh && !asScenario) {
        QMessageBox ask(QMessageBox::Question, tr("New comparison"),
                        tr("Add \"%1\" to this project as a new scenario, or start a new project with it?").arg(wizard.name()),
                        QMessageBox::Cancel, this);
        QPushButton *add = ask.addButton(tr("Add as a Scenario"), QMessageBox::AcceptRole);
        QPushButton *project = ask.addButton(tr("New Project"), QMessageBox::ActionRole);
        ask.setDefaultButton(add);
        ask.exec();
        if (ask.clickedButton() != add && ask.clickedButton() != project)
            return;
        fresh = ask.clickedButton() == project;
    }
    if (fresh && !maybeSave())
        return;
    if (auto error = fresh ? m_document->newFromBrief(wizard.briefJson()) : m_document->addScenarioFromJson(wizard.briefJson(), {}, true))
        QMessageBox::warning(this, tr("Cannot start the comparison"), *error);
    else
        m_tabs->setCurrentIndex(int(Tab::Compare));
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

void MainWindow::openWithDialog()
{
    const QString path = openFileName(this, tr("Open project or brief"),
                                      tr("Projects and briefs (*.gpuwb *.json);;All files (*)"), m_document->filePath());
    if (!path.isEmpty() && maybeSave())
        openFile(path);
}

void MainWindow::showGuide()
{
    if (!m_guide)
        m_guide = new HelpGuide(this);
    m_guide->show();
    m_guide->raise();
    m_guide->activateWindow();
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

void MainWindow::showState()
{
    const Brief *brief = m_document->brief();
    const Results &results = m_document->results();
    const bool ranked = brief && results.ranked();
    const int briefTab = int(Tab::Brief);
    m_tabs->setTabText(briefTab, !brief ? tr("Brief") : ranked ? tr("Brief ✓") : tr("Brief ⚠"));
    m_tabs->setTabToolTip(briefTab, brief && !ranked ? tr("The brief misses what the ranking needs") : QString());
    // The scenario shown (its name in the list, which a rename changes; the brief's own name may
    // be another).
    const QString name = brief ? m_document->scenarioName() : tr("Untitled");
    QString where = m_document->filePath().isEmpty() ? tr("not saved as a project")
                                                     : QFileInfo(m_document->filePath()).fileName();
    if (m_document->readOnly())
        where += tr(" (read-only: %1)").arg(m_document->readOnlyReason());
    setWindowTitle(tr("%1 — %2[*] — GPU Workbench").arg(name, where));
    // Every exported chart says which scenario and when.
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *page = qobject_cast<Page *>(m_tabs->widget(i)); page && page->chart())
            page->chart()->setStamp(tr("%1 · %2 · GPU Workbench").arg(name, QDate::currentDate().toString(Qt::ISODate)));
    setWindowModified(m_document->isModified());

    const Catalog &c = m_document->catalog();
    m_progress->setVisible(m_document->evaluating());
    const QString progress = !m_document->engineError().isEmpty()
                                 ? tr("The engine failed: %1 · ").arg(m_document->engineError())
                             : !m_document->evaluating() ? QString()
                             : results.preview           ? tr("First answer shown; refining the simulation… · ")
                                                         : tr("Simulating performance and cost… · ");
    m_status->setText(progress
                      + tr("Catalog: %1 GPUs, %2 models, %3 dated prices · engine %4")
                            .arg(c.gpus().size())
                            .arg(c.models().size())
                            .arg(c.prices().size() + c.apiPrices().size())
                            .arg(QString::fromLatin1(engineVersion())));
}

void MainWindow::goTo(const QString &target)
{
    if (target.isEmpty())
        return;
    if (target.startsWith(u'#')) {
        m_tabs->setCurrentIndex(target.mid(1).toInt());
        return;
    }
    // A candidate's field ("/candidates/2/tensor_parallel") is edited in its row of the Candidates
    // page; prices and the model-API quote are added there too.
    static const QRegularExpression candidate(QStringLiteral("^/candidates/([0-9]+)(/|$)"));
    if (target == QLatin1String("/candidates") || target.startsWith(QLatin1String("/candidates/"))
        || target.startsWith(QLatin1String("/cost/prices")) || target.startsWith(QLatin1String("/cost/api"))) {
        m_tabs->setCurrentIndex(int(Tab::Candidates));
        if (const auto m = candidate.match(target); m.hasMatch() && m.captured(1).toInt() < m_candidatesPage->table()->model()->rowCount())
            m_candidatesPage->table()->selectRow(m.captured(1).toInt());
        return;
    }
    m_tabs->setCurrentIndex(int(Tab::Brief));
    m_briefPage->focusField(target);
}

LayoutSearchDialog *MainWindow::findLayouts()
{
    if (!m_document->hasBrief()) {
        m_status->setText(tr("Open a brief or a project first: the layout search serves its brief."));
        return nullptr;
    }
    if (!m_layoutSearch) {
        m_layoutSearch = new LayoutSearchDialog(m_document, this);
        m_layoutSearch->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_layoutSearch->show();
    m_layoutSearch->raise();
    m_layoutSearch->activateWindow();
    return m_layoutSearch;
}

} // namespace wb
