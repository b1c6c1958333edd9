// A table of typed cells: the one shape the spreadsheet exports are built from. The CSV writer
// prints each cell's text (so that CSV files keep their exact figures); the XLSX writer
// (report/xlsx.h) writes its number with the column's format, or its text.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

// How a column's numbers read in a spreadsheet.
enum class CellFormat {
    Text,
    Integer,      // 1,234
    Decimal,      // as many digits as it has
    Usd,          // $1,234.56
    UsdFine,      // $0.000123 (a cost per output)
    Percent,      // a fraction shown as 12.3%
    Seconds,      // 0.123 s
    Gib,          // 12.34 GiB (the value already in GiB)
    Boolean,      // TRUE / FALSE
};

struct Cell
{
    std::string text;              // as the CSV prints it; empty: not known
    std::optional<double> value;   // the number (or 0/1 for a boolean) behind it

    static Cell number(double v, std::string text) { return {std::move(text), v}; }
    static Cell boolean(bool v) { return {v ? "true" : "false", v ? 1.0 : 0.0}; }
};

struct SheetColumn
{
    std::string name;              // the header
    CellFormat format = CellFormat::Text;
    double width = 0;              // characters; 0: fitted to the header and the cells
};

struct Sheet
{
    std::string name;              // the tab's name (at most 31 characters, no []:*?/\)
    std::vector<SheetColumn> columns;
    std::vector<std::vector<Cell>> rows;   // each as long as columns
};

// RFC 4180: the header, then one line per row, each cell through csvCell (format.h), lines
// ended by lineEnd.
std::string sheetToCsv(const Sheet &sheet, const std::string &lineEnd = "\n");

} // namespace wb
