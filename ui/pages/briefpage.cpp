#include "pages/briefpage.h"

#include "document/document.h"
#include "pages/briefform.h"
#include "parts/pageparts.h"

#include <QScrollArea>

namespace wb {

BriefPage::BriefPage(Document *document, QWidget *parent) : Page(document, parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = m_scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setAccessibleName(tr("Brief"));
    auto *content = new QWidget(scroll);
    QVBoxLayout *layout =
        pageparts::headedPage(content, tr("What is the workload?"),
                              tr("Describe the work before the GPUs: every result follows from these fields. Hover a "
                                 "field for why it matters; fields that do not apply to the kind are hidden."));
    m_form = new BriefForm(document->catalog(), content);
    layout->addWidget(m_form);
    layout->addStretch();
    scroll->setWidget(content);
    outer->addWidget(scroll);
    connect(m_form, &BriefForm::edit, this, [this](const std::vector<BriefPatch> &patches, const QString &label) {
        if (const auto error = this->document()->editBrief(patches, label))
            m_form->editRefused(*error);
        else
            m_form->showError(QString());
    });
    connect(m_form, &BriefForm::editSessionEnded, document, &Document::endEditSession);
    connect(document, &Document::briefChanged, this, [this] { m_form->setBrief(this->document()->brief()); });
    m_form->setBrief(document->brief());
}

bool BriefPage::focusField(const QString &pointer)
{
    QWidget *editor = m_form->focusField(pointer);
    if (editor)
        m_scroll->ensureWidgetVisible(editor);
    return editor;
}

} // namespace wb
