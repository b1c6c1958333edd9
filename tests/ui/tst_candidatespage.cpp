// Candidates in the window: edited in place, added and removed, counts and layouts typed, the New
// Comparison wizard, the catalog browser, the layout search, and the fit and performance tables.

#include "windowtest.h"

#include <pages/mediatablemodel.h>
#include <pages/trainingtablemodel.h>
#include <parts/words.h>

class TestCandidatesPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void candidatesEditAddRemoveAndUndo();
    void countAndLayoutAreTypedFreely();
    void newComparisonFromScratch();
    void newComparisonForEveryKind_data();
    void newComparisonForEveryKind();
    void newComparisonHoldsWrongNumbers();
    void apiQuoteAsksForTheBriefsUnit();
    void catalogBrowserShowsEveryGpuWithSources();
    void layoutSearchFindsAndAdds();
    void fitModelPassesModelTester();
    void performanceArrivesWithoutBlocking();
    void performanceModelPassesModelTester();
    void trainingAndMediaModelsPassModelTester();
};

void TestCandidatesPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

// The candidates table edits the brief: a count, an added and a removed candidate are three undo
// steps, and undo brings the candidates back.
void TestCandidatesPage::candidatesEditAddRemoveAndUndo()
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

    // Several removed at once: rows 1 and 3 picked with clicks (Ctrl for the second), one press
    // of "Remove selected", one undo step that brings both back.
    w.resultTabs()->setCurrentIndex(int(wb::MainWindow::Tab::Candidates));
    QTableView *table = w.candidatesTable();
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const std::string second = doc.brief()->candidates[2].gpu;
    const auto cellCentre = [&](int row) { return table->visualRect(model->index(row, wb::CandidatesModel::Gpus)).center(); };
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(1));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, cellCentre(3));
    QCOMPARE(table->selectionModel()->selectedRows().size(), 2);
    QPushButton *remove = nullptr;
    for (QPushButton *b : w.resultTabs()->widget(int(wb::MainWindow::Tab::Candidates))->findChildren<QPushButton *>())
        if (b->text() == QLatin1String("Remove selected"))
            remove = b;
    QVERIFY(remove);
    const int steps = doc.undoStack()->index();
    QTest::mouseClick(remove, Qt::LeftButton);
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(doc.brief()->candidates[1].gpu, second);  // the third became the second
    QCOMPARE(doc.undoStack()->index(), steps + 1);
    doc.undoStack()->undo();
    QCOMPARE(model->rowCount(), 6);
    QCOMPARE(doc.brief()->candidates[3].gpu, std::string("l40s-48gb"));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// A count typed below TP x PP lowers the layout instead of raising an error (it once had to be
// done TP first), and a TP typed above the count raises the count; each is one undo step. A GPU
// added from the catalog starts at the smallest count that holds the brief, on its recommended
// stack.
void TestCandidatesPage::countAndLayoutAreTypedFreely()
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
void TestCandidatesPage::newComparisonFromScratch()
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
            wizard->QDialog::reject();  // without the discard question
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
    // As typed in the file too (a fresh-eyes pass found 0.9500000000000001 in an exported brief).
    QVERIFY2(!doc.briefJson().contains(QLatin1String("0.95000")), qPrintable(doc.briefJson()));
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

// File > New offers every kind (issue 37 item 7). For each, the kind is chosen by typing its name
// into the Kind box, the rows that kind asks for are typed (a service's lengths or pipeline and
// traffic, a run's sequence, micro-batch, tokens and campaign), an H100 ticked, and Finish
// pressed: the brief has the kind and the typed figures, and it is complete enough to rank and
// decide (a recommendation, or the items that hold it back, never nothing).
void TestCandidatesPage::newComparisonForEveryKind_data()
{
    QTest::addColumn<QString>("kind");
    for (const auto &[kind, name] : wb::EnumNames<wb::WorkloadKind>::items)
        QTest::newRow(name.data()) << QString::fromLatin1(name.data());
}

void TestCandidatesPage::newComparisonForEveryKind()
{
    QFETCH(QString, kind);
    const wb::WorkloadKind k = *wb::enumFromString<wb::WorkloadKind>(kind.toStdString());
    const bool media = k == wb::WorkloadKind::MediaGeneration;
    const bool runs = wb::isTraining(k) || wb::isAdapter(k);
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    // An embedding is started with the sample project open: it joins the project as a scenario
    // when "Add as a Scenario" is clicked, the sample's own scenarios kept (issue 39: New
    // Comparison once replaced the open project without asking).
    const bool intoProject = k == wb::WorkloadKind::Embedding;
    QStringList before;
    if (intoProject) {
        QVERIFY(!doc.openBriefs({kSample}, {kSampleAnswers}).has_value());
        before = doc.scenarioNames();
    }
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString failure;
    QTimer::singleShot(0, this, [&] {
        auto *wizard = qobject_cast<wb::NewComparisonWizard *>(QApplication::activeModalWidget());
        if (!wizard) {
            failure = QStringLiteral("File > New opened no wizard");
            return;
        }
        const auto next = [&](const char *page) {
            QAbstractButton *button = wizard->button(QWizard::NextButton);
            if (!button->isEnabled())
                failure += QStringLiteral("\nNext is not offered on the %1 page").arg(QLatin1String(page));
            QTest::mouseClick(button, Qt::LeftButton);
        };
        // The kind, typed as its words: keyboard search in the combo box.
        wizard->kindBox()->setFocus(Qt::TabFocusReason);
        QTest::keyClicks(wizard->kindBox(), wb::words(kind.toStdString()));
        if (wizard->kindBox()->currentData().toString() != kind)
            failure += QStringLiteral("\ntyping the kind chose ") + wizard->kindBox()->currentText();
        // The rows a kind does not ask for are not shown.
        if (wizard->modelBox()->isVisible() == media || wizard->pipelineBox()->isVisible() != media
            || wizard->sequenceBox()->isVisible() != runs || wizard->inputBox()->isVisible() != wb::isInference(k)
            || wizard->loraRankBox()->isVisible() != wb::isAdapter(k))
            failure += QStringLiteral("\nthe workload page shows rows of another kind");
        if (media) {
            wizard->pipelineBox()->setFocus(Qt::TabFocusReason);
            QTest::keyClicks(wizard->pipelineBox(), QStringLiteral("Stable Diffusion XL"));
            typeInto(wizard->stepsBox(), QStringLiteral("30"));
        } else {
            wizard->modelBox()->setFocus(Qt::TabFocusReason);
            wizard->modelBox()->lineEdit()->selectAll();
            QTest::keyClicks(wizard->modelBox(), k == wb::WorkloadKind::Embedding ? QStringLiteral("BGE-M3")
                                                                                  : QStringLiteral("Llama 3.1 8B"));
            if (QWidget *popup = QApplication::activePopupWidget())
                QTest::keyClick(popup, Qt::Key_Return);
        }
        if (wb::isInference(k)) {
            typeInto(wizard->inputBox(), QStringLiteral("2000"));
            if (k != wb::WorkloadKind::Embedding)
                typeInto(wizard->outputBox(), QStringLiteral("300"));
            // A real-time service's long requests, and FP8 weights for a batch job (its KV cache
            // follows them): issue 39 asked for both.
            if (k == wb::WorkloadKind::RealtimeInference) {
                typeInto(wizard->inputP95Box(), QStringLiteral("6000"));
                typeInto(wizard->outputP95Box(), QStringLiteral("800"));
            }
            if (k == wb::WorkloadKind::BatchInference) {
                wizard->precisionBox()->setFocus(Qt::TabFocusReason);
                QTest::keyClicks(wizard->precisionBox(), wb::words(wb::Precision::Fp8));
            }
        }
        if (runs) {
            typeInto(wizard->sequenceBox(), QStringLiteral("4096"));
            typeInto(wizard->microBatchBox(), QStringLiteral("2"));
            typeInto(wizard->trainingTokensBox(), QStringLiteral("200"));  // million
        }
        next("workload");
        if (runs) {
            typeInto(wizard->runsPerYearBox(), QStringLiteral("12"));
            typeInto(wizard->datasetBox(), QStringLiteral("50"));
            next("runs");
        } else {
            typeInto(wizard->rateBox(), QStringLiteral("2"));
            if (k == wb::WorkloadKind::RealtimeInference)
                typeInto(wizard->ttftBox(), QStringLiteral("1000"));
            if (media)
                typeInto(wizard->e2eBox(), QStringLiteral("20"));
            next("traffic");
        }
        typeInto(wizard->qualityBox(), QStringLiteral("90"));
        if (k != wb::WorkloadKind::Training) {
            wizard->apiAllowedBox()->setFocus(Qt::TabFocusReason);
            QTest::keyClicks(wizard->apiAllowedBox(), QStringLiteral("no"));
        }
        next("decision");
        wizard->gpuFilter()->setFocus(Qt::TabFocusReason);
        QTest::keyClicks(wizard->gpuFilter(), QStringLiteral("H100 SXM5"));
        QTest::keyClick(wizard->gpuFilter(), Qt::Key_Return);
        if (wizard->apiGroup()->isVisible() == (k == wb::WorkloadKind::Training))
            failure += QStringLiteral("\nthe API quote is offered for pre-training, or not offered otherwise");
        QAbstractButton *finish = wizard->button(QWizard::FinishButton);
        if (!finish->isEnabled())
            failure += QStringLiteral("\nFinish is not offered");
        if (intoProject)
            QTimer::singleShot(0, this, [&] {
                auto *ask = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
                if (!ask) {
                    failure += QStringLiteral("\nnot asked whether to add to the open project");
                    return;
                }
                for (QAbstractButton *b : ask->buttons())
                    if (b->text().remove(u'&') == QLatin1String("Add as a Scenario"))
                        QTest::mouseClick(b, Qt::LeftButton);
                if (ask->isVisible()) {
                    failure += QStringLiteral("\nno \"Add as a Scenario\" button");
                    ask->reject();
                }
            });
        QTest::mouseClick(finish, Qt::LeftButton);
        if (wizard->isVisible()) {
            failure += QStringLiteral("\nthe wizard stayed open: ") + wizard->problemLabel()->text();
            wizard->QDialog::reject();  // without the discard question
        }
    });
    QTest::keyClick(&w, Qt::Key_N, Qt::ControlModifier);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    if (intoProject) {
        const QStringList after = doc.scenarioNames();
        QCOMPARE(after.size(), before.size() + 1);
        QCOMPARE(after.mid(0, before.size()), before);
        QCOMPARE(doc.scenarioName(), after.back());
        QVERIFY(!doc.checklist().vendors.empty());  // the sample's vendors stay
    }
    const wb::Brief *brief = doc.brief();
    QVERIFY(brief);
    QCOMPARE(brief->workload.kind, k);
    QCOMPARE(brief->workload.acceptance.qualityPassRate, 0.9);
    if (k == wb::WorkloadKind::RealtimeInference) {
        QCOMPARE(brief->workload.inputTokensP95.value_or(0), 6000.0);
        QCOMPARE(brief->workload.outputTokensP95.value_or(0), 800.0);
        QCOMPARE(brief->workload.kvCachePrecision, wb::Precision::Bf16);  // under BF16 weights
    }
    if (k == wb::WorkloadKind::BatchInference) {
        QCOMPARE(brief->workload.weightsPrecision, wb::Precision::Fp8);
        QCOMPARE(brief->workload.kvCachePrecision, wb::Precision::Fp8);
    }
    if (media) {
        QCOMPARE(brief->workload.media->model.id, std::string("sdxl-1.0-base"));
        QCOMPARE(brief->workload.media->steps, 30);
        QCOMPARE(brief->workload.slo.e2eP99S.value_or(0), 20.0);
    }
    if (runs) {
        QCOMPARE(brief->workload.training->sequenceLength, 4096);
        QCOMPARE(brief->workload.training->microBatchSize, 2);
        QCOMPARE(brief->workload.training->tokens.value_or(0), 2e8);
        QCOMPARE(brief->workload.training->runsPerYear.value_or(0), 12.0);
        QCOMPARE(brief->workload.training->datasetGb.value_or(0), 50.0);
    } else {
        QCOMPARE(brief->workload.traffic.requestRatePerS.value_or(0), 2.0);
    }
    QCOMPARE(int(brief->candidates.size()), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const wb::Results &results = doc.results();
    QVERIFY2(results.ranked(), qPrintable(QString::fromStdString(wb::rankingHeldBackText(results.rankingHeldBackBy))));
    QVERIFY2(results.cost.recommendation, qPrintable(kind));
}

// A number the wizard cannot take holds Next on its page, and the page says which field and why,
// in the words the field's label uses: -3 runs a year, a 150% pass rate, a width off the video
// pipeline's latent grid (checked by the engine when the workload page is left), 0 tokens. The
// GPU filter's Return takes a whole-word match first.
void TestCandidatesPage::newComparisonHoldsWrongNumbers()
{
    const wb::Catalog catalog = shippedCatalog();
    wb::NewComparisonWizard wizard(catalog);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    QAbstractButton *next = wizard.button(QWizard::NextButton);
    const auto status = [&] {
        for (QLabel *l : wizard.currentPage()->findChildren<QLabel *>())
            if (l->accessibleName() == QLatin1String("Still needed") && !l->text().isEmpty())
                return l->text();
        return QString();
    };
    wizard.kindBox()->setCurrentIndex(wizard.kindBox()->findData(QStringLiteral("lora")));
    wizard.modelBox()->setFocus();
    QTest::keyClicks(wizard.modelBox(), QStringLiteral("Llama 3.1 8B"));
    typeInto(wizard.sequenceBox(), QStringLiteral("4096"));
    typeInto(wizard.trainingTokensBox(), QStringLiteral("0"));
    QVERIFY(!next->isEnabled());
    QVERIFY2(status().contains(QStringLiteral("To correct: Tokens to train on: 0 is")), qPrintable(status()));
    typeInto(wizard.trainingTokensBox(), QStringLiteral("200"));
    QVERIFY2(next->isEnabled(), qPrintable(status()));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(wizard.currentId(), int(wb::NewComparisonWizard::RunsPage));
    typeInto(wizard.runsPerYearBox(), QStringLiteral("-3"));
    QVERIFY2(!next->isEnabled(), qPrintable(wizard.runsPerYearBox()->text()));
    QVERIFY2(status().contains(QStringLiteral("To correct: Runs a year: -3 is")), qPrintable(status()));
    typeInto(wizard.runsPerYearBox(), QStringLiteral("3"));
    QTest::mouseClick(next, Qt::LeftButton);
    typeInto(wizard.qualityBox(), QStringLiteral("150"));
    QVERIFY(!next->isEnabled());
    QVERIFY2(status().contains(QStringLiteral("To correct: Runs that pass evaluation: 150 is")), qPrintable(status()));
    // Back to the workload: a Wan 2.1 clip 1,000 px wide is off its 16-pixel grid; Next stays on
    // the page and names the width.
    wizard.back();
    wizard.back();
    wizard.kindBox()->setCurrentIndex(wizard.kindBox()->findData(QStringLiteral("media-generation")));
    wizard.pipelineBox()->setCurrentIndex(wizard.pipelineBox()->findData(QStringLiteral("wan2.1-t2v-14b")));
    typeInto(wizard.widthBox(), QStringLiteral("1000"));
    QVERIFY(next->isEnabled());
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(wizard.currentId(), int(wb::NewComparisonWizard::WorkloadPage));
    QVERIFY2(status().contains(QStringLiteral("To correct: Width: ")) && status().contains(QStringLiteral("multiple of 16")),
             qPrintable(status()));
    typeInto(wizard.widthBox(), QStringLiteral("1280"));
    QVERIFY(!status().contains(QStringLiteral("multiple of")));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(wizard.currentId(), int(wb::NewComparisonWizard::TrafficPage));
    // On to the GPUs: with the data kept off APIs the API quote is not offered, and "L4" with
    // Return ticks the L4, not the L40S the filter also shows first.
    typeInto(wizard.rateBox(), QStringLiteral("1"));
    QTest::mouseClick(next, Qt::LeftButton);
    typeInto(wizard.qualityBox(), QStringLiteral("90"));
    wizard.apiAllowedBox()->setFocus();
    QTest::keyClicks(wizard.apiAllowedBox(), QStringLiteral("no"));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(wizard.currentId(), int(wb::NewComparisonWizard::CandidatesPage));
    QVERIFY(!wizard.apiGroup()->isEnabled());
    wizard.gpuFilter()->setFocus();
    QTest::keyClicks(wizard.gpuFilter(), QStringLiteral("L4"));
    QTest::keyClick(wizard.gpuFilter(), Qt::Key_Return);
    QStringList ticked;
    for (int i = 0; i < wizard.gpuList()->count(); ++i)
        if (wizard.gpuList()->item(i)->checkState() == Qt::Checked)
            ticked << wizard.gpuList()->item(i)->text();
    QCOMPARE(ticked, QStringList(QStringLiteral("NVIDIA L4 24GB")));
    wizard.QDialog::reject();
}

// On an SDXL brief the model-API quote asks for an image's price, not tokens': the token rows are
// hidden, "per megapixel" is chosen with the keyboard, the price typed, and the brief's quote
// bills per megapixel.
void TestCandidatesPage::apiQuoteAsksForTheBriefsUnit()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(QStringLiteral(WB_SOURCE_DIR "/resources/samples/sdxl-images.brief.json")).has_value());
    QPushButton *button = nullptr;
    for (QPushButton *b : w.findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Model-API quote…"))
            button = b;
    QVERIFY(button);
    QString failure;
    QTimer::singleShot(0, this, [&] {
        auto *dialog = qobject_cast<wb::ApiQuoteDialog *>(QApplication::activeModalWidget());
        if (!dialog) {
            failure = QStringLiteral("no API quote dialog");
            return;
        }
        wb::ApiQuoteForm *form = dialog->form();
        if (form->inputBox()->isVisible() || form->outputBox()->isVisible() || !form->rateBox()->isVisible())
            failure += QStringLiteral("the token prices are asked of an image API\n");
        form->providerEdit()->setFocus();
        QTest::keyClicks(form->providerEdit(), QStringLiteral("Example images"));
        form->rateUnitBox()->setFocus();
        QTest::keyClick(form->rateUnitBox(), Qt::Key_Down);  // "per megapixel of output"
        typeInto(form->rateBox(), QStringLiteral("0.02"));
        form->sourceEdit()->setFocus();
        QTest::keyClicks(form->sourceEdit(), QStringLiteral("https://example.com/pricing (test)"));
        if (!form->complete())
            failure += (form->missing() + form->wrong()).join(QStringLiteral(", "));
        QTest::keyClick(dialog, Qt::Key_Return);
        if (dialog->isVisible()) {
            failure += QStringLiteral("the dialog stayed open");
            dialog->reject();
        }
    });
    QTest::mouseClick(button, Qt::LeftButton);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const wb::Brief *brief = doc.brief();
    QVERIFY(brief && brief->cost.api);
    QCOMPARE(brief->cost.api->unit, wb::ApiUnit::Megapixel);
    QCOMPARE(brief->cost.api->usdPerMegapixel, 0.02);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}


// The catalog browser lists every GPU with its figures' sources; the filter narrows it; the
// chosen GPU becomes a candidate in one undo step. The candidates table shows each candidate's
// lowest dated price.
void TestCandidatesPage::catalogBrowserShowsEveryGpuWithSources()
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

// Scenario > Find Layouts by its shortcut: the limit typed, Search clicked, the layouts found
// shown with both charts and each GPU's cheapest selected; Add puts them in the scenario as one
// step that Ctrl+Z (in the dialog) takes back. A second search over every GPU is cancelled by its button.
void TestCandidatesPage::layoutSearchFindsAndAdds()
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

void TestCandidatesPage::fitModelPassesModelTester()
{
    wb::Document doc(shippedCatalog());
    wb::FitTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(!doc.openFile(kSample).has_value());
    model.setResults(doc.results());
    QCOMPARE(model.columnCount(), int(wb::FitTableModel::ColumnCount));
    model.setResults(wb::Results{});
    QCOMPARE(model.rowCount(), 0);
}

// Opening shows the fit at once; the simulations finish on a worker thread and fill the
// performance table, while the event loop keeps running.
void TestCandidatesPage::performanceArrivesWithoutBlocking()
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

void TestCandidatesPage::performanceModelPassesModelTester()
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
    model.setResults(wb::Results{});
    QCOMPARE(model.rowCount(), 0);
}

// The Performance page's training and media tables under Qt's model tester, on the pretraining
// and SDXL samples: a row per candidate, and the cells say the engine's figures.
void TestCandidatesPage::trainingAndMediaModelsPassModelTester()
{
    const wb::Catalog catalog = shippedCatalog();
    const auto load = [&](const char *name) {
        auto brief = wb::loadBrief(std::string(WB_SOURCE_DIR "/resources/samples/") + name, catalog);
        if (!brief)
            qFatal("%s does not load", name);
        return std::move(brief).value();
    };
    wb::EvaluateOptions options;
    options.today = "2026-12-01";

    const wb::Brief pretrain = load("pretrain-70b.brief.json");
    const wb::Results trained = wb::evaluate(pretrain, catalog, options);
    wb::TrainingTableModel training;
    QAbstractItemModelTester trainingTester(&training, QAbstractItemModelTester::FailureReportingMode::QtTest);
    training.setResults(trained);
    QCOMPARE(training.rowCount(), int(pretrain.candidates.size()));
    QCOMPARE(training.columnCount(), int(wb::TrainingTableModel::ColumnCount));
    int timed = 0;
    for (int row = 0; row < training.rowCount(); ++row) {
        const wb::CandidateResult &r = wb::deployment(trained.results[std::size_t(row)]);
        if (!r.performance.training)
            continue;
        ++timed;
        QCOMPARE(training.data(training.index(row, wb::TrainingTableModel::TokensPerS)).toString(),
                 QLocale().toString(r.performance.training->tokensPerS, 'f', 0));
    }
    QVERIFY(timed > 0);
    training.setResults(wb::Results{});
    QCOMPARE(training.rowCount(), 0);

    const wb::Brief images = load("sdxl-images.brief.json");
    const wb::Results generated = wb::evaluate(images, catalog, options);
    wb::MediaTableModel media;
    QAbstractItemModelTester mediaTester(&media, QAbstractItemModelTester::FailureReportingMode::QtTest);
    media.setResults(generated);
    QCOMPARE(media.rowCount(), int(images.candidates.size()));
    int shown = 0;
    for (int row = 0; row < media.rowCount(); ++row)
        for (int column = 0; column < media.columnCount(); ++column)
            shown += !media.data(media.index(row, column)).toString().isEmpty();
    QCOMPARE(shown, media.rowCount() * media.columnCount());
}

QTEST_MAIN(TestCandidatesPage)
#include "tst_candidatespage.moc"
