// Importing a benchmark results file: what the file says (its tool, runs, load and lengths), the
// candidate it measured, and what it leaves unsaid (the GPU count, the load, the lengths), typed
// and checked before OK. The document maps and stores the runs (one undoable step); a refusal is
// shown in the dialog, which stays open with what was typed.
#pragma once

#include <evidence/evidence.h>

#include <QDialog>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace wb {

class NumberEdit;

class EvidenceImportDialog : public QDialog
{
    Q_OBJECT

public:
    // `runs`: the file's runs as read; `candidates`: the scenario's candidates in words;
    // `import` stores them and returns the refusal, if any.
    using Import = std::function<std::optional<QString>(std::size_t candidate, const RunMapping &mapping, const QString &by)>;
    EvidenceImportDialog(const QString &fileName, const std::vector<MeasuredRun> &runs, const QStringList &candidates,
                         int candidate, const QString &by, Import import, QWidget *parent = nullptr);

    QComboBox *candidateBox() const { return m_candidate; }
    NumberEdit *gpusEdit() const { return m_gpus; }
    NumberEdit *rateEdit() const { return m_rate; }
    NumberEdit *concurrencyEdit() const { return m_concurrency; }
    NumberEdit *inputEdit() const { return m_input; }
    NumberEdit *outputEdit() const { return m_output; }
    QLineEdit *byEdit() const { return m_by; }
    QLabel *problem() const { return m_problem; }
    QPushButton *okButton() const { return m_ok; }
    RunMapping mapping() const;

private:
    void check();
    void accept() override;

    Import m_import;
    QComboBox *m_candidate = nullptr;
    NumberEdit *m_gpus = nullptr, *m_rate = nullptr, *m_concurrency = nullptr, *m_input = nullptr, *m_output = nullptr;
    QLineEdit *m_by = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_ok = nullptr;
};

// One line per run of a file: its tool, load and lengths ("vLLM bench serve: 12.5 requests/s,
// 2,000 in / 300 out tokens").
QString runSummary(const MeasuredRun &run);

} // namespace wb
