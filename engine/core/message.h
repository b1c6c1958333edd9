// Messages as data (../shared/spec/brief-and-results-v1.md, "Warnings are data"): a warning or
// a reason is a stable code, the brief field that changes it, typed arguments and an English
// template; `message` is that template rendered with the arguments. A translation renders the
// translated template with the same arguments and never parses `message`.
//
// Templates use {fmt}'s named fields ("{needed_gib:.1f} GiB on the busiest GPU"), written at the
// call site as WB_MESSAGE("Messages", "..."): the macro leaves the text as it is, and Qt's
// lupdate run with -tr-function-alias QT_TRANSLATE_NOOP+=WB_MESSAGE finds every template in the
// "Messages" context (the context is written out because lupdate reads literals, not macros).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

// The translation context of every engine message template.
#define WB_MESSAGE_CONTEXT "Messages"
#define WB_MESSAGE(context, text) text

// A word or phrase a template's string argument holds ("accepted image", the unit a cost is
// counted in), written as WB_WORD("Message words", "..."): lupdate finds it with
// -tr-function-alias QT_TRANSLATE_NOOP+=WB_WORD, and the window translates every string
// argument in this context before it renders a translated template (an argument that is not a
// marked word, a GPU's or provider's name, has no translation and stays as it is).
#define WB_WORDS_CONTEXT "Message words"
#define WB_WORD(context, text) text

namespace wb {

// A message argument: a count or a quantity (numbers stay numbers in JSON) or an id or a name.
using MessageArg = std::variant<std::int64_t, double, std::string>;
using MessageArgs = std::vector<std::pair<std::string, MessageArg>>;

struct Message
{
    // Declared so that a message cannot be brace-initialized from a code and a sentence: it is
    // made by makeMessage(), from its template and arguments.
    Message() = default;

    std::string code;      // stable, kebab-case: "kv-cache-tight", "precision-unsupported", ...
    std::string message;   // the English rendering: one or two sentences for a person
    std::string field;     // JSON pointer of the brief field that changes it; empty: none does
    std::string text;      // the English template message was rendered from
    MessageArgs args;      // the values the template names
};

// A warning, a reason: the same shape.
using Warning = Message;

// The template rendered with its arguments. A template that does not match its arguments (a
// translation that names one the message does not have, a format that does not fit its type)
// does not render: *ok is false and the text is empty.
std::string renderMessage(std::string_view text, const MessageArgs &args, bool *ok = nullptr);

// The field of a candidate's message, before the candidate's place in the brief is known:
// "/candidates/@/gpus". bindCandidate() writes the place in ("/candidates/2/gpus").
std::string candidateField(std::string_view member);
void bindCandidate(std::vector<Message> &messages, std::size_t index);

// The message: code, field, template and arguments, and the English rendering of them. A
// template that does not render is a programming error (the tests render every one they reach):
// the message then says so and lists the arguments rather than throwing.
Message makeMessage(std::string code, std::string field, std::string_view text, MessageArgs args = {});

} // namespace wb
