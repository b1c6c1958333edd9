// A number field's range from the engine's row of its field (core/fieldtable.h, brief/fields.h),
// through the unit the field shows it in: the forms refuse what the parser refuses, and only that.
#pragma once

#include <core/fieldtable.h>
#include <widgets/numberedit.h>

namespace wb {

// scale: shown = JSON value x scale (seconds shown as ms, fractions as %).
inline void setRangeFrom(NumberEdit *number, const FieldRow &row, double scale = 1)
{
    number->setRange(row.min * scale, row.max * scale, row.minExclusive);
    number->setWholeNumbers(row.type == FieldType::Integer && scale == 1);
}

} // namespace wb
