// Record: the scenario's decision records and the making of a new one (the method's decision
// record: inputs, dated prices, results, checklist and evidence kept for review). The option
// chosen, the rationale and who signs are typed here; the record is made away from the window
// (the scenario evaluated as the project shows it) and stored as one undoable step. A record is
// never edited: a later one supersedes it. A selected record can be recomputed with this version
// of the engine and catalog (every input and figure that moved, with both values) and exported
// as a PDF; the scenario's figures go to a workbook (XLSX).
#pragma once

#include "pages/page.h"

#include <record/record.h>
#include <store/project.h>

#include <QFutureWatcher>

#include <stop_token>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTextBrowser;

namespace wb {

class RecordPage : public Page
{
    Q_OBJECT

public:
    explicit RecordPage(Document *document, QWidget *parent = nullptr);
    ~RecordPage() override;

    QTableWidget *recordsTable() const { return m_records; }
    QComboBox *optionBox() const { return m_option; }
    QPlainTextEdit *rationaleEdit() const { return m_rationale; }
    QPlainTextEdit *signOffEdit() const { return m_signOff; }
    QLineEdit *dateEdit() const { return m_date; }
    QPushButton *recordButton() const { return m_recordButton; }
    QPushButton *recomputeButton() const { return m_recomputeButton; }
    QPushButton *pdfButton() const { return m_pdfButton; }
    QTextBrowser *details() const { return m_details; }
    QLabel *problem() const { return m_problem; }
    // True while a record, a recomputation or a draft is being made.
    bool busy() const { return m_watcher.isRunning(); }

    // The decision the form describes, or why it cannot be recorded yet (the field and the fix).
    Result<RecordDecision> decision() const;
    // Asks to confirm, then makes and stores the record (off the window's thread).
    void recordDecision();
    // The selected record (or a draft of the scenario as shown when none is selected) as a PDF at
    // path; the error says why not. `draft` is made first when needed, which takes a moment.
    void exportPdf(const QString &path);
    void exportXlsx(const QString &path);
    void recomputeSelected();

signals:
    // A record, recomputation or PDF finished (tests wait on it); `error` empty on success.
    void finished(const QString &error);

private:
    void listOptions();
    void listRecords();
    void showSelected();
    void checkForm();
    // Runs `work` on a worker; `done` gets its result on the window's thread.
    void runAway(const QString &what, std::function<Result<std::string>(std::stop_token)> work,
                 std::function<void(const Result<std::string> &)> done);
    std::optional<StoredRecord> selectedRecord() const;

    QTableWidget *m_records = nullptr;
    QComboBox *m_option = nullptr;
    QPlainTextEdit *m_rationale = nullptr;
    QPlainTextEdit *m_signOff = nullptr;
    QLineEdit *m_date = nullptr;
    QPushButton *m_recordButton = nullptr;
    QPushButton *m_recomputeButton = nullptr;
    QPushButton *m_pdfButton = nullptr;
    QPushButton *m_xlsxButton = nullptr;
    QLabel *m_problem = nullptr;
    QLabel *m_status = nullptr;
    QTextBrowser *m_details = nullptr;
    QList<RecordDecision> m_options;   // parallel to m_option's items
    QFutureWatcher<Result<std::string>> m_watcher;
    std::function<void(const Result<std::string> &)> m_done;
    std::stop_source m_stop;
    QString m_formScenario;   // the scenario the form's text was typed for
};

} // namespace wb
