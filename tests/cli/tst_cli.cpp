// The gpuwb command line as a user runs it: exit codes and the one-line messages of
// ../shared/spec/brief-and-results-v1.md, and nothing written to --out on bad input. This file:
// help, catalog, evaluate, search and calibrate; tst_cli_project: project, checklist, plan,
// evidence and export; tst_cli_record: record and report.

#include "cli/clitest.h"

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void helpAndVersion();
    void catalogLists();
    void evaluateJson();
    void evaluateTableAndCsv();
    void incompleteBriefIsNotRanked();
    void badInput_data();
    void badInput();
    void hostileInput_data();
    void hostileInput();
    void csvCellsStayText();
    void listedNamesAreOneLineEach();
    void recommendationLinesAreEscaped();
    void calibrateWritesTheTableOrRefuses();
    void outNeverReplacesDevicesOrReadOnlyFiles();
    // A training brief's table, JSON and PDF price a completed run, not a month.
    void trainingIsPricedPerRun();
    void searchFindsLayouts();
};

void TestCli::helpAndVersion()
{
    Run r = gpuwb({QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("evaluate BRIEF.json")));
    r = gpuwb({QStringLiteral("--version")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("0.1.0")));
}

void TestCli::catalogLists()
{
    Run r = gpuwb({QStringLiteral("catalog"), QStringLiteral("gpus")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("h200-sxm-141gb")));
    r = gpuwb({QStringLiteral("catalog"), QStringLiteral("models"), QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    // The spec's 16 decoder models and its four encoders (bert-base, bert-large, bge-large-en-v1.5, bge-m3).
    QCOMPARE(doc.object().value(QLatin1String("models")).toArray().size(), 20);
}

void TestCli::evaluateJson()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
    const QString out = dir.filePath(QStringLiteral("results.json"));
    const Run r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("json"),
                         QStringLiteral("--out"), out});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(root.value(QLatin1String("format")).toString(), QStringLiteral("gpu-workbench-results"));
    const QJsonObject result = root.value(QLatin1String("results")).toArray().at(0).toObject();
    QCOMPARE(result.value(QLatin1String("candidate")).toObject().value(QLatin1String("replicas")).toInt(), 1);
    const QJsonObject fit = result.value(QLatin1String("fit")).toObject();
    QVERIFY(fit.value(QLatin1String("fits")).toBool());
    // The breakdown adds up to per_gpu_bytes exactly (integers well inside 2^53).
    double sum = 0;
    const QJsonObject breakdown = fit.value(QLatin1String("breakdown_bytes")).toObject();
    for (const QString &key : breakdown.keys())
        sum += breakdown.value(key).toDouble();
    QCOMPARE(sum, fit.value(QLatin1String("per_gpu_bytes")).toDouble());
    QCOMPARE(breakdown.size(), 6);
    QCOMPARE(fit.value(QLatin1String("gpu_capacity_bytes")).toDouble(), 85899345920.0);
    QVERIFY(fit.value(QLatin1String("kv_cache_capacity_tokens")).toDouble() > 0);
    // The performance section carries the spec's keys, with ordered percentiles.
    const QJsonObject perf = result.value(QLatin1String("performance")).toObject();
    for (const char *key : {"output_tokens_per_s", "output_tokens_per_s_per_gpu", "requests_per_s", "ttft_s", "tpot_s",
                            "e2e_s", "slo_met", "max_request_rate_within_slo_per_s", "output_tokens_per_s_within_slo"})
        QVERIFY2(perf.contains(QLatin1String(key)), key);
    QVERIFY(perf.value(QLatin1String("output_tokens_per_s")).toDouble() > 0);
    for (const char *key : {"ttft_s", "tpot_s", "e2e_s"}) {
        const QJsonObject d = perf.value(QLatin1String(key)).toObject();
        QVERIFY2(d.value(QLatin1String("p50")).toDouble() <= d.value(QLatin1String("p95")).toDouble(), key);
        QVERIFY2(d.value(QLatin1String("p95")).toDouble() <= d.value(QLatin1String("p99")).toDouble(), key);
    }
    // The cost section: the cheapest option's cost per accepted output, and options whose lines
    // add up to their monthly total.
    const QJsonObject cost = result.value(QLatin1String("cost")).toObject();
    QVERIFY(cost.value(QLatin1String("cost_per_accepted_output_usd")).toDouble() > 0);
    for (const QJsonValue &v : cost.value(QLatin1String("options")).toArray()) {
        const QJsonObject o = v.toObject();
        qint64 cents = 0;
        for (const QJsonValue &l : o.value(QLatin1String("lines")).toArray())
            cents += qRound64(l.toObject().value(QLatin1String("usd_per_month")).toDouble() * 100);
        QCOMPARE(cents, qRound64(o.value(QLatin1String("usd_per_month")).toDouble() * 100));
    }
    QVERIFY(root.value(QLatin1String("cost")).toObject().contains(QLatin1String("recommendation")));
}

void TestCli::evaluateTableAndCsv()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
    Run r = gpuwb({QStringLiteral("evaluate"), brief});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("2x h100-sxm-80gb TP2")));
    r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    // One row per pricing option of the candidate (the price book has several for H100 SXM) and
    // one for the model API route; every row has as many fields as the header.
    const QStringList lines = r.out.trimmed().split(u'\n');
    QVERIFY(lines.size() >= 3);
    QVERIFY(lines[0].startsWith(QLatin1String("candidate,gpu,gpus,")));
    QVERIFY(lines.last().startsWith(QLatin1String("model API,")));
    for (const QString &line : lines) {
        int fields = 1;
        bool quoted = false;
        for (QChar ch : line) {
            if (ch == u'"')
                quoted = !quoted;
            else if (ch == u',' && !quoted)
                ++fields;
        }
        QCOMPARE(fields, int(lines[0].count(u',')) + 1);
    }
}

// The engine holds the ranking back while a blocking brief item is missing (the seed: if you
// cannot complete the brief, pause the selection): kBrief states no latency targets and no
// acceptance, so no format may print a recommendation, and each names what is missing.
void TestCli::incompleteBriefIsNotRanked()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
    Run r = gpuwb({QStringLiteral("evaluate"), brief});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("Recommendation: none; the ranking and recommendation are held back until "
                                          "the brief gives: ")),
             qPrintable(r.out));
    QVERIFY(r.out.contains(QLatin1String("latency targets (/workload/slo)")));
    QVERIFY(!r.out.contains(QLatin1String("Recommendation: model API")));
    QVERIFY(!r.out.contains(QLatin1String("Recommendation: rent")));

    r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject cost = QJsonDocument::fromJson(r.out.toUtf8()).object()[QLatin1String("cost")].toObject();
    QVERIFY(cost[QLatin1String("recommendation")].isNull());
    QStringList pointers;
    for (const QJsonValue &item : cost[QLatin1String("recommendation_held_back_by")].toArray())
        pointers << item[QLatin1String("pointer")].toString();
    QVERIFY2(pointers.contains(QLatin1String("/workload/slo")), qPrintable(pointers.join(u' ')));

    r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split(u'\n');
    // "recommended" is the column before the warnings, sized_from_gpus, billed_share_of_month,
    // commercial_terms and cold_start_share, which hold no comma here (this brief's prices state
    // no terms; a provider's name may hold one, quoted).
    QVERIFY(lines[0].endsWith(
        QLatin1String(",recommended,warnings,sized_from_gpus,billed_share_of_month,commercial_terms,cold_start_share")));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList fields = lines[i].split(u',');
        QCOMPARE(fields.value(fields.size() - 6), QStringLiteral("held back"));
    }
}

void TestCli::badInput_data()
{
    QTest::addColumn<QByteArray>("content");  // empty: the file does not exist
    QTest::addColumn<QStringList>("extraArgs");
    QTest::addColumn<QString>("expected");     // text the one stderr line must contain besides the file name

    QTest::newRow("missing file") << QByteArray() << QStringList() << "does not exist";
    QTest::newRow("malformed json") << QByteArray("{\"format\": \"gpu-workbench-brief\",") << QStringList()
                                    << "is not valid JSON";
    QByteArray unknownGpu = kBrief;
    unknownGpu.replace("h100-sxm-80gb", "h100-sxm-81gb");
    QTest::newRow("unknown gpu id") << unknownGpu << QStringList() << "/candidates/0/gpu";
    QByteArray negative = kBrief;
    negative.replace("\"input_tokens\": 2000", "\"input_tokens\": -2000");
    QTest::newRow("negative token count") << negative << QStringList() << "/workload/input_tokens";
    // A misspelt assumption is refused, naming it, rather than ignored (issue 11).
    QByteArray typo = kBrief;
    typo.replace("\"cost\":", "\"assumptions\": {\"hours_per_mnth\": 700}, \"cost\":");
    QTest::newRow("misspelt assumption") << typo << QStringList() << "/assumptions/hours_per_mnth";
    QByteArray outOfRange = kBrief;
    outOfRange.replace("\"cost\":", "\"assumptions\": {\"hours_per_month\": 800}, \"cost\":");
    QTest::newRow("assumption out of range") << outOfRange << QStringList() << "/assumptions/hours_per_month";
    QTest::newRow("bad format option") << kBrief << QStringList{QStringLiteral("--format"), QStringLiteral("xml")}
                                       << "--format";
}

void TestCli::badInput()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, extraArgs);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString brief = content.isEmpty() ? dir.filePath(QStringLiteral("missing.json"))
                                            : writeFile(dir, QStringLiteral("brief.json"), content);
    const QString out = dir.filePath(QStringLiteral("results.json"));
    const Run r = gpuwb(QStringList{QStringLiteral("evaluate"), brief, QStringLiteral("--out"), out} + extraArgs);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    const QStringList lines = r.err.trimmed().split(u'\n');
    QCOMPARE(lines.size(), 1);
    if (expected != QLatin1String("--format"))
        QVERIFY2(lines[0].contains(brief), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(expected), qPrintable(lines[0]));
    QVERIFY(!QFile::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).filter(QStringLiteral("results")).size(), 0);
    if (content.isEmpty())
        QVERIFY(!QFile::exists(brief));  // a missing path is never created
}

// Every hostile input of the issue "Hostile and extreme inputs": each exits 0 or 2 within its
// time under a 2 GiB address-space limit, with one line naming what is wrong and no crash.
void TestCli::hostileInput_data()
{
    QTest::addColumn<QByteArray>("content");  // empty: `special` is the path
    QTest::addColumn<QString>("special");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("expected");
    const QByteArray closed = R"("traffic": {"mode": "closed-loop", "concurrency": 32})";
    const auto open = [&](const char *rate) {
        return briefWith(closed, QByteArray(R"("traffic": {"mode": "open-loop", "request_rate_per_s": )") + rate
                                     + R"(}, "slo": {"ttft_p99_s": 2, "tpot_p99_s": 0.1})");
    };
    const QByteArray candidate = R"({"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 2, "pipeline_parallel": 1})";
    QTest::newRow("100,000-deep notes") << briefWith(R"("cost":)", R"("notes": )" + nested(100000) + R"(, "cost":)")
                                         << QString() << 2 << "deeper than 64 levels";
    QTest::newRow("100,000-deep hf_config") << briefWith(R"("model": "llama-3.1-70b")", R"("model": {"hf_config": )" + nested(100000) + "}")
                                             << QString() << 2 << "deeper than 64 levels";
    QTest::newRow("a 100,000-character name") << briefWith(R"("name": "70B fp8 on 2x H100")", R"("name": ")" + QByteArray(100000, 'n') + R"(")")
                                               << QString() << 2 << "has a string of 100000 bytes at byte 56; a string may hold at most 65536 bytes";
    // Exactly at the limit: taken (it was refused, "a string of 64 KiB … at most 64 KiB").
    QTest::newRow("a 65,536-byte name") << briefWith(R"("name": "70B fp8 on 2x H100")", R"("name": ")" + QByteArray(65536, 'n') + R"(")")
                                        << QString() << 0 << QString();
    QTest::newRow("a 20 MiB brief") << briefWith(R"("cost":)", R"("notes": [)" + QByteArray("1,").repeated(10 << 20) + R"(1], "cost":)")
                                    << QString() << 2 << "is larger than 16 MiB";
    QTest::newRow("10^12 requests/s") << open("1e12") << QString() << 2 << "/workload/traffic/request_rate_per_s";
    QTest::newRow("10^16 requests a month") << briefWith("1000000}", "1e16}") << QString() << 2 << "/cost/requests_per_month";
    QTest::newRow("4096 x 4096 GPUs") << briefWith(R"("gpus": 2, "tensor_parallel": 2, "pipeline_parallel": 1)",
                                                   R"("tensor_parallel": 4096, "pipeline_parallel": 4096)")
                                      << QString() << 2 << "tensor_parallel x pipeline_parallel = 16777216";
    QByteArray many = "[" + candidate;
    for (int i = 1; i < 5000; ++i)
        many += ", " + candidate;
    QTest::newRow("5,000 candidates") << briefWith("[" + candidate, many) << QString() << 2 << "at most 32";
    QTest::newRow("a price from the year 2999")
        << briefWith(R"("cost": {)", R"("cost": {"prices": [{"gpu": "h100-sxm-80gb", "provider": "x", "term": "on-demand", "usd_per_gpu_hour": 2, "observed": "2999-01-01", "source": "x"}], )")
        << QString() << 2 << "2999-01-01 is in the future";
    QTest::newRow("terminal escapes in a model id") << briefWith(R"("model": "llama-3.1-70b")", "\"model\": \"x\\n\\u001b[31mred\"")
                                                    << QString() << 2 << "\\x1b[31mred";
    // Refusals that say the real reason (the attacker's report): a count too large, not "not a
    // whole number"; the value beside the limit, not both written 1e+12; a date in the future.
    QTest::newRow("input_tokens_p95 of 1e30") << briefWith(R"("input_tokens": 2000,)", R"("input_tokens": 2000, "input_tokens_p95": 1e30,)")
                                              << QString() << 2 << "must be at most 100000000";
    QTest::newRow("a price of $10^12 + 1")
        << briefWith(R"("cost": {)", R"("cost": {"prices": [{"gpu": "h100-sxm-80gb", "provider": "x", "term": "on-demand", "usd_per_gpu_hour": 1000000000001, "observed": "2026-11-01", "source": "x"}], )")
        << QString() << 2 << "must be at most 1000000000000, not 1000000000001";
    QTest::newRow("a price from 9999-12-31")
        << briefWith(R"("cost": {)", R"("cost": {"prices": [{"gpu": "h100-sxm-80gb", "provider": "x", "term": "on-demand", "usd_per_gpu_hour": 2, "observed": "9999-12-31", "source": "x"}], )")
        << QString() << 2 << "9999-12-31 is in the future";
    QTest::newRow("a loop of links") << QByteArray() << QStringLiteral("loop") << 2 << "Too many levels of symbolic links";
    QTest::newRow("a FIFO") << QByteArray() << QStringLiteral("fifo") << 2 << "is a pipe (FIFO), not a file";
    QTest::newRow("/dev/zero") << QByteArray() << QStringLiteral("/dev/zero") << 2 << "is a device, not a file";
    QTest::newRow("a folder") << QByteArray() << QStringLiteral("folder") << 2 << "is a folder, not a file";
    // At the limit of the rates the models cover: simulated (a representative set of replicas),
    // not refused, and bounded.
    QTest::newRow("10,000 requests/s") << open("10000") << QString() << 0 << QString();
}

void TestCli::hostileInput()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, special);
    QFETCH(int, exitCode);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QString path;
    if (special == QLatin1String("fifo")) {
        path = dir.filePath(QStringLiteral("brief.json"));
        QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {path}), 0);
    } else if (special == QLatin1String("loop")) {
        path = dir.filePath(QStringLiteral("a.gpuwb"));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("b.gpuwb")), path));
        QVERIFY(QFile::link(path, dir.filePath(QStringLiteral("b.gpuwb"))));
    } else if (special == QLatin1String("folder")) {
        path = dir.filePath(QStringLiteral("brief.json"));
        QVERIFY(QDir().mkpath(path));
    } else {
        path = special.isEmpty() ? writeFile(dir, QStringLiteral("brief.json"), content) : special;
    }
    bool finished = false;
    const Run r = gpuwbLimited({QStringLiteral("evaluate"), path, QStringLiteral("--format"), QStringLiteral("json")}, 20,
                               &finished);
    QVERIFY2(finished, "ran past its time limit");
    QVERIFY2(r.exitCode == exitCode, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(r.err.left(300))));
    if (exitCode == 2) {
        const QStringList lines = r.err.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].contains(expected), qPrintable(lines[0].left(300)));
        QVERIFY(!lines[0].contains(QChar(0x1b)));
        QVERIFY(r.out.isEmpty());
    } else {
        QVERIFY(QJsonDocument::fromJson(r.out.toUtf8()).isObject());
        // Thousands of replicas for the peak: simulated as a representative set, and said so.
        if (QTest::currentDataTag() == QLatin1String("10,000 requests/s"))
            QVERIFY2(r.out.contains(QLatin1String("replicas-represented")), qPrintable(r.out.left(3000)));
    }
}

// A provider named like a formula stays text in the CSV (a leading '), and a line break inside
// a field is quoted.
void TestCli::csvCellsStayText()
{
    QTemporaryDir dir;
    const QString brief = writeFile(
        dir, QStringLiteral("brief.json"),
        briefWith(R"("cost": {)", R"J("cost": {"prices": [{"gpu": "h100-sxm-80gb", "provider": "=HYPERLINK(\"http://x\")", "term": "on-demand", "usd_per_gpu_hour": 2, "observed": "2026-11-01", "source": "line one\r\nline two"}], )J"));
    const Run r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("\"'=HYPERLINK(\"\"http://x\"\")\"")), qPrintable(r.out.left(2000)));
    QVERIFY(!r.out.contains(QLatin1String(",=HYPERLINK")));
}

// A scenario named with a newline and terminal escapes is listed on one line, escaped (it
// printed a real newline, ESC and BEL).
void TestCli::listedNamesAreOneLineEach()
{
    QTemporaryDir dir;
    const QString project = dir.filePath(QStringLiteral("p.gpuwb"));
    const QString brief = writeFile(dir, QStringLiteral("b.json"), kBrief);
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("new"), project}).exitCode, 0);
    QCOMPARE(gpuwb({QStringLiteral("project"), QStringLiteral("import"), project, brief, QStringLiteral("--scenario"),
                    QStringLiteral("evil\n\x1b[31mRED\x07")})
                 .exitCode,
             0);
    const Run list = gpuwb({QStringLiteral("project"), QStringLiteral("list"), project});
    QCOMPARE(list.exitCode, 0);
    QCOMPARE(list.out, QStringLiteral("evil\\n\\x1b[31mRED\\x07\n"));
}

// A quote's provider with a newline and terminal escapes reaches the recommendation's reasons:
// the table prints them escaped, one line each (the reasons printed them raw).
void TestCli::recommendationLinesAreEscaped()
{
    QTemporaryDir dir;
    const QString brief = writeFile(
        dir, QStringLiteral("b.json"),
        briefWith(R"("cost": {"requests_per_month": 1000000})",
                  R"("cost": {"requests_per_month": 1000000, "decision": {"api_allowed": false},
                     "prices": [{"gpu": "h100-sxm-80gb", "provider": "evil\n\u001b[31mRED\u0007", "term": "on-demand",
                                 "usd_per_gpu_hour": 0.01, "observed": "2026-11-01", "source": "test"}]})"));
    const Run r = gpuwb({QStringLiteral("evaluate"), brief});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QLatin1String("evil\\n\\x1b[31mRED\\x07")), qPrintable(r.out));
    QVERIFY(!r.out.contains(QChar(0x1b)) && !r.out.contains(QChar(0x07)));
    for (const QString &line : r.out.split(u'\n'))
        QVERIFY2(!line.startsWith(QLatin1String("RED")), qPrintable(line));
}

// gpuwb calibrate: a one-case file gives a calibration JSON the engine loads back (the case's
// factors calibrated from it, the rest priors) and the per-case table; a bad cases file is exit
// 2 naming the line and leaves no output file.
void TestCli::calibrateWritesTheTableOrRefuses()
{
    QTemporaryDir dir;
    const QByteArray brief = R"({""format"": ""gpu-workbench-brief"", ""version"": 1, ""name"": ""c"", ""workload"": {)"
                             R"(""kind"": ""batch-inference"", ""model"": ""llama-3.1-8b"", ""weights_precision"": ""bf16"", )"
                             R"(""input_tokens"": 32, ""output_tokens"": 64, ""traffic"": {""mode"": ""closed-loop"", )"
                             R"(""concurrency"": 2}}, ""candidates"": [{""gpu"": ""h200-sxm-141gb"", ""serving_stack"": ""vllm""}], )"
                             R"(""assumptions"": {""simulated_requests"": 200}})";
    const QString cases = writeFile(dir, QStringLiteral("cases.csv"),
                                    "case_id,set,figure,measured,assumed,brief\nC-1,test,e2e_mean_s,0.5,-,\"" + brief + "\"\n");
    const QString out = dir.filePath(QStringLiteral("calibration.json"));
    const Run run = gpuwb({QStringLiteral("calibrate"), cases, QStringLiteral("--out"), out});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QLatin1String("| C-1 | h200-sxm-141gb x1 | e2e_mean_s | 500.0 ms |")), qPrintable(run.out));
    QVERIFY(run.out.contains(QLatin1String("| test | e2e | 1 |")));
    wb::EfficiencyTable table = wb::EfficiencyTable::priors();
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const wb::Status loaded = table.loadJson(file.readAll().toStdString(), out.toStdString());
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    QCOMPARE(table.factor("memory.hopper")->cases, std::vector<std::string>{"C-1"});
    QVERIFY(!table.factor("memory.cdna3")->calibrated());

    const QString bad = writeFile(dir, QStringLiteral("bad.csv"),
                                  "case_id,set,figure,measured,assumed,brief\nC-1,test,e2e_mean_s,fast,-,\"" + brief + "\"\n");
    const QString badOut = dir.filePath(QStringLiteral("bad.json"));
    const Run refused = gpuwb({QStringLiteral("calibrate"), bad, QStringLiteral("--out"), badOut});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains(QLatin1String("bad.csv: line 2, column measured: \"fast\" is not a number")),
             qPrintable(refused.err));
    QVERIFY(!QFile::exists(badOut));
}

// --out replaces a regular file only: a FIFO (or a device) keeps its kind and a read-only file
// its content; both are exit 1 with the reason. (As root a device node became a plain file.)
void TestCli::outNeverReplacesDevicesOrReadOnlyFiles()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("b.json"), kBrief);
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
    Run r = gpuwb({QStringLiteral("catalog"), QStringLiteral("gpus"), QStringLiteral("--out"), fifo});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("not a file")), qPrintable(r.err));
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());

    const QString locked = writeFile(dir, QStringLiteral("locked.txt"), "keep me");
    QVERIFY(QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ReadGroup));
    r = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--out"), locked});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QLatin1String("read-only")), qPrintable(r.err));
    QFile f(locked);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("keep me"));
}

void TestCli::trainingIsPricedPerRun()
{
    QTemporaryDir dir;
    const QString brief = QStringLiteral(WB_SOURCE_DIR "/resources/samples/pretrain-70b.brief.json");
    const Run table = gpuwb({QStringLiteral("evaluate"), brief});
    QCOMPARE(table.exitCode, 0);
    // Issue 37: the run is decided per accepted run (rent, reserve or buy), not left undecided.
    for (const char *part : {"Training time", "Cost of a completed run", "$/run", "Recommendation: rent", "per accepted run, $"})
        QVERIFY2(table.out.contains(QLatin1String(part)), part);
    QVERIFY(!table.out.contains(QLatin1String("no-training-recommendation")));
    const Run json = gpuwb({QStringLiteral("evaluate"), brief, QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(json.exitCode, 0);
    const QJsonObject first = QJsonDocument::fromJson(json.out.toUtf8()).object().value(QLatin1String("results")).toArray().at(0).toObject();
    const QJsonObject option = first.value(QLatin1String("cost")).toObject().value(QLatin1String("options")).toArray().at(0).toObject();
    QCOMPARE(option.value(QLatin1String("period")).toString(), QStringLiteral("run"));
    const QJsonObject rec = QJsonDocument::fromJson(json.out.toUtf8()).object().value(QLatin1String("cost")).toObject()
                                .value(QLatin1String("recommendation")).toObject();
    QCOMPARE(rec.value(QLatin1String("period")).toString(), QStringLiteral("run"));
    QVERIFY(rec.value(QLatin1String("usd_per_month")).isNull());
    QVERIFY(rec.value(QLatin1String("usd_per_run")).toDouble() > 0);
    double sum = 0;
    for (const QJsonValue &l : option.value(QLatin1String("lines")).toArray())
        sum += l.toObject().value(QLatin1String("usd_per_run")).toDouble();
    QVERIFY(std::abs(sum - option.value(QLatin1String("usd_per_run")).toDouble()) < 0.005);
    QCOMPARE(first.value(QLatin1String("candidate")).toObject().value(QLatin1String("virtual_pipeline")).toInt(), 5);
    const QString pdf = dir.filePath(QStringLiteral("run.pdf"));
    QCOMPARE(gpuwb({QStringLiteral("report"), brief, QStringLiteral("--out"), pdf}).exitCode, 0);
    QProcess extract;
    extract.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(extract.waitForFinished(60000));
    const QString text = QString::fromUtf8(extract.readAllStandardOutput());
    // The lines by their titles, as the window gives them (the Line column wraps the first).
    for (const char *part : {"Per run", "per accepted run", "Work lost to", "Checkpoint writes"})
        QVERIFY2(text.contains(QLatin1String(part)), part);
    // The normalization table's time to train, in days.
    QVERIFY(text.contains(QRegularExpression(QStringLiteral("[0-9]+\\.[0-9] days"))));
    QVERIFY(!text.contains(QLatin1String("accepted outputs a month")));
}

// gpuwb search: the brief's GPUs by default, --gpus or --all, --max-gpus; each format; the
// options' mistakes named. kBrief has no SLO: every costed layout meets it.
void TestCli::searchFindsLayouts()
{
    QTemporaryDir dir;
    const QString brief = writeFile(dir, QStringLiteral("brief.json"), kBrief);
    Run r = gpuwb({QStringLiteral("search"), brief, QStringLiteral("--max-gpus"), QStringLiteral("4"),
                   QStringLiteral("--format"), QStringLiteral("json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    QCOMPARE(doc["format"].toString(), QStringLiteral("gpu-workbench-search"));
    // The brief's one GPU (H100 SXM) at up to 4 GPUs: 6 TP x PP sizes x 3 stacks.
    QCOMPARE(doc["layouts"].toArray().size(), 18);
    bool cheapest = false;
    for (const QJsonValue &v : doc["layouts"].toArray()) {
        QCOMPARE(v["gpu"].toString(), QStringLiteral("h100-sxm-80gb"));
        cheapest = cheapest || v["cheapest_of_gpu"].toBool();
    }
    QVERIFY(cheapest);
    r = gpuwb({QStringLiteral("search"), brief, QStringLiteral("--gpus"), QStringLiteral("h200-sxm-141gb,b200-180gb"),
               QStringLiteral("--max-gpus"), QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("csv")});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.trimmed().split(u'\n');
    QVERIFY(lines[0].startsWith(QLatin1String("layout,gpu,tensor_parallel,")));
    QCOMPARE(lines.size(), 1 + 2 * 3 * 3);  // two GPUs, sizes 1x1, 1x2, 2x1, three stacks
    r = gpuwb({QStringLiteral("search"), brief, QStringLiteral("--max-gpus"), QStringLiteral("2")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QLatin1String("layouts tried")));

    const auto refused = [&](const QStringList &args, const QString &says) {
        const Run bad = gpuwb(QStringList{QStringLiteral("search"), brief} + args);
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(says), qPrintable(bad.err));
    };
    refused({QStringLiteral("--gpus"), QStringLiteral("h100-sxm-80gb,nope")}, QStringLiteral("--gpus: \"nope\" is not in the GPU catalog"));
    refused({QStringLiteral("--gpus"), QStringLiteral(",")}, QStringLiteral("--gpus: no GPU id given"));
    refused({QStringLiteral("--gpus"), QStringLiteral("h100-sxm-80gb"), QStringLiteral("--all")}, QStringLiteral("--gpus and --all"));
    refused({QStringLiteral("--max-gpus"), QStringLiteral("0")}, QStringLiteral("--max-gpus"));
    refused({QStringLiteral("--max-gpus"), QStringLiteral("two")}, QStringLiteral("is not a whole number"));
    refused({QStringLiteral("--format"), QStringLiteral("xml")}, QStringLiteral("--format"));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
