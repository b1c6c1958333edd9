// The open document: a brief, the catalog it was read against, and the engine's results for it.
// For now a document is a brief JSON file; project files (.gpuwb) arrive with their own issue.
//
// Opening a brief computes the memory fit at once (milliseconds) and then the full evaluation
// (performance simulations, about a second) on a worker thread; results() holds the fit first and
// the full results when they arrive. Opening another brief or clearing cancels a running
// evaluation, whose results are then dropped.
#pragma once

#include <engine/brief.h>
#include <engine/catalog.h>
#include <engine/evaluate.h>

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace wb {

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(Catalog catalog, QObject *parent = nullptr);
    ~Document() override;

    // Reads and evaluates a brief. On error the current document stays as it was and the
    // returned message names the file and the field.
    std::optional<QString> openBrief(const QString &path);
    void clear();

    bool hasBrief() const { return m_brief.has_value(); }
    const Brief *brief() const { return m_brief ? &*m_brief : nullptr; }
    const Results &results() const { return m_results; }
    const Catalog &catalog() const { return m_catalog; }
    QString filePath() const { return m_path; }
    // True from the start of the full evaluation until its results are in results().
    bool evaluating() const { return m_evaluating; }

signals:
    void changed();
    void evaluatingChanged(bool evaluating);

private:
    void startEvaluation();
    void cancelEvaluation();

    Catalog m_catalog;
    std::optional<Brief> m_brief;
    Results m_results;
    QString m_path;
    QFutureWatcher<Results> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_evaluating = false;
};

} // namespace wb
