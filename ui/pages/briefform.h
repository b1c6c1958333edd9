// The brief page: every field of the brief that a person sets, in the seed's order (workload and
// model; context and outputs or the training set-up; traffic and latency targets; acceptance;
// data boundary and operating model), with units, one-line reasons and inline validation.
// Fields that do not apply to the workload kind are hidden, and so is a group left empty.
//
// The fields are one table (brieffields.h): a JSON pointer, a type, a unit and scale, whether
// it may be left unstated, when it applies, and how to read its value from the parsed brief; a
// number's range is the engine's for the pointer and the brief's kind (brief/fields.h). Every
// change is sent as edit(patches, label) for the document to apply as one undoable step; a
// change that needs a companion (a new kind needs its training block, a traffic mode its rate or
// concurrency) sends both. A rejected value is shown above the form with the reason.
#pragma once

#include <brief/brief.h>

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;

namespace wb {

class Catalog;
class NumberEdit;

class BriefForm : public QWidget
{
    Q_OBJECT

public:
    explicit BriefForm(const Catalog &catalog, QWidget *parent = nullptr);
    ~BriefForm() override;

    // Shows a brief's values (nullptr: nothing to edit) without emitting edits.
    void setBrief(const Brief *brief);
    void showError(const QString &message);
    // The document refused the edit the field being typed in made (a rule between fields, such
    // as output tokens above their p95): the field keeps what was typed, the brief keeps (or gets
    // back) the value it had when the typing began, and the message says so.
    void editRefused(const QString &error);

    // The editor of the field at a JSON pointer ("/workload/traffic/request_rate_per_s"), or
    // nullptr. focusField() puts the keyboard focus on the first shown field at or under the
    // pointer and returns it (nullptr when none is shown).
    QWidget *field(const QString &pointer) const;
    QWidget *focusField(const QString &pointer);
    QComboBox *modelBox() const;
    NumberEdit *rateBox() const;

    // Reads a Hugging Face config.json and makes it the brief's model (an inline model named
    // after its folder). Returns the error, naming the file, when it cannot be used.
    std::optional<QString> importHfConfig(const QString &path);

signals:
    void edit(const std::vector<wb::BriefPatch> &patches, const QString &label);
    // The focus left a number field (or Return was pressed) after edits: the next edit of that
    // field is a new undo step.
    void editSessionEnded();

private:
    void numberTyped(std::size_t field, NumberEdit *number);
    // "Input: <problem>; the brief keeps 2,000 (tokens)." for field i, whose brief value is `kept`.
    QString keptMessage(std::size_t field, const QString &problem, const QString &kept) const;

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace wb
