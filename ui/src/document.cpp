#include "ui/document.h"

namespace wb {

Document::Document(Catalog catalog, QObject *parent) : QObject(parent), m_catalog(std::move(catalog)) {}

std::optional<QString> Document::openBrief(const QString &path)
{
    auto brief = loadBrief(path.toStdString(), m_catalog);
    if (!brief)
        return QString::fromStdString(brief.error().toString());
    m_results = evaluate(brief.value(), m_catalog);
    m_brief = std::move(brief).value();
    m_path = path;
    emit changed();
    return std::nullopt;
}

void Document::clear()
{
    m_brief.reset();
    m_results = Results();
    m_path.clear();
    emit changed();
}

} // namespace wb
