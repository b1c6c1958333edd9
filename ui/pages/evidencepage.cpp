#include "pages/evidencepage.h"
#include "settings.h"

#include "dialogs/evidenceimport.h"
#include "document/document.h"
#include "parts/pageparts.h"
#include "parts/words.h"

#include <core/fileio.h>
#include <widgets/chartview.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>

#include <cmath>

namespace wb {

using namespace pageparts;

namespace {

QString figure(const std::string &metric, std::optional<double> v)
{
    if (!v)
        return QStringLiteral("–");
    return isLatencyMetric(metric) ? QObject::tr("%L1 ms").arg(*v * 1e3, 0, 'f', *v < 0.1 ? 1 : 0)
                                   : QStringLiteral("%L1").arg(*v, 0, 'f', *v < 100 ? 2 : 0);
}

QString error(std::optional<double> predicted, double measured)
{
    if (!predicted || measured <= 0)
        return QStringLiteral("–");
    const long percent = std::lround((*predicted / measured - 1) * 100);
    return percent == 0 ? QStringLiteral("0%") : QStringLiteral("%1%2%").arg(percent > 0 ? QStringLiteral("+") : QString()).arg(percent);
}

enum Metric { TtftP50, TpotP50, Throughput };

} // namespace

EvidencePage::EvidencePage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout = headedPage(
        this, tr("Do the measurements agree with the prediction?"),
        tr("Import the results of the benchmark plan (vLLM bench serve, GuideLLM, LLMPerf, GenAI-Perf or AIPerf, or the "
           "evidence CSV). Each run is compared with the engine's prediction at its own load and lengths; the scenario's "
           "figures are then calibrated from the runs of each GPU and serving stack, and say so."));
    auto *bar = new QHBoxLayout;
    m_import = new QPushButton(tr("&Import results…"), this);
    m_remove = new QPushButton(tr("&Remove run"), this);
    m_calibrate = new QCheckBox(tr("&Calibrate this scenario's figures from its runs"), this);
    bar->addWidget(m_import);
    bar->addWidget(m_remove);
    bar->addSpacing(12);
    bar->addWidget(m_calibrate);
    bar->addStretch(1);
    layout->addLayout(bar);
    m_status = richLabel(tr("Calibration"), this);
    layout->addWidget(m_status);

    // The runs across the top; below, the selected run's metrics beside the chart.
    auto *rows = new QSplitter(Qt::Vertical, this);
    m_runs = new QStandardItemModel(0, 8, this);
    m_runs->setHorizontalHeaderLabels({tr("Run"), tr("Tool"), tr("File"), tr("Candidate"), tr("GPUs"), tr("Load"),
                                       tr("Run date"), tr("Imported")});
    m_runsView = resultTable(m_runs, tr("Measured runs"), rows);
    m_runsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runsView->horizontalHeader()->setStretchLastSection(false);
    m_runsView->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);  // the file name takes the room
    m_metrics = new QStandardItemModel(0, 8, this);
    m_metrics->setHorizontalHeaderLabels({tr("Metric"), tr("Measured"), tr("Predicted"), tr("Error"), tr("Calibrated"),
                                          tr("Cal. error"), tr("Left out"), tr("Left-out error")});
    const QString tips[] = {
        tr("TTFT, TPOT (first token excluded), ITL (gaps between tokens), E2E per token (first token included), E2E"),
        tr("What the run measured"),
        tr("The engine's prediction at the run's own load, lengths and GPU count, with the shipped factors"),
        tr("Predicted against measured"),
        tr("The prediction with the factors calibrated from this scenario's runs"),
        tr("Calibrated against measured"),
        tr("Predicted by a calibration fitted without this run: how well the calibration predicts a run it has not "
           "seen (means and medians only)"),
        tr("Left out against measured")};
    for (int c = 0; c < 8; ++c)
        m_metrics->setHeaderData(c, Qt::Horizontal, tips[c], Qt::ToolTipRole);
    auto *split = new QSplitter(Qt::Horizontal, rows);
    auto *metricsBox = new QWidget(split);
    auto *metricsLayout = new QVBoxLayout(metricsBox);
    metricsLayout->setContentsMargins(0, 0, 0, 0);
    m_caption = new QLabel(metricsBox);
    m_caption->setWordWrap(true);
    metricsLayout->addWidget(m_caption);
    m_metricsView = resultTable(m_metrics, tr("Measured against predicted"), metricsBox);
    metricsLayout->addWidget(m_metricsView, 1);
    m_metricsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_metricsView->horizontalHeader()->setStretchLastSection(false);
    rows->addWidget(m_runsView);
    rows->addWidget(split);
    rows->setStretchFactor(0, 1);
    rows->setStretchFactor(1, 3);

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *choice = new QHBoxLayout;
    auto *label = new QLabel(tr("C&hart:"), right);
    m_metric = new QComboBox(right);
    m_metric->addItems({tr("Median time to first token"), tr("Median time per output token"), tr("Output tokens per second")});
    label->setBuddy(m_metric);
    choice->addWidget(label);
    choice->addWidget(m_metric, 1);
    rightLayout->addLayout(choice);
    m_chart = new ChartView(right);
    rightLayout->addWidget(m_chart, 1);
    split->addWidget(metricsBox);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    rows->setSizes({150, 330});  // about four runs above the metrics
    layout->addWidget(rows, 1);

    connect(m_import, &QPushButton::clicked, this, [this] { importFile(); });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const long long id = selectedRun();
        if (id <= 0)
            return;
        if (const auto refused = this->document()->removeEvidence(id))
            QMessageBox::warning(this, tr("Remove run"), *refused);
    });
    connect(m_calibrate, &QCheckBox::toggled, this, [this](bool on) {
        if (const auto refused = this->document()->setEvidenceCalibration(on)) {
            const QSignalBlocker blocker(m_calibrate);
            m_calibrate->setChecked(!on);
            QMessageBox::warning(this, tr("Calibration"), *refused);
        }
    });
    connect(m_runsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showRun();
        showChart();
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &EvidencePage::showChart);
    connect(document, &Document::briefChanged, this, &EvidencePage::listRuns);
    connect(document, &Document::evidenceChanged, this, &EvidencePage::listRuns);
    connect(document, &Document::evidenceAnalysisChanged, this, [this] {
        m_analysis = this->document()->evidenceAnalysis();
        showRun();
        showChart();
        showStatus();
    });
    connect(document, &Document::stateChanged, this, &EvidencePage::showStatus);
    listRuns();
}

void EvidencePage::importFile(const QString &given)
{
    const Brief *brief = document()->brief();
    if (!brief) {
        QMessageBox::information(this, tr("Import results"), tr("Open a project with a scenario first."));
        return;
    }
    const QString path = given.isEmpty()
                             ? openFileName(this, tr("Import benchmark results"),
                                                            tr("Benchmark results (*.json *.csv);;All files (*)"))
                             : given;
    if (path.isEmpty())
        return;
    auto text = readTextFile(path.toStdString());
    auto runs = text ? readMeasuredRuns(*text, path.toStdString()) : Result<std::vector<MeasuredRun>>(text.error());
    if (!runs) {
        QMessageBox::warning(this, tr("Import results"), QString::fromStdString(runs.error().toString()));
        return;
    }
    // The candidates as the other pages name them; the first whose GPU the file names is offered,
    // else the selected run's.
    QStringList candidates;
    int candidate = -1;
    for (std::size_t i = 0; i < brief->candidates.size(); ++i) {
        const Candidate &c = brief->candidates[i];
        const GpuSpec *gpu = document()->catalog().gpu(c.gpu);
        candidates << tr("%1: %2 × %3, TP%4 (%5)")
                          .arg(i + 1)
                          .arg(c.gpus)
                          .arg(QString::fromStdString(gpu ? gpu->name : c.gpu))
                          .arg(c.tensorParallel)
                          .arg(words(c.servingStack));
        if (candidate < 0 && !runs->empty() && runs->front().gpu == c.gpu)
            candidate = int(i);
    }
    if (const long long id = selectedRun(); id > 0 && candidate < 0)
        for (const EvidenceRun &r : m_shownRuns)
            if (r.id == id)
                candidate = int(r.candidate);
    EvidenceImportDialog dialog(QFileInfo(path).fileName(), *runs, candidates, std::max(candidate, 0),
                                qEnvironmentVariable("USER"),
                                [&](std::size_t c, const RunMapping &mapping, const QString &by) {
                                    return document()->importEvidence(path, c, mapping, by);
                                },
                                this);
    dialog.exec();
}

long long EvidencePage::selectedRun() const
{
    const QModelIndex current = m_runsView->currentIndex();
    if (!current.isValid())
        return 0;
    return m_runs->item(current.row(), 0)->data(Qt::UserRole).toLongLong();
}

const RunPrediction *EvidencePage::predictionOf(long long run) const
{
    if (!m_analysis)
        return nullptr;
    for (const RunPrediction &p : m_analysis->predictions)
        if (p.run == run)
            return &p;
    return nullptr;
}

void EvidencePage::listRuns()
{
    const long long keep = selectedRun();
    m_shownRuns = document()->evidence();
    const bool editable = document()->brief() && !document()->readOnly();
    m_import->setEnabled(editable);
    {
        const QSignalBlocker blocker(m_calibrate);
        m_calibrate->setChecked(document()->evidenceCalibration());
        m_calibrate->setEnabled(editable);
    }
    m_runs->removeRows(0, m_runs->rowCount());
    int select = m_shownRuns.empty() ? -1 : 0;
    for (const EvidenceRun &r : m_shownRuns) {
        QList<QStandardItem *> row;
        auto *id = new QStandardItem(QString::number(r.id));
        id->setData(r.id, Qt::UserRole);
        row << id << new QStandardItem(QString::fromStdString(std::string(runToolName(r.run.tool))))
            << new QStandardItem(QString::fromStdString(r.file.name) +
                                 (r.index > 0 || r.run.tool == RunTool::GuideLlm ? tr(" (run %1)").arg(r.index + 1) : QString()))
            << new QStandardItem(QString::number(r.candidate + 1))
            << new QStandardItem(r.run.gpus ? QString::number(*r.run.gpus) : QStringLiteral("–"))
            << new QStandardItem(QString::fromStdString(runLoadText(r.run)))
            << new QStandardItem(r.run.date.empty() ? tr("not stated") : QString::fromStdString(r.run.date))
            << new QStandardItem(QString::fromStdString(r.importedAt.substr(0, 10)) +
                                 (r.importedBy.empty() ? QString() : tr(" by %1").arg(QString::fromStdString(r.importedBy))));
        row[2]->setToolTip(tr("SHA-256 %1, %L2 bytes").arg(QString::fromStdString(r.file.sha256)).arg(r.file.bytes));
        if (r.id == keep)
            select = m_runs->rowCount();
        m_runs->appendRow(row);
    }
    m_remove->setEnabled(editable && !m_shownRuns.empty());
    if (select >= 0)
        m_runsView->setCurrentIndex(m_runs->index(select, 0));
    m_runsView->resizeColumnsToContents();
    showRun();
    showChart();
    showStatus();
}

void EvidencePage::showRun()
{
    m_metrics->removeRows(0, m_metrics->rowCount());
    const long long id = selectedRun();
    m_caption->clear();
    for (const EvidenceRun &r : m_shownRuns)
        if (r.id == id)
            m_caption->setText(tr("<b>Run %1</b> (%2, candidate %3): %4 on %5 GPUs, %L6 in / %L7 out tokens")
                                   .arg(r.id)
                                   .arg(QString::fromStdString(std::string(runToolName(r.run.tool))))
                                   .arg(r.candidate + 1)
                                   .arg(QString::fromStdString(runLoadText(r.run)))
                                   .arg(r.run.gpus.value_or(0))
                                   .arg(r.run.inputTokens.mean.value_or(0), 0, 'f', 0)
                                   .arg(r.run.outputTokens.mean.value_or(0), 0, 'f', 0));
    const RunPrediction *p = predictionOf(id);
    if (!p)
        return;
    for (const MetricComparison &m : p->metrics) {
        QList<QStandardItem *> row;
        row << new QStandardItem(QString::fromStdString(metricLabel(m))) << new QStandardItem(figure(m.metric, m.measured))
            << new QStandardItem(figure(m.metric, m.predicted)) << new QStandardItem(error(m.predicted, m.measured))
            << new QStandardItem(figure(m.metric, m.calibrated)) << new QStandardItem(error(m.calibrated, m.measured))
            << new QStandardItem(figure(m.metric, m.leftOut)) << new QStandardItem(error(m.leftOut, m.measured));
        for (int c = 1; c < row.size(); ++c)
            row[c]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_metrics->appendRow(row);
    }
    if (!p->why.empty()) {
        auto *why = new QStandardItem(tr("Not predicted: %1").arg(QString::fromStdString(p->why)));
        m_metrics->insertRow(0, why);
    }
    m_metricsView->resizeColumnsToContents();
}

void EvidencePage::showChart()
{
    const int metric = m_metric->currentIndex();
    // The curve is Poisson arrivals at each rate: only runs at a request rate belong on it (a
    // closed loop at the same throughput is other traffic; the table compares those).
    const QString titles[] = {tr("Median TTFT: the runs at a request rate over the predicted curve"),
                              tr("Median TPOT: the runs at a request rate over the predicted curve"),
                              tr("Output tokens/s: the runs at a request rate over the predicted curve")};
    m_chart->setTitle(titles[std::clamp(metric, 0, 2)]);
    m_chart->setAxisLabels(tr("requests/s"), metric == Throughput ? tr("tokens/s") : tr("ms"));
    m_chart->setEmptyText(m_shownRuns.empty() ? tr("No measured runs: import the results of a benchmark run")
                                              : tr("Comparing the runs with the prediction…"));
    std::size_t candidate = 0;
    bool found = false;
    for (const EvidenceRun &r : m_shownRuns)
        if (r.id == selectedRun()) {
            candidate = r.candidate;
            found = true;
        }
    const EvidenceCurve *curve = nullptr;
    if (m_analysis && found)
        for (const EvidenceCurve &c : m_analysis->curves)
            if (c.candidate == candidate)
                curve = &c;
    if (!curve) {
        m_chart->setLines({});
        return;
    }
    const auto y = [&](const LoadPoint &p) {
        return metric == TtftP50 ? p.ttftP50S * 1e3 : metric == TpotP50 ? p.tpotP50S * 1e3 : p.outputTokensPerS;
    };
    const int color = int(candidate);
    QVector<ChartView::Line> lines;
    const QString name = tr("candidate %1").arg(candidate + 1);
    ChartView::Line predicted{tr("%1 predicted").arg(name), {}, {}, Qt::DashLine, color};
    for (const LoadPoint &p : curve->predicted) {
        predicted.x << p.requestRatePerS;
        predicted.y << y(p);
    }
    lines << predicted;
    if (!curve->calibrated.empty()) {
        const auto *cal = [&]() -> const EvidenceCalibration * {
            for (const EvidenceCalibration &c : m_analysis->calibrations)
                for (long long id : c.runs)
                    for (const EvidenceRun &r : m_shownRuns)
                        if (r.id == id && r.candidate == candidate)
                            return &c;
            return nullptr;
        }();
        ChartView::Line calibrated{tr("%1 %2").arg(name, cal ? calibratedFrom(int(cal->runs.size())) : tr("calibrated")),
                                   {}, {}, Qt::SolidLine, color};
        for (const LoadPoint &p : curve->calibrated) {
            calibrated.x << p.requestRatePerS;
            calibrated.y << y(p);
        }
        lines << calibrated;
    }
    // Measured points in another colour of the palette, so that they stand out on their curves.
    ChartView::Line measured{tr("%1 measured").arg(name), {}, {}, Qt::SolidLine, color + 4, true};
    for (const EvidenceRun &r : m_shownRuns) {
        if (r.candidate != candidate || !r.run.requestRatePerS)
            continue;
        const MeasuredRun &m = r.run;
        const std::optional<double> x = m.requestRatePerS;
        const auto stat = [](const MeasuredStat &s) { return s.p50 ? s.p50 : s.mean; };
        const std::optional<double> v = metric == TtftP50   ? stat(m.ttft)
                                        : metric == TpotP50 ? stat(m.tpot)
                                                            : m.outputTokensPerS;
        if (!x || !v)
            continue;
        measured.x << *x;
        measured.y << (metric == Throughput ? *v : *v * 1e3);
    }
    if (!measured.x.isEmpty())
        lines << measured;
    m_chart->setLines(lines);
}

void EvidencePage::showStatus()
{
    const std::size_t runs = m_shownRuns.size();
    if (runs == 0) {
        m_status->setText(tr("No measured runs in this scenario yet. The Plan page has the commands that produce them."));
        return;
    }
    if (!m_analysis || !document()->evidenceAnalysisCurrent()) {
        m_status->setText(document()->evidenceCalibration()
                              ? tr("Calibrating from %n run(s) and comparing them with the prediction…", nullptr, int(runs))
                              : tr("Comparing %n run(s) with the prediction…", nullptr, int(runs)));
        return;
    }
    if (!document()->evidenceCalibration()) {
        m_status->setText(tr("Calibration is <b>off</b> for this scenario: its figures use the shipped factors. The "
                             "Calibrated columns stay empty."));
        return;
    }
    QStringList lines;
    const auto percent = [](const std::optional<double> &v) {
        return v ? QStringLiteral("%1%").arg(*v * 100, 0, 'f', 0) : QStringLiteral("–");
    };
    for (const EvidenceCalibration &c : m_analysis->calibrations) {
        const GpuSpec *gpu = document()->catalog().gpu(c.gpu);
        const QString who = tr("%1 with %2").arg(QString::fromStdString(gpu ? gpu->name : c.gpu), words(c.stack));
        QString line = tr("<b>%1: %2.</b>").arg(who, calibratedFrom(int(c.runs.size())));
        // Each family's mean error: shipped factors → calibrated (left out), so that a family the
        // calibration cannot fix is plain to see.
        QStringList families;
        for (const EvidenceCalibration::FamilyError &e : c.errors) {
            const QString name = e.family == "throughput" ? tr("throughput") : QString::fromStdString(e.family).toUpper();
            QString text = tr("%1 %2 → %3").arg(name, percent(e.before), percent(e.after));
            if (e.leftOut)
                text += tr(" (left out %1)").arg(percent(e.leftOut));
            if (e.after && *e.after > 0.25)
                text = QStringLiteral("<b>%1</b>").arg(text);
            families << text;
        }
        if (!families.isEmpty())
            line += tr(" Mean error: %1.").arg(families.join(QStringLiteral("; ")));
        if (!c.misfits().empty())
            line += tr(" Errors in bold stay above 25% after calibration: the model does not explain them.");
        if (!c.stable)
            line += tr(" <b>Unstable:</b> each run predicted from the others misses by more than the shipped factors "
                       "do; the runs disagree with each other or with the model.");
        lines << line;
    }
    if (lines.isEmpty())
        lines << tr("No run could be predicted, so nothing is calibrated (see the table for why).");
    m_status->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace wb
