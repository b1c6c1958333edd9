// A dated price quote for the brief's cost.prices: the GPU, who sells it, the pricing term, the
// amount (per GPU-hour, or per GPU for a purchase), the date it was seen and where, and the
// offer's commercial terms (kind of offer, minimum commitment, share paid up front, cancellation,
// support fee, egress price, storage included). The GPU, provider, price, date and source are
// required (the Add button waits for them); the terms are optional; the engine checks the result
// when it is added to the brief.
#pragma once

#include <QDialog>

class QComboBox;
class QDateEdit;
class QLineEdit;
class QPushButton;

class QLabel;

namespace wb {

class Catalog;
class NumberEdit;

class PriceQuoteDialog : public QDialog
{
    Q_OBJECT

public:
    // gpu preselects a catalog id (the current candidate's).
    PriceQuoteDialog(const Catalog &catalog, const QString &gpu, QWidget *parent = nullptr);

    // The quote as a JSON object for /cost/prices/-.
    QString json() const;

    QComboBox *gpuBox() const { return m_gpu; }
    QLineEdit *providerEdit() const { return m_provider; }
    QComboBox *termBox() const { return m_term; }
    NumberEdit *amountBox() const { return m_amount; }
    QDateEdit *observedEdit() const { return m_observed; }
    QLineEdit *sourceEdit() const { return m_source; }
    QComboBox *offerBox() const { return m_offer; }
    NumberEdit *commitmentBox() const { return m_commitment; }
    NumberEdit *upfrontBox() const { return m_upfront; }
    NumberEdit *interruptionsBox() const { return m_interruptions; }

private:
    void showUnit();
    void update();

    QComboBox *m_gpu = nullptr;
    QLineEdit *m_provider = nullptr;
    QComboBox *m_term = nullptr;
    NumberEdit *m_amount = nullptr;
    QComboBox *m_region = nullptr;
    QDateEdit *m_observed = nullptr;
    QLineEdit *m_source = nullptr;
    QLineEdit *m_note = nullptr;
    QComboBox *m_offer = nullptr;
    NumberEdit *m_commitment = nullptr, *m_upfront = nullptr, *m_support = nullptr, *m_egress = nullptr,
               *m_storage = nullptr, *m_interruptions = nullptr;
    QLineEdit *m_cancellation = nullptr;
    QPushButton *m_ok = nullptr;
    QLabel *m_message = nullptr;
};

} // namespace wb
