// A project in the window: saved and reopened, autosaved and recovered, a bad project refused; the
// Checklist, Plan, Evidence and Record pages.

#include "windowtest.h"

class TestProjectPages : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void saveProjectAndReopen();
    void autosaveAndRecover();
    void badProjectLeavesDocumentAsItWas();
    void checklistByKeyboard();
    void checklistGatesAPurchaseInTheWindow();
    void planPageShowsThePlan();
    void evidencePageImportsAndCalibrates();
    void recordPageRecordsUndoesAndExports();
};

void TestProjectPages::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

// A brief opens as an unsaved project; Save As writes a .gpuwb that opens again as the same
// scenario, saved and unmodified.
void TestProjectPages::saveProjectAndReopen()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("plan.gpuwb"));
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QVERIFY(doc.isModified());
    QVERIFY(w.isWindowModified());
    QVERIFY(!doc.saveAs(file).has_value());
    QVERIFY(!doc.isModified());
    QCOMPARE(doc.filePath(), file);
    wb::Document again(shippedCatalog());
    QVERIFY(!again.openFile(file).has_value());
    QCOMPARE(again.brief()->name, doc.brief()->name);
    QVERIFY(!again.isModified());
    QVERIFY(again.readOnly());  // the first document still holds the file's lock
    QVERIFY(again.readOnlyReason().contains(QLatin1String("another instance")));
}

// Unsaved work goes to a recovery file; a new session recovers it; a clean close deletes it.
void TestProjectPages::autosaveAndRecover()
{
    QTemporaryDir recovery;
    qputenv("GPUWB_RECOVERY_DIR", recovery.path().toUtf8());
    {
        auto doc = std::make_unique<wb::Document>(shippedCatalog());
        QVERIFY(!doc->openFile(kSample).has_value());
        QVERIFY(doc->autosaveNow());
        QCOMPARE(wb::pendingRecoveryFiles().size(), std::size_t(1));
        // A crash: the document is never destroyed; its recovery file stays. Its evaluation ends
        // first (a worker still simulating when the process exits reads the simulator's caches
        // as they are destroyed), and it stays reachable, so that LeakSanitizer does not count
        // the crash as a leak.
        QTRY_VERIFY_WITH_TIMEOUT(!doc->evaluating(), 60000);
        static std::vector<wb::Document *> crashed;  // never destroyed
        crashed.push_back(doc.release());
    }
    const QString left = QString::fromStdString(wb::pendingRecoveryFiles().front());
    {
        wb::Document next(shippedCatalog());
        QVERIFY(!next.openRecovery(left).has_value());
        QVERIFY(next.isModified());
        QCOMPARE(QString::fromStdString(next.brief()->name), QStringLiteral("Support chat, EU region (Llama 3.1 70B)"));
        QVERIFY(wb::pendingRecoveryFiles().empty());  // taken over by the new document
        QVERIFY(next.autosaveNow());
    }
    QVERIFY(wb::pendingRecoveryFiles().empty());  // clean close
}

void TestProjectPages::badProjectLeavesDocumentAsItWas()
{
    QTemporaryDir dir;
    const QString junk = dir.filePath(QStringLiteral("junk.gpuwb"));
    QFile f(junk);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(8192, 'z'));
    f.close();
    wb::Document doc(shippedCatalog());
    QVERIFY(!doc.openFile(kSample).has_value());
    const auto error = doc.openFile(junk);
    QVERIFY(error.has_value());
    QVERIFY(error->startsWith(junk));
    QVERIFY(error->contains(QLatin1String("not an SQLite database")));
    QCOMPARE(doc.sourcePath(), QFileInfo(kSample).absoluteFilePath());
}

namespace {

// The table's cell of an item and a vendor.
QModelIndex checklistCell(const wb::ChecklistPage *page, const std::string &item, int vendor)
{
    return page->model()->index(page->model()->rowOfItem(item), wb::ChecklistModel::FirstVendor + vendor);
}

void clickCell(QTableView *table, const QModelIndex &index)
{
    table->scrollTo(index);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
}

} // namespace

// The sample's three vendors, answered partly; a procurement manager answers from the keyboard:
// each key is one answer, one undo step, and moves down to the next question.
void TestProjectPages::checklistByKeyboard()
{
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openBriefs({kSample, samples + QStringLiteral("batch-summarization.brief.json")}, {kSampleAnswers}).has_value());
    QVERIFY(!doc.isModified());
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Checklist));
    wb::ChecklistPage *page = w.checklistPage();
    QAbstractItemModelTester tester(page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(page->model()->columnCount(), 5);  // question, required from, three vendors
    // Headers: answered items (unknown is not an answer). Northwind answered 14, one unknown.
    QVERIFY2(page->model()->headerData(2, Qt::Horizontal).toString().startsWith(QLatin1String("Northwind GPU Cloud\n13/20 answered\n")),
             qPrintable(page->model()->headerData(2, Qt::Horizontal).toString()));
    QVERIFY(page->model()->headerData(4, Qt::Horizontal).toString().contains(QLatin1String("6/20 answered")));

    // Contoso (the second vendor) never answered hw-host or hw-placement: click, type Y then N.
    QTableView *table = page->table();
    const int before = doc.undoStack()->count();
    clickCell(table, checklistCell(page, "hw-host", 1));
    QTest::keyClick(table, Qt::Key_Y);
    QCOMPARE(page->model()->itemAt(table->currentIndex().row()), std::string("hw-placement"));
    QTest::keyClick(table, Qt::Key_N);
    QCOMPARE(doc.undoStack()->count(), before + 2);
    QVERIFY(doc.isModified());
    wb::ProjectChecklist now = doc.checklist();
    QVERIFY(now.vendor("Contoso Private Cloud"));
    QCOMPARE(now.vendor("Contoso Private Cloud")->answer("hw-host")->answer, wb::Answer::Yes);
    QCOMPARE(now.vendor("Contoso Private Cloud")->answer("hw-placement")->answer, wb::Answer::No);
    QCOMPARE(now.vendor("Contoso Private Cloud")->answer("hw-host")->answeredOn, QDate::currentDate().toString(Qt::ISODate).toStdString());
    QCOMPARE(checklistCell(page, "hw-host", 1).data().toString(), QStringLiteral("Yes"));
    // Ctrl+Z takes back the last answer only.
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    now = doc.checklist();
    QVERIFY(!now.vendor("Contoso Private Cloud")->answer("hw-placement"));
    QCOMPARE(now.vendor("Contoso Private Cloud")->answer("hw-host")->answer, wb::Answer::Yes);
    // Delete clears a cell; a section row takes no answer.
    clickCell(table, checklistCell(page, "hw-host", 1));
    QTest::keyClick(table, Qt::Key_Delete);
    QVERIFY(!doc.checklist().vendor("Contoso Private Cloud")->answer("hw-host"));
    clickCell(table, page->model()->index(0, wb::ChecklistModel::FirstVendor));
    const int count = doc.undoStack()->count();
    QTest::keyClick(table, Qt::Key_Y);
    QCOMPARE(doc.undoStack()->count(), count);

    // Filters, picked from the keyboard: "Answered no" keeps Contoso's co-idle and Fabrikam's
    // se-compliance, under their sections.
    page->filterBox()->setFocus();
    QTest::keyClick(page->filterBox(), Qt::Key_End);
    QCOMPARE(page->filterBox()->currentIndex(), 3);
    QStringList shown;
    for (int r = 0; r < page->model()->rowCount(); ++r)
        shown << QString::fromStdString(page->model()->itemAt(r));
    QCOMPARE(shown, (QStringList{QString(), QStringLiteral("co-idle"), QString(), QStringLiteral("se-compliance")}));
    // Under "Unanswered by a vendor", answering the last gap of a row hides the row: the cursor
    // stays in the same vendor's column, on the next question still shown.
    QTest::keyClick(page->filterBox(), Qt::Key_Home);
    QTest::keyClick(page->filterBox(), Qt::Key_Down);
    QCOMPARE(page->filterBox()->currentIndex(), 1);
    clickCell(table, checklistCell(page, "hw-interconnect", 2));  // Fabrikam: the row's only gap
    QTest::keyClick(table, Qt::Key_Y);
    QCOMPARE(page->model()->rowOfItem("hw-interconnect"), -1);
    QCOMPARE(page->model()->vendorAt(table->currentIndex().column()), 2);
    const std::string next = page->model()->itemAt(table->currentIndex().row());
    QVERIFY(!next.empty());
    const wb::ProjectChecklist beforeN = doc.checklist();
    QTest::keyClick(table, Qt::Key_N);
    const wb::ProjectChecklist afterN = doc.checklist();
    QCOMPARE(afterN.vendor("Fabrikam Systems")->answer(next)->answer, wb::Answer::No);
    QVERIFY(afterN.vendor("Northwind GPU Cloud")->answers.size() == beforeN.vendor("Northwind GPU Cloud")->answers.size());
    QTest::keyClick(page->filterBox(), Qt::Key_Home);
    QCOMPARE(page->model()->rowCount(), 24);  // four sections, twenty questions
    // A different answer from the keyboard is a new answer: the old one's words and link go
    // (Northwind's interconnect was "Yes" with a link).
    clickCell(table, checklistCell(page, "hw-interconnect", 0));
    QTest::keyClick(table, Qt::Key_P);
    const wb::ProjectChecklist afterP = doc.checklist();
    const wb::VendorAnswer *changed = afterP.vendor("Northwind GPU Cloud")->answer("hw-interconnect");
    QVERIFY(changed);
    QCOMPARE(changed->answer, wb::Answer::Partial);
    QVERIFY(changed->link.empty() && changed->text.empty());
    // Required-but-missing cells are tinted at the chosen commitment.
    QVERIFY(checklistCell(page, "hw-replacement", 1).data(Qt::BackgroundRole).isValid());  // reserved: required, unanswered
    QVERIFY(!checklistCell(page, "se-compliance", 1).data(Qt::BackgroundRole).isValid());  // answered

    // What the vendors say about the interconnect stands beside the performance figures of the
    // candidates they back (Northwind backs candidates 1 and 2).
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Performance));
    auto *performance = qobject_cast<wb::ResultPage *>(w.resultTabs()->currentWidget());
    QVERIFY(performance->vendorNotes()->isVisible());
    QVERIFY2(performance->vendorNotes()->text().contains(QLatin1String("Candidate 1, <b>Northwind GPU Cloud</b> on the interconnect")),
             qPrintable(performance->vendorNotes()->text()));
}

// A purchase recommended in the window stands "subject to evidence" until its vendor's answers,
// imported, cover what a purchase requires; undo brings the gate back.
void TestProjectPages::checklistGatesAPurchaseInTheWindow()
{
    QTemporaryDir dir;
    const QByteArray brief = wbtest::purchaseBrief();
    const QString briefPath = dir.filePath(QStringLiteral("buy.json"));
    QFile out(briefPath);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(brief);
    out.close();
    // Acme answers every question with a link, but for `skip`.
    const auto answers = [&](const QString &name, const QStringList &skip) {
        auto tmpl = wb::loadChecklistTemplate();
        QJsonArray items;
        for (const wb::ChecklistItem &item : tmpl->items) {
            const QString id = QString::fromStdString(item.id);
            const QJsonObject a{{QStringLiteral("answer"), QStringLiteral("yes")},
                                {QStringLiteral("evidence_link"), QStringLiteral("https://acme.example/") + id}};
            items.append(QJsonObject{{QStringLiteral("id"), id},
                                     {QStringLiteral("answers"),
                                      QJsonObject{{QStringLiteral("Acme"), skip.contains(id) ? QJsonValue() : QJsonValue(a)}}}});
        }
        const QJsonObject vendor{{QStringLiteral("name"), QStringLiteral("Acme")},
                                 {QStringLiteral("offer"), QStringLiteral("purchase")},
                                 {QStringLiteral("providers"), QJsonArray{QStringLiteral("Acme Systems")}}};
        const QString path = dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("gpu-workbench-checklist-answers")},
                                              {QStringLiteral("version"), 1},
                                              {QStringLiteral("vendors"), QJsonArray{vendor}},
                                              {QStringLiteral("items"), items}})
                        .toJson());
        return path;
    };

    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(briefPath).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QCOMPARE(doc.results().cost.recommendation->route, wb::Route::Buy);
    QVERIFY(w.recommendationLabel()->text().contains(QLatin1String("subject to evidence")));
    QLabel *gate = w.checklistPage()->gateLabel();
    QVERIFY2(gate->text().contains(QLatin1String("no vendor backs it")), qPrintable(gate->text()));
    QCOMPARE(w.checklistPage()->commitmentBox()->currentText(), QStringLiteral("Purchase"));

    // The answers gate the figures as the use case makes them: the full pass again, a few tenths
    // of a second.
    QVERIFY(!doc.importChecklistAnswers(answers(QStringLiteral("partial.json"), {QStringLiteral("hw-replacement")})).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY2(gate->text().contains(QLatin1String("subject to evidence")) && gate->text().contains(QLatin1String("hw-replacement")),
             qPrintable(gate->text()));
    QVERIFY(w.recommendationLabel()->text().contains(QLatin1String("subject to evidence")));
    // A warning names the item and leads to the Checklist page.
    bool warned = false;
    for (int i = 0; i < w.warningList()->count(); ++i)
        warned = warned || w.warningList()->item(i)->text().contains(QLatin1String("hw-replacement"));
    QVERIFY(warned);

    QVERIFY(!doc.importChecklistAnswers(answers(QStringLiteral("all.json"), {})).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY2(gate->text().contains(QLatin1String("is backed")), qPrintable(gate->text()));
    QVERIFY(!w.recommendationLabel()->text().contains(QLatin1String("subject to evidence")));
    doc.undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(gate->text().contains(QLatin1String("hw-replacement")));

    // A malformed answers file changes nothing and says which field.
    const int steps = doc.undoStack()->count();
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write(R"({"format": "gpu-workbench-checklist-answers", "version": 1, "vendors": [{"name": "Acme", "offer": "rental"}], "items": []})");
    badFile.close();
    const auto error = doc.importChecklistAnswers(bad);
    QVERIFY(error);
    QVERIFY2(error->contains(QLatin1String("/vendors/0/offer")), qPrintable(*error));
    QCOMPARE(doc.undoStack()->count(), steps);
}

void TestProjectPages::planPageShowsThePlan()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::PlanPage *page = w.planPage();
    QCOMPARE(page->candidateBox()->count(), 7);  // every candidate, then each of six
    QCOMPARE(page->candidateBox()->currentIndex(), 1);
    QVERIFY(page->markdown().contains(QLatin1String("## Candidate 1: 8x h100-sxm-80gb TP2")));
    QVERIFY(!page->markdown().contains(QLatin1String("## Candidate 2")));
    // A hidden page lays its plan out when it is shown (it costs tens of milliseconds an edit).
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!page->viewCurrent());
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Plan));
    QVERIFY(page->viewCurrent());
    QVERIFY(page->view()->toPlainText().contains(QLatin1String("Phase 4: Financial normalization")));
    page->candidateBox()->setFocus();
    QTest::keyClick(page->candidateBox(), Qt::Key_Down);
    // The second candidate's plan, for the deployment sized from the 8 H200 entered.
    QVERIFY(page->markdown().contains(QLatin1String("## Candidate 2: ")));
    QVERIFY(page->markdown().contains(QLatin1String("As entered (8x h200-sxm-141gb TP1)")));
}

// The Evidence page as a person uses it: Import results, the dialog's fields typed into (a word
// in the rate field is refused before OK; a conflicting GPU count is refused by the document and
// the dialog stays open), the run listed and compared with the prediction, the figures marked
// "calibrated from 1 run" on the Performance table; the switch clicked off restores the
// uncalibrated figures exactly; Ctrl+Z brings calibration back, and again undoes the import.
// The window at 1280x800 on a one-candidate brief (Llama 3.1 8B on one H200), fully evaluated.
static void openSmallChat(wb::Document &doc, wb::MainWindow &w)
{
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QByteArray brief = R"({"format": "gpu-workbench-brief", "version": 1, "name": "Small chat",
      "workload": {"kind": "realtime-inference", "model": "llama-3.1-8b", "weights_precision": "fp8",
        "kv_cache_precision": "fp8", "input_tokens": 2000, "output_tokens": 300,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 4}},
      "candidates": [{"gpu": "h200-sxm-141gb", "gpus": 1, "tensor_parallel": 1, "serving_stack": "vllm"}]})";
    QVERIFY(!doc.newFromBrief(QString::fromUtf8(brief)).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

void TestProjectPages::evidencePageImportsAndCalibrates()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    openSmallChat(doc, w);
    if (QTest::currentTestFailed())
        return;
    const wb::Results uncalibrated = doc.results();
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Evidence));
    wb::EvidencePage *page = w.evidencePage();
    QCOMPARE(page->runsTable()->model()->rowCount(), 0);

    QString failure;
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<wb::EvidenceImportDialog *>(QApplication::activeModalWidget());
        if (!dialog) {
            failure = QStringLiteral("Import opened no dialog");
            return;
        }
        QLineEdit *rate = dialog->rateEdit()->lineEdit();
        rate->setFocus();
        QTest::keyClicks(rate, QStringLiteral("fast"));
        if (!rate->text().isEmpty() && (dialog->okButton()->isEnabled() || dialog->problem()->text().isEmpty()))
            failure += QStringLiteral("\na word in the rate field was taken as a rate: ") + rate->text();
        rate->selectAll();
        QTest::keyClick(rate, Qt::Key_Backspace);
        // Two GPUs for a one-GPU TP1 candidate are two replicas: fine; but 0 is out of range.
        QLineEdit *gpus = dialog->gpusEdit()->lineEdit();
        gpus->setFocus();
        QTest::keyClicks(gpus, QStringLiteral("0"));
        if (dialog->okButton()->isEnabled() || !dialog->problem()->text().startsWith(QLatin1String("GPUs")))
            failure += QStringLiteral("\n0 GPUs accepted: ") + dialog->problem()->text();
        QTest::keyClick(gpus, Qt::Key_Backspace);
        QTest::keyClicks(dialog->byEdit(), QStringLiteral(" QA"));
        if (!dialog->okButton()->isEnabled())
            failure += QStringLiteral("\nImport not offered: ") + dialog->problem()->text();
        QTest::mouseClick(dialog->okButton(), Qt::LeftButton);
        if (dialog->isVisible()) {
            failure += QStringLiteral("\nthe import was refused: ") + dialog->problem()->text();
            dialog->reject();
        }
    });
    page->importFile(QStringLiteral(WB_SOURCE_DIR "/tests/data/evidence/vllm-h200-12.5rps.json"));
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(page->runsTable()->model()->rowCount(), 1);
    QCOMPARE(doc.evidence().size(), std::size_t(1));
    QVERIFY(doc.evidence().front().importedBy.ends_with("QA"));
    QTRY_VERIFY_WITH_TIMEOUT(doc.evidenceAnalysisCurrent(), 120000);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(page->metricsTable()->model()->rowCount() > 5);
    QVERIFY2(page->status()->text().contains(QLatin1String("calibrated from 1 run")), qPrintable(page->status()->text()));
    QCOMPARE(doc.results().results.at(0).provenance, std::string("calibrated from 1 run"));
    const QAbstractItemModel *perf = w.performanceTable()->model();
    QVERIFY2(perf->index(0, 0).data().toString().contains(QLatin1String("[calibrated from 1 run]")),
             qPrintable(perf->index(0, 0).data().toString()));
    QVERIFY(resultsToJson(*doc.brief(), doc.results()) != resultsToJson(*doc.brief(), uncalibrated));

    // The switch, clicked: the uncalibrated figures, exactly.
    QTest::mouseClick(page->calibrationSwitch(), Qt::LeftButton, {}, QPoint(8, page->calibrationSwitch()->height() / 2));
    QVERIFY(!doc.evidenceCalibration());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QCOMPARE(resultsToJson(*doc.brief(), doc.results()), resultsToJson(*doc.brief(), uncalibrated));
    QVERIFY(!perf->index(0, 0).data().toString().contains(QLatin1String("calibrated")));

    // Ctrl+Z: calibration on again; Ctrl+Z again: the import undone. (The import dialog had
    // the focus; the window takes it back, as it does for a person.)
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(doc.evidenceCalibration());
    QVERIFY(page->calibrationSwitch()->isChecked());
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(page->runsTable()->model()->rowCount(), 0);
    QVERIFY(doc.evidence().empty());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QCOMPARE(resultsToJson(*doc.brief(), doc.results()), resultsToJson(*doc.brief(), uncalibrated));
}

void TestProjectPages::recordPageRecordsUndoesAndExports()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    openSmallChat(doc, w);
    if (QTest::currentTestFailed())
        return;
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Record));
    wb::RecordPage *page = w.recordPage();
    QCOMPARE(page->recordsTable()->rowCount(), 0);
    QVERIFY(page->optionBox()->count() >= 2);  // the H200's prices and the model API
    QVERIFY(!page->recordButton()->isEnabled());  // nothing said yet

    // Typed as a person types: the rationale, two signers on two lines, a date that is not one.
    page->rationaleEdit()->setFocus();
    QTest::keyClicks(page->rationaleEdit(), QStringLiteral("Cheapest within the SLO at this volume"));
    page->signOffEdit()->setFocus();
    QTest::keyClicks(page->signOffEdit(), QStringLiteral("Ana Ruiz, finance"));
    QTest::keyClick(page->signOffEdit(), Qt::Key_Return);
    QTest::keyClicks(page->signOffEdit(), QStringLiteral("Bo Chen, platform"));
    page->dateEdit()->setFocus();
    page->dateEdit()->selectAll();
    QTest::keyClicks(page->dateEdit(), QStringLiteral("2 Dec"));
    QVERIFY2(page->problem()->text().contains(QLatin1String("Date")), qPrintable(page->problem()->text()));
    QVERIFY(!page->recordButton()->isEnabled());
    page->dateEdit()->selectAll();
    QTest::keyClicks(page->dateEdit(), QStringLiteral("2026-12-02"));
    QVERIFY2(page->problem()->text().isEmpty(), qPrintable(page->problem()->text()));
    QVERIFY(page->recordButton()->isEnabled());
    // The option by keyboard: the first one (the H200 on demand, or whichever the list starts with).
    page->optionBox()->setFocus();
    QTest::keyClick(page->optionBox(), Qt::Key_Home);
    const QString chosen = page->optionBox()->currentText();

    // Record decision… asks first; Yes makes the record off the window's thread.
    QSignalSpy finished(page, &wb::RecordPage::finished);
    QTimer::singleShot(0, this, [] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
            box->button(QMessageBox::Yes)->click();
    });
    QTest::mouseClick(page->recordButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
    QVERIFY2(finished.at(0).at(0).toString().isEmpty(), qPrintable(finished.at(0).at(0).toString()));
    QCOMPARE(page->recordsTable()->rowCount(), 1);
    QCOMPARE(page->recordsTable()->item(0, 4)->text(), QStringLiteral("intact"));
    QVERIFY(page->recordsTable()->item(0, 3)->text().contains(QLatin1String("Bo Chen, platform")));
    const std::vector<wb::StoredRecord> stored = doc.records();
    QCOMPARE(stored.size(), std::size_t(1));
    auto view = wb::readDecisionRecord(stored[0].contentJson, "record");
    QVERIFY(view && view->decision);
    QCOMPARE(view->decision->rationale, std::string("Cheapest within the SLO at this volume"));
    QCOMPARE(view->decision->signOff, (std::vector<std::string>{"Ana Ruiz, finance", "Bo Chen, platform"}));
    // The same GPUs: the record's "1x h200-sxm-141gb" is the option's "1 × NVIDIA H200 …".
    const std::string count = view->decisionText.substr(0, view->decisionText.find('x'));
    QVERIFY2(chosen.contains(QString::fromStdString(": " + count + " × ")),
             qPrintable(chosen + QLatin1String(" / ") + QString::fromStdString(view->decisionText)));

    // One undo step takes it back; redo brings the same record back under its id.
    w.activateWindow();  // the confirmation box had the focus
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QCOMPARE(QApplication::focusWidget(), page->recordsTable());
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(page->recordsTable()->rowCount(), 0);
    QVERIFY(doc.records().empty());
    doc.undoStack()->redo();
    QCOMPARE(doc.records().size(), std::size_t(1));
    QCOMPARE(doc.records()[0].id, stored[0].id);

    // Recompute with this version: nothing has changed.
    page->recordsTable()->selectRow(0);
    QVERIFY(page->recomputeButton()->isEnabled());
    QTest::mouseClick(page->recomputeButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 60000);
    QVERIFY2(page->details()->toPlainText().contains(QLatin1String("No differences")), qPrintable(page->details()->toPlainText()));

    // The selected record as a PDF (the file dialog is the button's; the page writes the path).
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("record.pdf"));
    page->exportPdf(pdf);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, 60000);
    QVERIFY2(finished.at(2).at(0).toString().isEmpty(), qPrintable(finished.at(2).at(0).toString()));
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    const QString extracted = QString::fromUtf8(text.readAllStandardOutput());
    QVERIFY(extracted.contains(QLatin1String("Cheapest within the SLO at this volume")));
    QVERIFY(extracted.contains(QString::fromStdString(view->sha256)));
    // And the scenario's figures as a workbook.
    const QString xlsx = dir.filePath(QStringLiteral("figures.xlsx"));
    page->exportXlsx(xlsx);
    QVERIFY(QFileInfo(xlsx).size() > 1000);
}

QTEST_MAIN(TestProjectPages)
#include "tst_projectpages.moc"
