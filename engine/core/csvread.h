// Reading CSV files (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) with
// libcsv, strict mode. A table is a header row and data rows, each row remembering the line it
// began on so that errors can name it.
#pragma once

#include "core/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct CsvTable
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;   // each as long as the header
    std::vector<long> lines;                      // the line each row starts on (1-based)

    std::optional<std::size_t> column(const std::string &name) const;
};

// Errors name the file and the line: a quote left open, a row with more or fewer fields than
// the header, an empty header name, a duplicated one.
Result<CsvTable> parseCsv(const std::string &text, const std::string &fileName);

} // namespace wb
