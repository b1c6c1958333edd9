// gpuwb project, checklist, plan, evidence and export as a user runs them: a project made from
// briefs and answers, bad projects refused, concurrent imports, the checklist gate, the plan, runs
// imported and compared, a workbook written.

#include "cli/clitest.h"

class TestCliProject : public QObject
{
    Q_OBJECT

private slots:
    void projectRoundTrip();
    void badProject_data();
    void badProject();
    void concurrentImportsLoseNothing();
    void checklistGatesThePurchase();
    void planPrintsFourPhases();
    void evidenceImportListCompare();
    void exportWritesAWorkbook();
};

// Projects: new, list, export, import, and evaluate a stored scenario.
void TestCliProject::projectRoundTrip()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
    const QString project = dir.filePath(QStringLiteral("plan.gpuwb"));
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project, brief}).exitCode, 0);
    // new never overwrites
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project}).exitCode, 2);
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("import"), project, brief, QStringLiteral("--scenario"),
                    QStringLiteral("Second")})
                 .exitCode,
             0);
    const Run list = gpuwb({QStringLiteral("project"), QStringLiteral("list"), project});
    QCOMPARE(list.out, QStringLiteral("70B fp8 on 2x H100\nSecond\n"));
    // Export and import again: the stored JSON comes back unchanged.
    const QString exported = dir.filePath(QStringLiteral("exported.json"));
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("export"), project, QStringLiteral("--scenario"),
                    QStringLiteral("Second"), QStringLiteral("--out"), exported})
                 .exitCode,
             0);
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("import"), project, exported, QStringLiteral("--scenario"),
                    QStringLiteral("Third")})
                 .exitCode,
             0);
    const Run second = gpuwb({QStringLiteral("project"), QStringLiteral("export"), project, QStringLiteral("--scenario"),
                              QStringLiteral("Second")});
    const Run third = gpuwb({QStringLiteral("project"), QStringLiteral("export"), project, QStringLiteral("--scenario"),
                             QStringLiteral("Third")});
    QCOMPARE(third.out, second.out);
    // Evaluate a stored scenario, as JSON.
    const Run r = gpuwb({QStringLiteral("evaluate"), project, QStringLiteral("--scenario"), QStringLiteral("Second"),
                         QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("\"format\": \"gpu-workbench-results\"")));
    const Run missing = gpuwb({QStringLiteral("evaluate"), project, QStringLiteral("--scenario"), QStringLiteral("Nope")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(QLatin1String("has no scenario \"Nope\"")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral("plan.gpuwb")),
             QStringList{QStringLiteral("plan.gpuwb")});
}

void TestCliProject::badProject_data()
{
    QTest::addColumn<QByteArray>("content");  // "-": the file does not exist
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << QByteArray("-") << "does not exist";
    QTest::newRow("empty") << QByteArray() << "is empty";
    QTest::newRow("not sqlite") << QByteArray(8192, 'q') << "not an SQLite database";
    QTest::newRow("truncated") << QByteArray("truncate") << "truncated";
}

// gpuwb evaluate on a bad project: exit 2, one line naming the file and the problem, and a
// missing path is not created.
void TestCliProject::badProject()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.gpuwb"));
    if (content == "truncate") {
        const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
        QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project, brief}).exitCode, 0);
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadWrite));
        f.resize(f.size() / 2);
    } else if (content != "-") {
        writeFile(dir, QStringLiteral("p.gpuwb"), content);
    }
    const Run r = gpuwb({QStringLiteral("evaluate"), project});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    const QStringList lines = r.err.trimmed().split(u'\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY2(lines[0].contains(project), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(expected), qPrintable(lines[0]));
    if (content == "-")
        QVERIFY(!QFile::exists(project));
}

// Two imports into one project a few milliseconds apart, 50 rounds: every import that exits 0 is
// in the project afterwards (the file was read before the lock was taken: 6 of 50 lost one).
void TestCliProject::concurrentImportsLoseNothing()
{
    QTemporaryDir dir;
    const QString a = writeFile(dir, QStringLiteral("a.json"), briefWith(R"("name": "70B fp8 on 2x H100")", R"("name": "A")"));
    const QString b = writeFile(dir, QStringLiteral("b.json"), briefWith(R"("name": "70B fp8 on 2x H100")", R"("name": "B")"));
    int bothIn = 0;
    for (int round = 0; round < 50; ++round) {
        const QString project = dir.filePath(QStringLiteral("p%1.gpuwb").arg(round));
        QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project}).exitCode, 0);
        QProcess first, second;
        first.start(QStringLiteral(GPUWB_EXE), {QStringLiteral("project"), QStringLiteral("import"), project, a});
        QThread::msleep(round % 10);
        second.start(QStringLiteral(GPUWB_EXE), {QStringLiteral("project"), QStringLiteral("import"), project, b});
        QVERIFY(first.waitForFinished(30000) && second.waitForFinished(30000));
        const Run list = gpuwb({QStringLiteral("project"), QStringLiteral("list"), project});
        const QStringList names = list.out.split(u'\n', Qt::SkipEmptyParts);
        if (first.exitCode() == 0)
            QVERIFY2(names.contains(QStringLiteral("A")), qPrintable(QStringLiteral("round %1: A lost").arg(round)));
        else
            QVERIFY(!first.readAllStandardError().isEmpty());
        if (second.exitCode() == 0)
            QVERIFY2(names.contains(QStringLiteral("B")), qPrintable(QStringLiteral("round %1: B lost").arg(round)));
        else
            QVERIFY(!second.readAllStandardError().isEmpty());
        bothIn += names.contains(QStringLiteral("A")) && names.contains(QStringLiteral("B"));
    }
    QCOMPARE(bothIn, 50);  // the second waits for the first: neither is refused
}

// The done-when case from the command line: a purchase recommended before its vendor answered
// the checklist stands "subject to evidence" with a warning naming the missing items; each
// import narrows them, bad files store nothing, and the last answer clears it.
void TestCliProject::checklistGatesThePurchase()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("buy.json"), wbtest::purchaseBrief());
    const QString project = dir.filePath(QStringLiteral("buy.gpuwb"));
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project, brief}).exitCode, 0);
    writeFile(dir, QStringLiteral("soc2.txt"), "SOC 2 Type II report, 2026");

    // Before any vendor: the template's 20 items, with their levels, and no answers.
    const Run empty = gpuwb({QStringLiteral("checklist"), project});
    QCOMPARE(empty.exitCode, 0);
    const QJsonObject emptyJson = QJsonDocument::fromJson(empty.out.toUtf8()).object();
    QCOMPARE(emptyJson[QStringLiteral("items")].toArray().size(), 20);
    QCOMPARE(emptyJson[QStringLiteral("vendors")].toArray().size(), 0);

    const QStringList evaluate = {QStringLiteral("evaluate"), project, QStringLiteral("--format"), QStringLiteral("json")};
    QJsonObject rec = recommendationOf(gpuwb(evaluate));
    QCOMPARE(rec[QStringLiteral("route")].toString(), QStringLiteral("buy"));
    QVERIFY(rec[QStringLiteral("subject_to_evidence")].toBool());
    QCOMPARE(rec[QStringLiteral("evidence")].toObject()[QStringLiteral("missing")].toArray().size(), 20);
    const Run table = gpuwb({QStringLiteral("evaluate"), project});
    QVERIFY2(table.out.contains(QLatin1String("subject to evidence")), qPrintable(table.out));
    QVERIFY(table.out.contains(QLatin1String("[checklist-evidence-missing]")));

    // Acme answers all but two items.
    const QString partial = writeFile(dir, QStringLiteral("acme.json"),
                                      acmeAnswers({QStringLiteral("hw-replacement"), QStringLiteral("co-invoice")}));
    const Run imported = gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project, partial});
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
    rec = recommendationOf(gpuwb(evaluate));
    QVERIFY(rec[QStringLiteral("subject_to_evidence")].toBool());
    QCOMPARE(rec[QStringLiteral("evidence")].toObject()[QStringLiteral("vendor")].toString(), QStringLiteral("Acme Systems"));
    const QJsonArray missing = rec[QStringLiteral("evidence")].toObject()[QStringLiteral("missing")].toArray();
    QCOMPARE(missing.size(), 2);
    QVERIFY(missing[0].toString().startsWith(QLatin1String("hw-replacement (")));
    QVERIFY(missing[1].toString().startsWith(QLatin1String("co-invoice (")));

    // Bad files: exit 2, the field or the limit named, the project's bytes unchanged.
    const QByteArray before = bytesOf(project);
    QByteArray typo = acmeAnswers({});
    typo.replace("\"answer\": \"yes\"", "\"answer\": \"yess\"");
    const Run bad = gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project,
                           writeFile(dir, QStringLiteral("typo.json"), typo)});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("typo.json: /items/0/answers/Acme Systems/answer: unknown value \"yess\"")),
             qPrintable(bad.err));
    QFile huge(dir.filePath(QStringLiteral("soc2.txt")));
    QVERIFY(huge.open(QIODevice::ReadWrite));
    QVERIFY(huge.resize(qint64(26) << 20));  // 26 MiB, over the 25 MiB limit
    huge.close();
    const Run tooBig = gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project, partial});
    QCOMPARE(tooBig.exitCode, 2);
    QVERIFY2(tooBig.err.contains(QLatin1String("soc2.txt")) && tooBig.err.contains(QLatin1String("larger than 25 MiB")),
             qPrintable(tooBig.err));
    QCOMPARE(bytesOf(project), before);
    // Evidence files come from beside the answers file only: an answers file from a vendor cannot
    // read the importer's other files.
    QTemporaryDir outside;
    writeFile(outside, QStringLiteral("secret.txt"), "not for the vendor");
    for (const QString &evil : {outside.filePath(QStringLiteral("secret.txt")),
                                QStringLiteral("../") + QFileInfo(outside.path()).fileName() + QStringLiteral("/secret.txt")}) {
        QByteArray json = acmeAnswers({});
        json.replace("\"soc2.txt\"", QJsonDocument(QJsonArray{evil}).toJson(QJsonDocument::Compact).mid(1).chopped(1));
        const Run refused = gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project,
                                   writeFile(dir, QStringLiteral("evil.json"), json)});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QLatin1String("relative to the answers file")) || refused.err.contains(QLatin1String("outside")),
                 qPrintable(refused.err));
    }
    QCOMPARE(bytesOf(project), before);

    // The last answers arrive: the purchase is no longer subject to evidence.
    writeFile(dir, QStringLiteral("soc2.txt"), "SOC 2 Type II report, 2026");
    const Run complete = gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project,
                                writeFile(dir, QStringLiteral("acme-all.json"), acmeAnswers({}))});
    QVERIFY2(complete.exitCode == 0, qPrintable(complete.err));
    rec = recommendationOf(gpuwb(evaluate));
    QCOMPARE(rec[QStringLiteral("route")].toString(), QStringLiteral("buy"));
    QVERIFY(!rec[QStringLiteral("subject_to_evidence")].toBool());
    QVERIFY(!gpuwb({QStringLiteral("evaluate"), project}).out.contains(QLatin1String("checklist-evidence-missing")));

    // The vendor's own export imports back unchanged, its attached file included.
    const QStringList exportArgs = {QStringLiteral("checklist"), project, QStringLiteral("--vendor"), QStringLiteral("Acme Systems")};
    const Run exported = gpuwb(exportArgs);
    QCOMPARE(exported.exitCode, 0);
    QVERIFY(exported.out.contains(QLatin1String("\"name\": \"soc2.txt\"")));
    QCOMPARE(gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project,
                    writeFile(dir, QStringLiteral("again.json"), exported.out.toUtf8())})
                 .exitCode,
             0);
    QCOMPARE(gpuwb(exportArgs).out, exported.out);
    const Run csv = gpuwb(exportArgs + QStringList{QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(csv.exitCode, 0);
    QCOMPARE(csv.out.count(QStringLiteral("\r\n")), 21);
    QVERIFY(csv.out.startsWith(QLatin1String("section,item,question,evidence_expected,required_from,Acme Systems answer,")));
    const Run nobody = gpuwb({QStringLiteral("checklist"), project, QStringLiteral("--vendor"), QStringLiteral("Nobody")});
    QCOMPARE(nobody.exitCode, 2);
    QVERIFY(nobody.err.contains(QLatin1String("has no vendor \"Nobody\" (it has \"Acme Systems\")")));
}

void TestCliProject::planPrintsFourPhases()
{
    const Run md = gpuwb({QStringLiteral("plan"), QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"),
                          QStringLiteral("--candidate"), QStringLiteral("2")});
    QCOMPARE(md.exitCode, 0);
    // The deployment the engine sized for the peak (9 H200 when this was written), not the 8 entered.
    QVERIFY(md.out.contains(QLatin1String("## Candidate 2: ")));
    QVERIFY(md.out.contains(QLatin1String("As entered (8x h200-sxm-141gb TP1)")));
    for (int phase = 1; phase <= 4; ++phase)
        QVERIFY(md.out.contains(QStringLiteral("### Phase %1:").arg(phase)));
    QVERIFY(md.out.contains(QLatin1String("TTFT p99 <= 2 s at 12.5 requests/s")));
    QVERIFY(md.out.contains(QLatin1String("vllm bench serve --backend vllm")));
    QVERIFY(md.out.contains(QLatin1String("guidellm benchmark --target")));
    const Run json = gpuwb({QStringLiteral("plan"), QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"),
                            QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object()[QStringLiteral("candidates")].toArray().size(), 6);
    const Run bad = gpuwb({QStringLiteral("plan"), QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"),
                           QStringLiteral("--candidate"), QStringLiteral("7")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains(QLatin1String("(1 to 6)")));
}

// gpuwb evidence: a vLLM and an AIPerf result imported as runs of candidate 1 (what the files do
// not say comes from the candidate), listed, compared, and calibrating the scenario's figures
// ("calibrated from 2 runs" in the results JSON); a bad candidate or a conflicting GPU is exit 2
// with the field named and the project unchanged.
void TestCliProject::evidenceImportListCompare()
{
    QTemporaryDir dir;
    const QByteArray brief = R"({"format": "gpu-workbench-brief", "version": 1, "name": "Small chat",
      "workload": {"kind": "realtime-inference", "model": "llama-3.1-8b", "weights_precision": "fp8",
        "kv_cache_precision": "fp8", "input_tokens": 2000, "output_tokens": 300,
        "traffic": {"mode": "open-loop", "request_rate_per_s": 4}},
      "candidates": [{"gpu": "h200-sxm-141gb", "gpus": 1, "tensor_parallel": 1, "serving_stack": "vllm"}]})";
    const QString project = dir.filePath(QStringLiteral("small.gpuwb"));
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project,
                    writeFile(dir, QStringLiteral("small.json"), brief)}).exitCode, 0);
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/tests/data/evidence/");
    const auto import = [&](const QString &file, const QStringList &extra) {
        return gpuwb(QStringList{QStringLiteral("evidence"), QStringLiteral("import"), project, samples + file,
                                 QStringLiteral("--scenario"), QStringLiteral("Small chat")} + extra);
    };
    const QByteArray before = bytesOf(project);
    Run bad = import(QStringLiteral("vllm-h200-12.5rps.json"), {QStringLiteral("--candidate"), QStringLiteral("3")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("there is no candidate 3")), qPrintable(bad.err));
    bad = import(QStringLiteral("vllm-h200-12.5rps.json"),
                 {QStringLiteral("--candidate"), QStringLiteral("1"), QStringLiteral("--gpu"), QStringLiteral("b200-180gb")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(QLatin1String("gpu: the run was measured with GPU b200-180gb")), qPrintable(bad.err));
    QCOMPARE(bytesOf(project), before);

    for (const QString &file : {QStringLiteral("vllm-h200-12.5rps.json"), QStringLiteral("aiperf-h200-c32_profile_export_aiperf.json")}) {
        const Run ok = import(file, {QStringLiteral("--candidate"), QStringLiteral("1"), QStringLiteral("--by"), QStringLiteral("QA")});
        QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
        QVERIFY(ok.out.contains(QLatin1String("imported 1 run")));
    }
    const Run list = gpuwb({QStringLiteral("evidence"), QStringLiteral("list"), project, QStringLiteral("--format"),
                            QStringLiteral("json")});
    QCOMPARE(list.exitCode, 0);
    const QJsonArray runs = QJsonDocument::fromJson(list.out.toUtf8()).object()[QStringLiteral("runs")].toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject()[QStringLiteral("tool")].toString(), QStringLiteral("vllm-bench-serve"));
    QCOMPARE(runs[1].toObject()[QStringLiteral("tool")].toString(), QStringLiteral("aiperf"));
    QCOMPARE(runs[1].toObject()[QStringLiteral("candidate")].toInt(), 1);
    QCOMPARE(runs[1].toObject()[QStringLiteral("load")].toObject()[QStringLiteral("concurrency")].toInt(), 32);
    QCOMPARE(runs[0].toObject()[QStringLiteral("imported_by")].toString(), QStringLiteral("QA"));
    const Run table = gpuwb({QStringLiteral("evidence"), QStringLiteral("list"), project});
    QVERIFY(table.out.contains(QLatin1String("vllm-h200-12.5rps.json")));

    const Run evaluated = gpuwb({QStringLiteral("evaluate"), project, QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(evaluated.exitCode, 0);
    const QJsonObject first = QJsonDocument::fromJson(evaluated.out.toUtf8()).object()[QStringLiteral("results")].toArray()[0].toObject();
    QCOMPARE(first[QStringLiteral("provenance")].toObject()[QStringLiteral("step_model")].toString(),
             QStringLiteral("calibrated from 2 runs"));
    const Run compared = gpuwb({QStringLiteral("evidence"), QStringLiteral("compare"), project});
    QVERIFY2(compared.exitCode == 0, qPrintable(compared.err));
    QVERIFY(compared.out.contains(QLatin1String("calibrated from 2 runs")));
    QVERIFY(compared.out.contains(QLatin1String("| TTFT mean |")));
}

void TestCliProject::exportWritesAWorkbook()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.gpuwb"));
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project, samples + QLatin1String("chat-70b.brief.json"),
                    samples + QLatin1String("lora-finetune.brief.json")})
                 .exitCode,
             0);
    QCOMPARE(gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project, samples + QLatin1String("vendors.answers.json")})
                 .exitCode,
             0);
    const QString scenario = gpuwb({QStringLiteral("project"), QStringLiteral("list"), project}).out.split(QLatin1Char('\n')).value(1);
    QVERIFY(!scenario.isEmpty());

    // A workbook of the named scenario: the five result sheets and the project's checklist.
    const QString xlsx = dir.filePath(QStringLiteral("figures.xlsx"));
    const Run written = gpuwb({QStringLiteral("export"), project, QStringLiteral("--scenario"), scenario, QStringLiteral("--format"),
                               QStringLiteral("xlsx"), QStringLiteral("--out"), xlsx});
    QVERIFY2(written.exitCode == 0, qPrintable(written.err));
    QProcess unzip;
    unzip.start(QStringLiteral("unzip"), {QStringLiteral("-p"), xlsx, QStringLiteral("xl/workbook.xml")});
    QVERIFY(unzip.waitForFinished(30000));
    const QByteArray book = unzip.readAllStandardOutput();
    for (const char *sheet : {"Normalization", "Cost lines", "Fit", "Performance", "Assumptions", "Checklist"})
        QVERIFY2(book.contains(QByteArray("name=\"") + sheet + '"'), sheet);

    // CSV: the normalization table, the same bytes evaluate prints.
    const Run csv = gpuwb({QStringLiteral("export"), project, QStringLiteral("--scenario"), scenario, QStringLiteral("--format"),
                           QStringLiteral("csv")});
    QCOMPARE(csv.exitCode, 0);
    QCOMPARE(csv.out, gpuwb({QStringLiteral("evaluate"), project, QStringLiteral("--scenario"), scenario, QStringLiteral("--format"),
                             QStringLiteral("csv")})
                          .out);

    // Refusals: a format it does not write, a workbook without --out, a missing scenario.
    const Run pdf = gpuwb({QStringLiteral("export"), project, QStringLiteral("--format"), QStringLiteral("pdf"),
                           QStringLiteral("--out"), xlsx});
    QCOMPARE(pdf.exitCode, 2);
    QVERIFY2(pdf.err.contains(QLatin1String("--format")), qPrintable(pdf.err));
    const Run noOut = gpuwb({QStringLiteral("export"), project});
    QCOMPARE(noOut.exitCode, 2);
    QVERIFY2(noOut.err.contains(QLatin1String("--out")), qPrintable(noOut.err));
    const Run noScenario = gpuwb({QStringLiteral("export"), project, QStringLiteral("--scenario"), QStringLiteral("nope"),
                                  QStringLiteral("--out"), xlsx});
    QCOMPARE(noScenario.exitCode, 2);
    QVERIFY2(noScenario.err.contains(QLatin1String("nope")), qPrintable(noScenario.err));
}

QTEST_GUILESS_MAIN(TestCliProject)
#include "tst_cli_project.moc"
