// The first window driven as a user would, on the offscreen platform. With WB_SCREENSHOT_DIR
// set, it also saves the window at 1280x800 and 1920x1080, light and dark, for review.

#include <catalog/catalog.h>
#include <catalog/prices.h>
#include <store/project.h>
#include <usecase/records.h>
#include <pages/candidatesmodel.h>
#include <dialogs/catalogbrowser.h>
#include <dialogs/helpguide.h>
#include <dialogs/newcomparison.h>
#include <dialogs/apiquote.h>
#include <pages/comparisonmodel.h>
#include <pages/costtablemodel.h>
#include <pages/checklistmodel.h>
#include <pages/checklistpage.h>
#include <pages/planpage.h>
#include <pages/evidencepage.h>
#include <pages/recordpage.h>
#include <dialogs/evidenceimport.h>
#include <report/report.h>
#include <pages/resultpage.h>
#include <pages/briefform.h>
#include <document/document.h>
#include <pages/fittablemodel.h>
#include <dialogs/layoutsearch.h>
#include <mainwindow.h>
#include "testsupport.h"
#include <settings.h>
#include <pages/performancetablemodel.h>
#include <pages/resultstablemodel.h>
#include <dialogs/pricequote.h>
#include <dialogs/scenariocompare.h>
#include <parts/recommendation.h>
#include <widgets/chartview.h>
#include <parts/words.h>
#include <parts/resultcharts.h>
#include <widgets/chartexportdialog.h>
#include <widgets/numberedit.h>

#include <QAbstractItemModelTester>

#include <functional>

#include <QCheckBox>
#include <QComboBox>
#include <QApplication>
#include <QDate>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QAction>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QImage>
#include <QSplitter>
#include <QToolTip>
#include <QSet>
#include <QAbstractButton>
#include <QWizard>
#include <QGroupBox>
#include <QTextBrowser>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTextBrowser>
#include <QPushButton>
#include <QListWidget>
#include <QPalette>
#include <QSignalSpy>
#include <QLabel>
#include <QStatusBar>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QSpinBox>
#include <QProcess>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <QTest>

namespace {

wb::Catalog shippedCatalog()
{
    auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
    if (!loaded)
        qFatal("catalog does not load");
    return std::move(loaded).value();
}

const QString kSample = QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json");
const QString kSampleAnswers = QStringLiteral(WB_SOURCE_DIR "/resources/samples/vendors.answers.json");

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(37, 37, 38));
    p.setColor(QPalette::WindowText, QColor(230, 230, 230));
    p.setColor(QPalette::Base, QColor(30, 30, 30));
    p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    p.setColor(QPalette::Text, QColor(230, 230, 230));
    p.setColor(QPalette::Button, QColor(53, 53, 55));
    p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    p.setColor(QPalette::Highlight, QColor(0, 114, 178));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(53, 53, 55));
    p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
    return p;
}

// Shows the window and opens the sample brief in it, as the tests of a visible window start.
bool showOnSample(wb::MainWindow &w, wb::Document &doc)
{
    w.show();
    return QTest::qWaitForWindowExposed(&w) && !doc.openFile(kSample).has_value();
}

// The brief form's validation message (the first label that says something).
QString findChildLabelText(QWidget *form)
{
    for (QLabel *label : form->findChildren<QLabel *>())
        if (label->accessibleName() == QLatin1String("Brief validation message"))
            return label->text();
    return {};
}

// Replaces what a number field shows with typed keys, as a person selecting it and typing does.
void typeInto(QWidget *field, const QString &text)
{
    auto *number = qobject_cast<wb::NumberEdit *>(field);
    if (!number)
        qFatal("not a number field: %s", qPrintable(field->objectName()));
    number->lineEdit()->setFocus(Qt::TabFocusReason);
    number->lineEdit()->selectAll();
    if (text.isEmpty())
        QTest::keyClick(number->lineEdit(), Qt::Key_Backspace);
    else
        QTest::keyClicks(number->lineEdit(), text);
}

// Types into a table cell as a person does: click it, F2, select all, the text, Return.
void typeInCell(QTableView *table, int row, int column, const QString &text)
{
    const QModelIndex cell = table->model()->index(row, column);
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QTest::keyClick(table, Qt::Key_F2);
    QWidget *editor = QApplication::focusWidget();
    if (!editor || editor == table)
        qFatal("no editor opened on cell %d, %d", row, column);
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(editor, Qt::Key_Backspace);
    else
        QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();  // the delegate commits on a queued call
}

wb::NumberEdit *numberField(wb::BriefForm *form, const char *pointer)
{
    return qobject_cast<wb::NumberEdit *>(form->field(QLatin1String(pointer)));
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsSampleBriefAndFit();
    void scenarioEditsUndoAndRedo();
    void editingTheBriefUpdatesAndUndoes();
    void anEditParsesTheBriefOnce();
    void numbersFollowTheInterfaceLocale();
    void f1OpensTheGuideAndGlossary();
    void briefFormFollowsTheKindAndCompletes();
    void optionalFieldsAndBursts();
    void typingSessionsAreUndoStepsAndBadTextChangesNothing();
    void importHuggingFaceConfig();
    void compareTwoScenarios();
    void warningsLeadToTheirFix();
    void priceQuoteIsUsedAndUndone();
    void quoteTermsAreTypedShownAndWarned();
    void billingIsChosenAndTyped();
    void typedPricesAreKeptAsTyped_data();
    void typedPricesAreKeptAsTyped();
    void presentChartHasItsKeys();
    void catalogBrowserShowsEveryGpuWithSources();
    void fitModelPassesModelTester();
    void performanceArrivesWithoutBlocking();
    void performanceModelPassesModelTester();
    void costModelPassesModelTester();
    void comparisonSortsAndMarksTheBest();
    void candidatesEditAddRemoveAndUndo();
    void countAndLayoutAreTypedFreely();
    void newComparisonFromScratch();
    void apiQuoteNeedsBothPricesAndShowsTheCurrentOne();
    void presentationShowsTheChartAndGivesItBack();
    void badBriefLeavesDocumentAsItWas();
    void newClearsTheDocument();
    void chartsFollowResultsAndExport();
    void pagesSayWhatTheyShow();
    // Checkpoint and failure fields of a training brief, typed: the figures follow, undo restores.
    void trainingFieldsTyped();
    void mediaFieldsTyped();
    void layoutSearchFindsAndAdds();
    void saveProjectAndReopen();
    void autosaveAndRecover();
    void badProjectLeavesDocumentAsItWas();
    void checklistByKeyboard();
    void checklistGatesAPurchaseInTheWindow();
    void planPageShowsThePlan();
    void evidencePageImportsAndCalibrates();
    void recordPageRecordsUndoesAndExports();
    void screenshots();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

// The sample project's three scenarios; add, duplicate, rename and delete are each one undo step,
// and undo brings back names, order and the shown scenario; save makes the document clean.
void TestMainWindow::scenarioEditsUndoAndRedo()
{
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openBriefs({samples + QStringLiteral("chat-70b.brief.json"),
                             samples + QStringLiteral("batch-summarization.brief.json"),
                             samples + QStringLiteral("lora-finetune.brief.json")})
                 .has_value());
    const QStringList three = doc.scenarioNames();
    QCOMPARE(three.size(), 3);
    QCOMPARE(w.scenarioList()->count(), 3);
    // Picking a scenario in the list shows it.
    w.scenarioList()->setCurrentRow(2);
    QCOMPARE(doc.scenarioName(), three[2]);
    QCOMPARE(doc.brief()->workload.kind, wb::WorkloadKind::Lora);

    QVERIFY(!doc.duplicateScenario(three[0], QStringLiteral("Chat copy")).has_value());
    QVERIFY(!doc.renameScenario(QStringLiteral("Chat copy"), QStringLiteral("Chat, bigger GPUs")).has_value());
    QVERIFY(!doc.removeScenario(three[1]).has_value());
    QCOMPARE(doc.scenarioNames(), (QStringList{three[0], three[2], QStringLiteral("Chat, bigger GPUs")}));
    QCOMPARE(doc.undoStack()->count(), 3);
    QVERIFY(doc.renameScenario(three[0], three[2]).has_value());  // names stay unique
    QCOMPARE(doc.undoStack()->count(), 3);

    doc.undoStack()->undo();  // the delete
    QCOMPARE(doc.scenarioNames(), (QStringList{three[0], three[1], three[2], QStringLiteral("Chat, bigger GPUs")}));
    doc.undoStack()->undo();  // the rename
    QCOMPARE(doc.scenarioNames().last(), QStringLiteral("Chat copy"));
    doc.undoStack()->undo();  // the duplicate
    QCOMPARE(doc.scenarioNames(), three);
    doc.undoStack()->redo();
    QCOMPARE(doc.scenarioNames().size(), 4);
    QCOMPARE(w.scenarioList()->count(), 4);

    // Saving marks the document clean; the next edit makes it modified again, and undoing that
    // edit brings back the saved state.
    QTemporaryDir dir;
    QVERIFY(!doc.saveAs(dir.filePath(QStringLiteral("p.gpuwb"))).has_value());
    QVERIFY(!doc.isModified());
    QVERIFY(!w.isWindowModified());
    QVERIFY(!doc.removeScenario(QStringLiteral("Chat copy")).has_value());
    QVERIFY(doc.isModified());
    QVERIFY(w.isWindowModified());
    doc.undoStack()->undo();
    QVERIFY(!doc.isModified());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    // Saved with its full results: the shown scenario keeps a snapshot, stamped with the engine
    // version, of what the engine said (its results JSON).
    const QString file = dir.filePath(QStringLiteral("p.gpuwb"));
    QVERIFY(!doc.saveAs(file).has_value());
    auto saved = wb::Project::open(file.toStdString(), wb::OpenAccess::ReadOnly);
    QVERIFY(saved);
    const auto snapshots = saved->snapshots(doc.scenarioName().toStdString());
    QCOMPARE(snapshots.size(), std::size_t(1));
    QCOMPARE(snapshots[0].engineVersion, std::string(wb::engineVersion()));
    QVERIFY(snapshots[0].resultsJson.find("\"recommendation\"") != std::string::npos);
    // Reopening the file this document holds keeps it writable and locked: another opener in
    // this process still gets it read-only, because the lock is held.
    QVERIFY(!doc.openFile(file).has_value());
    QVERIFY(!doc.readOnly());
    QVERIFY(QFile::exists(file + QStringLiteral(".lock")));
    auto other = wb::Project::open(file.toStdString());
    QVERIFY(other);
    QVERIFY(other->lockedByOther());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// Typing a request rate is one undoable edit; the results follow it; undo restores both; an
// invalid value is refused with the field named and nothing changes.
void TestMainWindow::editingTheBriefUpdatesAndUndoes()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const double before = doc.results().results[0].performance.requestsPerS;
    QCOMPARE(*doc.brief()->workload.traffic.requestRatePerS, 12.5);
    const int steps = doc.undoStack()->count();
    // Keystrokes in one field: 2, 25, 2 (Backspace), 2., 2.5: one step.
    typeInto(w.briefForm()->rateBox(), QStringLiteral("25"));
    QTest::keyClick(w.briefForm()->rateBox()->lineEdit(), Qt::Key_Backspace);
    QTest::keyClicks(w.briefForm()->rateBox()->lineEdit(), QStringLiteral(".5"));
    QCOMPARE(w.briefForm()->rateBox()->text(), QStringLiteral("2.5"));
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(*doc.brief()->workload.traffic.requestRatePerS, 2.5);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const double after = doc.results().results[0].performance.requestsPerS;
    QVERIFY2(after < before * 0.5, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    // Another model is another step, and the fit changes with it.
    const double weights70b = double(doc.results().results[0].fit.breakdown.weights);
    w.briefForm()->modelBox()->setCurrentIndex(w.briefForm()->modelBox()->findData(QStringLiteral("\"llama-3.1-8b\"")));
    QCOMPARE(doc.brief()->workload.model.id, std::string("llama-3.1-8b"));
    QVERIFY(double(doc.results().results[0].fit.breakdown.weights) < weights70b / 5);
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(doc.brief()->workload.model.id, std::string("llama-3.1-70b"));
    QCOMPARE(*doc.brief()->workload.traffic.requestRatePerS, 12.5);
    QCOMPARE(w.briefForm()->rateBox()->text(), QStringLiteral("12.5"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(qAbs(doc.results().results[0].performance.requestsPerS - before) < 1e-9);
    // Invalid: refused, named, nothing changed.
    const auto error = doc.editBrief(QStringLiteral("/workload/input_tokens"), QStringLiteral("-5"), QStringLiteral("input"));
    QVERIFY(error.has_value());
    QVERIFY(error->contains(QLatin1String("/workload/input_tokens")));
    QCOMPARE(doc.undoStack()->count(), steps + 2);
    QCOMPARE(doc.brief()->workload.inputTokens, 2000.0);
}

// The form shows the fields of the brief's kind. Switching a LoRA brief to real-time inference is
// one undo step that also starts the traffic block the new kind needs; the completeness list then
// names the latency targets and acceptance as blocking and the ranking is held back until they
// are given.
void TestMainWindow::briefFormFollowsTheKindAndCompletes()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/lora-finetune.brief.json")).has_value());
    wb::BriefForm *form = w.briefForm();
    const auto shown = [&](const char *pointer) { return form->field(QLatin1String(pointer))->isVisibleTo(form); };
    QVERIFY(shown("/workload/training/lora_rank"));
    QVERIFY(!shown("/workload/traffic/request_rate_per_s"));
    QVERIFY(!shown("/workload/input_tokens"));
    // Every field has an accessible name and a reason.
    for (QWidget *editor : form->findChildren<QWidget *>()) {
        if (!editor->objectName().startsWith(u'/'))
            continue;
        QVERIFY2(!editor->accessibleName().isEmpty(), qPrintable(editor->objectName()));
        QVERIFY2(!editor->toolTip().isEmpty(), qPrintable(editor->objectName()));
    }
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const int steps = doc.undoStack()->count();

    auto *kind = qobject_cast<QComboBox *>(form->field(QStringLiteral("/workload/kind")));
    QVERIFY(kind);
    kind->setCurrentIndex(kind->findData(QStringLiteral("\"realtime-inference\"")));
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.brief()->workload.kind, wb::WorkloadKind::RealtimeInference);
    QCOMPARE(doc.brief()->workload.traffic.mode, wb::TrafficMode::OpenLoop);
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 1.0);
    QVERIFY(shown("/workload/traffic/request_rate_per_s"));
    QVERIFY(shown("/workload/slo/ttft_p99_s"));
    QVERIFY(!shown("/workload/training/lora_rank"));

    const auto missing = [&] {
        QStringList names;
        for (int i = 0; i < w.missingList()->count(); ++i)
            names << w.missingList()->item(i)->text();
        return names;
    };
    QVERIFY2(missing().contains(QStringLiteral("⚠ latency targets")), qPrintable(missing().join(u'|')));
    QVERIFY(missing().contains(QStringLiteral("⚠ acceptance (quality pass and failure rates)")));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(w.recommendationLabel()->text().contains(QLatin1String("held back")));
    QVERIFY(!doc.results().briefWarnings.empty());
    QCOMPARE(doc.results().briefWarnings.back().code, std::string("brief-incomplete"));

    // Clicking a missing item goes to its field.
    w.show();
    w.missingList()->setCurrentRow(0);
    emit w.missingList()->itemClicked(w.missingList()->item(0));
    QCOMPARE(w.resultTabs()->currentIndex(), int(wb::MainWindow::Tab::Brief));
    QTRY_VERIFY(form->field(QStringLiteral("/workload/slo/ttft_p99_s"))->isAncestorOf(QApplication::focusWidget()));

    // Giving the targets and the acceptance completes what the ranking needs.
    typeInto(numberField(form, "/workload/slo/ttft_p99_s"), QStringLiteral("1500"));
    QCOMPARE(doc.brief()->workload.slo.ttftP99S.value_or(0), 1.5);
    typeInto(numberField(form, "/workload/acceptance/quality_pass_rate"), QStringLiteral("92"));
    QCOMPARE(doc.brief()->workload.acceptance.qualityPassRate, 0.92);
    QVERIFY(!missing().join(u'|').contains(u'⚠'));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(!w.recommendationLabel()->text().contains(QLatin1String("held back")));

    // Undo walks back to the LoRA brief and its fields.
    while (doc.undoStack()->count() > steps && doc.undoStack()->canUndo() && doc.undoStack()->index() > steps)
        doc.undoStack()->undo();
    QCOMPARE(doc.brief()->workload.kind, wb::WorkloadKind::Lora);
    QVERIFY(shown("/workload/training/lora_rank"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// An optional number set to its "not stated" value removes the field; bursts switched on add
// their block and show its three fields.
void TestMainWindow::optionalFieldsAndBursts()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    wb::BriefForm *form = w.briefForm();
    // Every number the brief states is shown as that number, not as "not stated" (a field's range
    // must hold the brief's value): TTFT 2 s, TPOT 80 ms, pass rate 95%, failures 1%.
    const QJsonObject root = QJsonDocument::fromJson(doc.briefJson().toUtf8()).object();
    int checked = 0;
    for (wb::NumberEdit *number : form->findChildren<wb::NumberEdit *>()) {
        QJsonValue v = root;
        for (const QString &key : number->objectName().split(u'/', Qt::SkipEmptyParts))
            v = v.toObject().value(key);
        if (!v.isDouble())
            continue;
        QVERIFY2(number->value().has_value(), qPrintable(number->objectName() + QStringLiteral(" shows ") + number->text()));
        ++checked;
    }
    QCOMPARE(checked, 10);  // input and output with their p95s, rate, burstiness, TTFT, TPOT, pass rate, failures
    QCOMPARE(numberField(form, "/workload/slo/tpot_p99_s")->text(), QStringLiteral("80"));
    QCOMPARE(numberField(form, "/workload/acceptance/quality_pass_rate")->text(), QStringLiteral("95"));
    wb::NumberEdit *p95 = numberField(form, "/workload/input_tokens_p95");
    QCOMPARE(p95->text(), QStringLiteral("6,000"));
    // Emptied, an optional field is unstated: its placeholder says so and the brief drops it.
    typeInto(p95, QString());
    QCOMPARE(p95->text(), QString());
    QCOMPARE(p95->lineEdit()->placeholderText(), QStringLiteral("not stated"));
    QVERIFY(!doc.brief()->workload.inputTokensP95.has_value());
    QVERIFY(doc.briefJson().indexOf(QLatin1String("input_tokens_p95")) < 0);
    // Emptied, a latency target is "no target", and stays empty (a spin box snapped it back).
    wb::NumberEdit *ttft = numberField(form, "/workload/slo/ttft_p99_s");
    typeInto(ttft, QString());
    QVERIFY(!doc.brief()->workload.slo.ttftP99S.has_value());
    QCOMPARE(ttft->text(), QString());
    QCOMPARE(ttft->lineEdit()->placeholderText(), QStringLiteral("no target"));
    // Emptied, a required field keeps its empty text, says so, and the brief keeps its value.
    wb::NumberEdit *input = numberField(form, "/workload/input_tokens");
    typeInto(input, QString());
    QCOMPARE(doc.brief()->workload.inputTokens, 2000.0);
    QCOMPARE(input->text(), QString());
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("Input: a number is required; the brief keeps 2,000 (tokens)")),
             qPrintable(findChildLabelText(form)));
    QTest::keyClicks(input->lineEdit(), QStringLiteral("0"));  // below the minimum of 1 token
    QCOMPARE(doc.brief()->workload.inputTokens, 2000.0);
    QVERIFY(!input->lineEdit()->styleSheet().isEmpty());  // framed
    // A token count has no decimals: "0.5" stays as typed, and the form says why it is refused.
    QTest::keyClicks(input->lineEdit(), QStringLiteral(".5"));
    QCOMPARE(input->text(), QStringLiteral("0.5"));
    QCOMPARE(input->problem(), QStringLiteral("0.5 is not a whole number"));
    QCOMPARE(doc.brief()->workload.inputTokens, 2000.0);
    typeInto(input, QStringLiteral("3000"));
    QCOMPARE(doc.brief()->workload.inputTokens, 3000.0);
    QVERIFY(input->lineEdit()->styleSheet().isEmpty());
    QVERIFY(findChildLabelText(form).isEmpty());

    auto *bursts = qobject_cast<QComboBox *>(form->field(QStringLiteral("/workload/traffic/bursts")));
    QVERIFY(!form->field(QStringLiteral("/workload/traffic/bursts/multiplier"))->isVisibleTo(form));
    bursts->setCurrentIndex(1);
    QCOMPARE(doc.brief()->workload.traffic.burstMultiplier.value_or(0), 3.0);
    QVERIFY(form->field(QStringLiteral("/workload/traffic/bursts/multiplier"))->isVisibleTo(form));
    // A burst as long as its period is refused with the field named: typed 4 and 40 s are
    // taken, 400 s (the period is 300 s) is not, and the brief keeps 40.
    typeInto(numberField(form, "/workload/traffic/bursts/duration_s"), QStringLiteral("400"));
    QCOMPARE(doc.brief()->workload.traffic.burstDurationS, 40.0);
    QVERIFY(findChildLabelText(form).contains(QLatin1String("duration_s")));
    // Closed-loop traffic drops the bursts and starts a concurrency.
    auto *mode = qobject_cast<QComboBox *>(form->field(QStringLiteral("/workload/traffic/mode")));
    mode->setCurrentIndex(mode->findData(QStringLiteral("\"closed-loop\"")));
    QCOMPARE(doc.brief()->workload.traffic.mode, wb::TrafficMode::ClosedLoop);
    QVERIFY(!doc.brief()->workload.traffic.burstMultiplier.has_value());
    QCOMPARE(doc.brief()->workload.traffic.concurrency.value_or(0), 16);
    QVERIFY(form->field(QStringLiteral("/workload/traffic/concurrency"))->isVisibleTo(form));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// Typing 150 into the pass rate (95%) passes through 1 and 15: the brief goes back to 95 and
// the message says so (it kept 15). Two typing sessions of the rate (20, Tab, 30, Tab) are two
// undo steps (they merged into one). An emptied rate is framed like any bad value; "12,5" is not
// 125; the range reads 1,000,000, not 1E+06; a message does not move the fields.
void TestMainWindow::typingSessionsAreUndoStepsAndBadTextChangesNothing()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    wb::BriefForm *form = w.briefForm();
    wb::NumberEdit *pass = numberField(form, "/workload/acceptance/quality_pass_rate");
    const int before = pass->mapTo(form, QPoint(0, 0)).y();
    typeInto(pass, QStringLiteral("150"));
    QCOMPARE(pass->text(), QStringLiteral("150"));
    QCOMPARE(doc.brief()->workload.acceptance.qualityPassRate, 0.95);
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("the brief keeps 95 (%)")), qPrintable(findChildLabelText(form)));
    QCOMPARE(pass->mapTo(form, QPoint(0, 0)).y(), before);
    typeInto(pass, QStringLiteral("90"));
    emit pass->finished();
    QCOMPARE(doc.brief()->workload.acceptance.qualityPassRate, 0.9);
    QVERIFY(findChildLabelText(form).isEmpty());

    wb::NumberEdit *rate = form->rateBox();
    const int steps = doc.undoStack()->index();
    typeInto(rate, QStringLiteral("20"));
    QTest::keyClick(rate->lineEdit(), Qt::Key_Tab);  // the focus leaves: the session ends
    emit rate->finished();                          // (offscreen, focus-out is not always delivered)
    typeInto(rate, QStringLiteral("30"));
    emit rate->finished();
    QCOMPARE(doc.undoStack()->index(), steps + 2);
    doc.undoStack()->undo();
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 20.0);
    QCOMPARE(rate->text(), QStringLiteral("20"));

    typeInto(rate, QString());
    QVERIFY(!rate->lineEdit()->styleSheet().isEmpty());
    QVERIFY(findChildLabelText(form).contains(QLatin1String("a number is required")));
    QTest::keyClicks(rate->lineEdit(), QStringLiteral("12,5"));
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 20.0);
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("\"12,5\" is not a number")), qPrintable(findChildLabelText(form)));
    typeInto(rate, QStringLiteral("-1"));
    // The parser's range (limits::kMinRequestRatePerS, 1e-6, to kRequestRatePerS), which the form reads.
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("outside 0.000001 to 10,000")), qPrintable(findChildLabelText(form)));
    typeInto(rate, QStringLiteral("12,500.5"));  // grouped correctly: a valid number, above the limit
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("12,500.5 is outside")), qPrintable(findChildLabelText(form)));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A Hugging Face config.json becomes the brief's model, named after its folder; a file that is
// not one is refused with its name and the model stays.
void TestMainWindow::importHuggingFaceConfig()
{
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("Meta-Llama-3-8B")));
    const QString path = dir.path() + QStringLiteral("/Meta-Llama-3-8B/config.json");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Meta-Llama-3-8B's config.json (the fields that matter), as in tst_modelarch.
    file.write(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 14336, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
        "vocab_size": 128256, "max_position_embeddings": 8192, "tie_word_embeddings": false})");
    file.close();
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QVERIFY(!w.briefForm()->importHfConfig(path).has_value());
    QCOMPARE(doc.brief()->workload.model.name, std::string("Meta-Llama-3-8B"));
    QVERIFY(!doc.brief()->workload.modelFromCatalog);
    QCOMPARE(doc.brief()->workload.model.kvHeads, 8);
    QCOMPARE(w.briefForm()->modelBox()->currentText(), QStringLiteral("Meta-Llama-3-8B (imported)"));

    const QString bad = dir.path() + QStringLiteral("/bad.json");
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write(R"({"model_type": "llama", "hidden_size": 4096})");
    badFile.close();
    const auto error = w.briefForm()->importHfConfig(bad);
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(QLatin1String("bad.json")), qPrintable(*error));
    QCOMPARE(doc.brief()->workload.model.name, std::string("Meta-Llama-3-8B"));
    // Back to a catalog model from the list.
    w.briefForm()->modelBox()->setCurrentIndex(w.briefForm()->modelBox()->findData(QStringLiteral("\"llama-3.1-8b\"")));
    QVERIFY(doc.brief()->workload.modelFromCatalog);
    QCOMPARE(w.briefForm()->modelBox()->findData(QString()), -1);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A price typed key by key is the price recorded: "2.35" once became $235.00 because the dialog
// rewrote the field's suffix on every keystroke, dropping the decimal point just typed.
void TestMainWindow::typedPricesAreKeptAsTyped_data()
{
    QTest::addColumn<QString>("term");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<double>("price");
    QTest::addColumn<QString>("key");
    QTest::newRow("2.35 an hour") << "on-demand" << "2.35" << 2.35 << "usd_per_gpu_hour";
    QTest::newRow("1.09 an hour") << "spot" << "1.09" << 1.09 << "usd_per_gpu_hour";
    QTest::newRow(".79 an hour") << "reserved-1y" << ".79" << 0.79 << "usd_per_gpu_hour";
    // A leading zero: a spin box with a "special value" text turned the "0" into "enter the
    // price" and refused the rest (under a real X server).
    QTest::newRow("0.79 an hour") << "reserved-3y" << "0.79" << 0.79 << "usd_per_gpu_hour";
    QTest::newRow("0.5 an hour") << "spot" << "0.5" << 0.5 << "usd_per_gpu_hour";
    QTest::newRow("28500.50 per GPU") << "purchase" << "28500.50" << 28500.50 << "usd_per_gpu";
}

void TestMainWindow::typedPricesAreKeptAsTyped()
{
    QFETCH(QString, term);
    QFETCH(QString, typed);
    QFETCH(double, price);
    QFETCH(QString, key);
    wb::PriceQuoteDialog dialog(shippedCatalog(), QStringLiteral("h100-sxm-80gb"));
    dialog.show();
    dialog.termBox()->setCurrentIndex(dialog.termBox()->findText(term));
    QLineEdit *amount = dialog.amountBox()->lineEdit();
    amount->setFocus();
    amount->selectAll();
    QTest::keyClicks(amount, typed);
    QTest::keyClick(amount, Qt::Key_Tab);
    QCOMPARE(amount->text(), typed);  // the text as typed, never rewritten
    QCOMPARE(dialog.amountBox()->value().value_or(-1), price);
    const QJsonObject json = QJsonDocument::fromJson(dialog.json().toUtf8()).object();
    QCOMPARE(json.value(key).toDouble(), price);
}

// View > Present Chart answers F11 and Ctrl+F11 on every desktop (the platform's "full screen"
// key sequence is empty on most Linux desktops).
void TestMainWindow::presentChartHasItsKeys()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QAction *present = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text() == QLatin1String("&Present Chart"))
            present = a;
    QVERIFY(present);
    QVERIFY(present->shortcuts().contains(QKeySequence(Qt::Key_F11)));
    QVERIFY(present->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_F11)));
}

// A vendor quote entered in the dialog goes into the brief's cost.prices as one undo step, and the
// cost model prices the candidate with it (the brief's own price comes before the price book's).
void TestMainWindow::priceQuoteIsUsedAndUndone()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    wb::PriceQuoteDialog dialog(doc.catalog(), QStringLiteral("h100-sxm-80gb"));
    QCOMPARE(dialog.gpuBox()->currentData().toString(), QStringLiteral("h100-sxm-80gb"));
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());  // provider, price and source are required
    dialog.providerEdit()->setText(QStringLiteral("Acme Cloud, 8x H100"));
    dialog.sourceEdit()->setText(QStringLiteral("quote ACME-2026-114"));
    QVERIFY(!ok->isEnabled());  // no price yet
    dialog.sourceEdit()->clear();
    QTest::keyClicks(dialog.amountBox()->lineEdit(), QStringLiteral("2.10"));
    dialog.observedEdit()->setDate(QDate(2026, 11, 20));
    QVERIFY(!ok->isEnabled());
    dialog.sourceEdit()->setText(QStringLiteral("quote ACME-2026-114"));
    QVERIFY(ok->isEnabled());
    const int steps = doc.undoStack()->count();
    QVERIFY(!w.addPriceQuote(dialog.json()).has_value());
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(int(doc.brief()->cost.prices.size()), 1);
    const wb::GpuPrice &quote = doc.brief()->cost.prices.front();
    QCOMPARE(quote.usdPerGpuHour, 2.10);
    QCOMPARE(quote.observed, std::string("2026-11-20"));
    QCOMPARE(quote.source, std::string("quote ACME-2026-114"));
    QVERIFY(w.quoteList()->item(0)->text().contains(QLatin1String("Acme Cloud")));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const wb::CostOption *onDemand = nullptr;
    for (const wb::CostOption &o : doc.results().results[0].cost.options)
        if (o.term == wb::PricingTerm::OnDemand)
            onDemand = &o;
    QVERIFY(onDemand);
    QCOMPARE(onDemand->provider, std::string("Acme Cloud, 8x H100"));
    QCOMPARE(onDemand->usdPerGpuHour, 2.10);
    doc.undoStack()->undo();
    QVERIFY(doc.brief()->cost.prices.empty());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A reservation quote with commercial terms, typed: 25% up front alone holds the Add button (a
// share of what?) until a 12-month minimum commitment is typed; the brief's price carries the
// terms, the quote's tooltip and the cost table's tooltip state them, and on the sample's medium
// demand certainty the commitment is warned about, the warning leading to the demand certainty
// field.
void TestMainWindow::quoteTermsAreTypedShownAndWarned()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::PriceQuoteDialog dialog(doc.catalog(), QString::fromStdString(doc.brief()->candidates.front().gpu));
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QTest::keyClicks(dialog.providerEdit(), QStringLiteral("Acme Cloud, 1-year reserved"));
    dialog.termBox()->setCurrentIndex(dialog.termBox()->findText(QStringLiteral("reserved-1y")));
    QTest::keyClicks(dialog.amountBox()->lineEdit(), QStringLiteral("0.95"));
    QTest::keyClicks(dialog.sourceEdit(), QStringLiteral("quote ACME-2026-200"));
    QVERIFY(ok->isEnabled());
    QTest::keyClicks(dialog.upfrontBox()->lineEdit(), QStringLiteral("25"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(ok->toolTip().contains(QLatin1String("minimum commitment")));
    QTest::keyClicks(dialog.commitmentBox()->lineEdit(), QStringLiteral("12"));
    QVERIFY(ok->isEnabled());
    QVERIFY(!dialog.interruptionsBox()->isEnabled());  // a reservation is not taken back
    dialog.offerBox()->setCurrentIndex(dialog.offerBox()->findText(QStringLiteral("dedicated-cluster")));
    QVERIFY(!w.addPriceQuote(dialog.json()).has_value());
    const wb::GpuPrice &quote = doc.brief()->cost.prices.front();
    QCOMPARE(quote.minCommitmentMonths.value_or(0), 12.0);
    QCOMPARE(quote.upfrontFraction.value_or(0), 0.25);
    QCOMPARE(quote.offer, wb::Offer::DedicatedCluster);
    QVERIFY(w.quoteList()->item(0)->toolTip().contains(QLatin1String("12-month minimum commitment, 25% paid up front")));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const wb::CandidateResult &first = wb::deployment(doc.results().results.front());
    const auto warning = std::find_if(first.cost.warnings.begin(), first.cost.warnings.end(),
                                      [](const wb::Warning &x) { return x.code == "commitment-vs-certainty"; });
    QVERIFY(warning != first.cost.warnings.end());
    QVERIFY(warning->message.find("12-month minimum commitment") != std::string::npos);
    QListWidgetItem *item = nullptr;
    for (int i = 0; i < w.warningList()->count(); ++i)
        if (w.warningList()->item(i)->toolTip() == QLatin1String("commitment-vs-certainty"))
            item = w.warningList()->item(i);
    QVERIFY(item);
    emit w.warningList()->itemClicked(item);
    QTRY_VERIFY(w.briefForm()->field(QStringLiteral("/cost/decision/demand_certainty"))->isAncestorOf(QApplication::focusWidget()));
    // A spot quote takes its interruption rate, typed.
    wb::PriceQuoteDialog spot(doc.catalog(), QString::fromStdString(doc.brief()->candidates.front().gpu));
    QTest::keyClicks(spot.providerEdit(), QStringLiteral("Acme spot"));
    spot.termBox()->setCurrentIndex(spot.termBox()->findText(QStringLiteral("spot")));
    QTest::keyClicks(spot.amountBox()->lineEdit(), QStringLiteral("0.80"));
    QTest::keyClicks(spot.sourceEdit(), QStringLiteral("acme.example/spot"));
    QVERIFY(spot.interruptionsBox()->isEnabled());
    QVERIFY(!spot.commitmentBox()->isEnabled() && !spot.upfrontBox()->isEnabled());  // spot binds no term
    QTest::keyClicks(spot.interruptionsBox()->lineEdit(), QStringLiteral("45.5"));
    QVERIFY(!w.addPriceQuote(spot.json()).has_value());
    const auto added = std::find_if(doc.brief()->cost.prices.begin(), doc.brief()->cost.prices.end(),
                                    [](const wb::GpuPrice &p) { return p.provider == "Acme spot"; });
    QVERIFY(added != doc.brief()->cost.prices.end());
    QCOMPARE(added->interruptionsPerGpuMonth.value_or(0), 45.5);
}

// How rented GPUs are billed, set on the Brief page: "in a scheduled window" starts at 8 hours on
// 30 days, shown in its fields; typed 10 hours are taken, 25 refused with the field named (the
// brief keeps 10); the on-demand options are then billed for 10 x 30 = 300 of 730.5 hours. Autoscaled
// hides the window and shows the minimum replicas; spot interruptions are a stated choice.
void TestMainWindow::billingIsChosenAndTyped()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    wb::BriefForm *form = w.briefForm();
    auto *billing = qobject_cast<QComboBox *>(form->field(QStringLiteral("/cost/billing")));
    QVERIFY(billing);
    QVERIFY(!doc.brief()->cost.billing.given);
    QVERIFY(!form->field(QStringLiteral("/cost/billing/hours_per_day"))->isVisibleTo(form));
    billing->setCurrentIndex(billing->findText(QStringLiteral("in a scheduled window")));
    QCOMPARE(doc.brief()->cost.billing.model, wb::Billing::Scheduled);
    wb::NumberEdit *hours = numberField(form, "/cost/billing/hours_per_day");
    QVERIFY(hours->isVisibleTo(form));
    QCOMPARE(hours->text(), QStringLiteral("8"));
    typeInto(hours, QStringLiteral("10"));
    QCOMPARE(doc.brief()->cost.billing.hoursPerDay, 10.0);
    QTest::keyClick(hours->lineEdit(), Qt::Key_Return);  // that typing is over
    typeInto(hours, QStringLiteral("25"));
    QCOMPARE(doc.brief()->cost.billing.hoursPerDay, 10.0);
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("Window hours a day")), qPrintable(findChildLabelText(form)));
    // The form's message line may be scrolled out of view: the message shows beside the field too.
    QTRY_VERIFY2(QToolTip::text().contains(QLatin1String("Window hours a day")), qPrintable(QToolTip::text()));
    typeInto(hours, QStringLiteral("10"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    bool billedForTheWindow = false;
    for (const wb::CandidateResult &r : doc.results().results)
        for (const wb::CostOption &o : wb::deployment(r).cost.options)
            if (o.term == wb::PricingTerm::OnDemand) {
                QVERIFY(qAbs(o.billedShareOfMonth - 300 / 730.5) < 1e-12);
                billedForTheWindow = true;
            }
    QVERIFY(billedForTheWindow);
    billing->setCurrentIndex(billing->findText(QStringLiteral("autoscaled with the load")));
    QCOMPARE(doc.brief()->cost.billing.model, wb::Billing::Autoscaled);
    QVERIFY(!hours->isVisibleTo(form));
    wb::NumberEdit *minimum = numberField(form, "/cost/billing/min_replicas");
    QVERIFY(minimum->isVisibleTo(form));
    typeInto(minimum, QStringLiteral("0"));
    QCOMPARE(doc.brief()->cost.billing.minReplicas, 0);
    // Serverless has no minimum: the field goes, and the brief says serverless.
    billing->setCurrentIndex(billing->findText(QStringLiteral("serverless, per second of use")));
    QCOMPARE(doc.brief()->cost.billing.model, wb::Billing::Serverless);
    QVERIFY(!minimum->isVisibleTo(form));
    auto *spot = qobject_cast<QComboBox *>(form->field(QStringLiteral("/cost/decision/interruptions_acceptable")));
    spot->setCurrentIndex(spot->findText(QStringLiteral("acceptable (work is retried)")));
    QCOMPARE(doc.brief()->cost.decision.interruptionsAcceptable, std::optional<bool>(true));
    doc.undoStack()->undo();
    QVERIFY(!doc.brief()->cost.decision.interruptionsAcceptable);
}

// A common mistake in the warnings list leads to the field that fixes it: the sample does not
// say who runs the platform (mistake 5), and clicking that warning focuses the platform field.
void TestMainWindow::warningsLeadToTheirFix()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Cost));
    QListWidgetItem *platform = nullptr;
    for (int i = 0; i < w.warningList()->count(); ++i)
        if (w.warningList()->item(i)->toolTip() == QLatin1String("mistake-platform-responsibility"))
            platform = w.warningList()->item(i);
    QVERIFY(platform);
    emit w.warningList()->itemClicked(platform);
    QCOMPARE(w.resultTabs()->currentIndex(), int(wb::MainWindow::Tab::Brief));
    QTRY_VERIFY(w.briefForm()->field(QStringLiteral("/assumptions/platform_fte_self_hosted"))->isAncestorOf(QApplication::focusWidget()));
}

// Two scenarios side by side: a copy of the chat scenario at twice the request rate differs in
// exactly that field, and its results differ with it (tail latency up at the higher rate).
void TestMainWindow::compareTwoScenarios()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    const QString original = doc.scenarioName();
    QVERIFY(!doc.duplicateScenario(original, QStringLiteral("Double rate")).has_value());
    QVERIFY(!doc.selectScenario(QStringLiteral("Double rate")).has_value());
    QVERIFY(!doc.editBrief(QStringLiteral("/workload/traffic/request_rate_per_s"), QStringLiteral("25"),
                           QStringLiteral("rate"))
                 .has_value());
    wb::ScenarioCompareDialog *dialog = w.openComparison();
    QVERIFY(dialog);
    dialog->firstChoice()->setCurrentText(original);
    dialog->secondChoice()->setCurrentText(QStringLiteral("Double rate"));
    QAbstractItemModelTester briefTester(dialog->briefTable()->model());
    QAbstractItemModelTester resultsTester(dialog->resultsTable()->model());
    QAbstractItemModel *brief = dialog->briefTable()->model();
    QCOMPARE(brief->rowCount(), 1);
    // The field in words (its JSON pointer in the tooltip), values as typed, not as JSON.
    QCOMPARE(brief->index(0, 0).data().toString(), QStringLiteral("Traffic › request rate (per s)"));
    QCOMPARE(brief->index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("/workload/traffic/request_rate_per_s"));
    QCOMPARE(brief->index(0, 1).data().toString(), QStringLiteral("12.5"));
    QCOMPARE(brief->index(0, 2).data().toString(), QStringLiteral("25"));
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->busy(), 120000);
    QAbstractItemModel *results = dialog->resultsTable()->model();
    // Only the figures that differ are listed, and the status counts exactly those rows (it once
    // said "0 result figures differ" above 36 rows).
    const int rows = results->rowCount();
    QVERIFY(rows > 0 && rows < 6 * 6);
    const QLabel *status = dialog->findChild<QLabel *>(QString(), Qt::FindDirectChildrenOnly);
    bool counted = false;
    for (const QLabel *label : dialog->findChildren<QLabel *>())
        counted = counted || label->text().contains(QStringLiteral("%1 result figure").arg(rows));
    QVERIFY2(counted, status ? qPrintable(status->text()) : "no status");
    // The H100's TTFT p99, in milliseconds as its name says, rises at twice the rate.
    int ttft = -1;
    for (int r = 0; r < rows && ttft < 0; ++r)
        if (results->index(r, 0).data().toString().contains(QLatin1String("h100")) && results->index(r, 1).data().toString() == QStringLiteral("TTFT p99 (ms)"))
            ttft = r;
    QVERIFY(ttft >= 0);
    const QString before = results->index(ttft, 2).data().toString(), after = results->index(ttft, 3).data().toString();
    QVERIFY2(QLocale().toDouble(after) > QLocale().toDouble(before), qPrintable(before + QStringLiteral(" -> ") + after));
    // Columns keep their widths after the tables are refilled.
    QVERIFY(dialog->resultsTable()->columnWidth(1) >= dialog->resultsTable()->fontMetrics().horizontalAdvance(QStringLiteral("TTFT p99 (ms)")));
    // A scenario renamed while the dialog is open is listed under its new name.
    QVERIFY(!doc.renameScenario(QStringLiteral("Double rate"), QStringLiteral("Twice the rate")).has_value());
    QCOMPARE(dialog->secondChoice()->currentText(), QStringLiteral("Twice the rate"));
    QVERIFY(dialog->secondChoice()->findText(QStringLiteral("Double rate")) < 0);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->busy(), 120000);
    dialog->close();
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

void TestMainWindow::showsSampleBriefAndFit()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QAbstractItemModel *model = w.fitTable()->model();
    QCOMPARE(model->rowCount(), 6);  // the sample's six candidates
    QCOMPARE(model->data(model->index(0, wb::FitTableModel::Fits)).toString(), QStringLiteral("yes"));
    // Candidates are named by the catalog's GPU name, not its id.
    const QString label = model->data(model->index(0, wb::FitTableModel::Candidate)).toString();
    QVERIFY2(label.contains(QString::fromStdString(doc.results().results[0].gpuName)) && !label.contains(QLatin1String("h100-sxm-80gb")),
             qPrintable(label));
    // The A100 row cannot run fp8 weights: not computed, and the warning list says why.
    QCOMPARE(model->data(model->index(4, wb::FitTableModel::Fits)).toString(), QStringLiteral("not computed"));
    bool found = false;
    for (int i = 0; i < w.warningList()->count(); ++i)
        found = found || w.warningList()->item(i)->text().contains(QLatin1String("fp8"));
    QVERIFY(found);
    QVERIFY(w.windowTitle().startsWith(QLatin1String("Support chat")));
    // The seed's common mistakes are labelled as such, not as cost (mistake 2 is about the fit,
    // 3 about topology); the break-even reads as a number of requests, not 5.41e+07.
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    int mistakes = 0;
    for (int i = 0; i < w.warningList()->count(); ++i) {
        const QString text = w.warningList()->item(i)->text();
        QVERIFY2(!(text.startsWith(QLatin1String("Cost:")) && text.contains(QLatin1String("common mistake"))),
                 qPrintable(text));
        mistakes += text.startsWith(QLatin1String("Common mistake:"));
    }
    QVERIFY(mistakes >= 2);
    QVERIFY(!w.recommendationLabel()->text().contains(QLatin1String("e+0")));
    // The title names the scenario shown, as the list calls it: renamed, the title follows.
    QVERIFY(!doc.renameScenario(doc.scenarioName(), QStringLiteral("Chat, renamed")).has_value());
    QVERIFY(w.windowTitle().startsWith(QLatin1String("Chat, renamed")));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

void TestMainWindow::fitModelPassesModelTester()
{
    wb::Document doc(shippedCatalog());
    wb::FitTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!doc.openFile(kSample).has_value());
    model.setResults(doc.results());
    QCOMPARE(model.columnCount(), int(wb::FitTableModel::ColumnCount));
    model.setResults({});
    QCOMPARE(model.rowCount(), 0);
}

// Opening shows the fit at once; the simulations finish on a worker thread and fill the
// performance table, while the event loop keeps running.
void TestMainWindow::performanceArrivesWithoutBlocking()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QVERIFY(doc.evaluating());
    QAbstractItemModel *model = w.performanceTable()->model();
    QCOMPARE(model->rowCount(), 6);
    QCOMPARE(model->data(model->index(0, wb::PerformanceTableModel::Throughput)).toString(), QStringLiteral("…"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(doc.results().performanceEvaluated);
    QVERIFY(!doc.results().preview);  // the quick first answer has been replaced by the full one
    bool ok = false;
    QLocale().toDouble(model->data(model->index(0, wb::PerformanceTableModel::Throughput)).toString(), &ok);
    QVERIFY(ok);
    // The A100 cannot run the sample's fp8 weights: no invented figures, and the cell says why
    // (its tooltip gives the engine's whole reason).
    QCOMPARE(model->data(model->index(4, wb::PerformanceTableModel::Throughput)).toString(), QStringLiteral("unsupported precision"));
    QVERIFY(model->data(model->index(4, wb::PerformanceTableModel::Throughput), Qt::ToolTipRole).toString().contains(QLatin1String("fp8")));
    const QLabel *status = w.statusBar()->findChild<QLabel *>();
    QVERIFY(status);
    QVERIFY(!status->text().contains(QLatin1String("Simulating")));
}

void TestMainWindow::performanceModelPassesModelTester()
{
    wb::Document doc(shippedCatalog());
    wb::PerformanceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!doc.openFile(kSample).has_value());
    model.setResults(doc.results());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    model.setResults(doc.results());
    QCOMPARE(model.columnCount(), int(wb::PerformanceTableModel::ColumnCount));
    // Final figures are upright; the same figures as a first answer are italic and say so.
    const QModelIndex cell = model.index(0, wb::PerformanceTableModel::Throughput);
    QVERIFY(!model.data(cell, Qt::FontRole).value<QFont>().italic());
    QVERIFY(!model.data(cell, Qt::ToolTipRole).toString().contains(QLatin1String("provisional")));
    wb::Results first = doc.results();
    first.preview = true;
    model.setResults(first);
    QVERIFY(model.data(model.index(0, wb::PerformanceTableModel::Throughput), Qt::FontRole).value<QFont>().italic());
    QVERIFY(model.data(model.index(0, wb::PerformanceTableModel::Throughput), Qt::ToolTipRole).toString().contains(QLatin1String("provisional")));
    model.setResults({});
    QCOMPARE(model.rowCount(), 0);
}

// The cost tab lists every priced option and the API route, and shows the recommendation.
// One keystroke in the request rate is one edit, and the engine parses the brief once for it:
// patchBrief returns the brief it parsed, the document shows that one, and no page, panel or
// evaluation parses it again (engine's briefParseCount counts every parseBrief).
void TestMainWindow::anEditParsesTheBriefOnce()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(!doc.openFile(kSample).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::NumberEdit *rate = w.briefForm()->rateBox();
    QVERIFY(rate && rate->isVisible());
    int edits = 0;
    connect(w.briefForm(), &wb::BriefForm::edit, this, [&] { ++edits; });
    rate->lineEdit()->setFocus();
    rate->lineEdit()->selectAll();
    const std::uint64_t before = wb::briefParseCount();
    QTest::keyClicks(rate->lineEdit(), QStringLiteral("9"));
    QCOMPARE(edits, 1);
    QCOMPARE(wb::briefParseCount() - before, std::uint64_t(1));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QCOMPARE(wb::briefParseCount() - before, std::uint64_t(1));
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 9.0);
    // Ctrl+Z with the focus still in the field undoes the edit through the window's Edit menu, and
    // Ctrl+Shift+Z redoes it (the Redo action had only the platform's first binding, Ctrl+Y).
    // The field's own text undo would have taken the keys first.
    QVERIFY(rate->lineEdit()->hasFocus() || QApplication::focusWidget() == rate->lineEdit());
    QTest::keyClick(rate->lineEdit(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 12.5);
    QCOMPARE(rate->text(), QStringLiteral("12.5"));
    QTest::keyClick(rate->lineEdit(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(rate->text(), QStringLiteral("9"));
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 9.0);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// F1 opens the guide: the pages in the method's order and a glossary with every term the column
// tooltips send the reader to.
void TestMainWindow::f1OpensTheGuideAndGlossary()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.findChild<wb::HelpGuide *>());
    QTest::keyClick(&w, Qt::Key_F1);
    auto *guide = w.findChild<wb::HelpGuide *>();
    QVERIFY(guide && guide->isVisible());
    const QString html = guide->browser()->toHtml();
    for (const char *anchor : {"ttft", "tpot", "itl", "e2e", "percentile", "slo", "goodput", "tp", "replica",
                               "headroom", "sized", "accepted", "utilization", "breakeven"})
        QVERIFY2(html.contains(QStringLiteral("name=\"%1\"").arg(QLatin1String(anchor))), anchor);
    for (const char *page : {"Brief", "Candidates", "Memory fit", "Performance", "Cost", "Compare &amp; decide"})
        QVERIFY2(html.contains(QLatin1String(page)), page);
    // The TTFT column's tooltip names the glossary.
    QAbstractItemModel *model = w.performanceTable()->model();
    QVERIFY(model->headerData(wb::PerformanceTableModel::Ttft, Qt::Horizontal, Qt::ToolTipRole).toString().contains(QLatin1String("glossary")));
    guide->close();
}

// Under a Spanish system locale the English interface still reads and writes "12.5": typed
// "12.5" is twelve and a half (a Spanish locale's spin box took the '.' as a group separator and
// read 125), and the field shows it back as typed.
void TestMainWindow::numbersFollowTheInterfaceLocale()
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::Spanish, QLocale::Spain));
    wb::useInterfaceLocale();
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(!doc.openFile(kSample).has_value());
    wb::NumberEdit *rate = w.briefForm()->rateBox();
    QVERIFY(rate && rate->isVisible());
    typeInto(rate, QStringLiteral("7.5"));
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 7.5);
    QCOMPARE(rate->text(), QStringLiteral("7.5"));
    QCOMPARE(QLocale().toString(12.5), QStringLiteral("12.5"));
    // "12,5" in the English interface is not 125 (its group separator would have read so).
    emit rate->finished();  // Tab: 7.5 is done with
    // Return must not "fix" it into 125 either (the validator's fixup removed the comma).
    typeInto(rate, QStringLiteral("12,5"));
    QTest::keyClick(rate->lineEdit(), Qt::Key_Return);
    QCOMPARE(rate->text(), QStringLiteral("12,5"));
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 7.5);
    QVERIFY2(findChildLabelText(w.briefForm()).contains(QLatin1String("\"12,5\" is not a number")),
             qPrintable(findChildLabelText(w.briefForm())));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QLocale::setDefault(before);
}

void TestMainWindow::costModelPassesModelTester()
{
    wb::Document doc(shippedCatalog());
    wb::CostTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!doc.openFile(kSample).has_value());
    model.setResults(doc.results());
    QCOMPARE(model.rowCount(), 0);  // no cost before the simulations
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    model.setResults(doc.results());
    QVERIFY(model.rowCount() >= 2);
    QCOMPARE(model.data(model.index(model.rowCount() - 1, wb::CostTableModel::Term)).toString(), QStringLiteral("API"));
    QVERIFY(wb::recommendationHtml(doc.results()).contains(QLatin1String("Recommendation")));
    model.setResults({});
    QCOMPARE(model.rowCount(), 0);
}

// The normalization table: every candidate and pricing row, sortable by the number behind each
// cell, the column's best value marked.
void TestMainWindow::comparisonSortsAndMarksTheBest()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::ComparisonModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResults(doc.results());
    QVERIFY(model.rowCount() >= 6);
    // Exactly the rows with the lowest cost per accepted output are marked best in that column.
    double lowest = INFINITY;
    for (int r = 0; r < model.rowCount(); ++r)
        lowest = std::min(lowest, model.data(model.index(r, wb::ComparisonModel::PerAccepted), Qt::UserRole).toDouble());
    for (int r = 0; r < model.rowCount(); ++r)
        QCOMPARE(model.isBest(r, wb::ComparisonModel::PerAccepted),
                 model.data(model.index(r, wb::ComparisonModel::PerAccepted), Qt::UserRole).toDouble() == lowest);
    // The decision table agrees with the cost and performance pages: each priced row's GPUs are
    // those its cost is for, and its SLO verdict is that deployment's (the table once said "no"
    // for 8 H100s whose cost was for the 10 that meet the targets). A row without a cost says why.
    const wb::Results &results = doc.results();
    int priced = 0, unpriced = 0;
    bool apiRow = false;
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString label = model.data(model.index(r, wb::ComparisonModel::Candidate)).toString();
        if (label == QLatin1String("Model API")) {  // the API is an option like the others
            apiRow = true;
            QCOMPARE(model.data(model.index(r, wb::ComparisonModel::PerAccepted), Qt::UserRole).toDouble(),
                     results.cost.api->costPerAcceptedOutput);
            QCOMPARE(model.data(model.index(r, wb::ComparisonModel::Gpus)).toString(), QStringLiteral("–"));
            continue;
        }
        const auto it = std::find_if(results.results.begin(), results.results.end(), [&](const wb::CandidateResult &c) {
            const auto &options = wb::deployment(c).cost.options;
            return wb::ResultsTableModel::deploymentLabel(c) == label
                || std::any_of(options.begin(), options.end(), [&](const wb::CostOption &o) {
                       return wb::ResultsTableModel::optionLabel(c, o) == label;
                   });
        });
        QVERIFY2(it != results.results.end(), qPrintable(label));
        const wb::CandidateResult &d = wb::deployment(*it);
        const QString gpus = model.data(model.index(r, wb::ComparisonModel::Gpus)).toString();
        if (d.cost.options.empty()) {
            ++unpriced;
            QCOMPARE(gpus, QStringLiteral("–"));
            QVERIFY(!model.data(model.index(r, wb::ComparisonModel::Term)).toString().isEmpty());
            QVERIFY(!model.data(model.index(r, wb::ComparisonModel::Term), Qt::ToolTipRole).toString().isEmpty());
            continue;
        }
        ++priced;
        const QString term = model.data(model.index(r, wb::ComparisonModel::Term), Qt::UserRole).toString();
        const auto option = std::find_if(d.cost.options.begin(), d.cost.options.end(), [&](const wb::CostOption &o) {
            return wb::words(*o.term) == term;
        });
        QVERIFY(option != d.cost.options.end());
        QCOMPARE(gpus, QLocale().toString(option->gpus));
        const std::optional<bool> met = d.performance.sloMetAsDeployed ? d.performance.sloMetAsDeployed : d.performance.sloMet;
        QCOMPARE(model.data(model.index(r, wb::ComparisonModel::SloMet), Qt::UserRole).toInt(), met ? int(*met) : -1);
    }
    QVERIFY(priced >= 4 && unpriced >= 1);
    QVERIFY(apiRow);
    // The window's table is sorted by cost per accepted output, cheapest first.
    QAbstractItemModel *shown = w.comparisonTable()->model();
    double previous = -1;
    for (int r = 0; r < shown->rowCount(); ++r) {
        const double v = shown->data(shown->index(r, wb::ComparisonModel::PerAccepted), Qt::UserRole).toDouble();
        QVERIFY(v >= previous);
        previous = v;
    }
}

// View > Present Chart borrows the current tab's chart into a full-screen window with large
// text and puts it back when that closes.
void TestMainWindow::presentationShowsTheChartAndGivesItBack()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Performance));
    QWidget *home = w.loadChart()->parentWidget();
    auto *splitter = qobject_cast<QSplitter *>(home);
    QVERIFY(splitter);
    const QList<int> sizes = splitter->sizes();
    bool checked = false;
    bool f11Closed = false;
    int stepped = -1;
    QTimer::singleShot(200, this, [&] {
        QWidget *screen = w.presentationWindow();
        checked = screen && screen->isFullScreen() && w.loadChart()->parentWidget() == screen;
        // The right arrow shows the page's next chart in the same window.
        if (screen) {
            QTest::keyClick(screen, Qt::Key_Right);
            stepped = w.loadChartChoice()->currentIndex();
        }
        const QString dir = qEnvironmentVariable("WB_SCREENSHOT_DIR");
        if (screen && !dir.isEmpty())
            screen->grab().save(dir + QStringLiteral("/presentation.png"));
        // F11, which started it, ends it too (only Esc did).
        if (screen) {
            QTest::keyClick(screen, Qt::Key_F11);
            f11Closed = !screen->isVisible();
            if (!f11Closed)
                screen->close();
        }
    });
    w.startPresentation();
    QVERIFY(checked);
    QVERIFY(f11Closed);
    QCOMPARE(stepped, 1);
    QCOMPARE(w.loadChart()->parentWidget(), home);
    QVERIFY(!w.presentationWindow());
    // The page as it was: the table keeps its height (it was left one or two rows high), and the
    // chart shown is the one shown before the arrow keys stepped.
    QCOMPARE(splitter->sizes(), sizes);
    QCOMPARE(w.loadChartChoice()->currentIndex(), 0);
}

// The candidates table edits the brief: a count, an added and a removed candidate are three undo
// steps, and undo brings the candidates back.
void TestMainWindow::candidatesEditAddRemoveAndUndo()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QAbstractItemModel *model = w.candidatesTable()->model();
    wb::CandidatesModel tested(doc.catalog());
    QAbstractItemModelTester tester(&tested, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tested.setBrief(doc.brief());
    QCOMPARE(model->rowCount(), 6);
    QVERIFY(model->setData(model->index(0, wb::CandidatesModel::Gpus), 4));
    QCOMPARE(doc.brief()->candidates[0].gpus, 4);
    QCOMPARE(model->data(model->index(0, wb::CandidatesModel::Gpus)).toString(), QStringLiteral("4"));
    QVERIFY(!doc.editBrief(QStringLiteral("/candidates/-"), QStringLiteral(R"({"gpu": "h200-sxm-141gb", "gpus": 2})"),
                           QStringLiteral("add"), false)
                 .has_value());
    QCOMPARE(model->rowCount(), 7);
    QVERIFY(!doc.editBrief(QStringLiteral("/candidates/3"), QStringLiteral("null"), QStringLiteral("remove"), false)
                 .has_value());
    QCOMPARE(model->rowCount(), 6);
    // An impossible layout is refused with the field named: 4 GPUs do not split into TP 8.
    const auto error = doc.editBrief(QStringLiteral("/candidates/0/tensor_parallel"), QStringLiteral("8"),
                                     QStringLiteral("tensor parallelism"));
    QVERIFY(error.has_value());
    QVERIFY(error->contains(QLatin1String("/candidates/0")));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QCOMPARE(model->rowCount(), 6);
    QCOMPARE(doc.brief()->candidates[0].gpus, 8);
    QCOMPARE(doc.brief()->candidates[3].gpu, std::string("l40s-48gb"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A count typed below TP x PP lowers the layout instead of raising an error (it once had to be
// done TP first), and a TP typed above the count raises the count; each is one undo step. A GPU
// added from the catalog starts at the smallest count that holds the brief, on its recommended
// stack.
void TestMainWindow::countAndLayoutAreTypedFreely()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(!doc.openFile(kSample).has_value());
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Candidates));
    QTableView *table = w.candidatesTable();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const auto type = [&](int row, int column, const QString &text) { typeInCell(table, row, column, text); };
    QCOMPARE(doc.brief()->candidates[0].gpus, 8);
    QCOMPARE(doc.brief()->candidates[0].tensorParallel, 2);
    const int steps = doc.undoStack()->count();
    type(0, wb::CandidatesModel::Gpus, QStringLiteral("1"));
    QCOMPARE(doc.brief()->candidates[0].gpus, 1);
    QCOMPARE(doc.brief()->candidates[0].tensorParallel, 1);
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    type(0, wb::CandidatesModel::Tensor, QStringLiteral("4"));
    QCOMPARE(doc.brief()->candidates[0].tensorParallel, 4);
    QCOMPARE(doc.brief()->candidates[0].gpus, 4);
    QCOMPARE(doc.undoStack()->count(), steps + 2);
    // The sample's 70B in fp8 (about 70 GB of weights and the load's KV cache) on L40S 48GB:
    // more than one GPU; on an H200 141GB, the count fit says; both on TensorRT-LLM (NVIDIA).
    w.addCandidate(QStringLiteral("l40s-48gb"));
    const wb::Candidate &l40s = doc.brief()->candidates.back();
    QVERIFY(l40s.gpus >= 2);
    QCOMPARE(l40s.servingStack, wb::ServingStack::Trtllm);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(doc.results().results.back().fit.fits);
    w.addCandidate(QStringLiteral("mi300x-192gb"));
    QCOMPARE(doc.brief()->candidates.back().servingStack, wb::ServingStack::Vllm);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QVERIFY(doc.results().results.back().fit.fits);
}

// File > New builds a procurement comparison from scratch (the issue's case: an 8B chat model,
// 2,000 tokens in and 300 out, 5 requests/s, TTFT p99 1 s; L40S, H100 and an API quote), driven
// by keys and clicks in the real modal wizard. Actions counted: a shortcut, a click, or a field
// filled (focus, select, type); the issue asks for about twenty. The brief is complete (ranked),
// each GPU sized to hold it, and the decision table agrees with the cost page.
void TestMainWindow::newComparisonFromScratch()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    int actions = 0;
    QString failure;
    const auto fill = [&](QWidget *field, const QString &text) {
        ++actions;
        // Select what the field shows, as a person's click-and-drag or Tab does (offscreen,
        // focus does not follow activation, so the selection is made directly), then type.
        if (auto *number = qobject_cast<wb::NumberEdit *>(field))
            field = number->lineEdit();
        field->setFocus(Qt::TabFocusReason);
        if (auto *spin = qobject_cast<QAbstractSpinBox *>(field))
            spin->selectAll();
        else if (auto *line = qobject_cast<QLineEdit *>(field))
            line->selectAll();
        else if (auto *combo = qobject_cast<QComboBox *>(field); combo && combo->lineEdit())
            combo->lineEdit()->selectAll();
        QTest::keyClicks(field, text);
        // A completion list opened by the typing is confirmed with Return, as a person would.
        if (QWidget *popup = QApplication::activePopupWidget())
            QTest::keyClick(popup, Qt::Key_Return);
    };
    const auto click = [&](QWidget *widget) {
        ++actions;
        QTest::mouseClick(widget, Qt::LeftButton);
    };
    QTimer::singleShot(0, this, [&] {
        auto *wizard = qobject_cast<wb::NewComparisonWizard *>(QApplication::activeModalWidget());
        if (!wizard) {
            failure += u'\n' + QStringLiteral("File > New opened no wizard");
            return;
        }
        QAbstractButton *next = wizard->button(QWizard::NextButton);
        const auto nextPage = [&](const char *page) {
            if (!next->isEnabled())
                failure += u'\n' + QStringLiteral("Next is not offered on the %1 page").arg(QLatin1String(page));
            click(next);
        };
        fill(wizard->modelBox(), QStringLiteral("Llama 3.1 8B"));
        if (wizard->modelBox()->currentText() != QLatin1String("Llama 3.1 8B"))
            failure += u'\n' + QStringLiteral("model: ") + wizard->modelBox()->currentText();
        // A click into an empty token field and the digits, without selecting first (a spin box
        // showing "required" swallowed them).
        for (auto [box, digits] : {std::pair{wizard->inputBox(), "2000"}, std::pair{wizard->outputBox(), "300"}}) {
            ++actions;
            QTest::mouseClick(box->lineEdit(), Qt::LeftButton);
            box->lineEdit()->setFocus(Qt::MouseFocusReason);  // offscreen, focus does not follow the click
            QTest::keyClicks(box->lineEdit(), QLatin1String(digits));
            if (box->text() != QLatin1String(digits))
                failure += u'\n' + QStringLiteral("typed %1, the field shows %2").arg(QLatin1String(digits), box->text());
        }
        nextPage("workload");
        fill(wizard->rateBox(), QStringLiteral("5"));
        fill(wizard->ttftBox(), QStringLiteral("1000"));
        nextPage("traffic");
        fill(wizard->qualityBox(), QStringLiteral("95"));
        fill(wizard->failureBox(), QStringLiteral("1"));
        fill(wizard->apiAllowedBox(), QStringLiteral("yes"));
        nextPage("decision");
        for (const char *gpu : {"L40S 48GB", "H100 SXM5"}) {
            fill(wizard->gpuFilter(), QLatin1String(gpu));
            ++actions;
            QTest::keyClick(wizard->gpuFilter(), Qt::Key_Return);  // ticks the first match
        }
        wizard->apiGroup()->setFocus();
        ++actions;
        QTest::keyClick(wizard->apiGroup(), Qt::Key_Space);  // tick "compare with a model-API quote"
        fill(wizard->apiForm()->providerEdit(), QStringLiteral("Example AI, Llama 3.1 8B"));
        fill(wizard->apiForm()->inputBox(), QStringLiteral("0.1"));
        fill(wizard->apiForm()->outputBox(), QStringLiteral("0.2"));
        fill(wizard->apiForm()->sourceEdit(), QStringLiteral("https://example.com/pricing (test)"));
        QAbstractButton *finish = wizard->button(QWizard::FinishButton);
        for (QLabel *l : wizard->currentPage()->findChildren<QLabel *>())
            if (l->text().startsWith(QLatin1String("Still needed")))
                failure += u'\n' + l->text();
        if (!finish->isEnabled())
            failure += u'\n' + QStringLiteral("Finish is not offered: ") + wizard->problemLabel()->text();
        click(finish);
        if (wizard->isVisible()) {
            failure += u'\n' + QStringLiteral("the wizard stayed open: ") + wizard->problemLabel()->text();
            wizard->reject();
        }
    });
    ++actions;
    QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY2(actions <= 22, qPrintable(QString::number(actions)));
    const wb::Brief *brief = doc.brief();
    QVERIFY(brief);
    QCOMPARE(brief->workload.model.id, std::string("llama-3.1-8b"));
    QCOMPARE(brief->workload.inputTokens, 2000.0);
    QCOMPARE(brief->workload.outputTokens, 300.0);
    QCOMPARE(brief->workload.traffic.requestRatePerS.value_or(0), 5.0);
    QCOMPARE(brief->workload.slo.ttftP99S.value_or(0), 1.0);
    QCOMPARE(brief->workload.acceptance.qualityPassRate, 0.95);
    QCOMPARE(brief->workload.acceptance.failureRate, 0.01);
    QVERIFY(brief->cost.api);
    QCOMPARE(brief->cost.api->usdPerMillionInput, 0.1);
    QCOMPARE(brief->cost.api->usdPerMillionOutput, 0.2);
    QCOMPARE(int(brief->candidates.size()), 2);
    QVERIFY(doc.isModified());  // a new comparison is unsaved work
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const wb::Results &results = doc.results();
    QVERIFY2(results.ranked(), qPrintable(QString::fromStdString(wb::rankingHeldBackText(results.rankingHeldBackBy))));
    QVERIFY(results.cost.recommendation);
    QVERIFY(results.cost.api);
    for (const wb::CandidateResult &r : results.results)
        QVERIFY2(r.fit.fits, qPrintable(QString::fromStdString(r.candidate.gpu)));
    // The decision table's rows are the cost page's rows, figure for figure.
    QAbstractItemModel *decision = w.comparisonTable()->model();
    QAbstractItemModel *cost = w.costTable()->model();
    QSet<QString> costRows, decisionRows;
    for (int r = 0; r < cost->rowCount(); ++r)
        costRows << cost->index(r, wb::CostTableModel::Candidate).data().toString() + u'|'
                        + cost->index(r, wb::CostTableModel::PerAccepted).data().toString();
    for (int r = 0; r < decision->rowCount(); ++r)
        decisionRows << decision->index(r, wb::ComparisonModel::Candidate).data().toString() + u'|'
                            + decision->index(r, wb::ComparisonModel::PerAccepted).data().toString();
    QVERIFY(decisionRows.size() >= 2);
    for (const QString &row : decisionRows)
        QVERIFY2(costRows.contains(row), qPrintable(row));
}

// The model-API quote wants both prices (an empty input price was taken as $0, and the quote
// replaced the brief's without showing it); a negative price stays visible and is refused with
// the reason; the dialog opens on the brief's current quote.
void TestMainWindow::apiQuoteNeedsBothPricesAndShowsTheCurrentOne()
{
    wb::ApiQuoteDialog dialog;
    dialog.show();
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    wb::ApiQuoteForm *form = dialog.form();
    QTest::keyClicks(form->providerEdit(), QStringLiteral("Beta AI, Llama 3.1 8B"));
    QTest::keyClicks(form->outputBox()->lineEdit(), QStringLiteral("0.25"));
    QTest::keyClicks(form->sourceEdit(), QStringLiteral("https://example.com/beta (test)"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(form->missing().contains(QLatin1String("the input price")));
    QTest::keyClicks(form->inputBox()->lineEdit(), QStringLiteral("-1"));
    QCOMPARE(form->inputBox()->text(), QStringLiteral("-1"));  // kept as typed, and refused
    QVERIFY(!ok->isEnabled());
    QVERIFY(form->wrong().join(u' ').contains(QLatin1String("outside")));
    form->inputBox()->lineEdit()->selectAll();
    QTest::keyClicks(form->inputBox()->lineEdit(), QStringLiteral("0.1"));
    QVERIFY(ok->isEnabled());
    const QJsonObject json = QJsonDocument::fromJson(dialog.json().toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("usd_per_million_input")).toDouble(), 0.1);
    QCOMPARE(json.value(QStringLiteral("usd_per_million_output")).toDouble(), 0.25);
    // The brief's own quote, shown to revise.
    wb::ApiPrice current;
    current.provider = "Acme AI";
    current.usdPerMillionInput = 0.15;
    current.usdPerMillionOutput = 0.6;
    current.failureRate = 0.02;
    current.observed = "2026-11-02";
    current.source = "quote 7";
    wb::ApiQuoteDialog revise;
    revise.form()->setQuote(current);
    QCOMPARE(revise.form()->providerEdit()->text(), QStringLiteral("Acme AI"));
    QCOMPARE(revise.form()->inputBox()->value().value_or(-1), 0.15);
    QCOMPARE(revise.form()->failureBox()->value().value_or(-1), 2.0);
    QCOMPARE(QJsonDocument::fromJson(revise.json().toUtf8()).object().value(QStringLiteral("failure_rate")).toDouble(), 0.02);
}

// The catalog browser lists every GPU with its figures' sources; the filter narrows it; the
// chosen GPU becomes a candidate in one undo step. The candidates table shows each candidate's
// lowest dated price.
void TestMainWindow::catalogBrowserShowsEveryGpuWithSources()
{
    const wb::Catalog catalog = shippedCatalog();
    wb::GpuCatalogModel model(catalog);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), int(catalog.gpus().size()));
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString source = model.index(row, wb::GpuCatalogModel::Memory).data(Qt::ToolTipRole).toString();
        QVERIFY2(source.startsWith(QLatin1String("Source: ")) && source.contains(QLatin1String("http")),
                 qPrintable(model.index(row, 0).data().toString() + QStringLiteral(": ") + source));
        QVERIFY(!model.index(row, wb::GpuCatalogModel::Bandwidth).data(Qt::ToolTipRole).toString().isEmpty());
    }
    wb::CatalogBrowser browser(catalog);
    browser.filter()->setText(QStringLiteral("H200 SXM"));
    QCOMPARE(browser.table()->model()->rowCount(), 1);
    browser.table()->selectRow(0);
    QCOMPARE(browser.selectedGpu(), QStringLiteral("h200-sxm-141gb"));
    // Words, not the catalog's keys: "NVIDIA", "Hopper", "NVLink 900 GB/s × 8".
    const QAbstractItemModel *shown = browser.table()->model();
    QCOMPARE(shown->index(0, wb::GpuCatalogModel::Vendor).data().toString(), QStringLiteral("NVIDIA"));
    QCOMPARE(shown->index(0, wb::GpuCatalogModel::Architecture).data().toString(), QStringLiteral("Hopper"));
    QCOMPARE(shown->index(0, wb::GpuCatalogModel::ScaleUp).data().toString(), QStringLiteral("NVLink 900 GB/s × 8"));

    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    const int steps = doc.undoStack()->count();
    w.addCandidate(browser.selectedGpu());
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(doc.brief()->candidates.back().gpu, std::string("h200-sxm-141gb"));
    // The H100's lowest on-demand price in the price book, $3.49 (resources/catalog/prices.json).
    const QString price = w.candidatesTable()->model()->index(0, wb::CandidatesModel::Price).data().toString();
    QVERIFY2(price.startsWith(QLatin1String("$3.49/h on-demand, 2026-")) && !price.contains(u'\n'), qPrintable(price));
    // The candidate is named as the catalog names it, on its stack's own spelling.
    QCOMPARE(w.candidatesTable()->model()->index(0, wb::CandidatesModel::Gpu).data().toString(),
             QStringLiteral("NVIDIA H100 SXM5 80GB"));
    QCOMPARE(w.candidatesTable()->model()->index(0, wb::CandidatesModel::Stack).data().toString(), QStringLiteral("vLLM"));
    auto *kind = qobject_cast<QComboBox *>(w.briefForm()->field(QStringLiteral("/workload/kind")));
    QCOMPARE(kind->currentText(), QStringLiteral("real-time inference"));
    QVERIFY(w.candidatesTable()->model()->index(0, wb::CandidatesModel::Price).data(Qt::ToolTipRole).toString().contains(
        QLatin1String("observed")));
    doc.undoStack()->undo();
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

void TestMainWindow::badBriefLeavesDocumentAsItWas()
{
    wb::Document doc(shippedCatalog());
    QVERIFY(!doc.openFile(kSample).has_value());
    const auto error = doc.openFile(QStringLiteral("/nonexistent/brief.json"));
    QVERIFY(error.has_value());
    QVERIFY(error->contains(QLatin1String("/nonexistent/brief.json")));
    QCOMPARE(doc.sourcePath(), QFileInfo(kSample).absoluteFilePath());
    QCOMPARE(doc.results().results.size(), std::size_t(6));
    // A FIFO named like a brief is refused at once (the window hung on it, black), and so is a
    // folder; the document stays as it was.
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("brief.json"));
    QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
    QElapsedTimer timer;
    timer.start();
    const auto fifoError = doc.openFile(fifo);
    QVERIFY(timer.elapsed() < 2000);
    QVERIFY(fifoError && fifoError->contains(QLatin1String("is a pipe (FIFO), not a file")));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("folder.json"))));
    const auto folderError = doc.openFile(dir.filePath(QStringLiteral("folder.json")));
    QVERIFY(folderError && folderError->contains(QLatin1String("folder")));
    QCOMPARE(doc.sourcePath(), QFileInfo(kSample).absoluteFilePath());
}

void TestMainWindow::newClearsTheDocument()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    doc.clear();
    QCOMPARE(w.fitTable()->model()->rowCount(), 0);
    QVERIFY(w.windowTitle().startsWith(QLatin1String("Untitled")));
    // The brief page says what to do instead of showing empty fields.
    QVERIFY(!w.briefForm()->field(QStringLiteral("/workload/model"))->isVisibleTo(w.briefForm()));
    QCOMPARE(w.resultTabs()->tabText(int(wb::MainWindow::Tab::Brief)), QStringLiteral("Brief"));
    // Adding a scenario with nothing open starts a project with it.
    QVERIFY(!doc.addScenarioFromFile(kSample).has_value());
    QCOMPARE(doc.scenarioNames().size(), 1);
    QVERIFY(w.briefForm()->field(QStringLiteral("/workload/model"))->isVisibleTo(w.briefForm()));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// The three charts fill once the simulations are in, show the value under the pointer, and
// export to PNG, SVG and PDF.
void TestMainWindow::chartsFollowResultsAndExport()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.resize(1280, 800);
    QVERIFY(showOnSample(w, doc));
    QVERIFY(w.fitChart()->seriesCount() >= 3);  // weights, KV cache, activations, runtime
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    // Five candidates with performance draw five load curves, plus the TTFT target line.
    QCOMPARE(w.loadChart()->seriesCount(), 6);
    // Its overloaded points span more than a hundredfold: a log axis whose ticks read as numbers
    // ("10,000", "20 M"), not "1E+04".
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Performance));
    QVERIFY2(w.loadChart()->title().contains(QLatin1String("log scale")), qPrintable(w.loadChart()->title()));
    QTRY_VERIFY(!w.loadChart()->axisTickLabels(Qt::Vertical).isEmpty());
    for (const QString &label : w.loadChart()->axisTickLabels(Qt::Vertical))
        QVERIFY2(QRegularExpression(QStringLiteral("^([0-9]{1,3}(,[0-9]{3})*|[0-9.]+ M)$")).match(label).hasMatch(),
                 qPrintable(label));
    QVERIFY(w.costChart()->seriesCount() >= 4);
    // Fractional ticks are short ("0.6" once read "0.6000000000000001").
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Cost));
    QTRY_VERIFY(!w.costChart()->axisTickLabels(Qt::Vertical).isEmpty());
    for (const QString &label : w.costChart()->axisTickLabels(Qt::Vertical))
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9]{1,3}(,[0-9]{3})*(\\.[0-9]{1,6})?( M)?$")).match(label).hasMatch(),
                 qPrintable(label));
    QTemporaryDir dir;
    for (const char *suffix : {"png", "svg", "pdf"}) {
        const QString file = dir.filePath(QStringLiteral("chart.") + QLatin1String(suffix));
        QCOMPARE(w.costChart()->exportTo(file), QString());
        QVERIFY(QFileInfo(file).size() > 1000);
    }
    QVERIFY(!w.costChart()->exportTo(dir.filePath(QStringLiteral("chart.bmp"))).isEmpty());
    // A slide's size, or twice its pixels for a sharp one; the name offered says what and when.
    const QString slide = dir.filePath(QStringLiteral("slide.png"));
    QCOMPARE(w.costChart()->exportTo(slide, 1920, 1080, 2), QString());
    QCOMPARE(QImage(slide).size(), QSize(3840, 2160));
    // The file says 192 DPI (7,559 dots per metre: 192 / 0.0254), as its pixels are.
    QCOMPARE(QImage(slide).dotsPerMeterX(), 7559);
    QCOMPARE(w.costChart()->exportTo(slide, 1024, 768), QString());
    QCOMPARE(QImage(slide).size(), QSize(1024, 768));
    // Any other size: typed into the export dialog, which says what comes out before the file
    // is chosen. 1920 x 1080 pixels at 300 DPI is a 16.3 x 9.1 cm print (1,920 / 300 x 2.54 =
    // 16.256; 1,080 / 300 x 2.54 = 9.144), laid out at 614 x 346 points (/ 3.125) and drawn to
    // exactly the pixels typed.
    {
        wb::ChartExportDialog dialog(QSize(800, 450));
        typeInto(dialog.widthEdit(), QStringLiteral("1920"));
        typeInto(dialog.heightEdit(), QStringLiteral("1080"));
        typeInto(dialog.dpiEdit(), QStringLiteral("300"));
        QCOMPARE(dialog.summary(), QStringLiteral("A PNG of 1,920 × 1,080 pixels, 16.3 × 9.1 cm printed at 300 DPI."));
        QCOMPARE(dialog.layoutSize(), QSize(614, 346));
        QCOMPARE(dialog.scale(), 300 / 96.0);
        const QString print = dir.filePath(QStringLiteral("print.png"));
        QCOMPARE(w.costChart()->exportTo(print, dialog.layoutSize().width(), dialog.layoutSize().height(), dialog.scale(),
                                         dialog.pixelSize()),
                 QString());
        QCOMPARE(QImage(print).size(), QSize(1920, 1080));
        QCOMPARE(QImage(print).dotsPerMeterX(), 11811);  // 300 / 0.0254
        // An empty resolution is the placeholder's 96.
        typeInto(dialog.dpiEdit(), QString());
        QCOMPARE(dialog.dpi(), 96);
        QVERIFY(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        // 1,200 DPI would lay 1,920 pixels out at 154 points: too small to read, refused before a
        // file is asked for.
        typeInto(dialog.dpiEdit(), QStringLiteral("1200"));
        QVERIFY2(dialog.summary().contains(QLatin1String("too small")), qPrintable(dialog.summary()));
        QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        // A vector format has no DPI.
        dialog.formatBox()->setCurrentIndex(dialog.formatBox()->findData(QStringLiteral("svg")));
        QVERIFY(!dialog.dpiEdit()->isEnabled());
        QVERIFY(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
        typeInto(dialog.widthEdit(), QString());
        QCOMPARE(dialog.summary(), QStringLiteral("The width is needed."));
    }
    const QString name = w.costChart()->defaultExportName();
    QVERIFY2(name.startsWith(QLatin1String("support-chat-")) && name.endsWith(QDate::currentDate().toString(Qt::ISODate))
                 && !name.contains(u' '),
             qPrintable(name));
    // Hovering the middle of the first bar names the candidate and the line item.
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Fit));
    QTest::qWait(20);
    bool found = false;
    for (int x = 0; x < w.fitChart()->width() && !found; x += 4)
        for (int y = 0; y < w.fitChart()->height() && !found; y += 4)
            found = w.fitChart()->valueAt(QPoint(x, y)).contains(QLatin1String("Weights"));
    QVERIFY(found);
    // The headroom map of the selected candidate: one colour map whose cells name context,
    // concurrency and headroom on hover, and the brief's point ringed on it.
    w.fitChartChoice()->setCurrentIndex(1);
    w.fitTable()->selectRow(2);
    QCOMPARE(w.fitChart()->seriesCount(), 2);
    found = false;
    for (int x = 0; x < w.fitChart()->width() && !found; x += 6)
        for (int y = 0; y < w.fitChart()->height() && !found; y += 6)
            found = w.fitChart()->valueAt(QPoint(x, y)).contains(QLatin1String("headroom"));
    QVERIFY(found);
    // Its colour scale and title do not make the chart's minimum wider than half a 1280-pixel
    // screen (it was 1,024, which with the scenarios panel pushed the window to 1,369).
    QVERIFY2(w.fitChart()->minimumSizeHint().width() <= 640, qPrintable(QString::number(w.fitChart()->minimumSizeHint().width())));
    QVERIFY(w.minimumSizeHint().width() <= 1280);
    w.fitChartChoice()->setCurrentIndex(0);
    QVERIFY(w.fitChart()->seriesCount() >= 3);
}

// The batch sample's 1 × A100 is priced at the two GPUs its volume needs in its 8-hour nightly
// window (before the sample stated its billing window, its 2 × L40S was priced at one): the
// break-even chart's title says 2 × and "(1 entered)", as the cost table's row does (it once said
// the entered count). A LoRA brief's performance page says that training is not simulated, not
// that it simulated "serving at the brief's traffic".
void TestMainWindow::pagesSayWhatTheyShow()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/batch-summarization.brief.json")).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const wb::Results &results = doc.results();
    std::size_t a100 = results.results.size();
    for (std::size_t i = 0; i < results.results.size(); ++i)
        if (results.results[i].candidate.gpu == "a100-sxm-80gb")
            a100 = i;
    QVERIFY(a100 < results.results.size());
    QCOMPARE(results.results[a100].candidate.gpus, 1);
    QCOMPARE(wb::deployment(results.results[a100]).cost.options.front().gpus, 2);
    wb::ChartView chart;
    wb::showBreakEvenChart(&chart, results, a100);
    QCOMPARE(chart.title(), QStringLiteral("Monthly cost against volume: 2×A100 80GB SXM4 TP1 (1 entered)"));
    // Its log axes run to a billion requests: "1,000 M", not "1E+03 M".
    chart.resize(900, 500);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(!chart.axisTickLabels(Qt::Horizontal).isEmpty());
    for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
        for (const QString &label : chart.axisTickLabels(o))
            QVERIFY2(QRegularExpression(QStringLiteral("^[0-9]{1,3}(,[0-9]{3})*(\\.[0-9]+)?( M)?$")).match(label).hasMatch(),
                     qPrintable(label));
    // The cost bars name the same count (they once said "2×L40S" for a bar costing one).
    wb::ChartView bars;
    bars.resize(900, 500);
    bars.show();
    wb::showCostChart(&bars, results);
    QTRY_VERIFY(!bars.axisTickLabels(Qt::Horizontal).isEmpty());
    const QString barNames = bars.axisTickLabels(Qt::Horizontal).join(u'|');
    QVERIFY2(barNames.contains(QStringLiteral("2×A100")) && !barNames.contains(QStringLiteral("1×A100")), qPrintable(barNames));

    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/lora-finetune.brief.json")).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    QStringList texts;
    for (QLabel *label : w.resultTabs()->widget(int(wb::MainWindow::Tab::Performance))->findChildren<QLabel *>())
        texts << label->text();
    const QString all = texts.join(u'|');
    // A LoRA fine-tune is a training run: its time, not a serving simulation.
    QVERIFY2(all.contains(QLatin1String("How long does the run take")) && !all.contains(QLatin1String("Simulated serving")),
             qPrintable(all));
    auto *table = w.resultTabs()->widget(int(wb::MainWindow::Tab::Performance))->findChild<QTableView *>();
    QVERIFY(table);
    QCOMPARE(table->model()->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Time to train"));
    // The H100 row (the sample's fourth candidate) has a time to train in hours.
    QVERIFY2(table->model()->index(3, 5).data().toString().endsWith(QLatin1String(" h")),
             qPrintable(table->model()->index(3, 5).data().toString()));
}

// A media brief's fields, typed and picked with the keyboard: more steps are slower, a width off
// the latent grid is refused with the reason and loses nothing, a smaller image is faster, the
// pipeline is chosen by typing its name (a video one shows its frames), and Ctrl+Z undoes.
void TestMainWindow::mediaFieldsTyped()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/sdxl-images.brief.json")).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::BriefForm *form = w.briefForm();
    const auto seconds = [&] { return doc.results().results.at(0).performance.media->secondsPerOutput; };
    const double at30 = seconds();
    // 60 steps instead of 30: twice the denoising, nearly twice the time (text and VAE unchanged).
    typeInto(numberField(form, "/workload/media/steps"), QStringLiteral("60"));
    QCOMPARE(doc.brief()->workload.media->steps, 60);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && seconds() > 1.9 * at30, 60000);
    const double at60 = seconds();
    // 1,000 pixels is not on SDXL's 32-pixel grid: refused, the brief keeps 1,024, the reason shown.
    typeInto(numberField(form, "/workload/media/width"), QStringLiteral("1000"));
    QCOMPARE(doc.brief()->workload.media->width, 1024);
    QVERIFY2(findChildLabelText(form).contains(QStringLiteral("multiple of 32")), qPrintable(findChildLabelText(form)));
    typeInto(numberField(form, "/workload/media/width"), QStringLiteral("768"));
    QCOMPARE(doc.brief()->workload.media->width, 768);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && seconds() < at60, 60000);
    // The pipeline typed by name: FLUX.1 [dev]; then CogVideoX-5B, whose frames field appears.
    auto *pipeline = qobject_cast<QComboBox *>(form->field(QStringLiteral("/workload/media/model")));
    QVERIFY(pipeline);
    QVERIFY(!form->field(QStringLiteral("/workload/media/frames"))->isVisibleTo(form));
    pipeline->setFocus(Qt::TabFocusReason);
    QTest::keyClicks(pipeline, QStringLiteral("FLUX"));  // no space: a space opens the list
    QCOMPARE(doc.brief()->workload.media->model.id, std::string("flux.1-dev"));
    QTest::qWait(1100);  // the combo box's keyboard search starts afresh after a pause
    QTest::keyClicks(pipeline, QStringLiteral("Cog"));
    QCOMPARE(doc.brief()->workload.media->model.id, std::string("cogvideox-5b"));
    QVERIFY(form->field(QStringLiteral("/workload/media/frames"))->isVisibleTo(form));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    // Ctrl+Z back through the pipelines, the width and the steps.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    for (int i = 0; i < 4; ++i)
        QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(doc.brief()->workload.media->model.id, std::string("sdxl-1.0-base"));
    QCOMPARE(doc.brief()->workload.media->width, 1024);
    QCOMPARE(doc.brief()->workload.media->steps, 30);
}

// Scenario > Find Layouts by its shortcut: the limit typed, Search clicked, the layouts found
// shown with both charts and each GPU's cheapest selected; Add puts them in the scenario as one
// step that Ctrl+Z (in the dialog) takes back. A second search over every GPU is cancelled by its button.
void TestMainWindow::layoutSearchFindsAndAdds()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json")).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const std::size_t before = doc.brief()->candidates.size();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_L, Qt::ControlModifier | Qt::ShiftModifier);
    auto *dialog = w.findChild<wb::LayoutSearchDialog *>();
    QVERIFY(dialog);
    QTRY_VERIFY(dialog->isVisible());
    // The brief's GPUs are ticked to start with.
    int ticked = 0;
    for (int i = 0; i < dialog->gpuList()->count(); ++i)
        ticked += dialog->gpuList()->item(i)->checkState() == Qt::Checked;
    QCOMPARE(ticked, 6);
    dialog->maxGpusBox()->setFocus(Qt::TabFocusReason);
    dialog->maxGpusBox()->selectAll();
    QTest::keyClicks(dialog->maxGpusBox(), QStringLiteral("8"));
    QCOMPARE(dialog->maxGpusBox()->value(), 8);
    QTest::mouseClick(dialog->searchButton(), Qt::LeftButton);
    QVERIFY(dialog->busy());
    QVERIFY(dialog->cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->busy(), 120000);
    QVERIFY(dialog->result());
    QVERIFY(!dialog->result()->cancelled);
    QVERIFY(dialog->table()->model()->rowCount() > 5);
    int cheapest = 0;
    for (const wb::LayoutResult &l : dialog->result()->layouts) {
        QVERIFY(!l.costed || l.candidate.gpus <= 8 || !l.withinGpuLimit);
        cheapest += l.cheapestOfGpu;
    }
    QVERIFY(cheapest >= 2);
    QCOMPARE(int(dialog->table()->selectionModel()->selectedRows().size()), cheapest);
    QVERIFY(dialog->costChart()->seriesCount() >= 3);        // two GPUs at least and the front
    QVERIFY(dialog->throughputChart()->seriesCount() >= 3);
    QVERIFY(dialog->addButton()->isEnabled());
    QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
    QCOMPARE(doc.brief()->candidates.size(), before + std::size_t(cheapest));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    // Added again: nothing, and the dialog says why.
    QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
    QCOMPARE(doc.brief()->candidates.size(), before + std::size_t(cheapest));
    QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("candidates already")), qPrintable(dialog->statusLabel()->text()));
    // Ctrl+Z in the dialog takes the whole addition back.
    QTest::keyClick(dialog, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(doc.brief()->candidates.size(), before);
    // The precisions to try are the brief's: ticking bf16 writes it there (one step, undone).
    QCheckBox *bf16 = nullptr;
    for (QCheckBox *box : dialog->precisionBoxes()) {
        QCOMPARE(box->isChecked(), box->text() == QStringLiteral("fp8"));
        if (box->text() == QStringLiteral("bf16"))
            bf16 = box;
    }
    QVERIFY(bf16);
    QTest::mouseClick(bf16, Qt::LeftButton);
    QCOMPARE(doc.brief()->workload.acceptablePrecisions,
             (std::vector<wb::Precision>{wb::Precision::Bf16, wb::Precision::Fp8}));
    QTest::keyClick(dialog, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(doc.brief()->workload.acceptablePrecisions.empty());
    QVERIFY(!bf16->isChecked());

    // Every GPU of the catalog at the default limit, cancelled at once: the dialog says so and
    // is ready for another search.
    dialog->activateWindow();
    for (QPushButton *b : dialog->findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("&All"))
            QTest::mouseClick(b, Qt::LeftButton);
    ticked = 0;
    for (int i = 0; i < dialog->gpuList()->count(); ++i)
        ticked += dialog->gpuList()->item(i)->checkState() == Qt::Checked;
    QCOMPARE(ticked, dialog->gpuList()->count());
    QTest::mouseClick(dialog->searchButton(), Qt::LeftButton);
    QTest::mouseClick(dialog->cancelButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->busy(), 30000);
    QVERIFY(dialog->result()->cancelled);
    QVERIFY2(dialog->statusLabel()->text().startsWith(QStringLiteral("Cancelled")), qPrintable(dialog->statusLabel()->text()));
    QVERIFY(dialog->searchButton()->isEnabled());

    // Layouts found for one scenario are not added to another shown meanwhile.
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    QVERIFY(!doc.openBriefs({kSample, samples + QStringLiteral("batch-summarization.brief.json")}).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    dialog = w.findLayouts();
    QVERIFY(dialog);
    dialog->maxGpusBox()->setFocus(Qt::TabFocusReason);
    dialog->maxGpusBox()->selectAll();
    QTest::keyClicks(dialog->maxGpusBox(), QStringLiteral("2"));
    QTest::mouseClick(dialog->searchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog->busy(), 120000);
    w.scenarioList()->setCurrentRow(1);
    const std::size_t batch = doc.brief()->candidates.size();
    QVERIFY(dialog->addSelected().has_value());
    QCOMPARE(doc.brief()->candidates.size(), batch);
    QVERIFY2(dialog->statusLabel()->text().contains(QStringLiteral("were found for the scenario")),
             qPrintable(dialog->statusLabel()->text()));
}

void TestMainWindow::trainingFieldsTyped()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/pretrain-70b.brief.json")).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::BriefForm *form = w.briefForm();
    const auto training = [&] { return *doc.results().results.at(0).performance.training; };
    // Unstated, the interval is the least wasteful one (the sample's 100 GB/s storage writes the
    // 988 GB checkpoint in 9.9 s; one interruption every 49.6 h for 1,024 GPUs: about 31 minutes).
    QVERIFY(!training().checkpoint.intervalFromBrief);
    QVERIFY(std::fabs(training().checkpoint.intervalS / 60 - 31.2) < 0.5);
    const double wasteAtBest = training().checkpoint.wastedFraction;
    // "Checkpoint every" 300 minutes, typed: the brief says 18,000 s and the run wastes more.
    typeInto(numberField(form, "/workload/training/checkpoint/interval_s"), QStringLiteral("300"));
    QCOMPARE(doc.brief()->workload.training->checkpoint.intervalS.value_or(0), 18000.0);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && training().checkpoint.intervalFromBrief, 60000);
    QCOMPARE(training().checkpoint.intervalS, 18000.0);
    QVERIFY(training().checkpoint.wastedFraction > wasteAtBest);
    // Interruptions per million GPU-hours: 197 typed is 1.97e-4 per GPU-hour, ten times the default.
    const double interruptions = *training().expectedInterruptions;
    typeInto(numberField(form, "/workload/training/interruptions_per_gpu_hour"), QStringLiteral("197"));
    QVERIFY(std::fabs(doc.brief()->workload.training->interruptionsPerGpuHour.value_or(0) - 1.97e-4) < 1e-12);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && *training().expectedInterruptions > 9 * interruptions, 60000);
    // Emptied, it is the default again; Ctrl+Z steps back through the edits.
    typeInto(numberField(form, "/workload/training/interruptions_per_gpu_hour"), QString());
    QVERIFY(!doc.brief()->workload.training->interruptionsPerGpuHour);
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QVERIFY(!doc.brief()->workload.training->checkpoint.intervalS);

    // The candidates of a training brief show context parallelism, interleaving and the network,
    // not a serving stack; each is typed.
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Candidates));
    QTableView *table = w.candidatesTable();
    QVERIFY(!table->isColumnHidden(wb::CandidatesModel::Context) && table->isColumnHidden(wb::CandidatesModel::Stack));
    typeInCell(table, 0, wb::CandidatesModel::Context, QStringLiteral("2"));
    QCOMPARE(doc.brief()->candidates[0].contextParallel, 2);
    QCOMPARE(doc.brief()->candidates[0].gpus, 1024);  // 1,024 is a whole number of TP8 x PP4 x CP2 ranks
    typeInCell(table, 0, wb::CandidatesModel::Network, QStringLiteral("800"));
    QVERIFY(doc.brief()->candidates[0].network);
    QCOMPARE(doc.brief()->candidates[0].network->bytesPerSPerGpu, 100e9);  // 800 Gb/s
    QCOMPARE(doc.brief()->candidates[0].network->kind, std::string("infiniband"));
    typeInCell(table, 2, wb::CandidatesModel::Network, QString());  // the MI300X's RoCE: emptied, the default
    QVERIFY(!doc.brief()->candidates[2].network);
    QCOMPARE(table->model()->index(2, wb::CandidatesModel::Network).data().toString(), QStringLiteral("default (400 Gb/s)"));
    // A count the layout does not divide (1,000 over TP8 x PP4 x CP2) changes the layout, and
    // the page says so instead of doing it silently.
    typeInCell(table, 0, wb::CandidatesModel::Gpus, QStringLiteral("1000"));
    QCOMPARE(doc.brief()->candidates[0].gpus, 1000);
    QCOMPARE(doc.brief()->candidates[0].pipelineParallel, 1);
    QLabel *note = nullptr;
    for (QLabel *label : w.resultTabs()->widget(int(wb::MainWindow::Tab::Candidates))->findChildren<QLabel *>())
        if (label->accessibleName() == QLatin1String("Layout change"))
            note = label;
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("1,000 GPUs are not a whole number of TP 8 × PP 4 × CP 2"))
                 && note->text().contains(QStringLiteral("became TP 8, PP 1.")),
             qPrintable(note->text()));
    typeInCell(table, 0, wb::CandidatesModel::Tensor, QStringLiteral("8"));  // the next edit clears it
    QVERIFY(!note->isVisible());
}

// A brief opens as an unsaved project; Save As writes a .gpuwb that opens again as the same
// scenario, saved and unmodified.
void TestMainWindow::saveProjectAndReopen()
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
void TestMainWindow::autosaveAndRecover()
{
    QTemporaryDir recovery;
    qputenv("GPUWB_RECOVERY_DIR", recovery.path().toUtf8());
    {
        auto doc = std::make_unique<wb::Document>(shippedCatalog());
        QVERIFY(!doc->openFile(kSample).has_value());
        QVERIFY(doc->autosaveNow());
        QCOMPARE(wb::pendingRecoveryFiles().size(), std::size_t(1));
        // A crash: the document is never destroyed; its recovery file stays.
        (void)doc.release();
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

void TestMainWindow::badProjectLeavesDocumentAsItWas()
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
void TestMainWindow::checklistByKeyboard()
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
void TestMainWindow::checklistGatesAPurchaseInTheWindow()
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

    QVERIFY(!doc.importChecklistAnswers(answers(QStringLiteral("partial.json"), {QStringLiteral("hw-replacement")})).has_value());
    QVERIFY2(gate->text().contains(QLatin1String("subject to evidence")) && gate->text().contains(QLatin1String("hw-replacement")),
             qPrintable(gate->text()));
    QVERIFY(w.recommendationLabel()->text().contains(QLatin1String("subject to evidence")));
    // A warning names the item and leads to the Checklist page.
    bool warned = false;
    for (int i = 0; i < w.warningList()->count(); ++i)
        warned = warned || w.warningList()->item(i)->text().contains(QLatin1String("hw-replacement"));
    QVERIFY(warned);

    QVERIFY(!doc.importChecklistAnswers(answers(QStringLiteral("all.json"), {})).has_value());
    QVERIFY2(gate->text().contains(QLatin1String("is backed")), qPrintable(gate->text()));
    QVERIFY(!w.recommendationLabel()->text().contains(QLatin1String("subject to evidence")));
    doc.undoStack()->undo();
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

void TestMainWindow::planPageShowsThePlan()
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
    QVERIFY(page->markdown().contains(QLatin1String("## Candidate 2: 8x h200-sxm-141gb")));
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

void TestMainWindow::evidencePageImportsAndCalibrates()
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

void TestMainWindow::recordPageRecordsUndoesAndExports()
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
    QVERIFY2(chosen.contains(QString::fromStdString(view->decisionText.substr(0, view->decisionText.find(' ')))),
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

void TestMainWindow::screenshots()
{
    const QString dir = qEnvironmentVariable("WB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set WB_SCREENSHOT_DIR to save screenshots");
    QDir().mkpath(dir);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QPalette light = QApplication::style()->standardPalette();
    for (const auto &[theme, palette] : {std::pair{QStringLiteral("light"), light}, std::pair{QStringLiteral("dark"), darkPalette()}}) {
        QApplication::setPalette(palette);
        const QString themeName = theme;  // clang 14 lambdas cannot capture structured bindings
        for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
            wb::Document doc(shippedCatalog());
            wb::MainWindow w(&doc);
            w.resize(size);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
            QList<wb::Document::RunsFile> runs;
            for (const char *file : {"vllm-h200-12.5rps.json", "guidellm-h200.json", "llmperf-h200_2000_300_summary.json"})
                runs.append({samples + QStringLiteral("evidence/") + QLatin1String(file), 3, 0});
            const auto openSample = [&] {
                QVERIFY(!doc.openBriefs({kSample, samples + QStringLiteral("batch-summarization.brief.json"),
                                         samples + QStringLiteral("lora-finetune.brief.json"),
                                         samples + QStringLiteral("chat-70b-h200-measured.brief.json")},
                                        {kSampleAnswers}, runs)
                             .has_value());
                QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
            };
            openSample();
            QTest::qWait(50);
            // Every page, and every chart each page offers.
            using W = wb::MainWindow;
            const auto page = [&](int tab) { w.resultTabs()->setCurrentIndex(tab); };
            const auto scenario = [&](int row) {
                w.scenarioList()->setCurrentRow(row);
                QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
            };
            std::vector<std::pair<QString, std::function<void()>>> views = {
                {QStringLiteral("1-brief"), [&] { page(int(W::Tab::Brief)); }},
                {QStringLiteral("1-brief-lora"), [&] { scenario(2); page(int(W::Tab::Brief)); }},
                {QStringLiteral("1-brief-batch"), [&] { scenario(1); page(int(W::Tab::Brief)); }},
                {QStringLiteral("2-candidates"), [&] { scenario(0); page(int(W::Tab::Candidates)); }},
                {QStringLiteral("3-fit"), [&] { w.fitChartChoice()->setCurrentIndex(0); page(int(W::Tab::Fit)); }},
                {QStringLiteral("3-fit-headroom"), [&] { w.fitChartChoice()->setCurrentIndex(1); }},
                {QStringLiteral("5-cost"), [&] { w.costChartChoice()->setCurrentIndex(0); page(int(W::Tab::Cost)); }},
                {QStringLiteral("5-cost-break-even"), [&] { w.costChartChoice()->setCurrentIndex(1); }},
                {QStringLiteral("5b-checklist"), [&] { page(int(W::Tab::Checklist)); }},
                {QStringLiteral("5c-checklist-purchase-required"), [&] {
                     w.checklistPage()->commitmentBox()->setCurrentIndex(2);
                     w.checklistPage()->filterBox()->setCurrentIndex(2);
                 }},
                {QStringLiteral("5e-checklist-four-vendors"), [&] {
                     wb::ProjectChecklist four = doc.checklist();
                     wb::Vendor rental;
                     rental.name = "Tailspin Cluster Rentals";
                     rental.offer = wb::VendorOffer::ClusterRental;
                     four.vendors.push_back(rental);
                     QVERIFY(!doc.editChecklist(four, QStringLiteral("Add vendor")).has_value());
                     w.checklistPage()->commitmentBox()->setCurrentIndex(1);
                     w.checklistPage()->filterBox()->setCurrentIndex(0);
                 }},
                {QStringLiteral("5d-plan"), [&] {
                     w.checklistPage()->filterBox()->setCurrentIndex(0);
                     page(int(W::Tab::Plan));
                 }},
                {QStringLiteral("6-compare"), [&] { page(int(W::Tab::Compare)); }},
                {QStringLiteral("6b-record"), [&] { page(int(W::Tab::Record)); }},
                {QStringLiteral("6b-record-made"), [&] {
                     auto snapshot = doc.recordSnapshot();
                     QVERIFY(snapshot);
                     wb::RecordDecision d;
                     d.rationale = "The model API is cheapest at this volume; revisit when it doubles";
                     d.signOff = {"Ana Ruiz, finance", "Bo Chen, platform"};
                     d.date = "2026-12-02";
                     auto content = wb::recordScenario(*snapshot, doc.catalog(), d, "2026-12-02T10:00:00Z");
                     QVERIFY2(content, content ? "" : content.error().toString().c_str());
                     QVERIFY(!doc.addRecord(doc.scenarioName(), "2026-12-02T10:00:00Z", *content).has_value());
                     w.recordPage()->recordsTable()->selectRow(0);
                 }},
                {QStringLiteral("5f-evidence"), [&] {
                     scenario(3);
                     QTRY_VERIFY_WITH_TIMEOUT(doc.evidenceAnalysisCurrent(), 180000);
                     page(int(W::Tab::Evidence));
                     w.evidencePage()->chartChoice()->setCurrentIndex(0);
                 }},
                {QStringLiteral("5f-evidence-tpot"), [&] {
                     w.evidencePage()->runsTable()->setCurrentIndex(w.evidencePage()->runsTable()->model()->index(2, 0));
                     w.evidencePage()->chartChoice()->setCurrentIndex(1);
                 }},
                {QStringLiteral("5f-performance-calibrated"), [&] { page(int(W::Tab::Performance)); }},
                {QStringLiteral("5f-back"), [&] { scenario(0); }},
            };
            for (int m = 0; m < w.loadChartChoice()->count(); ++m)
                views.push_back({QStringLiteral("4-performance-%1").arg(m), [&, m] {
                                     page(int(W::Tab::Performance));
                                     w.loadChartChoice()->setCurrentIndex(m);
                                 }});
            // The other two samples' performance, cost and decision pages.
            views.push_back({QStringLiteral("7-performance-lora"), [&] { scenario(2); page(int(W::Tab::Performance)); }});
            views.push_back({QStringLiteral("7-performance-lora-waste"), [&] { w.loadChartChoice()->setCurrentIndex(1); }});
            views.push_back({QStringLiteral("7-performance-lora-step"), [&] { w.loadChartChoice()->setCurrentIndex(2); }});
            views.push_back({QStringLiteral("7-cost-lora"), [&] { page(int(W::Tab::Cost)); }});
            // A candidate sized to hold the brief: its row as entered, then its deployment's.
            views.push_back({QStringLiteral("7-compare-lora"), [&] { page(int(W::Tab::Compare)); }});
            views.push_back({QStringLiteral("7-performance-batch"), [&] { scenario(1); page(int(W::Tab::Performance)); }});
            views.push_back({QStringLiteral("7-cost-batch"), [&] { page(int(W::Tab::Cost)); }});
            views.push_back({QStringLiteral("7-compare-batch"), [&] { page(int(W::Tab::Compare)); }});
            // A 1,024-GPU pre-training brief: time to train, interruptions, checkpoints, the run's cost.
            views.push_back({QStringLiteral("8-training-scaling"), [&] {
                                 QVERIFY(!doc.openBriefs({samples + QStringLiteral("pretrain-70b.brief.json")}, {}, {}).has_value());
                                 QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
                                 page(int(W::Tab::Performance));
                                 w.loadChartChoice()->setCurrentIndex(0);
                             }});
            views.push_back({QStringLiteral("8-training-waste"), [&] { w.loadChartChoice()->setCurrentIndex(1); }});
            views.push_back({QStringLiteral("8-training-step"), [&] { w.loadChartChoice()->setCurrentIndex(2); }});
            views.push_back({QStringLiteral("8-training-cost"), [&] { page(int(W::Tab::Cost)); }});
            views.push_back({QStringLiteral("8-training-brief"), [&] { page(int(W::Tab::Brief)); }});
            views.push_back({QStringLiteral("8-training-candidates"), [&] { page(int(W::Tab::Candidates)); }});
            // SDXL images on 8x H100, 8x L40S and 8x RTX 4090: images an hour, latency, cost per accepted image.
            views.push_back({QStringLiteral("9-media-batch"), [&] {
                                 QVERIFY(!doc.openBriefs({samples + QStringLiteral("sdxl-images.brief.json")}, {}, {}).has_value());
                                 QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
                                 page(int(W::Tab::Performance));
                                 w.loadChartChoice()->setCurrentIndex(0);
                             }});
            views.push_back({QStringLiteral("9-media-parts"), [&] { w.loadChartChoice()->setCurrentIndex(1); }});
            views.push_back({QStringLiteral("9-media-cost"), [&] { page(int(W::Tab::Cost)); }});
            views.push_back({QStringLiteral("9-media-fit"), [&] { page(int(W::Tab::Fit)); }});
            views.push_back({QStringLiteral("9-media-brief"), [&] { page(int(W::Tab::Brief)); }});
            views.push_back({QStringLiteral("9-media-candidates"), [&] { page(int(W::Tab::Candidates)); }});
            views.push_back({QStringLiteral("9-media-compare"), [&] { page(int(W::Tab::Compare)); }});
            // WB_SCREENSHOT_ONLY=evidence: only the views whose name holds it (the others still run,
            // unsaved, for the state they leave).
            const QString only = qEnvironmentVariable("WB_SCREENSHOT_ONLY");
            for (const auto &[name, show] : views) {
                show();
                if (!only.isEmpty() && !name.contains(only))
                    continue;
                QTest::qWait(20);
                const QString file = QStringLiteral("%1/main-%2-%3x%4-%5.png")
                                         .arg(dir, name).arg(size.width()).arg(size.height()).arg(theme);
                QVERIFY(w.grab().save(file));
            }
            // The windows the main one opens: scenario comparison and the GPU catalog.
            const auto shot = [&](QWidget *window, const QString &name) {
                QVERIFY(QTest::qWaitForWindowExposed(window));
                QTest::qWait(20);
                QVERIFY(window->grab().save(QStringLiteral("%1/%2-%3x%4-%5.png")
                                                .arg(dir, name).arg(size.width()).arg(size.height()).arg(themeName)));
            };
            openSample();  // the training and media views opened briefs of their own
            scenario(0);
            wb::ScenarioCompareDialog *compare = w.openComparison();
            compare->secondChoice()->setCurrentIndex(1);
            QTRY_VERIFY_WITH_TIMEOUT(!compare->busy(), 120000);
            shot(compare, QStringLiteral("compare-scenarios"));
            compare->close();
            // Scenario > Find Layouts on the chat sample, sized as the main window: the table and
            // both charts.
            if (only.isEmpty() || QStringLiteral("layout-search").contains(only)) {
                wb::LayoutSearchDialog *search = w.findLayouts();
                search->resize(size);
                search->start();
                QTRY_VERIFY_WITH_TIMEOUT(!search->busy(), 120000);
                shot(search, QStringLiteral("layout-search-cost"));
                search->findChild<QTabWidget *>()->setCurrentIndex(1);
                shot(search, QStringLiteral("layout-search-throughput"));
                search->close();
            }
            wb::CatalogBrowser browser(doc.catalog(), &w);
            browser.show();
            shot(&browser, QStringLiteral("catalog"));
            browser.close();
            wb::PriceQuoteDialog quote(doc.catalog(), QStringLiteral("h100-sxm-80gb"), &w);
            quote.show();
            shot(&quote, QStringLiteral("price-quote"));
            quote.close();
            // An exported slide, with its stamp.
            QCOMPARE(w.costChart()->exportTo(QStringLiteral("%1/export-cost-slide-%2x%3-%4.png")
                                                 .arg(dir).arg(size.width()).arg(size.height()).arg(themeName)),
                     QString());
            wb::ApiQuoteDialog apiQuote(&w);
            apiQuote.show();
            shot(&apiQuote, QStringLiteral("api-quote"));
            apiQuote.close();
            wb::ChartExportDialog exportSize(QSize(1920, 1080), &w);
            exportSize.show();
            shot(&exportSize, QStringLiteral("export-size"));
            exportSize.close();
            wb::NewComparisonWizard wizard(doc.catalog(), &w);
            wizard.show();
            for (int i = 0; i < 4; ++i) {
                shot(&wizard, QStringLiteral("new-comparison-%1").arg(i + 1));
                wizard.next();  // an incomplete page still shows its fields and what it needs
            }
            wizard.close();
            wb::HelpGuide guide(&w);
            guide.show();
            shot(&guide, QStringLiteral("help-guide"));
            guide.showTerm(QStringLiteral("ttft"));
            shot(&guide, QStringLiteral("help-glossary"));
            guide.close();
            // Empty states: nothing open.
            doc.clear();
            for (int tab : {int(W::Tab::Brief), int(W::Tab::Fit), int(W::Tab::Performance)}) {
                page(tab);
                shot(&w, QStringLiteral("main-0-empty-%1").arg(tab));
            }
        }
    }
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
