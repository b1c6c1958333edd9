// Candidates: the GPUs in the running, edited in place (each change one undo step), with their
// key specifications and sources and the price the cost model uses; the brief's own price quotes.
#pragma once

#include "pages/page.h"

#include <optional>

class QLabel;
class QListWidget;
class QTableView;

namespace wb {

class CandidatesModel;

class CandidatesPage : public Page
{
    Q_OBJECT

public:
    explicit CandidatesPage(Document *document, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    QListWidget *quotes() const { return m_quotes; }
    // What the last count edit did to the layout, when it changed it (empty otherwise).
    QLabel *layoutNote() const { return m_editNote; }
    // Adds a GPU from the catalog as a candidate (one GPU; one undo step).
    void addCandidate(const QString &gpu);
    // Adds a price quote (a JSON object, PriceQuoteDialog::json) to the brief's cost.prices as
    // one undo step; returns the error, which is also shown.
    std::optional<QString> addPriceQuote(const QString &json);

private:
    void showBrief();

    CandidatesModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QListWidget *m_quotes = nullptr;
    QLabel *m_editNote = nullptr;
};

} // namespace wb
