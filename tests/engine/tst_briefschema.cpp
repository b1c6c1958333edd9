// The brief's one table of fields (brief/fields.h) against the parser and the JSON Schema that
// `gpuwb schema brief` prints from it: the schema is a valid draft 2020-12 schema, accepts every
// shipped sample, and at each numeric field's bounds says what the parser says, kind by kind.
// The schema is checked by python3-jsonschema (tests/engine/briefschema.py), an implementation
// that shares no code with ours.

#include "testsupport.h"

#include <brief/brief.h>
#include <brief/fields.h>
#include <core/jsonfields.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace {

using wb::FieldRow;
using wb::FieldType;

std::string readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll().toStdString();
}

QStringList samplePaths()
{
    const QDir dir(QStringLiteral(WB_SOURCE_DIR "/resources/samples"));
    QStringList out;
    for (const QString &name : dir.entryList({QStringLiteral("*.brief.json")}, QDir::Files, QDir::Name))
        out << dir.filePath(name);
    return out;
}

// The value at an RFC 6901 pointer of a JSON document (no escapes: the brief's keys have none).
std::optional<QJsonValue> valueAt(const QJsonValue &root, const std::string &pointer)
{
    QJsonValue at = root;
    for (const QString &token : QString::fromStdString(pointer).split('/', Qt::SkipEmptyParts)) {
        if (at.isObject() && at.toObject().contains(token))
            at = at.toObject().value(token);
        else if (at.isArray() && token.toInt() < at.toArray().size() && token != "-")
            at = at.toArray().at(token.toInt());
        else
            return std::nullopt;
    }
    return at;
}

std::string parentOf(const std::string &pointer)
{
    return pointer.substr(0, pointer.rfind('/'));
}

// Whether patchBrief can set pointer in this document without the brief then lacking a required
// field it did not lack before: its parent is an object already, or one it may create (no field
// of it is required for the kind).
bool settable(const QJsonValue &root, const std::string &pointer, wb::WorkloadKind kind)
{
    const std::string parent = parentOf(pointer);
    if (parent.empty())
        return true;
    if (const auto value = valueAt(root, parent))
        return value->isObject();
    const std::string generic = wb::genericPointer(parent);
    if (generic.ends_with("/*"))
        return false;  // an array's item: the test does not add items
    for (const FieldRow &row : wb::briefFields().rows())
        if (row.required && row.kinds.has(kind) && parentOf(row.pointer) == generic)
            return false;
    return settable(root, parent, kind);
}

// "/candidates/*/gpus" at the first item.
std::string firstItem(std::string pointer)
{
    for (std::size_t at; (at = pointer.find("/*")) != std::string::npos;)
        pointer.replace(at, 2, "/0");
    return pointer;
}

std::string numberJson(const FieldRow &row, double v)
{
    if (row.type == FieldType::Integer)
        return QString::number(static_cast<qint64>(v)).toStdString();
    return QString::number(v, 'g', 17).toStdString();
}

// A value of the row's type that its range accepts, for fields given where they do not belong.
std::string someValue(const FieldRow &row)
{
    switch (row.type) {
    case FieldType::Integer:
    case FieldType::Number: return numberJson(row, std::isfinite(row.min) ? std::max(row.min, 1.0) : 1.0);
    case FieldType::Boolean: return "true";
    case FieldType::Enum: return "\"" + row.choices.front() + "\"";
    case FieldType::String: return "\"x\"";
    case FieldType::Object: return "{}";
    case FieldType::Array: return "[]";
    case FieldType::Model: return "\"llama-3.1-8b\"";
    case FieldType::Any: return "1";
    }
    return "1";
}

// The JSON text with the value at pointer (through objects and existing array items) set to
// valueJson, written without the parser: for the changes it refuses.
std::string withValue(const std::string &text, const std::string &pointer, const std::string &valueJson)
{
    const QJsonValue value = QJsonDocument::fromJson("[" + QByteArray::fromStdString(valueJson) + "]").array().at(0);
    std::function<QJsonValue(QJsonValue, QStringList)> set = [&](QJsonValue at, QStringList tokens) -> QJsonValue {
        if (tokens.isEmpty())
            return value;
        const QString token = tokens.takeFirst();
        if (at.isArray()) {
            QJsonArray a = at.toArray();
            a[token.toInt()] = set(a.at(token.toInt()), tokens);
            return a;
        }
        QJsonObject o = at.toObject();
        o[token] = set(o.value(token), tokens);
        return o;
    };
    const QJsonObject top = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    return QJsonDocument(set(top, QString::fromStdString(pointer).split('/', Qt::SkipEmptyParts)).toObject())
        .toJson()
        .toStdString();
}

// One changed brief: what the schema and the parser should both say of it.
struct Mutation
{
    QString sample;
    std::string pointer;  // concrete
    std::string valueJson;
    bool valid = false;   // in range (the parser may still refuse it by a rule between fields)
    std::string json;     // the brief with the change; empty when patchBrief cannot write it
    std::optional<wb::Error> parserError;
};

// A range refusal of Fields::checkRange for pointer (core/jsonfields.cpp), as opposed to a rule
// between fields that names the same field.
bool isRangeError(const wb::Error &e, const std::string &pointer)
{
    if (e.path != pointer)
        return false;
    for (const char *start : {"must be between ", "must be at least ", "must be greater than ", "must be at most ", "must be 0 or more"})
        if (e.message.starts_with(start) && e.message.find(", not ") != std::string::npos)
            return true;
    return false;
}

class SchemaRun
{
public:
    SchemaRun()
    {
        auto schema = wb::briefJsonSchema(wbtest::shippedCatalog());
        QFile file(m_dir.filePath("schema.json"));
        if (!file.open(QIODevice::WriteOnly) || file.write(schema.data(), qint64(schema.size())) != qint64(schema.size()))
            qFatal("cannot write the schema");
    }

    QString write(const std::string &json)
    {
        const QString path = m_dir.filePath(QString("b%1.json").arg(m_count++));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(json.data(), qint64(json.size())) != qint64(json.size()))
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    // file -> the validator's line ("valid ..." or "invalid FILE POINTER: MESSAGE").
    std::map<QString, QString> validate(const QStringList &files)
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            qFatal("python3 is not installed (packaging/install-deps.sh installs it)");
        QProcess process;
        process.start(python, QStringList{QStringLiteral(WB_SOURCE_DIR "/tests/engine/briefschema.py"),
                                          m_dir.filePath("schema.json")}
                                  + files);
        if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
            qFatal("briefschema.py failed: %s", process.readAllStandardError().constData());
        std::map<QString, QString> out;
        for (const QString &line : QString::fromUtf8(process.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts)) {
            const QStringList parts = line.split(' ');
            out[parts.value(1)] = line;
        }
        return out;
    }

private:
    QTemporaryDir m_dir;
    int m_count = 0;
};

} // namespace

class TestBriefSchema : public QObject
{
    Q_OBJECT

private slots:
    void samplesValidate();
    void boundsAgreeWithParser();
    void refusedOutsideTheirKinds();
    void unknownKindRefused();
    void tableAnswersThePointersTheParserReports();
};

// Every shipped sample parses and the schema accepts it.
void TestBriefSchema::samplesValidate()
{
    SchemaRun run;
    const QStringList samples = samplePaths();
    QVERIFY(samples.size() >= 6);
    const auto verdicts = run.validate(samples);
    for (const QString &path : samples) {
        QVERIFY2(wb::parseBrief(readFile(path), path.toStdString(), wbtest::shippedCatalog()).ok(), qPrintable(path));
        QCOMPARE(verdicts.at(path), "valid " + path);
    }
}

// For each numeric field with a bound, in each sample of a kind it applies to: at the bound the
// schema accepts and the parser does not refuse the range; just past it both refuse, and the
// parser names the field.
void TestBriefSchema::boundsAgreeWithParser()
{
    SchemaRun run;
    std::vector<Mutation> mutations;
    for (const QString &path : samplePaths()) {
        const std::string text = readFile(path);
        const wb::Brief brief = wbtest::parseOrFail(text);
        const QJsonValue root = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        for (const FieldRow &row : wb::briefFields().rows()) {
            if ((row.type != FieldType::Integer && row.type != FieldType::Number) || !row.kinds.has(brief.workload.kind))
                continue;
            const std::string pointer = firstItem(row.pointer);
            if (pointer.find('*') != std::string::npos || !settable(root, pointer, brief.workload.kind))
                continue;
            const double step = row.type == FieldType::Integer ? 1.0 : 1e-3;
            std::vector<std::pair<double, bool>> values;
            if (std::isfinite(row.min)) {
                values.emplace_back(row.minExclusive ? row.min + step : row.min, true);
                values.emplace_back(row.minExclusive ? row.min : row.min - std::max(step, std::abs(row.min) * 0.01), false);
            }
            if (std::isfinite(row.max)) {
                values.emplace_back(row.max, true);
                values.emplace_back(row.max + std::max(step, std::abs(row.max) * 0.01), false);
            }
            for (const auto &[v, valid] : values) {
                Mutation m{path, pointer, numberJson(row, v), valid, {}, {}};
                // patchBrief both writes the change and parses the result.
                auto patched = wb::patchBrief(text, pointer, m.valueJson, wbtest::shippedCatalog());
                if (patched)
                    m.json = patched->json;
                else
                    m.parserError = patched.error();
                mutations.push_back(std::move(m));
            }
        }
    }
    QVERIFY(mutations.size() > 200);

    // The refused changes are written by hand: the sample with the one value replaced.
    QStringList files;
    std::vector<QString> fileOf;
    for (Mutation &m : mutations) {
        const std::string json = m.json.empty() ? withValue(readFile(m.sample), m.pointer, m.valueJson) : m.json;
        files << run.write(json);
        fileOf.push_back(files.back());
    }
    const auto verdicts = run.validate(files);

    int atBound = 0, past = 0;
    for (std::size_t i = 0; i < mutations.size(); ++i) {
        const Mutation &m = mutations[i];
        const QString what = QString("%1: %2 = %3").arg(QFileInfo(m.sample).fileName(), QString::fromStdString(m.pointer),
                                                         QString::fromStdString(m.valueJson));
        const QString schema = verdicts.at(fileOf[i]);
        if (m.valid) {
            ++atBound;
            QVERIFY2(schema.startsWith("valid "), qPrintable(what + " -> " + schema));
            // QVERIFY2 builds its message whether or not the check fails: read the error only
            // when there is one (an empty optional's toString() read freed memory under ASan).
            if (m.parserError)
                QVERIFY2(!isRangeError(*m.parserError, m.pointer),
                         qPrintable(what + " -> parser: " + QString::fromStdString(m.parserError->toString())));
        } else {
            ++past;
            QVERIFY2(schema.startsWith("invalid "), qPrintable(what + " -> schema accepts"));
            QVERIFY2(m.parserError, qPrintable(what + " -> parser accepts"));
            QVERIFY2(m.parserError->path == m.pointer,
                     qPrintable(what + " -> parser: " + QString::fromStdString(m.parserError->toString())));
        }
    }
    qInfo("%d values at a bound, %d past one", atBound, past);
}

// A field given for a kind it does not apply to, where the parser refuses it (Outside::Refused):
// the schema refuses it too.
void TestBriefSchema::refusedOutsideTheirKinds()
{
    SchemaRun run;
    std::vector<std::pair<QString, std::string>> cases;  // file, what
    QStringList files;
    for (const QString &path : samplePaths()) {
        const std::string text = readFile(path);
        const wb::Brief brief = wbtest::parseOrFail(text);
        const QJsonValue root = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
        std::set<std::string> done;
        for (const FieldRow &row : wb::briefFields().rows()) {
            if (row.outside != wb::Outside::Refused || wb::briefFields().find(row.pointer, brief.workload.kind)
                || !done.insert(row.pointer).second || !valueAt(root, parentOf(row.pointer)))
                continue;
            const std::string pointer = firstItem(row.pointer);
            auto patched = wb::patchBrief(text, pointer, someValue(row), wbtest::shippedCatalog());
            const std::string what = path.toStdString() + ": " + pointer + " = " + someValue(row);
            QVERIFY2(!patched, what.c_str());
            QVERIFY2(patched.error().path.starts_with(pointer), (what + " -> " + patched.error().toString()).c_str());
            // The schema sees the same change.
            files << run.write(withValue(text, pointer, someValue(row)));
            cases.emplace_back(files.back(), what);
        }
    }
    QVERIFY(cases.size() >= 10);
    const auto verdicts = run.validate(files);
    for (const auto &[file, what] : cases)
        QVERIFY2(verdicts.at(file).startsWith("invalid "), what.c_str());
}

void TestBriefSchema::unknownKindRefused()
{
    SchemaRun run;
    const QString path = samplePaths().front();
    QJsonObject top = QJsonDocument::fromJson(QByteArray::fromStdString(readFile(path))).object();
    QJsonObject workload = top.value("workload").toObject();
    workload["kind"] = "telepathy";
    top["workload"] = workload;
    const std::string json = QJsonDocument(top).toJson().toStdString();
    auto parsed = wb::parseBrief(json, "t.json", wbtest::shippedCatalog());
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().path, std::string("/workload/kind"));
    const QString file = run.write(json);
    QVERIFY(run.validate({file}).at(file).startsWith("invalid "));
}

// Every field the parser names in an error is a field of the table (the pointers of the table
// are the parser's), checked over the boundary cases' errors and a few more.
void TestBriefSchema::tableAnswersThePointersTheParserReports()
{
    const std::string sample = readFile(samplePaths().front());
    for (const char *pointer : {"/workload/traffic/request_rate_per_s", "/candidates/0/gpus", "/cost/billing/model",
                                "/assumptions/activation_bytes", "/workload/slo/ttft_p99_s"}) {
        QVERIFY2(wb::briefFields().find(wb::genericPointer(pointer)), pointer);
        auto patched = wb::patchBrief(sample, pointer, "\"not a number\"", wbtest::shippedCatalog());
        QVERIFY2(!patched, pointer);
        QCOMPARE(patched.error().path, std::string(pointer));
    }
}

QTEST_GUILESS_MAIN(TestBriefSchema)
#include "tst_briefschema.moc"
