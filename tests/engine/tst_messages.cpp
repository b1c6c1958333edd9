// Warnings are data (../shared/spec/brief-and-results-v1.md, "Warnings are data"): every warning
// and reason the results JSON carries has a stable code, the brief field that changes it (a JSON
// pointer the brief's field table knows, or null), typed arguments and the English message
// rendered from its template; a translated template renders from the same arguments without
// reading the message; and lupdate finds every template for the translators.
#include "testsupport.h"

#include <brief/fields.h>
#include <core/assumptions.h>
#include <core/message.h>
#include <evaluate/evaluate.h>
#include <report/report.h>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <set>

using namespace wb;
using Json = nlohmann::json;

namespace {

std::string readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// The brief files whose warnings are walked: the shipped samples and the fuzzers' seed briefs
// (an embedding, a video, precisions, a huge number) that parse.
QStringList briefFiles()
{
    QStringList files;
    for (const char *dir : {WB_SOURCE_DIR "/resources/samples", WB_SOURCE_DIR "/tests/fuzz/corpus/brief"})
        for (const QFileInfo &f : QDir(QString::fromUtf8(dir)).entryInfoList({QStringLiteral("*.json")}, QDir::Files))
            if (!f.fileName().endsWith(QLatin1String(".answers.json")))
                files << f.absoluteFilePath();
    return files;
}

// Every Message of a result: the brief's warnings, the cost summary's, the recommendation's
// reasons, and each candidate's (and its sized deployment's).
std::vector<const Message *> messagesOf(const Results &results)
{
    std::vector<const Message *> all;
    for (const Message &m : results.briefWarnings)
        all.push_back(&m);
    for (const Message &m : results.cost.warnings)
        all.push_back(&m);
    if (results.cost.recommendation)
        for (const Message &m : results.cost.recommendation->reasons)
            all.push_back(&m);
    for (const CandidateResult &r : results.results) {
        for (const Message &m : r.warnings)
            all.push_back(&m);
        if (r.resized)
            for (const Message &m : r.resized->warnings)
                all.push_back(&m);
    }
    return all;
}

// Whether a warning's field names a place in the brief: a candidate's member, an assumption, a
// field of the brief's table, or an object that holds such fields ("/workload/slo").
bool knownField(const std::string &field, std::size_t candidates)
{
    static const QRegularExpression candidate(QStringLiteral("^/candidates/([0-9]+)/([a-z_]+)$"));
    if (const auto m = candidate.match(QString::fromStdString(field)); m.hasMatch())
        return m.captured(1).toULongLong() < candidates
            && briefFields().find("/candidates/*/" + m.captured(2).toStdString()) != nullptr;
    if (field.rfind("/assumptions/", 0) == 0)
        return findAssumption(field.substr(std::string("/assumptions/").size())) != nullptr;
    if (briefFields().find(field))
        return true;
    for (const FieldRow &row : briefFields().rows())
        if (row.pointer.rfind(field + "/", 0) == 0)
            return true;
    return false;
}

// What lupdate extracts from the engine's sources in a context: WB_MESSAGE_CONTEXT's templates, or
// WB_WORDS_CONTEXT's words.
std::set<QString> lupdateSources(const QString &wanted)
{
    QStringList sources;
    for (QDirIterator it(QStringLiteral(WB_SOURCE_DIR "/engine"), {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                         QDirIterator::Subdirectories);
         it.hasNext();)
        sources << it.next();
    QTemporaryDir dir;
    const QString ts = dir.filePath(QStringLiteral("messages.ts"));
    QProcess lupdate;
    lupdate.start(QStringLiteral(WB_LUPDATE), QStringList{QStringLiteral("-silent"), QStringLiteral("-tr-function-alias"),
                                                          QStringLiteral("QT_TRANSLATE_NOOP+=WB_MESSAGE,QT_TRANSLATE_NOOP+=WB_WORD")}
                                                  + sources + QStringList{QStringLiteral("-ts"), ts});
    if (!lupdate.waitForFinished(300000) || lupdate.exitCode() != 0)
        qFatal("lupdate failed: %s", lupdate.readAllStandardError().constData());
    QFile file(ts);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("lupdate wrote no %s", qPrintable(ts));
    std::set<QString> found;
    QString context;
    for (QXmlStreamReader xml(&file); !xml.atEnd();) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("name"))
            context = xml.readElementText();
        else if (xml.name() == QLatin1String("source") && context == wanted)
            found.insert(xml.readElementText());
    }
    return found;
}

} // namespace

class TestMessages : public QObject
{
    Q_OBJECT

private slots:
    void templatesRenderTheirArguments();
    void everyWarningIsData();
};

void TestMessages::templatesRenderTheirArguments()
{
    const MessageArgs args = {{"held", std::int64_t(3)}, {"needed_gib", 81.25}, {"gpu", std::string("H100")}};
    bool ok = false;
    // Worked by hand: 81.25 to one decimal is 81.2 (round half to even of the binary value 81.25).
    QCOMPARE(QString::fromStdString(renderMessage("{gpu}: {held} held, {needed_gib:.1f} GiB", args, &ok)),
             QStringLiteral("H100: 3 held, 81.2 GiB"));
    QVERIFY(ok);
    // A translation may put the arguments in another order and use each as often as it likes.
    QCOMPARE(QString::fromStdString(renderMessage("{needed_gib:.0f} GiB ({held}) en {gpu}, {gpu}", args, &ok)),
             QStringLiteral("81 GiB (3) en H100, H100"));
    // A template naming an argument the message does not have, or formatting a count as a
    // fraction, does not render: the window then shows the engine's English.
    renderMessage("{missing}", args, &ok);
    QVERIFY(!ok);
    renderMessage("{held:.1f}", args, &ok);
    QVERIFY(!ok);
    const Message bad = makeMessage("test-code", "/workload/kind", "{absent}", args);
    QCOMPARE(QString::fromStdString(bad.message), QStringLiteral("(message test-code does not render: held needed_gib gpu)"));
    const Message good = makeMessage("test-code", candidateField("gpus"), "{held} of {gpu}", args);
    QCOMPARE(QString::fromStdString(good.message), QStringLiteral("3 of H100"));
    std::vector<Message> list{good};
    bindCandidate(list, 2);
    QCOMPARE(QString::fromStdString(list[0].field), QStringLiteral("/candidates/2/gpus"));
}

void TestMessages::everyWarningIsData()
{
    // The check of fields can fail: a field the brief does not have, a candidate it does not have.
    QVERIFY(!knownField("/workload/no_such_field", 1));
    QVERIFY(!knownField("/candidates/5/gpus", 2));
    QVERIFY(!knownField("/assumptions/no_such_assumption", 1));
    QVERIFY(knownField("/candidates/1/tensor_parallel", 2) && knownField("/workload/slo", 1));
    std::set<std::string> codes;
    std::set<QString> templates, words;
    int warnings = 0, withField = 0, briefs = 0, reasons = 0;
    for (const QString &path : briefFiles()) {
        auto brief = parseBrief(readFile(path), path.toStdString(), wbtest::shippedCatalog());
        if (!brief)
            continue;  // the fuzz seeds include a broken brief
        ++briefs;
        EvaluateOptions options;
        options.today = "2026-12-01";
        const Results results = evaluate(*brief, wbtest::shippedCatalog(), options);
        // The unit a cost is counted in is an argument of many templates: a word to translate.
        words.insert(QString::fromStdString(results.cost.unit));
        words.insert(QString::fromStdString(results.cost.units));
        // Every Message the engine made, before JSON: its template renders to its message.
        if (results.cost.recommendation)
            reasons += int(results.cost.recommendation->reasons.size());
        for (const Message *m : messagesOf(results)) {
            templates.insert(QString::fromStdString(m->text));
            const QString what = QFileInfo(path).fileName() + u' ' + QString::fromStdString(m->code);
            QVERIFY2(!m->text.empty(), qPrintable(what + ": no template"));
            QVERIFY2(!m->message.starts_with("(message "), qPrintable(what + ": " + QString::fromStdString(m->message)));
            QCOMPARE(renderMessage(m->text, m->args), m->message);
            // A quantity is written with a precision: a bare {prior} printed 0.5599999999999999.
            static const QRegularExpression field(QStringLiteral("\\{([a-z0-9_]+)(:[^}]*)?\\}"));
            for (auto it = field.globalMatch(QString::fromStdString(m->text)); it.hasNext();) {
                const QRegularExpressionMatch f = it.next();
                for (const auto &arg : m->args)
                    if (QString::fromStdString(arg.first) == f.captured(1) && std::holds_alternative<double>(arg.second))
                        QVERIFY2(!f.captured(2).isEmpty(), qPrintable(what + ": {" + f.captured(1) + "} has no format"));
            }
        }

        // The results JSON, as gpuwb evaluate --format json prints it.
        const Json root = Json::parse(resultsToJson(*brief, results));
        std::vector<Json> lists{root.at("warnings")};
        for (const Json &r : root.at("results"))
            lists.push_back(r.at("warnings"));
        // A recommendation's reasons: English strings, and beside them their codes and arguments.
        if (const Json &rec = root.at("cost").at("recommendation"); !rec.is_null()) {
            QCOMPARE(rec.at("reason_codes").size(), rec.at("reasons").size());
            for (std::size_t i = 0; i < rec.at("reasons").size(); ++i) {
                Json reason = rec.at("reason_codes").at(i);
                reason["message"] = rec.at("reasons").at(i);  // checked below as a warning is
                lists.push_back(Json::array({reason}));
            }
        }
        for (const Json &list : lists) {
            QVERIFY(list.is_array());
            for (const Json &w : list) {
                ++warnings;
                const std::string code = w.at("code").get<std::string>();
                const QString what = QFileInfo(path).fileName() + u' ' + QString::fromStdString(code);
                codes.insert(code);
                QVERIFY2(QRegularExpression(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$")).match(QString::fromStdString(code)).hasMatch(),
                         qPrintable(what));
                QVERIFY2(w.at("field").is_null() || w.at("field").is_string(), qPrintable(what));
                if (w.at("field").is_string()) {
                    ++withField;
                    const std::string field = w.at("field").get<std::string>();
                    // An unknown or retired field's warning names that field, which the table
                    // does not hold by definition.
                    if (code != "unknown-field" && code != "retired-assumption")
                        QVERIFY2(knownField(field, brief->candidates.size()), qPrintable(what + ": " + QString::fromStdString(field)));
                }
                QVERIFY2(w.at("args").is_object(), qPrintable(what));
                for (const auto &[name, value] : w.at("args").items())
                    QVERIFY2(value.is_number() || value.is_string(), qPrintable(what + ": " + QString::fromStdString(name)));
                QVERIFY2(!w.at("message").get<std::string>().empty(), qPrintable(what));
            }
        }
    }
    QVERIFY(briefs >= 10);
    QVERIFY(reasons > 0);
    // The walk must reach a good part of the engine's warnings to mean something.
    QVERIFY2(codes.size() >= 15, qPrintable(QString::number(codes.size())));
    // lupdate, as a translator runs it over the engine's sources, finds every template met here in
    // the context the window translates them in.
    const std::set<QString> extracted = lupdateSources(QStringLiteral(WB_MESSAGE_CONTEXT));
    QVERIFY2(extracted.size() >= 100, qPrintable(QString::number(extracted.size())));
    for (const QString &t : templates)
        QVERIFY2(extracted.count(t), qPrintable(t));
    // The samples hold text, media, runs and an embedding: at least four units, in both numbers.
    const std::set<QString> extractedWords = lupdateSources(QStringLiteral(WB_WORDS_CONTEXT));
    QVERIFY2(words.size() >= 8, qPrintable(QString::number(words.size())));
    for (const QString &w : words)
        QVERIFY2(extractedWords.count(w), qPrintable(w));
    qInfo("%d briefs, %d warnings and reasons (%d with a field; %d reasons), %zu codes; lupdate finds %zu templates",
          briefs, warnings, withField, reasons, codes.size(), extracted.size());
}

QTEST_MAIN(TestMessages)
#include "tst_messages.moc"
