// A dated model-API quote for the brief's cost.api, entered like a GPU price quote: who sells it,
// the price per million input and output tokens, the share of requests it fails, the date it was
// seen and where. Every field but the note is required (the form says which is missing).
// ApiQuoteForm is the fields (the new-comparison wizard embeds it); ApiQuoteDialog adds it to
// the current brief.
#pragma once

#include <QDialog>
#include <QWidget>

class QDateEdit;
class QLineEdit;
class QPushButton;

namespace wb {

class NumberEdit;

class ApiQuoteForm : public QWidget
{
    Q_OBJECT

public:
    explicit ApiQuoteForm(QWidget *parent = nullptr);

    bool complete() const;
    // What is still missing, in words ("the provider", "the source"), and what is typed wrong
    // ("Input price: -1 is below 0"); both empty when complete.
    QStringList missing() const;
    QStringList wrong() const;
    // The quote as a JSON object for /cost/api.
    QString json() const;
    // Shows a quote to revise (the brief's current one).
    void setQuote(const struct ApiPrice &quote);

    QLineEdit *providerEdit() const { return m_provider; }
    NumberEdit *inputBox() const { return m_input; }
    NumberEdit *outputBox() const { return m_output; }
    NumberEdit *failureBox() const { return m_failure; }
    QLineEdit *sourceEdit() const { return m_source; }

signals:
    void changed();

private:
    QLineEdit *m_provider = nullptr;
    NumberEdit *m_input = nullptr;
    NumberEdit *m_output = nullptr;
    NumberEdit *m_failure = nullptr;
    QDateEdit *m_observed = nullptr;
    QLineEdit *m_source = nullptr;
    QLineEdit *m_note = nullptr;
};

class ApiQuoteDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ApiQuoteDialog(QWidget *parent = nullptr);
    ApiQuoteForm *form() const { return m_form; }
    QString json() const;

private:
    ApiQuoteForm *m_form = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace wb
