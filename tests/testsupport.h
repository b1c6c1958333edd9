// Helpers shared by the tests: the shipped catalog, briefs built in code, and the published
// measurements of tests/validation/data/public-cases.csv (a copy of
// ../shared/validation/public-cases.csv with its sources in each row).
#pragma once

#include <brief/brief.h>
#include <catalog/catalog.h>
#include <core/csvread.h>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QTest>

#include <map>
#include <string>

namespace wbtest {

inline const wb::Catalog &shippedCatalog()
{
    static const wb::Catalog catalog = [] {
        auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
        if (!loaded)
            qFatal("cannot load the shipped catalog: %s", loaded.error().toString().c_str());
        return std::move(loaded).value();
    }();
    return catalog;
}

inline wb::Brief parseOrFail(const std::string &json, const wb::Catalog &catalog = shippedCatalog())
{
    auto brief = wb::parseBrief(json, "test.json", catalog);
    if (!brief)
        qFatal("brief does not parse: %s", brief.error().toString().c_str());
    return brief.value();
}

// One row of the public validation cases, by case_id.
struct PublicCase
{
    QString id, hardware, model, metric, units, notes;
    double value = 0;
};

// The rows of a CSV file of tests/validation/data, each as column -> text, by case_id.
inline std::map<std::string, std::map<std::string, std::string>> validationRows(const char *name)
{
    const std::string path = std::string(WB_SOURCE_DIR "/tests/validation/data/") + name;
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", path.c_str());
    auto table = wb::parseCsv(file.readAll().toStdString(), path);
    if (!table)
        qFatal("%s", table.error().toString().c_str());
    std::map<std::string, std::map<std::string, std::string>> rows;
    const std::size_t id = table->column("case_id").value_or(0);
    for (const std::vector<std::string> &cells : table->rows)
        for (std::size_t c = 0; c < cells.size(); ++c)
            rows[cells[id]][table->header[c]] = cells[c];
    return rows;
}

inline std::map<QString, PublicCase> publicCases()
{
    std::map<QString, PublicCase> cases;
    for (const auto &entry : validationRows("public-cases.csv")) {
        const std::map<std::string, std::string> &row = entry.second;
        const auto cell = [&](const char *name) { return QString::fromStdString(row.at(name)); };
        PublicCase pc;
        pc.id = cell("case_id");
        pc.hardware = cell("hardware");
        pc.model = cell("model");
        pc.metric = cell("metric");
        pc.units = cell("units");
        pc.notes = cell("notes");
        pc.value = cell("value").toDouble();
        cases[pc.id] = pc;
    }
    return cases;
}

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

// The sample chat brief reduced to its H200 candidate, bought from "Acme Systems" at $20,000 a
// GPU, for sure and sustained demand on a stable model with no API allowed: the engine
// recommends buying (7 GPUs, $0.000567 per accepted output when this was written).
inline QByteArray purchaseBrief()
{
    QFile sample(QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json"));
    if (!sample.open(QIODevice::ReadOnly))
        qFatal("no sample brief");
    QJsonObject brief = QJsonDocument::fromJson(sample.readAll()).object();
    brief[QStringLiteral("name")] = QStringLiteral("Buy H200");
    brief[QStringLiteral("candidates")] = QJsonArray{brief[QStringLiteral("candidates")].toArray().at(1)};
    QJsonObject cost = brief[QStringLiteral("cost")].toObject();
    cost[QStringLiteral("decision")] = QJsonObject{{QStringLiteral("demand_certainty"), QStringLiteral("high")},
                                                   {QStringLiteral("model_churn"), QStringLiteral("low")},
                                                   {QStringLiteral("api_allowed"), false}};
    cost[QStringLiteral("prices")] = QJsonArray{QJsonObject{{QStringLiteral("gpu"), QStringLiteral("h200-sxm-141gb")},
                                                            {QStringLiteral("provider"), QStringLiteral("Acme Systems")},
                                                            {QStringLiteral("term"), QStringLiteral("purchase")},
                                                            {QStringLiteral("usd_per_gpu"), 20000},
                                                            {QStringLiteral("observed"), QStringLiteral("2026-11-20")},
                                                            {QStringLiteral("source"), QStringLiteral("quote Q-17")}}};
    brief[QStringLiteral("cost")] = cost;
    return QJsonDocument(brief).toJson();
}

} // namespace wbtest
