#include "report/xlsx.h"

#include "core/fileio.h"

#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

namespace wb {

namespace {

constexpr std::size_t kMaxCellChars = 32767;   // Excel's limit on one cell's text

const char *numberFormat(CellFormat f)
{
    switch (f) {
    case CellFormat::Integer:
        return "#,##0";
    case CellFormat::Decimal:
        return "#,##0.######";
    case CellFormat::Usd:
        return "\"$\"#,##0.00";
    case CellFormat::UsdFine:
        return "\"$\"0.00000000";
    case CellFormat::Percent:
        return "0.0%";
    case CellFormat::Seconds:
        return "0.0000\" s\"";
    case CellFormat::Gib:
        return "#,##0.00\" GiB\"";
    case CellFormat::Text:
    case CellFormat::Boolean:
        break;
    }
    return nullptr;
}

// XML 1.0 cannot hold C0 controls other than tab, line feed and carriage return, nor U+FFFE and
// U+FFFF: each becomes U+FFFD, so that the workbook opens without repair.
std::string xmlSafe(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out += "\xEF\xBF\xBD";
        } else if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF
                   && (static_cast<unsigned char>(text[i + 2]) == 0xBE || static_cast<unsigned char>(text[i + 2]) == 0xBF)) {
            out += "\xEF\xBF\xBD";
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string cut(const std::string &raw)
{
    const std::string text = xmlSafe(raw);
    if (text.size() <= kMaxCellChars)
        return text;
    // Cut on a UTF-8 character boundary, leaving room for the ellipsis.
    std::size_t end = kMaxCellChars - 3;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end) + "...";
}

// The width a column needs: its widest cell as shown, within reason.
double fittedWidth(const Sheet &sheet, std::size_t column)
{
    std::size_t widest = sheet.columns[column].name.size();
    for (const std::vector<Cell> &row : sheet.rows)
        if (column < row.size())
            widest = std::max(widest, row[column].text.size() + (row[column].value ? 3 : 0));
    return std::clamp(double(widest) + 2, 8.0, 60.0);
}

Error problem(const std::string &path, const std::string &why)
{
    return Error{path, "", "cannot be written: " + why};
}

Error sheetProblem(const std::string &path, const std::string &sheet, lxw_error error)
{
    return problem(path, "sheet \"" + sheet + "\": " + lxw_strerror(error));
}

Status fill(const std::string &tempPath, const std::string &path, const std::vector<Sheet> &sheets)
{
    lxw_workbook *book = workbook_new(tempPath.c_str());
    if (!book)
        return problem(path, "the spreadsheet writer could not start");
    // workbook_close frees the workbook whatever happens; closing it is the only way out.
    const auto close = [&book]() {
        const lxw_error e = workbook_close(book);
        book = nullptr;
        return e;
    };
    lxw_format *header = workbook_add_format(book);
    format_set_bold(header);
    format_set_bottom(header, LXW_BORDER_THIN);
    std::map<CellFormat, lxw_format *> formats;
    for (CellFormat f : {CellFormat::Integer, CellFormat::Decimal, CellFormat::Usd, CellFormat::UsdFine, CellFormat::Percent,
                         CellFormat::Seconds, CellFormat::Gib}) {
        lxw_format *format = workbook_add_format(book);
        format_set_num_format(format, numberFormat(f));
        formats[f] = format;
    }

    std::set<std::string> names;
    for (const Sheet &sheet : sheets) {
        if (sheet.name.empty() || sheet.name.size() > 31 || sheet.name.find_first_of("[]:*?/\\") != std::string::npos
            || !names.insert(sheet.name).second) {
            close();
            return problem(path, "\"" + sheet.name + "\" is not a sheet name (unique, 1 to 31 characters, none of []:*?/\\)");
        }
        lxw_worksheet *ws = workbook_add_worksheet(book, sheet.name.c_str());
        if (!ws) {
            close();
            return problem(path, "sheet \"" + sheet.name + "\" could not be added");
        }
        for (std::size_t c = 0; c < sheet.columns.size(); ++c) {
            const SheetColumn &column = sheet.columns[c];
            const lxw_col_t col = lxw_col_t(c);
            const double width = column.width > 0 ? column.width : fittedWidth(sheet, c);
            worksheet_set_column(ws, col, col, width, nullptr);
            if (lxw_error e = worksheet_write_string(ws, 0, col, cut(column.name).c_str(), header)) {
                close();
                return sheetProblem(path, sheet.name, e);
            }
        }
        for (std::size_t r = 0; r < sheet.rows.size(); ++r) {
            const lxw_row_t row = lxw_row_t(r + 1);
            for (std::size_t c = 0; c < sheet.rows[r].size() && c < sheet.columns.size(); ++c) {
                const Cell &cell = sheet.rows[r][c];
                const CellFormat format = sheet.columns[c].format;
                const lxw_col_t col = lxw_col_t(c);
                lxw_error e = LXW_NO_ERROR;
                if (cell.value && std::isfinite(*cell.value) && format == CellFormat::Boolean)
                    e = worksheet_write_boolean(ws, row, col, *cell.value != 0, nullptr);
                else if (cell.value && std::isfinite(*cell.value) && format != CellFormat::Text)
                    e = worksheet_write_number(ws, row, col, *cell.value, formats[format]);
                else if (!cell.text.empty())
                    e = worksheet_write_string(ws, row, col, cut(cell.text).c_str(), nullptr);
                if (e) {
                    close();
                    return sheetProblem(path, sheet.name, e);
                }
            }
        }
        worksheet_freeze_panes(ws, 1, 0);
        if (!sheet.columns.empty())
            worksheet_autofilter(ws, 0, 0, lxw_row_t(sheet.rows.size()), lxw_col_t(sheet.columns.size() - 1));
    }
    if (const lxw_error e = close())
        return problem(path, lxw_strerror(e));
    return Ok{};
}

} // namespace

Status writeXlsx(const std::string &path, const std::vector<Sheet> &sheets)
{
    return writeAtomically(path, [&](const std::string &tempPath) { return fill(tempPath, path, sheets); });
}

} // namespace wb
