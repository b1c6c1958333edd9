// The open document: a brief, the catalog it was read against, and the engine's results for it.
// For now a document is a brief JSON file; project files (.gpuwb) arrive with their own issue.
#pragma once

#include <engine/brief.h>
#include <engine/catalog.h>
#include <engine/evaluate.h>

#include <QObject>
#include <QString>

#include <optional>

namespace wb {

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(Catalog catalog, QObject *parent = nullptr);

    // Reads and evaluates a brief. On error the current document stays as it was and the
    // returned message names the file and the field.
    std::optional<QString> openBrief(const QString &path);
    void clear();

    bool hasBrief() const { return m_brief.has_value(); }
    const Brief *brief() const { return m_brief ? &*m_brief : nullptr; }
    const Results &results() const { return m_results; }
    const Catalog &catalog() const { return m_catalog; }
    QString filePath() const { return m_path; }

signals:
    void changed();

private:
    Catalog m_catalog;
    std::optional<Brief> m_brief;
    Results m_results;
    QString m_path;
};

} // namespace wb
