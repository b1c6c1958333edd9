// The document's undo steps as the window makes them: an edit typed back to where it started
// leaves no step, and a store write that fails (injected: core/fault.h) is reported, leaves the
// project as it was and the view showing it.

#include <document/document.h>
#include <fit/fit.h>
#include <mainwindow.h>
#include <pages/briefform.h>
#include <widgets/numberedit.h>

#include <QLineEdit>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

namespace {

wb::Catalog shippedCatalog()
{
    auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
    if (!loaded)
        qFatal("catalog does not load");
    return std::move(loaded).value();
}

const QString kSample = QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json");

// A store write fails while this lives.
struct InjectedStoreFailure
{
    InjectedStoreFailure() { qputenv("WB_INJECT_FAULT", "store-write"); }
    ~InjectedStoreFailure() { qunsetenv("WB_INJECT_FAULT"); }
};

double storedRate(const wb::Document &doc)
{
    auto parsed = doc.parsedScenario(doc.scenarioName());
    return parsed ? parsed->workload.traffic.requestRatePerS.value_or(0) : -1;
}

} // namespace

class TestEditing : public QObject
{
    Q_OBJECT

private slots:
    void retypingAValueLeavesNoStep();
    void aFailedEditIsRefusedAndNotAdded();
    void aFailedUndoIsReportedAndTheViewShowsTheProject();
    void oneParseAndOneFitPerKeystroke();
};

// The sample's rate is 12.5. Typing "12.5" over it: "1" is an edit (a step), "12", "12." and
// "12.5" merge into it, and the last brings the brief back to where the step began, so the step
// goes (as Tiled's ChangeValue) and the project is not modified.
void TestEditing::retypingAValueLeavesNoStep()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(kSample).has_value());
    wb::NumberEdit *rate = w.briefForm()->rateBox();
    QCOMPARE(rate->text(), QStringLiteral("12.5"));
    const QString json = doc.briefJson();
    const int steps = doc.undoStack()->count();
    rate->lineEdit()->setFocus(Qt::TabFocusReason);
    rate->lineEdit()->selectAll();
    QTest::keyClicks(rate->lineEdit(), QStringLiteral("12.5"));
    emit rate->finished();
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(doc.briefJson(), json);
    QVERIFY(doc.undoStack()->isClean());
    // A value that differs is one step.
    rate->lineEdit()->selectAll();
    QTest::keyClicks(rate->lineEdit(), QStringLiteral("14"));
    emit rate->finished();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    QCOMPARE(storedRate(doc), 14.0);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

void TestEditing::aFailedEditIsRefusedAndNotAdded()
{
    wb::Document doc(shippedCatalog());
    QVERIFY(!doc.openFile(kSample).has_value());
    const QString json = doc.briefJson();
    const int steps = doc.undoStack()->count();
    std::optional<QString> error;
    {
        InjectedStoreFailure failing;
        error = doc.editBrief(QStringLiteral("/workload/traffic/request_rate_per_s"), QStringLiteral("20"),
                              QStringLiteral("request rate"));
    }
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(QLatin1String("could not be stored")) && error->contains(QLatin1String("injected")),
             qPrintable(*error));
    QCOMPARE(doc.undoStack()->count(), steps);
    QCOMPARE(doc.briefJson(), json);
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 12.5);
    // A rename whose writes fail leaves the names as they were (one transaction).
    {
        InjectedStoreFailure failing;
        error = doc.renameScenario(doc.scenarioName(), QStringLiteral("Renamed"));
    }
    QVERIFY(error.has_value());
    QVERIFY(!doc.scenarioNames().contains(QStringLiteral("Renamed")));
    QCOMPARE(doc.undoStack()->count(), steps);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// The edit is stored; its undo then fails. The project still holds the edit, the view shows what
// the project holds (not the brief the undo meant to restore), the step leaves the history, and
// the window says so without blocking.
void TestEditing::aFailedUndoIsReportedAndTheViewShowsTheProject()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(!doc.openFile(kSample).has_value());
    QVERIFY(!doc.editBrief(QStringLiteral("/workload/traffic/request_rate_per_s"), QStringLiteral("20"),
                           QStringLiteral("request rate"), false));
    const int steps = doc.undoStack()->count();
    QSignalSpy failed(&doc, &wb::Document::storeFailed);
    {
        InjectedStoreFailure failing;
        doc.undoStack()->undo();
    }
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("could not be stored")),
             qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(storedRate(doc), 20.0);
    QCOMPARE(doc.brief()->workload.traffic.requestRatePerS.value_or(0), 20.0);
    QCOMPARE(w.briefForm()->rateBox()->text(), QStringLiteral("20"));
    QCOMPARE(doc.undoStack()->count(), steps - 1);
    QCOMPARE(doc.undoStack()->index(), steps - 1);
    auto *box = w.findChild<QMessageBox *>();
    QVERIFY(box && box->isVisible() && box->text().contains(QLatin1String("could not be stored")));
    box->accept();
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A keystroke that changes the brief parses its text once (patchBrief), however many pages then
// show the new brief, fits each candidate once (the quick and full passes take the fit-only
// pass's fits: EvaluateOptions::fits; before, each candidate was fitted three times) and copies
// no Results.
void TestEditing::oneParseAndOneFitPerKeystroke()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(kSample).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::NumberEdit *rate = w.briefForm()->rateBox();
    rate->lineEdit()->setFocus(Qt::TabFocusReason);
    rate->lineEdit()->selectAll();
    for (const QString &key : {QStringLiteral("2"), QStringLiteral("0")}) {
        const std::uint64_t before = wb::briefParseCount(), fitsBefore = wb::fitCount(), copiesBefore = wb::resultsCopyCount();
        QTest::keyClicks(rate->lineEdit(), key);
        QCOMPARE(wb::briefParseCount() - before, std::uint64_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
        // The fit-only first look, the quick pass and the full pass: one parse, one fit each, and
        // one more for each deployment the full pass sized for the peak (evaluated in full).
        QCOMPARE(wb::briefParseCount() - before, std::uint64_t(1));
        const auto &rows = doc.results().results;
        const auto sized = std::count_if(rows.begin(), rows.end(), [](const wb::CandidateResult &r) { return bool(r.resized); });
        QVERIFY(sized > 0);
        QCOMPARE(wb::fitCount() - fitsBefore, std::uint64_t(doc.brief()->candidates.size() + std::size_t(sized)));
        // Each pass's results are shared by the document and every page's model, gated by the
        // checklist as the use case makes them: none is copied (there were about eight copies a pass).
        QCOMPARE(wb::resultsCopyCount() - copiesBefore, std::uint64_t(0));
    }
}

QTEST_MAIN(TestEditing)
#include "tst_editing.moc"
