// An engine message (a warning, a reason) in the user's language: its English template is
// translated (context WB_MESSAGE_CONTEXT: the templates lupdate finds inside WB_MESSAGE) and
// rendered with the message's own arguments; the engine's English text is never parsed. Without a
// translation, or when a translated template does not render with the arguments, the engine's
// English rendering is shown. String arguments marked as words (WB_WORD) are translated too.
#pragma once

#include "core/message.h"

#include <QCoreApplication>
#include <QString>

namespace wb {

// A marked word (WB_WORD: "accepted image") in the user's language.
inline QString wordText(const std::string &word)
{
    return QCoreApplication::translate(WB_WORDS_CONTEXT, word.c_str());
}

inline QString messageText(const Message &m)
{
    if (m.text.empty())
        return QString::fromStdString(m.message);
    const std::string translated = QCoreApplication::translate(WB_MESSAGE_CONTEXT, m.text.c_str()).toStdString();
    if (translated == m.text)
        return QString::fromStdString(m.message);
    // A string argument that is a marked word (WB_WORD: "accepted image") in the same language.
    MessageArgs args = m.args;
    for (auto &arg : args)
        if (const std::string *word = std::get_if<std::string>(&arg.second))
            arg.second = wordText(*word).toStdString();
    bool ok = false;
    const std::string rendered = renderMessage(translated, args, &ok);
    return QString::fromStdString(ok ? rendered : m.message);
}

} // namespace wb
