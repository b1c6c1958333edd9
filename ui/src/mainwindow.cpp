#include "ui/mainwindow.h"

#include "ui/briefview.h"
#include "ui/document.h"
#include "ui/fittablemodel.h"

#include <widgets/fractionbardelegate.h>

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

namespace wb {

MainWindow::MainWindow(Document *document, QWidget *parent) : QMainWindow(parent), m_document(document)
{
    setObjectName(QStringLiteral("MainWindow"));
    auto *splitter = new QSplitter(Qt::Horizontal, this);

    auto *briefScroll = new QScrollArea(splitter);
    briefScroll->setWidgetResizable(true);
    m_briefView = new BriefView(briefScroll);
    briefScroll->setWidget(m_briefView);
    briefScroll->setAccessibleName(tr("Brief"));

    auto *right = new QWidget(splitter);
    auto *layout = new QVBoxLayout(right);
    m_fitTitle = new QLabel(right);
    QFont titleFont = m_fitTitle->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_fitTitle->setFont(titleFont);
    layout->addWidget(m_fitTitle);
    auto *subtitle = new QLabel(tr("Memory per GPU by component, for the busiest GPU of each candidate. Headroom is "
                                   "the share of the GPU left free; the engine's memory cap keeps the last 10% for "
                                   "fragmentation."),
                                right);
    subtitle->setWordWrap(true);
    layout->addWidget(subtitle);

    m_fitModel = new FitTableModel(this);
    m_fitTable = new QTableView(right);
    m_fitTable->setModel(m_fitModel);
    m_fitTable->setAccessibleName(tr("Memory fit per candidate"));
    m_fitTable->setAlternatingRowColors(true);
    m_fitTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_fitTable->verticalHeader()->hide();
    m_fitTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_fitTable->horizontalHeader()->setStretchLastSection(true);
    auto *bar = new FractionBarDelegate(m_fitTable);
    bar->setWarnBelow(0.1);
    m_fitTable->setItemDelegateForColumn(FitTableModel::Headroom, bar);
    layout->addWidget(m_fitTable, 3);

    auto *warningsLabel = new QLabel(tr("<b>Warnings</b>"), right);
    layout->addWidget(warningsLabel);
    m_warnings = new QListWidget(right);
    m_warnings->setAccessibleName(tr("Warnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setAlternatingRowColors(true);
    layout->addWidget(m_warnings, 2);

    splitter->addWidget(briefScroll);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({360, 920});
    setCentralWidget(splitter);

    m_status = new QLabel(this);
    statusBar()->addWidget(m_status, 1);

    createMenus();
    connect(m_document, &Document::changed, this, &MainWindow::refresh);
    refresh();
    resize(1280, 800);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newAction = file->addAction(tr("&New"), this, &MainWindow::newDocument);
    newAction->setShortcut(QKeySequence::New);
    QAction *openAction = file->addAction(tr("&Open…"), this, &MainWindow::openWithDialog);
    openAction->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction *quitAction = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quitAction->setShortcut(QKeySequence::Quit);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About GPU Workbench"), this, &MainWindow::about);
}

bool MainWindow::openFile(const QString &path)
{
    if (auto error = m_document->openBrief(path)) {
        QMessageBox::warning(this, tr("Cannot open brief"), *error);
        return false;
    }
    return true;
}

void MainWindow::newDocument()
{
    m_document->clear();
}

void MainWindow::openWithDialog()
{
    const QString start = m_document->filePath().isEmpty() ? QString() : QFileInfo(m_document->filePath()).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open brief"), start, tr("Briefs (*.json);;All files (*)"));
    if (!path.isEmpty())
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
    m_briefView->setBrief(brief);
    m_fitModel->setResults(m_document->results());
    // Columns that are always zero for this kind of workload are hidden, not shown empty.
    const bool inference = !brief || isInference(brief->workload.kind);
    m_fitTable->setColumnHidden(FitTableModel::KvCache, !inference);
    m_fitTable->setColumnHidden(FitTableModel::MaxConcurrency, !inference);
    m_fitTable->setColumnHidden(FitTableModel::Gradients, inference);
    m_fitTable->setColumnHidden(FitTableModel::OptimizerStates, inference);
    const QString name = brief ? QString::fromStdString(brief->name) : tr("Untitled");
    setWindowTitle(tr("%1 — GPU Workbench").arg(name));
    m_fitTitle->setText(brief && brief->candidates.empty() ? tr("Does it fit? Add a candidate to compare.")
                        : brief                             ? tr("Does it fit?")
                                                            : tr("Does it fit? Open a brief to see."));

    m_warnings->clear();
    for (const Warning &w : m_document->results().briefWarnings)
        m_warnings->addItem(tr("Brief: %1").arg(QString::fromStdString(w.message)));
    for (const CandidateResult &r : m_document->results().results)
        for (const Warning &w : r.warnings) {
            if (w.code == "catalog-caveat")
                continue;  // shown in the fit table's tooltips, not repeated here
            auto *item = new QListWidgetItem(tr("%1 × %2: %3")
                                                 .arg(r.candidate.gpus)
                                                 .arg(QString::fromStdString(r.candidate.gpu))
                                                 .arg(QString::fromStdString(w.message)));
            item->setToolTip(QString::fromStdString(w.code));
            m_warnings->addItem(item);
        }
    if (m_warnings->count() == 0)
        m_warnings->addItem(tr("No warnings."));

    const Catalog &c = m_document->catalog();
    m_status->setText(tr("Catalog: %1 GPUs, %2 models · engine %3 · performance and cost arrive in later versions")
                          .arg(c.gpus().size())
                          .arg(c.models().size())
                          .arg(QString::fromLatin1(engineVersion())));
}

} // namespace wb
