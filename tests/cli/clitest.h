// What the command-line tests share: running gpuwb, a small brief and files to feed it.
#pragma once

#include <catalog/efficiency.h>
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "cli/clirun.h"

using wbtest::Run;
using wbtest::gpuwb;
using wbtest::gpuwbLimited;

namespace clitest {

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

inline const QByteArray kBrief = R"({"format": "gpu-workbench-brief", "version": 1, "name": "70B fp8 on 2x H100",
  "workload": {"kind": "realtime-inference", "model": "llama-3.1-70b", "weights_precision": "fp8",
    "kv_cache_precision": "fp8", "input_tokens": 2000, "output_tokens": 300,
    "traffic": {"mode": "closed-loop", "concurrency": 32}},
  "candidates": [{"gpu": "h100-sxm-80gb", "gpus": 2, "tensor_parallel": 2, "pipeline_parallel": 1}],
  "cost": {"requests_per_month": 1000000}})";

inline QByteArray nested(int depth)
{
    return QByteArray("{\"a\": ").repeated(depth) + "1" + QByteArray("}").repeated(depth);
}

// kBrief with one part replaced.
inline QByteArray briefWith(const QByteArray &from, const QByteArray &to)
{
    QByteArray b = kBrief;
    if (!b.contains(from))
        qFatal("no %s in the brief", from.constData());
    return b.replace(from, to);
}


// An answers file for Acme Systems: every shipped item answered yes with a link, except those in
// `skip` (left null) and se-compliance, whose evidence is a file beside the answers file.
inline QByteArray acmeAnswers(const QStringList &skip)
{
    QFile tmpl(QStringLiteral(WB_SOURCE_DIR "/resources/checklist/procurement.json"));
    if (!tmpl.open(QIODevice::ReadOnly))
        qFatal("no template");
    QJsonArray items;
    for (const QJsonValue &item : QJsonDocument::fromJson(tmpl.readAll()).object()[QStringLiteral("items")].toArray()) {
        const QString id = item.toObject()[QStringLiteral("id")].toString();
        QJsonObject answer{{QStringLiteral("answer"), QStringLiteral("yes")},
                           {QStringLiteral("answered_on"), QStringLiteral("2026-11-21")},
                           {QStringLiteral("answered_by"), QStringLiteral("R. Vendor")}};
        if (id == QLatin1String("se-compliance"))
            answer[QStringLiteral("evidence_file")] = QStringLiteral("soc2.txt");
        else
            answer[QStringLiteral("evidence_link")] = QStringLiteral("https://acme.example/") + id;
        items.append(QJsonObject{{QStringLiteral("id"), id},
                                 {QStringLiteral("answers"),
                                  QJsonObject{{QStringLiteral("Acme Systems"),
                                               skip.contains(id) ? QJsonValue(QJsonValue::Null) : QJsonValue(answer)}}}});
    }
    const QJsonObject vendor{{QStringLiteral("name"), QStringLiteral("Acme Systems")},
                             {QStringLiteral("offer"), QStringLiteral("purchase")},
                             {QStringLiteral("providers"), QJsonArray{QStringLiteral("Acme Systems")}}};
    return QJsonDocument(QJsonObject{{QStringLiteral("format"), QStringLiteral("gpu-workbench-checklist-answers")},
                                     {QStringLiteral("version"), 1},
                                     {QStringLiteral("vendors"), QJsonArray{vendor}},
                                     {QStringLiteral("items"), items}})
        .toJson();
}

inline QJsonObject recommendationOf(const Run &r)
{
    return QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("cost")].toObject()[QStringLiteral("recommendation")].toObject();
}

inline QByteArray bytesOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace clitest

using namespace clitest;
