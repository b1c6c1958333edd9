#include "core/message.h"

#include <fmt/args.h>
#include <fmt/format.h>

namespace wb {

std::string renderMessage(std::string_view text, const MessageArgs &args, bool *ok)
{
    fmt::dynamic_format_arg_store<fmt::format_context> store;
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    for (const auto &arg : args) {
        const char *name = arg.first.c_str();
        std::visit([&store, name](const auto &v) { store.push_back(fmt::arg(name, v)); }, arg.second);
    }
    try {
        std::string out = fmt::vformat(fmt::string_view(text.data(), text.size()), store);
        if (ok)
            *ok = true;
        return out;
    } catch (const fmt::format_error &) {
        if (ok)
            *ok = false;
        return {};
    }
}

namespace {
constexpr std::string_view kAnyCandidate = "/candidates/@/";
}

std::string candidateField(std::string_view member)
{
    return std::string(kAnyCandidate) + std::string(member);
}

void bindCandidate(std::vector<Message> &messages, std::size_t index)
{
    for (Message &m : messages)
        if (m.field.rfind(kAnyCandidate, 0) == 0)
            m.field = "/candidates/" + std::to_string(index) + "/" + m.field.substr(kAnyCandidate.size());
}

Message makeMessage(std::string code, std::string field, std::string_view text, MessageArgs args)
{
    Message m;
    m.code = std::move(code);
    m.field = std::move(field);
    m.text = std::string(text);
    m.args = std::move(args);
    bool ok = false;
    m.message = renderMessage(m.text, m.args, &ok);
    if (!ok) {
        m.message = "(message " + m.code + " does not render:";
        for (const auto &[name, value] : m.args)
            m.message += " " + name;
        m.message += ")";
    }
    return m;
}

} // namespace wb
