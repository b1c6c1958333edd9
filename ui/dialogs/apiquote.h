// A dated model-API quote for the brief's cost.api, entered like a GPU price quote: who sells it,
// its price in the unit the brief's work is billed by (per million input and output tokens for
// text, input tokens for embeddings, per image or megapixel, per second of video, per million
// training tokens for a fine-tune), the share of requests it fails, the date it was seen and where. Every field but the note is required (the form says which is missing).
// ApiQuoteForm is the fields (the new-comparison wizard embeds it); ApiQuoteDialog adds it to
// the current brief.
#pragma once

#include <catalog/prices.h>

#include <QDialog>
#include <QWidget>

class QComboBox;
class QDateEdit;
class QFormLayout;
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
    void setQuote(const ApiPrice &quote);
    // The unit the brief's work is billed by: shows that price's fields only (text by default).
    void setUse(ApiUse use);

    QLineEdit *providerEdit() const { return m_provider; }
    NumberEdit *inputBox() const { return m_input; }
    NumberEdit *outputBox() const { return m_output; }
    NumberEdit *failureBox() const { return m_failure; }
    NumberEdit *rateBox() const { return m_rate; }
    QComboBox *rateUnitBox() const { return m_rateUnit; }
    QLineEdit *sourceEdit() const { return m_source; }

signals:
    void changed();

private:
    QLineEdit *m_provider = nullptr;
    NumberEdit *m_input = nullptr;
    NumberEdit *m_output = nullptr;
    // The one price of a use not billed by tokens, and for images its unit (an image, a megapixel).
    NumberEdit *m_rate = nullptr;
    QComboBox *m_rateUnit = nullptr;
    NumberEdit *m_failure = nullptr;
    QFormLayout *m_form = nullptr;
    ApiUse m_use = ApiUse::Text;
    QComboBox *m_region = nullptr;
    QDateEdit *m_observed = nullptr;
    QLineEdit *m_source = nullptr;
    QLineEdit *m_note = nullptr;
};

class ApiQuoteDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ApiQuoteDialog(ApiUse use = ApiUse::Text, QWidget *parent = nullptr);
    ApiQuoteForm *form() const { return m_form; }
    QString json() const;

private:
    ApiQuoteForm *m_form = nullptr;
    QPushButton *m_ok = nullptr;
};

} // namespace wb
