// Checklist: the method's procurement questions asked of every vendor, side by side. Vendors are
// columns, questions rows under their sections; filters keep what is unanswered, required at the
// chosen commitment, or answered no; completeness per vendor (header) and section (section rows);
// gaps tinted. Keyboard first: Y, N, P, U and A answer the current cell (yes, no, partial,
// unknown, not applicable) and move down; Enter opens the answer's details; Delete clears it.
// Every change is one undo step. Vendors' answers come in and go out as JSON; the whole
// checklist goes out as CSV.
#pragma once

#include "pages/page.h"

#include <procurement/vendors.h>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace wb {

class ChecklistModel;

class ChecklistPage : public Page
{
    Q_OBJECT

public:
    explicit ChecklistPage(Document *document, QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    ChecklistModel *model() const { return m_model; }
    QComboBox *commitmentBox() const { return m_commitment; }
    QComboBox *filterBox() const { return m_filter; }
    QLabel *gateLabel() const { return m_gate; }

    // The actions, for menus and tests (each asks what it needs in a dialog).
    void addVendor();
    void editVendor();
    void removeVendor();
    void addQuestion();
    void importAnswers();
    void exportVendor();
    void exportCsv();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showChecklist();
    void showGate();
    // Sets (or clears) the current cell's answer as one step, keeping its details.
    void answerCurrent(std::optional<Answer> answer);
    void openAnswer();
    void moveDown();
    void fitColumns();
    QString shortQuestion(const std::string &item) const;
    int currentVendor() const;
    bool edit(const ProjectChecklist &after, const QString &label);

    ChecklistModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QComboBox *m_commitment = nullptr, *m_filter = nullptr;
    QLabel *m_gate = nullptr, *m_empty = nullptr;
    QPushButton *m_editVendor = nullptr, *m_removeVendor = nullptr, *m_exportVendor = nullptr;
    bool m_commitmentChosen = false;
    std::string m_keepItem, m_keepVendor;  // where the cursor goes after the next change
};

} // namespace wb
