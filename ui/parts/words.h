// The words the interface shows for the brief's enumerations: "real-time inference",
// "TensorRT-LLM", "1-year reserved", where the JSON, the CLI and the CSV keep their names
// ("realtime-inference", "trtllm", "reserved-1y"); also the catalog's vendors, architectures
// and fabrics ("nvlink-bridge"). One table, translated with the interface.
#pragma once

#include <core/types.h>

#include <QString>

#include <string>
#include <string_view>
#include <type_traits>

namespace wb {

// The words for one JSON name; a name the table does not know is shown as it is.
QString words(std::string_view jsonName);

inline QString words(const std::string &jsonName)
{
    return words(std::string_view(jsonName));
}

// "calibrated from 3 runs": what a figure from a project's measured runs says of itself.
QString calibratedFrom(int runs);

struct CostOption;
// The API option by what it sells: "Model API", or "Managed fine-tuning" for a run; and how it
// bills, from its rates: "per token", "per image", "per video second", "per training token".
QString apiOptionName(const CostOption &api);
QString apiBilling(const CostOption &api);

template<typename E>
    requires std::is_enum_v<E>
QString words(E value)
{
    return words(enumName(value));
}

} // namespace wb
