// The vendor checklist as a table: the items as rows grouped under their sections (a section's
// row carries each vendor's completeness in it), the vendors as columns. Filters keep the rows a
// procurement manager is working through; cells required at the chosen commitment and still
// missing are tinted. Adapts ProjectChecklist; holds no logic of its own beyond presentation.
#pragma once

#include <procurement/vendors.h>

#include <QAbstractTableModel>

namespace wb {

class ChecklistModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Question, RequiredFrom, FirstVendor };
    enum class Filter { All, Unanswered, Required, AnsweredNo };

    explicit ChecklistModel(QObject *parent = nullptr);

    void setChecklist(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist);
    void setCommitment(Commitment commitment);
    void setFilter(Filter filter);
    Commitment commitment() const { return m_commitment; }

    // The item a row shows (empty for a section's row) and the vendor a column shows (-1 for the
    // question and level columns).
    std::string itemAt(int row) const;
    int vendorAt(int column) const;
    int rowOfItem(const std::string &item) const;
    const ChecklistTemplate &checklistTemplate() const { return m_tmpl; }
    const ProjectChecklist &checklist() const { return m_checklist; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // How an answer reads in a cell ("Yes", "N/A", ...).
    static QString answerWords(Answer answer);
    static QString commitmentWords(Commitment commitment);

private:
    struct Row
    {
        bool section = false;
        std::string id;  // the section's id or the item's
    };
    void rebuild();
    bool visible(const ChecklistItem &item) const;
    QVariant itemCell(const ChecklistItem &item, int column, int role) const;
    QVariant sectionCell(const ChecklistSection &section, int column, int role) const;

    ChecklistTemplate m_tmpl;
    ProjectChecklist m_checklist;
    Commitment m_commitment = Commitment::Reserved;
    Filter m_filter = Filter::All;
    std::vector<Row> m_rows;
};

} // namespace wb
