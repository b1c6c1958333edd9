// The vendor checklist's editors: a vendor's details, one answer, and a question the team adds.
// Each validates what is typed (the OK button waits, the reason shown beside it) and hands back
// engine values; the page turns them into one undoable step.
#pragma once

#include <procurement/vendors.h>

#include <QDialog>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace wb {

class VendorDialog : public QDialog
{
    Q_OBJECT

public:
    // `taken`: the other vendors' names; `scenario` and `candidates`: the current scenario's
    // candidates in words, which the vendor may back.
    VendorDialog(const Vendor &vendor, const QStringList &taken, const QString &scenario, const QStringList &candidates,
                 QWidget *parent = nullptr);
    Vendor vendor() const;

    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *offerBox() const { return m_offer; }
    QLineEdit *providersEdit() const { return m_providers; }
    QLabel *problem() const { return m_problem; }

private:
    void check();

    Vendor m_vendor;
    QStringList m_taken;
    QString m_scenario;
    QLineEdit *m_name = nullptr, *m_providers = nullptr, *m_contact = nullptr, *m_contacted = nullptr;
    QComboBox *m_offer = nullptr;
    QListWidget *m_candidates = nullptr;
    QPlainTextEdit *m_notes = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_ok = nullptr;
};

class AnswerDialog : public QDialog
{
    Q_OBJECT

public:
    // `attach` stores a chosen file in the project and returns its reference, or the error;
    // `bytes` reads an attached file back (to save a copy of the evidence).
    AnswerDialog(const ChecklistItem &item, const QString &vendor, const std::optional<VendorAnswer> &answer,
                 std::function<Result<Attachment>(const QString &)> attach,
                 std::function<std::optional<std::string>(const std::string &)> bytes, QWidget *parent = nullptr);
    // The answer as entered; nullopt when "Not answered" is chosen.
    std::optional<VendorAnswer> answer() const;

    QComboBox *answerBox() const { return m_answer; }
    QPlainTextEdit *textEdit() const { return m_text; }
    QLineEdit *linkEdit() const { return m_link; }
    QLineEdit *dateEdit() const { return m_date; }
    QLineEdit *byEdit() const { return m_by; }
    QLabel *problem() const { return m_problem; }
    QPushButton *attachButton() const { return m_attach; }

private:
    void check();
    void chooseFile();
    void saveFile();
    void showFile();

    std::string m_item;
    std::optional<Attachment> m_file;
    std::function<Result<Attachment>(const QString &)> m_attachFn;
    std::function<std::optional<std::string>(const std::string &)> m_bytesFn;
    QComboBox *m_answer = nullptr;
    QPlainTextEdit *m_text = nullptr;
    QLineEdit *m_link = nullptr, *m_date = nullptr, *m_by = nullptr;
    QLabel *m_fileLabel = nullptr, *m_problem = nullptr;
    QPushButton *m_attach = nullptr, *m_saveFile = nullptr, *m_removeFile = nullptr, *m_ok = nullptr;
};

class ChecklistItemDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ChecklistItemDialog(const ChecklistTemplate &tmpl, QWidget *parent = nullptr);
    // The item, and the section it opens when its section is new (empty id otherwise).
    ChecklistItem item() const;
    ChecklistSection newSection() const;

private:
    void check();
    std::string itemId() const;

    const ChecklistTemplate &m_tmpl;
    QComboBox *m_section = nullptr, *m_required = nullptr;
    QLineEdit *m_id = nullptr, *m_question = nullptr, *m_evidence = nullptr;
    QLabel *m_problem = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace wb
