// Sheets (core/sheet.h) as an Excel workbook, through Debian's libxlsxwriter: numbers as numbers
// with their column's format (currency, percentages, GiB, seconds), a bold frozen header row, an
// autofilter and column widths fitted to the contents.
#pragma once

#include "core/result.h"
#include "core/sheet.h"

#include <string>
#include <vector>

namespace wb {

// Writes path whole or not at all (core/fileio.h's writeAtomically). Sheet names must be unique,
// at most 31 characters and free of []:*?/\; a text cell longer than Excel's 32,767 characters
// is cut there and ends with "..." (said in the cell). A cell whose number is not finite is
// written as its text. Errors name the file and the sheet.
Status writeXlsx(const std::string &path, const std::vector<Sheet> &sheets);

} // namespace wb
