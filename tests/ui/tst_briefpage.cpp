// The Brief page typed as a person types: the form follows the workload kind, optional fields and
// bursts, typing sessions as undo steps, bad text that changes nothing, a Hugging Face import, and
// the media and training fields.

#include "windowtest.h"

class TestBriefPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void briefFormFollowsTheKindAndCompletes();
    void optionalFieldsAndBursts();
    void typingSessionsAreUndoStepsAndBadTextChangesNothing();
    void importHuggingFaceConfig();
    // Checkpoint and failure fields of a training brief, typed: the figures follow, undo restores.
    void trainingFieldsTyped();
    void mediaFieldsTyped();
    void refusedTextKeepsTheValueTypingBeganWith();
    void dataRegionChosenByKeys();
};

void TestBriefPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

// The form shows the fields of the brief's kind. Switching a LoRA brief to real-time inference is
// one undo step that also starts the traffic block the new kind needs; the completeness list then
// names the latency targets and acceptance as blocking and the ranking is held back until they
// are given.
void TestBriefPage::briefFormFollowsTheKindAndCompletes()
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
void TestBriefPage::optionalFieldsAndBursts()
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
    // A burst as long as its period is refused with the field named: 400 s (the period is 300 s)
    // stays as typed, and the brief keeps the 20 s it had when the typing began, not the 40 s the
    // keystrokes passed through.
    typeInto(numberField(form, "/workload/traffic/bursts/duration_s"), QStringLiteral("400"));
    QCOMPARE(doc.brief()->workload.traffic.burstDurationS, 20.0);
    QVERIFY(findChildLabelText(form).contains(QLatin1String("duration_s")));
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("the brief keeps 20")), qPrintable(findChildLabelText(form)));
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
void TestBriefPage::typingSessionsAreUndoStepsAndBadTextChangesNothing()
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
void TestBriefPage::importHuggingFaceConfig()
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

void TestBriefPage::trainingFieldsTyped()
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

    // A 2,000 GB dataset typed is held elsewhere unless said otherwise: each run's network line
    // moves it at egress_usd_per_gb ($0.09/GB: $180); said to be with the GPUs, it moves nothing.
    const auto onDemandLine = [&](const char *name) {
        for (const wb::CostOption &o : doc.results().results.at(0).cost.options)
            if (o.term == wb::PricingTerm::OnDemand)
                for (const wb::CostLine &l : o.lines)
                    if (l.name == name)
                        return l.usdPerMonth;
        return -1.0;
    };
    const auto network = [&] { return onDemandLine("network"); };
    QVERIFY(!form->field(QStringLiteral("/workload/training/dataset/location"))->isVisibleTo(form));
    typeInto(numberField(form, "/workload/training/dataset/size_gb"), QStringLiteral("2000"));
    QCOMPARE(doc.brief()->workload.training->datasetGb.value_or(0), 2000.0);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && network() == 180.0, 60000);
    auto *location = qobject_cast<QComboBox *>(form->field(QStringLiteral("/workload/training/dataset/location")));
    QVERIFY(location && location->isVisibleTo(form));
    location->setFocus();
    QTest::keyClick(location, Qt::Key_Down);  // "already with the GPUs"
    QVERIFY(doc.brief()->workload.training->datasetWithGpus);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && network() == 0.0, 60000);

    // The engineers field of a run is the one its cost reads (training_platform_fte): 2 typed is
    // four times the labour line of the default 0.5, for the same run.
    const auto labour = [&] { return onDemandLine("platform_labour"); };
    QVERIFY(!form->field(QStringLiteral("/assumptions/platform_fte_self_hosted"))->isVisibleTo(form));
    const double defaultLabour = labour();
    QVERIFY(defaultLabour > 0);
    typeInto(numberField(form, "/assumptions/training_platform_fte"), QStringLiteral("2"));
    QCOMPARE(doc.brief()->assumptions.value(wb::Assumption::TrainingPlatformFte), 2.0);
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating() && std::fabs(labour() - 4 * defaultLabour) < 1e-4 * defaultLabour, 60000);

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
        if (label->accessibleName() == QLatin1String("Edit note"))
            note = label;
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("1,000 GPUs are not a whole number of TP 8 × PP 4 × CP 2"))
                 && note->text().contains(QStringLiteral("became TP 8, PP 1.")),
             qPrintable(note->text()));
    typeInCell(table, 0, wb::CandidatesModel::Tensor, QStringLiteral("8"));  // the next edit clears it
    QVERIFY(!note->isVisible());
    // A network typed as a word is refused with the reason, not taken for "empty" (the default).
    typeInCell(table, 0, wb::CandidatesModel::Network, QStringLiteral("fast"));
    QCOMPARE(doc.brief()->candidates[0].network->bytesPerSPerGpu, 100e9);
    QVERIFY(note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("\"fast\" is not a bandwidth")), qPrintable(note->text()));
}

// A media brief's fields, typed and picked with the keyboard: more steps are slower, a width off
// the latent grid is refused with the reason and loses nothing, a smaller image is faster, the
// pipeline is chosen by typing its name (a video one shows its frames), and Ctrl+Z undoes.
void TestBriefPage::mediaFieldsTyped()
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

// A number valid on its own that a rule between fields refuses (output tokens above their p95,
// 700 in the sample) stays as typed, and the brief keeps the value the typing began with, not one
// the keystrokes passed through: typing 800 passes through 8 and 80, which the rules allow, and
// the figures were left computed for 80 tokens while the field showed 800.
void TestBriefPage::refusedTextKeepsTheValueTypingBeganWith()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    QVERIFY(showOnSample(w, doc));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    wb::BriefForm *form = w.briefForm();
    wb::NumberEdit *output = numberField(form, "/workload/output_tokens");
    QVERIFY(output);
    QCOMPARE(doc.brief()->workload.outputTokens, 300.0);
    typeInto(output, QStringLiteral("800"));
    QCOMPARE(output->text(), QStringLiteral("800"));
    QCOMPARE(doc.brief()->workload.outputTokens, 300.0);
    QVERIFY2(findChildLabelText(form).contains(QLatin1String("the brief keeps 300 (tokens)")), qPrintable(findChildLabelText(form)));
    QVERIFY2(findChildLabelText(form).startsWith(QLatin1String("Output")), qPrintable(findChildLabelText(form)));
    // Typed again to a value the rules allow, it is the brief's, and the message goes.
    typeInto(output, QStringLiteral("650"));
    QCOMPARE(doc.brief()->workload.outputTokens, 650.0);
    QVERIFY(findChildLabelText(form).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
}

// Residency chosen with the keyboard on the Brief page ("Eu" picks the European Union): the
// H100's AWS us-east-1 offer in the price book is left out and said so, the prices used that do
// not say where they run are flagged, and the candidates page marks the offer left out.
void TestBriefPage::dataRegionChosenByKeys()
{
    wb::Document doc(shippedCatalog());
    wb::MainWindow w(&doc);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!doc.openFile(kSample).has_value());
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    auto *region = qobject_cast<QComboBox *>(w.briefForm()->field(QStringLiteral("/cost/decision/data_region")));
    QVERIFY(region && region->isVisibleTo(w.briefForm()));
    region->setFocus();
    QTest::keyClicks(region, QStringLiteral("Eu"));
    QCOMPARE(doc.brief()->cost.decision.dataRegion, std::optional(wb::DataRegion::Eu));
    QTRY_VERIFY_WITH_TIMEOUT(!doc.evaluating(), 60000);
    const auto said = [&](const char *code, const char *gpu) {
        for (const wb::CandidateResult &r : doc.results().results)
            if (r.candidate.gpu == gpu)
                for (const wb::Warning &warning : r.cost.warnings)
                    if (warning.code == code)
                        return true;
        return false;
    };
    QVERIFY(said("price-outside-region", "h100-sxm-80gb"));
    QVERIFY(said("price-region-unstated", "h100-sxm-80gb"));
    QVERIFY(!said("price-outside-region", "l40s-48gb"));  // no L40S offer says it runs in the US
    const QString details = w.candidatesTable()->model()->index(0, wb::CandidatesModel::Price).data(Qt::ToolTipRole).toString();
    QVERIFY2(details.contains(QStringLiteral("✗ on-demand")) && details.contains(QStringLiteral("outside the brief's data region")),
             qPrintable(details));
}

QTEST_MAIN(TestBriefPage)
#include "tst_briefpage.moc"
