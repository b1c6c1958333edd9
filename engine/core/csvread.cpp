#include "core/csvread.h"

#include <csv.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace wb {

namespace {

struct Reader
{
    std::vector<std::vector<std::string>> records;
    std::vector<long> starts;
    std::vector<std::string> current;
    long line = 1;          // line the parser has reached
    long recordStart = 1;   // line the current record began on
};

void onField(void *data, std::size_t size, void *self)
{
    auto *r = static_cast<Reader *>(self);
    if (r->current.empty())
        r->starts.push_back(r->recordStart);
    r->current.emplace_back(data ? static_cast<const char *>(data) : "", data ? size : 0);
}

void onRecord(int, void *self)
{
    auto *r = static_cast<Reader *>(self);
    if (r->current.empty())
        r->starts.push_back(r->recordStart);
    r->records.push_back(std::move(r->current));
    r->current.clear();
}

} // namespace

std::optional<std::size_t> CsvTable::column(const std::string &name) const
{
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt : std::optional<std::size_t>(std::size_t(it - header.begin()));
}

Result<CsvTable> parseCsv(const std::string &text, const std::string &fileName)
{
    csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return Error{fileName, "", "the CSV reader could not start"};
    Reader reader;
    // A UTF-8 byte-order mark (spreadsheets write one) is not part of the first column's name.
    std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    // Fed one line at a time so that every record knows the line it began on.
    bool failed = false;
    while (at < text.size() && !failed) {
        std::size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        if (csv_parse(&parser, text.data() + at, end - at, onField, onRecord, &reader) != end - at)
            failed = true;
        // libcsv's state 0 (ROW_NOT_BEGUN): the line ended a record, so the next begins one.
        if (parser.pstate == 0)
            reader.recordStart = reader.line + 1;
        ++reader.line;
        at = end;
    }
    if (!failed && csv_fini(&parser, onField, onRecord, &reader) != 0)
        failed = true;
    const std::string why = failed ? csv_strerror(csv_error(&parser)) : "";
    csv_free(&parser);
    if (failed)
        return Error{fileName, fmt::format("line {}", reader.recordStart),
                     "not valid CSV (" + why + "): a quote is left open or stray quotes sit inside an unquoted field"};

    CsvTable table;
    if (reader.records.empty())
        return Error{fileName, "", "the file is empty: a header row is expected"};
    table.header = std::move(reader.records.front());
    std::set<std::string> names;
    for (const std::string &name : table.header) {
        if (name.empty())
            return Error{fileName, "line 1", "a column has no name"};
        if (!names.insert(name).second)
            return Error{fileName, "line 1", "column \"" + name + "\" appears twice"};
    }
    for (std::size_t i = 1; i < reader.records.size(); ++i) {
        std::vector<std::string> &row = reader.records[i];
        if (row.size() == 1 && row.front().empty())
            continue;  // a blank line
        if (row.size() != table.header.size())
            return Error{fileName, fmt::format("line {}", reader.starts[i]),
                         fmt::format("{} fields where the header has {}", row.size(), table.header.size())};
        table.rows.push_back(std::move(row));
        table.lines.push_back(reader.starts[i]);
    }
    return table;
}

} // namespace wb
