// The brief: every field of the workload kind, grouped in the seed's order, each change one undo
// step (BriefForm), in a scroll area for small screens.
#pragma once

#include "pages/page.h"

class QScrollArea;

namespace wb {

class BriefForm;

class BriefPage : public Page
{
    Q_OBJECT

public:
    explicit BriefPage(Document *document, QWidget *parent = nullptr);
    BriefForm *form() const { return m_form; }
    // Shows and focuses the field at a JSON pointer; false when the form has no such field.
    // Focuses the field at or under the pointer and scrolls it into view; false when none is shown.
    bool focusField(const QString &pointer);

private:
    BriefForm *m_form = nullptr;
    QScrollArea *m_scroll = nullptr;
};

} // namespace wb
