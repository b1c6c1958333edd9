// Private to the Brief page: the table of the brief's fields BriefForm builds its editors from.
// One entry per field a person sets: its group, label, JSON pointer, type, unit and scale,
// whether it may be left unstated, its choices, its one-line reason, when it applies to a brief,
// and how to read its value from the parsed brief (as JSON text, "null" when not stated). A
// number's range is not here: it is the engine's row of the pointer (brief/fields.h), for the
// brief's kind, so the form refuses what the parser refuses and nothing else.
#pragma once

#include <brief/brief.h>

#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <vector>

namespace wb {

class Catalog;

namespace brieffields {

using Choices = QList<QPair<QString, QString>>;  // label, JSON value
// The JSON of a field the brief leaves unstated.
inline const QString kUnset = QStringLiteral("null");

enum class Group { Workload, Context, Media, Training, Traffic, Acceptance, Operations };

struct FieldSpec
{
    enum Type { Integer, Real, Choice };
    Group group;
    QString label;
    QString pointer;
    QString name = {};        // in messages and for screen readers when the label is no noun ("TTFT p99 ≤:")
    Type type = Real;
    QString unit = {};        // suffix after the number
    double scale = 1;         // shown = JSON value x scale (seconds shown as ms, fractions as %)
    QString unsetText = {};   // non-empty: the field may be left unstated (sent as null)
    Choices choices = {};
    QString tip = {};
    std::function<bool(const Brief &)> applies = {};
    std::function<QString(const Brief &)> value = {};  // the brief's value as JSON; "null": not stated
};

// Every field, in the form's order.
std::vector<FieldSpec> fieldSpecs(const Catalog &catalog);
QString groupTitle(Group g);
// The field's name in messages: its name, or the label without its shortcut marker and colon.
QString plainLabel(const FieldSpec &f);
// A number as JSON text.
QString jsonNumber(double v);

} // namespace brieffields
} // namespace wb
