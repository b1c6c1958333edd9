// The editable part of a brief: model, precision, lengths, request rate and latency targets,
// with units and inline validation. Fields that do not apply to the workload kind are hidden.
// Every change is sent as edit(pointer, valueJson, label) for the document to apply as an
// undoable step; a rejected value is shown under the form with the reason.
#pragma once

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace wb {

class Catalog;
struct Brief;

class BriefForm : public QWidget
{
    Q_OBJECT

public:
    explicit BriefForm(const Catalog &catalog, QWidget *parent = nullptr);

    // Shows a brief's values (nullptr: nothing to edit) without emitting edits.
    void setBrief(const Brief *brief);
    void showError(const QString &message);

    QComboBox *modelBox() const { return m_model; }
    QDoubleSpinBox *rateBox() const { return m_rate; }

signals:
    void edit(const QString &pointer, const QString &valueJson, const QString &label);

private:
    void setRowVisible(QWidget *field, bool visible);

    QFormLayout *m_form = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_precision = nullptr;
    QSpinBox *m_input = nullptr;
    QSpinBox *m_output = nullptr;
    QDoubleSpinBox *m_rate = nullptr;
    QDoubleSpinBox *m_ttft = nullptr;
    QDoubleSpinBox *m_tpot = nullptr;
    QLabel *m_error = nullptr;
    bool m_loading = false;
};

} // namespace wb
