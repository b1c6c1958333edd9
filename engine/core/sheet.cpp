#include "core/sheet.h"

#include "core/format.h"

namespace wb {

std::string sheetToCsv(const Sheet &sheet, const std::string &lineEnd)
{
    std::string out;
    for (std::size_t i = 0; i < sheet.columns.size(); ++i)
        out += (i ? "," : "") + csvCell(sheet.columns[i].name);
    out += lineEnd;
    for (const std::vector<Cell> &row : sheet.rows) {
        for (std::size_t i = 0; i < row.size(); ++i)
            out += (i ? "," : "") + csvCell(row[i].text);
        out += lineEnd;
    }
    return out;
}

} // namespace wb
