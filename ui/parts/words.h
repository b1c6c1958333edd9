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

template<typename E>
    requires std::is_enum_v<E>
QString words(E value)
{
    return words(enumName(value));
}

} // namespace wb
