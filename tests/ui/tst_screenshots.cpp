// With WB_SCREENSHOT_DIR set, saves the window at 1280x800 and 1920x1080, light and dark, for
// review (skipped otherwise).

#include "windowtest.h"

#include <widgets/readablestyle.h>

class TestScreenshots : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void screenshots();
};

void TestScreenshots::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

void TestScreenshots::screenshots()
{
    const QString dir = qEnvironmentVariable("WB_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set WB_SCREENSHOT_DIR to save screenshots");
    QDir().mkpath(dir);
    QApplication::setStyle(new wb::ReadableStyle(QStyleFactory::create(QStringLiteral("Fusion"))));  // as the app
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
            views.push_back({QStringLiteral("8-training-compare"), [&] { page(int(W::Tab::Compare)); }});
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
            // The batch summarization sample as an evaluation: records an hour, cost per evaluated record.
            views.push_back({QStringLiteral("9e-evaluation-performance"), [&] {
                                 QVERIFY(!doc.openBriefs({samples + QStringLiteral("batch-summarization.brief.json")}, {}, {}).has_value());
                                 QVERIFY(!doc.editBrief(QStringLiteral("/workload/kind"), QStringLiteral("\"evaluation\""),
                                                        QStringLiteral("kind")).has_value());
                                 QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
                                 page(int(W::Tab::Performance));
                                 w.loadChartChoice()->setCurrentIndex(0);
                             }});
            views.push_back({QStringLiteral("9e-evaluation-cost"), [&] { page(int(W::Tab::Cost)); }});
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
            wb::ApiQuoteDialog apiQuote(wb::ApiUse::Text, &w);
            apiQuote.show();
            shot(&apiQuote, QStringLiteral("api-quote"));
            apiQuote.close();
            // An image brief's quote asks for its price per image or megapixel.
            wb::ApiQuoteDialog imageQuote(wb::ApiUse::Image, &w);
            imageQuote.show();
            shot(&imageQuote, QStringLiteral("api-quote-image"));
            imageQuote.close();
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
            // A run's wizard asks for its sequence, micro-batch and tokens, then its campaign; a
            // media service's for its pipeline and output.
            for (const char *kind : {"lora", "media-generation"}) {
                wb::NewComparisonWizard other(doc.catalog(), &w);
                other.kindBox()->setCurrentIndex(other.kindBox()->findData(QLatin1String(kind)));
                other.pipelineBox()->setCurrentIndex(other.pipelineBox()->findData(QStringLiteral("wan2.1-t2v-14b")));
                other.show();
                for (int i = 0; i < 4; ++i) {
                    shot(&other, QStringLiteral("new-comparison-%1-%2").arg(QLatin1String(kind)).arg(i + 1));
                    other.next();
                }
                other.close();
            }
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

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
