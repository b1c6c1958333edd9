// Plan: the method's benchmark plan for one candidate (or all), four phases with acceptance
// criteria from the brief beside the prediction and ready-to-run commands, shown as the Markdown
// `gpuwb plan` prints, and exported as it.
#pragma once

#include "pages/page.h"

class QComboBox;
class QTextBrowser;

namespace wb {

class PlanPage : public Page
{
    Q_OBJECT

public:
    explicit PlanPage(Document *document, QWidget *parent = nullptr);
    QComboBox *candidateBox() const { return m_candidate; }
    QTextBrowser *view() const { return m_view; }
    // The plan shown, as Markdown.
    QString markdown() const { return m_markdown; }
    void exportMarkdown();
    // Whether the view shows markdown() (it is laid out when the page is shown).
    bool viewCurrent() const { return !m_stale; }

protected:
    void showEvent(QShowEvent *event) override;

private:
    void showPlan();
    void listCandidates();
    void render();

    QComboBox *m_candidate = nullptr;
    QTextBrowser *m_view = nullptr;
    QString m_markdown;
    // The Markdown not yet laid out in the view: laying it out costs tens of milliseconds after
    // every edit, so a hidden page does it when it is next shown.
    bool m_stale = false;
};

} // namespace wb
