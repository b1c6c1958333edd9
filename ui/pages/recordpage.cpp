#include "pages/recordpage.h"
#include "settings.h"

#include "document/document.h"
#include "parts/messagetext.h"
#include "pages/resultstablemodel.h"
#include "parts/pageparts.h"

#include <catalog/prices.h>
#include <core/guard.h>
#include <pdf/recordpdf.h>
#include <report/labels.h>
#include <report/report.h>
#include <report/xlsx.h>
#include <usecase/records.h>

#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace wb {

using namespace pageparts;

namespace {

QString usd(double v)
{
    const int decimals = v >= 100 ? 2 : std::clamp(3 - int(std::floor(std::log10(std::max(v, 1e-9)))), 2, 8);
    return QStringLiteral("$") + QLocale().toString(v, 'f', decimals);
}

QStringList lines(const QString &text)
{
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            out << line.trimmed();
    return out;
}

} // namespace

RecordPage::RecordPage(Document *document, QWidget *parent) : Page(document, parent)
{
    QVBoxLayout *layout = headedPage(
        this, tr("What did we decide, and does it still hold?"),
        tr("A decision record freezes the scenario for review: the brief, the catalog entries and dated prices its figures "
           "use, the calibration, the results, the vendor checklist and the measured runs, with the option chosen, why, and "
           "who signs. Records are never edited; a new one supersedes. Recompute a record to see what has moved since."));
    auto *split = new QSplitter(Qt::Horizontal, this);

    auto *left = new QWidget(split);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Records of this scenario"), left));
    m_records = new QTableWidget(0, 5, left);
    m_records->setHorizontalHeaderLabels({tr("#"), tr("Recorded"), tr("Decision"), tr("Signed by"), tr("Check")});
    m_records->setAccessibleName(tr("Decision records"));
    m_records->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_records->setSelectionMode(QAbstractItemView::SingleSelection);
    m_records->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_records->verticalHeader()->hide();
    m_records->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_records->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_records->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Interactive);
    m_records->horizontalHeader()->resizeSection(3, m_records->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 24);
    m_records->setWordWrap(false);
    leftLayout->addWidget(m_records, 1);
    auto *recordButtons = new QHBoxLayout;
    m_recomputeButton = new QPushButton(tr("Re&compute with this version"), left);
    m_recomputeButton->setToolTip(tr("Evaluate the record's inputs again with this version of the engine, catalog and checklist, "
                                     "and list every input and figure that changed"));
    m_pdfButton = new QPushButton(tr("Export &PDF…"), left);
    m_pdfButton->setToolTip(tr("The selected record as a PDF; with none selected, a draft of the scenario as it stands"));
    recordButtons->addWidget(m_recomputeButton);
    recordButtons->addWidget(m_pdfButton);
    recordButtons->addStretch(1);
    leftLayout->addLayout(recordButtons);

    auto *form = new QGroupBox(tr("Record a decision"), split);
    auto *formLayout = new QFormLayout(form);
    m_option = new QComboBox(form);
    m_option->setAccessibleName(tr("Option chosen"));
    m_option->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_option->setMinimumContentsLength(24);
    m_rationale = new QPlainTextEdit(form);
    m_rationale->setAccessibleName(tr("Rationale"));
    m_rationale->setPlaceholderText(tr("Why this option, in the team's words"));
    m_rationale->setTabChangesFocus(true);
    m_signOff = new QPlainTextEdit(form);
    m_signOff->setAccessibleName(tr("Signed by"));
    m_signOff->setPlaceholderText(tr("One per line: name, role"));
    m_signOff->setTabChangesFocus(true);
    m_signOff->setMaximumHeight(m_signOff->fontMetrics().height() * 5);
    m_date = new QLineEdit(QString::fromStdString(todayIso()), form);
    m_date->setAccessibleName(tr("Date of the decision"));
    m_date->setPlaceholderText(tr("YYYY-MM-DD"));
    m_date->setMaxLength(10);
    formLayout->addRow(tr("&Option:"), m_option);
    formLayout->addRow(tr("&Rationale:"), m_rationale);
    formLayout->addRow(tr("&Signed by:"), m_signOff);
    formLayout->addRow(tr("&Date:"), m_date);
    m_problem = new QLabel(form);
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #b00000;"));
    formLayout->addRow(m_problem);
    auto *formButtons = new QHBoxLayout;
    m_recordButton = new QPushButton(tr("Record &decision…"), form);
    m_xlsxButton = new QPushButton(tr("Export &XLSX…"), form);
    m_xlsxButton->setToolTip(tr("The scenario's figures as a workbook: normalization table, cost lines, fit, performance, "
                                "assumptions and the checklist"));
    formButtons->addWidget(m_recordButton);
    formButtons->addStretch(1);
    formButtons->addWidget(m_xlsxButton);
    formLayout->addRow(formButtons);
    split->addWidget(left);
    split->addWidget(form);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 3);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_details = new QTextBrowser(this);
    m_details->setAccessibleName(tr("Record details"));
    m_details->setOpenExternalLinks(false);
    layout->addWidget(m_details, 2);

    connect(m_recordButton, &QPushButton::clicked, this, &RecordPage::recordDecision);
    connect(m_recomputeButton, &QPushButton::clicked, this, &RecordPage::recomputeSelected);
    connect(m_pdfButton, &QPushButton::clicked, this, [this] {
        const QString path = saveFileName(this, tr("Export the decision record"), tr("decision-record.pdf"),
                                                          tr("PDF (*.pdf)"));
        if (!path.isEmpty())
            exportPdf(path);
    });
    connect(m_xlsxButton, &QPushButton::clicked, this, [this] {
        const QString path =
            saveFileName(this, tr("Export the figures"), tr("figures.xlsx"), tr("Excel workbook (*.xlsx)"));
        if (!path.isEmpty())
            exportXlsx(path);
    });
    connect(m_records, &QTableWidget::itemSelectionChanged, this, &RecordPage::showSelected);
    connect(m_rationale, &QPlainTextEdit::textChanged, this, &RecordPage::checkForm);
    connect(m_signOff, &QPlainTextEdit::textChanged, this, &RecordPage::checkForm);
    connect(m_date, &QLineEdit::textChanged, this, &RecordPage::checkForm);
    connect(m_option, &QComboBox::currentIndexChanged, this, [this] {
        m_option->setToolTip(m_option->currentText());  // the whole label, which the box may cut
        checkForm();
    });
    connect(document, &Document::resultsChanged, this, &RecordPage::listOptions);
    connect(document, &Document::briefChanged, this, &RecordPage::listRecords);
    connect(document, &Document::recordsChanged, this, &RecordPage::listRecords);
    connect(document, &Document::stateChanged, this, &RecordPage::checkForm);
    connect(&m_watcher, &QFutureWatcher<Result<std::string>>::finished, this, [this] {
        const Result<std::string> result = m_watcher.result();
        m_status->clear();
        auto done = std::move(m_done);
        m_done = nullptr;
        checkForm();
        if (done)
            done(result);
    });
    listOptions();
    listRecords();
}

RecordPage::~RecordPage()
{
    m_stop.request_stop();
    m_watcher.waitForFinished();
}

void RecordPage::listOptions()
{
    const Results &results = document()->results();
    const int keep = m_option->currentIndex();
    const bool sameList = !results.preview && m_option->count() > 0;
    const QSignalBlocker blocker(m_option);
    m_option->clear();
    m_options.clear();
    const std::optional<Recommendation> &rec = results.cost.recommendation;
    const QString unit = wordText(results.cost.unit);
    int recommended = -1;
    const auto add = [&](const QString &label, const RecordDecision &d, bool isRecommended) {
        if (isRecommended)
            recommended = int(m_options.size());
        m_option->addItem(isRecommended ? tr("%1 (the engine's recommendation)").arg(label) : label);
        m_options.append(d);
    };
    for (std::size_t i = 0; i < results.results.size(); ++i) {
        const CandidateResult &r = deployment(results.results[i]);
        const QString name = ResultsTableModel::deploymentLabel(results.results[i]);  // the pages' words, not ids
        for (const CostOption &o : r.cost.options) {
            RecordDecision d;
            d.candidate = i;
            d.term = o.term;
            add(tr("%1: %2, %3 (%4): %5 per %6")
                    .arg(i + 1)
                    .arg(name, o.term ? QString::fromLatin1(enumName(*o.term).data()) : tr("priced"),
                         QString::fromStdString(o.provider), usd(o.costPerAcceptedOutput), unit),
                d, rec && rec->route != Route::Api && rec->route != Route::Hybrid && rec->candidate == i && rec->term == o.term);
        }
        if (results.cost.hybrid && results.cost.hybridCandidate == i) {
            RecordDecision d;
            d.candidate = i;
            d.hybrid = true;
            add(tr("%1: %2 with the model API for peaks: %3 per %4")
                    .arg(i + 1)
                    .arg(name, usd(results.cost.hybrid->costPerAcceptedOutput), unit),
                d, rec && rec->route == Route::Hybrid);
        }
    }
    if (results.cost.api)
        add(tr("Model API (%1): %2 per %3")
                .arg(QString::fromStdString(results.cost.api->provider), usd(results.cost.api->costPerAcceptedOutput), unit),
            RecordDecision{}, rec && rec->route == Route::Api);
    // A new list keeps the user's choice when it is still there; a first one starts at the
    // engine's recommendation.
    if (sameList && keep >= 0 && keep < m_option->count())
        m_option->setCurrentIndex(keep);
    else if (recommended >= 0)
        m_option->setCurrentIndex(recommended);
    checkForm();
}

void RecordPage::listRecords()
{
    // What was typed for one scenario is never recorded for another.
    if (document()->scenarioName() != m_formScenario) {
        m_formScenario = document()->scenarioName();
        m_rationale->clear();
        m_signOff->clear();
        m_problem->clear();
        m_status->clear();
    }
    const std::vector<StoredRecord> records = document()->records();
    const long long keep = selectedRecord() ? selectedRecord()->id : 0;
    const QSignalBlocker blocker(m_records);
    m_records->setRowCount(int(records.size()));
    int select = -1;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const StoredRecord &r = records[i];
        auto view = readDecisionRecord(r.contentJson, "record " + std::to_string(r.id));
        QStringList signers;
        if (view && view->decision)
            for (const std::string &s : view->decision->signOff)
                signers << QString::fromStdString(s);
        const QDateTime created = QDateTime::fromString(QString::fromStdString(r.created), Qt::ISODate);
        const QStringList cells = {QString::number(r.id),
                                   created.isValid() ? created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))  // dates as everywhere else
                                                     : QString::fromStdString(r.created),
                                   view ? QString::fromStdString(view->draft ? view->decisionText : view->choice)
                                        : QString::fromStdString(view.error().message),
                                   signers.join(QStringLiteral("; ")),
                                   !view ? tr("damaged") : view->intact ? tr("intact") : tr("CHANGED after recording")};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setData(Qt::UserRole, QVariant::fromValue(r.id));
            item->setToolTip(cells[c]);
            m_records->setItem(int(i), c, item);
        }
        if (r.id == keep)
            select = int(i);
    }
    if (select >= 0)
        m_records->selectRow(select);
    if (records.empty())
        m_details->setMarkdown(document()->hasBrief() || !document()->scenarioName().isEmpty()
                                   ? tr("No decision recorded for this scenario yet. Choose the option, say why and who signs, "
                                        "then **Record decision…**.")
                                   : tr("Open a project to record its decisions."));
    else
        showSelected();
    checkForm();
}

std::optional<StoredRecord> RecordPage::selectedRecord() const
{
    const QList<QTableWidgetItem *> selected = m_records->selectedItems();
    if (selected.isEmpty())
        return std::nullopt;
    const long long id = selected.first()->data(Qt::UserRole).toLongLong();
    for (const StoredRecord &r : document()->records())
        if (r.id == id)
            return r;
    return std::nullopt;
}

void RecordPage::showSelected()
{
    const std::optional<StoredRecord> r = selectedRecord();
    m_recomputeButton->setEnabled(r.has_value() && !busy());
    if (!r) {
        m_details->setMarkdown(tr("Select a record to see it. With none selected, **Export PDF…** prints a draft of the "
                                  "scenario as it stands (marked as a draft on every page)."));
        return;
    }
    auto view = readDecisionRecord(r->contentJson, "record " + std::to_string(r->id));
    if (!view) {
        m_details->setPlainText(QString::fromStdString(view.error().toString()));
        return;
    }
    QString md = tr("### Record %1, %2\n\n").arg(r->id).arg(QString::fromStdString(r->created));
    if (!view->intact)
        md += tr("**Its content no longer matches its SHA-256: it was changed after it was recorded.**\n\n");
    md += tr("**Decision:** %1\n\n").arg(QString::fromStdString(view->decisionText).toHtmlEscaped());
    if (view->decision) {
        QStringList signers;
        for (const std::string &s : view->decision->signOff)
            signers << QString::fromStdString(s).toHtmlEscaped();
        md += tr("**Signed by:** %1, on %2\n\n").arg(signers.join(QStringLiteral("; ")), QString::fromStdString(view->decision->date));
    }
    md += tr("Computed by engine %1 with prices aged against %2. SHA-256 `%3`.")
              .arg(QString::fromStdString(view->engineVersion), QString::fromStdString(view->today),
                   QString::fromStdString(view->sha256));
    if (view->supersedes)
        md += tr(" Supersedes record %1.").arg(*view->supersedes);
    md += QLatin1String("\n\n") + tr("Its figures are the ones recorded; **Recompute with this version** shows what has changed since.");
    m_details->setMarkdown(md);
}

Result<RecordDecision> RecordPage::decision() const
{
    if (m_option->currentIndex() < 0 || m_option->currentIndex() >= m_options.size())
        return Error{"", "option", tr("There is no priced option to choose yet: the scenario needs results with prices.").toStdString()};
    RecordDecision d = m_options[m_option->currentIndex()];
    d.rationale = m_rationale->toPlainText().trimmed().toStdString();
    for (const QString &name : lines(m_signOff->toPlainText()))
        d.signOff.push_back(name.toStdString());
    d.date = m_date->text().trimmed().toStdString();
    if (d.rationale.empty())
        return Error{"", "rationale", tr("Rationale: say why this option, in the team's words.").toStdString()};
    if (d.signOff.empty())
        return Error{"", "sign_off", tr("Signed by: name at least one person who signs (one per line).").toStdString()};
    if (!isIsoDate(d.date))
        return Error{"", "date", tr("Date: \"%1\" is not a date; write it as YYYY-MM-DD.").arg(m_date->text()).toStdString()};
    return d;
}

void RecordPage::checkForm()
{
    const bool idle = !busy();
    const bool writable = document()->hasBrief() && !document()->readOnly();
    const Result<RecordDecision> d = decision();
    // Empty fields are not errors until something was typed; a wrong date is one at once.
    const bool started = !m_rationale->toPlainText().isEmpty() || !m_signOff->toPlainText().isEmpty();
    m_problem->setText(!d && (started || d.error().path == "date") ? QString::fromStdString(d.error().message) : QString());
    m_recordButton->setEnabled(idle && writable && d.ok() && !document()->results().preview && !document()->evaluating());
    m_recomputeButton->setEnabled(idle && selectedRecord().has_value());
    m_pdfButton->setEnabled(idle && document()->hasBrief());
    m_xlsxButton->setEnabled(idle && document()->hasBrief() && !document()->results().preview);
}

void RecordPage::runAway(const QString &what, std::function<Result<std::string>(std::stop_token)> work,
                         std::function<void(const Result<std::string> &)> done)
{
    if (busy())
        return;
    m_status->setText(what);
    m_done = std::move(done);
    m_stop = std::stop_source();
    // Whatever the work throws comes back as its error (core/guard.h), never as a rethrow here.
    m_watcher.setFuture(QtConcurrent::run([work = std::move(work), stop = m_stop.get_token()] {
        return guarded("the engine", [&] { return work(stop); });
    }));
    checkForm();
}

void RecordPage::recordDecision()
{
    const Result<RecordDecision> d = decision();
    if (!d) {
        m_problem->setText(QString::fromStdString(d.error().message));
        emit finished(m_problem->text());
        return;
    }
    auto snapshot = document()->recordSnapshot();
    if (!snapshot) {
        m_problem->setText(QString::fromStdString(snapshot.error().toString()));
        emit finished(m_problem->text());
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Record the decision"),
        tr("Record \"%1\" for the scenario \"%2\"?\n\nA record cannot be edited afterwards; a later record supersedes it. "
           "The scenario is evaluated again as the project shows it, which takes a moment.")
            .arg(m_option->currentText(), document()->scenarioName()),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
    if (answer != QMessageBox::Yes) {
        emit finished(tr("cancelled"));
        return;
    }
    const std::string created = nowUtcIso();
    const QString scenario = QString::fromStdString(snapshot->scenario);
    const Catalog *catalog = &document()->catalog();
    runAway(tr("Recording the decision: evaluating the scenario as the project shows it…"),
            [snap = std::move(snapshot).value(), catalog, decision = d.value(), created](std::stop_token stop) {
                return recordScenario(snap, *catalog, decision, created, stop);
            },
            [this, scenario, created](const Result<std::string> &content) {
                QString error;
                if (!content)
                    error = QString::fromStdString(content.error().toString());
                else if (auto refused = document()->addRecord(scenario, created, *content))
                    error = *refused;
                m_problem->setText(error);
                if (error.isEmpty()) {
                    m_rationale->clear();
                    m_signOff->clear();
                    m_records->selectRow(m_records->rowCount() - 1);
                    m_records->setFocus();  // on the new record: Ctrl+Z then takes the record back
                }
                emit finished(error);
            });
}

void RecordPage::recomputeSelected()
{
    const std::optional<StoredRecord> r = selectedRecord();
    if (!r)
        return;
    auto view = readDecisionRecord(r->contentJson, "record " + std::to_string(r->id));
    if (!view) {
        m_details->setPlainText(QString::fromStdString(view.error().toString()));
        emit finished(m_details->toPlainText());
        return;
    }
    const ChecklistTemplate tmpl = document()->checklistTemplate();
    const ProjectChecklist checklist = document()->checklist();
    const Catalog *catalog = &document()->catalog();
    const std::string scenario = r->scenario;
    runAway(tr("Recomputing record %1 with this version…").arg(r->id),
            [record = std::move(view).value(), tmpl, checklist, catalog, scenario](std::stop_token) -> Result<std::string> {
                auto again = recomputeRecord(record, scenario, *catalog, tmpl, checklist);
                if (!again)
                    return again.error();
                return recomputationMarkdown(record, *again);
            },
            [this](const Result<std::string> &md) {
                if (md)
                    m_details->setMarkdown(QString::fromStdString(*md));
                else
                    m_details->setPlainText(QString::fromStdString(md.error().toString()));
                emit finished(md ? QString() : m_details->toPlainText());
            });
}

void RecordPage::exportPdf(const QString &path)
{
    const auto write = [this, path](const std::string &content) {
        const QString error = writeRecordPdf(QByteArray::fromStdString(content), path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export the decision record"), error);
        else
            m_status->setText(tr("Written: %1").arg(path));
        emit finished(error);
    };
    if (const std::optional<StoredRecord> r = selectedRecord()) {
        write(r->contentJson);
        return;
    }
    auto snapshot = document()->recordSnapshot();
    if (!snapshot) {
        QMessageBox::warning(this, tr("Export the decision record"), QString::fromStdString(snapshot.error().toString()));
        emit finished(QString::fromStdString(snapshot.error().toString()));
        return;
    }
    const Catalog *catalog = &document()->catalog();
    runAway(tr("Making a draft record of the scenario as it stands…"),
            [snap = std::move(snapshot).value(), catalog](std::stop_token stop) {
                return recordScenario(snap, *catalog, std::nullopt, nowUtcIso(), stop);
            },
            [this, write](const Result<std::string> &content) {
                if (content) {
                    write(*content);
                } else {
                    QMessageBox::warning(this, tr("Export the decision record"), QString::fromStdString(content.error().toString()));
                    emit finished(QString::fromStdString(content.error().toString()));
                }
            });
}

void RecordPage::exportXlsx(const QString &path)
{
    const Brief *brief = document()->brief();
    if (!brief)
        return;
    std::vector<Sheet> sheets = resultSheets(*brief, document()->results());
    if (document()->checklistTemplateError().isEmpty())
        sheets.push_back(checklistSheet(document()->checklistTemplate(), document()->checklist()));
    const Status written = writeXlsx(path.toStdString(), sheets);
    if (!written)
        QMessageBox::warning(this, tr("Export the figures"), QString::fromStdString(written.error().toString()));
    else
        m_status->setText(tr("Written: %1").arg(path));
    emit finished(written ? QString() : QString::fromStdString(written.error().toString()));
}

} // namespace wb
