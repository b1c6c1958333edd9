// The shape the fit, performance and cost pages share: a title (the question the page answers),
// a subtitle, a choice of chart, a table of one model above the chart of the same figures.
#pragma once

#include "pages/page.h"

#include <string>

class QAbstractItemModel;
class QLabel;
class QSplitter;
class QTableView;
class QVBoxLayout;

namespace wb {

class ResultPage : public Page
{
    Q_OBJECT

public:
    // tableName: the table's accessible name; chartChoices: what the chart can show (none: no
    // choice is offered).
    ResultPage(Document *document, const QString &tabName, QAbstractItemModel *model, const QString &tableName,
               const QStringList &chartChoices, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    ChartView *chart() const override { return m_chart; }
    QComboBox *chartChoice() const override { return m_choice; }

    QLabel *vendorNotes() const { return m_notes; }

protected:
    // Shows, below the subtitle, the project's vendor answers that bear on this page's figures
    // ("fit", "performance" or "cost": Results::vendorNotes), kept current with the results.
    void showVendorNotesOn(const std::string &figures);
    QLabel *title() const { return m_title; }
    QLabel *subtitle() const { return m_subtitle; }
    QVBoxLayout *pageLayout() const { return m_layout; }

private:
    void showVendorNotes();

    std::string m_figures;
    QLabel *m_notes = nullptr;
    QVBoxLayout *m_layout = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_subtitle = nullptr;
    QComboBox *m_choice = nullptr;
    QTableView *m_table = nullptr;
    ChartView *m_chart = nullptr;
};

} // namespace wb
