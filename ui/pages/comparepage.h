// Compare & decide: the normalization table (every candidate and pricing, sortable, the best
// value of each column bold once the engine ranks), the recommendation with its reasons, and
// the common mistakes the brief invites.
#pragma once

#include "pages/page.h"

class QLabel;
class QTableView;

namespace wb {

class ComparisonModel;

class ComparePage : public Page
{
    Q_OBJECT

public:
    explicit ComparePage(Document *document, QWidget *parent = nullptr);
    QTableView *table() const { return m_table; }
    QLabel *recommendation() const { return m_recommendation; }

private:
    void showResults();

    ComparisonModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QLabel *m_recommendation = nullptr;
    QLabel *m_mistakes = nullptr;
};

} // namespace wb
