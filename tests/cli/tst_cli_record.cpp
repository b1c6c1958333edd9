// gpuwb record and report as a user runs them: a decision record made, listed and recomputed, and
// printed as a PDF.

#include "cli/clitest.h"

class TestCliRecord : public QObject
{
    Q_OBJECT

private slots:
    void recordNewListRecompute();
    void reportPrintsTheRecord();
};

void TestCliRecord::recordNewListRecompute()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.gpuwb"));
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project,
                    QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json")})
                 .exitCode,
             0);
    const auto bytes = [&project] {
        QFile f(project);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };

    // Refused, naming the option, and nothing written: an unknown term, no rationale.
    const QByteArray before = bytes();
    const Run badTerm = gpuwb({QStringLiteral("record"), QStringLiteral("new"), project, QStringLiteral("--candidate"),
                               QStringLiteral("1"), QStringLiteral("--term"), QStringLiteral("weekly"), QStringLiteral("--rationale"),
                               QStringLiteral("r"), QStringLiteral("--sign-off"), QStringLiteral("Ana")});
    QCOMPARE(badTerm.exitCode, 2);
    QVERIFY2(badTerm.err.contains(QLatin1String("--term")), qPrintable(badTerm.err));
    const Run noWhy = gpuwb({QStringLiteral("record"), QStringLiteral("new"), project, QStringLiteral("--api"),
                             QStringLiteral("--sign-off"), QStringLiteral("Ana")});
    QCOMPARE(noWhy.exitCode, 2);
    QVERIFY2(noWhy.err.contains(QLatin1String("--rationale")), qPrintable(noWhy.err));
    QCOMPARE(bytes(), before);

    const Run made = gpuwb({QStringLiteral("record"), QStringLiteral("new"), project, QStringLiteral("--api"), QStringLiteral("--rationale"),
                            QStringLiteral("cheapest at this volume"), QStringLiteral("--sign-off"), QStringLiteral("Ana Ruiz, finance"),
                            QStringLiteral("--date"), QStringLiteral("2026-12-02")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QString id = made.out.trimmed();
    const Run list = gpuwb({QStringLiteral("record"), QStringLiteral("list"), project});
    QVERIFY2(list.out.startsWith(id + QLatin1Char('\t')) && list.out.contains(QLatin1String("intact")), qPrintable(list.out));

    const Run same = gpuwb({QStringLiteral("record"), QStringLiteral("recompute"), project, QStringLiteral("--record"), id});
    QVERIFY2(same.exitCode == 0 && same.out.contains(QLatin1String("No differences")), qPrintable(same.out + same.err));

    // With a catalog that adds a price for a GPU the scenario's candidates use, that price is an
    // input that changed.
    const QString prices = dir.filePath(QStringLiteral("prices.json"));
    QFile f(prices);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "gpu-workbench-catalog", "version": 1, "prices": [{"gpu": "h200-sxm-141gb", "provider": "Test Cloud",
               "term": "on-demand", "usd_per_gpu_hour": 1.0, "observed": "2026-12-01", "source": "a test"}]})");
    f.close();
    const Run moved = gpuwb({QStringLiteral("--catalog"), prices, QStringLiteral("record"), QStringLiteral("recompute"), project,
                             QStringLiteral("--record"), id, QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(moved.exitCode, 0);
    const QJsonObject j = QJsonDocument::fromJson(moved.out.toUtf8()).object();
    QVERIFY(j.value(QLatin1String("intact")).toBool());
    QStringList inputs;
    for (const QJsonValue &c : j.value(QLatin1String("changes")).toArray())
        if (c.toObject().value(QLatin1String("kind")).toString() == QLatin1String("input"))
            inputs << c.toObject().value(QLatin1String("pointer")).toString();
    QVERIFY(!inputs.isEmpty());
    for (const QString &pointer : inputs)
        QVERIFY2(pointer.startsWith(QLatin1String("/catalog/prices/h200-sxm-141gb | Test Cloud | on-demand/")), qPrintable(pointer));

    const Run missing = gpuwb({QStringLiteral("record"), QStringLiteral("show"), project, QStringLiteral("--record"), QStringLiteral("99")});
    QCOMPARE(missing.exitCode, 2);

    // --out onto the project itself is refused and the project is left as it was.
    const QByteArray kept = bytes();
    for (const QStringList &command : {QStringList{QStringLiteral("report"), project, QStringLiteral("--record"), id},
                                       QStringList{QStringLiteral("export"), project},
                                       QStringList{QStringLiteral("record"), QStringLiteral("list"), project}}) {
        const Run onto = gpuwb(command + QStringList{QStringLiteral("--out"), project});
        QCOMPARE(onto.exitCode, 2);
        QVERIFY2(onto.err.contains(QLatin1String("--out")), qPrintable(onto.err));
        QCOMPARE(bytes(), kept);
    }
}

void TestCliRecord::reportPrintsTheRecord()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.gpuwb"));
    const QString samples = QStringLiteral(WB_SOURCE_DIR "/resources/samples/");
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project, samples + QLatin1String("chat-70b.brief.json")}).exitCode, 0);
    QCOMPARE(gpuwb({QStringLiteral("checklist"), QStringLiteral("import"), project, samples + QLatin1String("vendors.answers.json")})
                 .exitCode,
             0);
    const Run made = gpuwb({QStringLiteral("record"), QStringLiteral("new"), project, QStringLiteral("--candidate"), QStringLiteral("2"),
                            QStringLiteral("--term"), QStringLiteral("on-demand"), QStringLiteral("--rationale"),
                            QStringLiteral("Rent H200 on demand until the volume settles"), QStringLiteral("--sign-off"),
                            QStringLiteral("Ana Ruiz, finance")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QString pdf = dir.filePath(QStringLiteral("record.pdf"));
    const Run printed = gpuwb({QStringLiteral("report"), project, QStringLiteral("--record"), made.out.trimmed(), QStringLiteral("--out"), pdf});
    QVERIFY2(printed.exitCode == 0, qPrintable(printed.err));
    QVERIFY2(printed.err.isEmpty(), qPrintable(printed.err));

    QProcess extract;
    extract.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(extract.waitForFinished(60000));
    QCOMPARE(extract.exitCode(), 0);
    const QString text = QString::fromUtf8(extract.readAllStandardOutput());

    // Every section, the decision with its rationale and signer, and the hash.
    for (const char *section : {"Decision record: Support chat", "The brief", "Candidates and their specifications",
                                "Sources of the specifications", "Does it fit?", "How fast under load?",
                                "What does each accepted output cost?", "When does each option pay?", "Normalization table",
                                "Cost lines per option", "Break-even points", "Assumptions", "Calibration and measured evidence",
                                "Vendor checklist", "Warnings and the method's common mistakes",
                                "Benchmark plan: acceptance criteria", "Sign-off", "Appendix: the brief as JSON"})
        QVERIFY2(text.contains(QLatin1String(section)), section);
    // The decision is the deployment the engine sized from the 8 H200 entered, and every table
    // names it so.
    QVERIFY(text.contains(QLatin1String("h200-sxm-141gb TP1 (sized from 8)")));
    QVERIFY(text.contains(QLatin1String("h200-sxm-141gb (vllm), sized from 8")));
    QVERIFY(text.contains(QLatin1String("Rent H200 on demand until the volume settles")));
    QVERIFY(text.contains(QLatin1String("Ana Ruiz, finance")));
    const QJsonObject record = QJsonDocument::fromJson(gpuwb({QStringLiteral("record"), QStringLiteral("show"), project,
                                                              QStringLiteral("--record"), made.out.trimmed()})
                                                           .out.toUtf8())
                                   .object();
    QVERIFY(text.contains(record.value(QLatin1String("sha256")).toString()));

    // Cost lines: each option's printed lines add up to its printed total (to the cent).
    const QString costs = text.mid(text.indexOf(QLatin1String("Cost lines per option")),
                                   text.indexOf(QLatin1String("Break-even points")) - text.indexOf(QLatin1String("Cost lines per option")));
    static const QRegularExpression row(QStringLiteral(R"re(^\s*(\S.*?)\s+\$([0-9,]+\.[0-9]{2})\s)re"));
    double sum = 0;
    int totals = 0, lines = 0;
    for (const QString &line : costs.split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch m = row.match(line);
        if (!m.hasMatch())
            continue;
        const double amount = m.captured(2).remove(QLatin1Char(',')).toDouble();
        if (m.captured(1) == QLatin1String("Total")) {
            QVERIFY2(std::abs(sum - amount) < 0.005, qPrintable(QStringLiteral("lines %1, total %2").arg(sum).arg(amount)));
            ++totals;
            sum = 0;
        } else {
            sum += amount;
            ++lines;
        }
    }
    // The sample prices six GPU options and the model API (each with its lines and a total).
    QCOMPARE(totals, 7);
    // The lines by the titles the window and the workbook give them (results' "title"), not their
    // codes made words ("Gpu compute" once).
    // (The Line column wraps them: "GPU time on" / "accepted work".)
    QVERIFY(costs.contains(QLatin1String("GPU time on")) && costs.contains(QLatin1String("API usage on")));
    QVERIFY(!costs.contains(QLatin1String("Gpu compute")) && !text.contains(QLatin1String("Api usage")));
    QVERIFY(lines > 7 * 3);

    // A draft of the scenario as it stands, on Letter paper; a missing --out is refused.
    const QString draft = dir.filePath(QStringLiteral("draft.pdf"));
    QCOMPARE(gpuwb({QStringLiteral("report"), project, QStringLiteral("--out"), draft, QStringLiteral("--page"), QStringLiteral("letter")})
                 .exitCode,
             0);
    QProcess info;
    info.start(QStringLiteral("pdfinfo"), {draft});
    QVERIFY(info.waitForFinished(30000));
    QVERIFY(QString::fromUtf8(info.readAllStandardOutput()).contains(QLatin1String("612 x 792 pts (letter)")));
    QCOMPARE(gpuwb({QStringLiteral("report"), project}).exitCode, 2);
    QCOMPARE(gpuwb({QStringLiteral("report"), project, QStringLiteral("--record"), QStringLiteral("77"), QStringLiteral("--out"), draft})
                 .exitCode,
             2);

    // The sample's scenario with measured runs: its draft prints the calibration and the runs
    // against their predictions, and its figures go to a workbook.
    const QString measured = QStringLiteral("Support chat on 8x H200, with sample measured runs");
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("import"), project, samples + QLatin1String("chat-70b-h200-measured.brief.json")})
                 .exitCode,
             0);
    for (const char *file : {"vllm-h200-12.5rps.json", "guidellm-h200.json", "llmperf-h200_2000_300_summary.json"})
        QCOMPARE(gpuwb({QStringLiteral("evidence"), QStringLiteral("import"), project, samples + QLatin1String("evidence/") + QLatin1String(file),
                        QStringLiteral("--scenario"), measured, QStringLiteral("--candidate"), QStringLiteral("1")})
                     .exitCode,
                 0);
    const Run calibrated = gpuwb({QStringLiteral("report"), project, QStringLiteral("--scenario"), measured, QStringLiteral("--out"), draft});
    QVERIFY2(calibrated.exitCode == 0, qPrintable(calibrated.err));
    extract.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), draft, QStringLiteral("-")});
    QVERIFY(extract.waitForFinished(60000));
    const QString measuredText = QString::fromUtf8(extract.readAllStandardOutput());
    for (const char *part : {"DRAFT", "calibrated from 4 runs", "Imported runs", "Measured against predicted", "12.5 requests/s"})
        QVERIFY2(measuredText.contains(QLatin1String(part)), part);
    const QString xlsx = dir.filePath(QStringLiteral("measured.xlsx"));
    const Run workbook = gpuwb({QStringLiteral("export"), project, QStringLiteral("--scenario"), measured, QStringLiteral("--format"),
                                QStringLiteral("xlsx"), QStringLiteral("--out"), xlsx});
    QVERIFY2(workbook.exitCode == 0, qPrintable(workbook.err));
    QVERIFY(QFileInfo(xlsx).size() > 1000);

    // An image service's draft counts accepted images wherever a cost per output is printed.
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("import"), project, samples + QLatin1String("sdxl-images.brief.json")})
                 .exitCode,
             0);
    const Run images = gpuwb({QStringLiteral("report"), project, QStringLiteral("--scenario"),
                              QStringLiteral("Product images with SDXL (1,024 x 1,024, 30 steps)"), QStringLiteral("--out"), draft});
    QVERIFY2(images.exitCode == 0, qPrintable(images.err));
    extract.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), draft, QStringLiteral("-")});
    QVERIFY(extract.waitForFinished(60000));
    const QString imagesText = QString::fromUtf8(extract.readAllStandardOutput());
    for (const char *part : {"What does each accepted image cost?", "USD per accepted image", "accepted images a month", "GB of accepted images", "Cost per accepted image within"})
        QVERIFY2(imagesText.contains(QLatin1String(part)), part);
    QVERIFY(!imagesText.contains(QLatin1String("Cost per accepted output")));
}

QTEST_GUILESS_MAIN(TestCliRecord)
#include "tst_cli_record.moc"
