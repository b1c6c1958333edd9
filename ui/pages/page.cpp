#include "pages/page.h"

namespace wb {

Page::Page(Document *document, QWidget *parent) : QWidget(parent), m_document(document)
{
}

} // namespace wb
