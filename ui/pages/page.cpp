#include "pages/page.h"

#include "document/document.h"

#include <QAbstractScrollArea>
#include <QScrollBar>

namespace wb {

Page::Page(Document *document, QWidget *parent) : QWidget(parent), m_document(document), m_scenario(document->scenarioName())
{
    // Another scenario is another set of rows: its tables and forms open at their start, not
    // scrolled to where the last scenario's were left.
    connect(document, &Document::briefChanged, this, [this] {
        if (m_document->scenarioName() == m_scenario)
            return;
        m_scenario = m_document->scenarioName();
        for (QAbstractScrollArea *area : findChildren<QAbstractScrollArea *>()) {
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->minimum());
            area->horizontalScrollBar()->setValue(area->horizontalScrollBar()->minimum());
        }
    });
}

} // namespace wb
