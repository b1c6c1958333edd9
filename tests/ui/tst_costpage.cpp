// Prices in the window: typed prices kept as typed, vendor quotes and their terms, billing, the
// model-API quote, the cost table and the comparison.

#include "windowtest.h"

class TestCostPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void typedPricesAreKeptAsTyped_data();
    void typedPricesAreKeptAsTyped();
    void priceQuoteIsUsedAndUndone();
    void quoteTermsAreTypedShownAndWarned();
    void billingIsChosenAndTyped();
    void apiQuoteNeedsBothPricesAndShowsTheCurrentOne();
    void costModelPassesModelTester();
    void comparisonSortsAndMarksTheBest();
};

void TestCostPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

// A price typed key by key is the price recorded: "2.35" once became $235.00 because the dialog
// rewrote the field's suffix on every keystroke, dropping the decimal point just typed.
void TestCostPage::typedPricesAreKeptAsTyped_data()
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

void TestCostPage::typedPricesAreKeptAsTyped()
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

// A vendor quote entered in the dialog goes into the brief's cost.prices as one undo step, and the
// cost model prices the candidate with it (the brief's own price comes before the price book's).
void TestCostPage::priceQuoteIsUsedAndUndone()
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
void TestCostPage::quoteTermsAreTypedShownAndWarned()
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
void TestCostPage::billingIsChosenAndTyped()
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

// The model-API quote wants both prices (an empty input price was taken as $0, and the quote
// replaced the brief's without showing it); a negative price stays visible and is refused with
// the reason; the dialog opens on the brief's current quote.
void TestCostPage::apiQuoteNeedsBothPricesAndShowsTheCurrentOne()
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
    QVERIFY2(form->wrong().join(u' ').contains(QLatin1String("-1 is below 0")), qPrintable(form->wrong().join(u' ')));
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

void TestCostPage::costModelPassesModelTester()
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
    model.setResults(wb::Results{});
    QCOMPARE(model.rowCount(), 0);
}

// The normalization table: every candidate and pricing row, sortable by the number behind each
// cell, the column's best value marked.
void TestCostPage::comparisonSortsAndMarksTheBest()
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
            // Not an option to choose, nor sized to the brief: never marked best (its TTFT is the
            // count entered, not a deployment's).
            for (int column = 0; column < wb::ComparisonModel::ColumnCount; ++column)
                QVERIFY(!model.isBest(r, column));
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

QTEST_MAIN(TestCostPage)
#include "tst_costpage.moc"
