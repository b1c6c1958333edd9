// Helpers shared by the tests: the shipped catalog, briefs built in code, and the published
// measurements of tests/validation/data/public-cases.csv (a copy of
// ../shared/validation/public-cases.csv with its sources in each row).
#pragma once

#include <brief/brief.h>
#include <catalog/catalog.h>

#include <QFile>
#include <QString>
#include <QStringList>
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

inline std::map<QString, PublicCase> publicCases()
{
    std::map<QString, PublicCase> cases;
    QFile file(QStringLiteral(WB_SOURCE_DIR "/tests/validation/data/public-cases.csv"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot open public-cases.csv");
    const QString text = QString::fromUtf8(file.readAll());
    // RFC 4180 fields: quoted fields may hold commas and doubled quotes.
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row << field;
            field.clear();
        } else if (c == u'\n') {
            row << field;
            field.clear();
            rows << row;
            row.clear();
        } else if (c != u'\r') {
            field += c;
        }
    }
    const QStringList header = rows.value(0);
    auto col = [&](const char *name) { return header.indexOf(QLatin1String(name)); };
    for (int r = 1; r < rows.size(); ++r) {
        const QStringList &cells = rows[r];
        if (cells.size() < header.size())
            continue;
        PublicCase pc;
        pc.id = cells[col("case_id")];
        pc.hardware = cells[col("hardware")];
        pc.model = cells[col("model")];
        pc.metric = cells[col("metric")];
        pc.units = cells[col("units")];
        pc.notes = cells[col("notes")];
        pc.value = cells[col("value")].toDouble();
        cases[pc.id] = pc;
    }
    return cases;
}

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

} // namespace wbtest
