// The first window: the open brief on the left, the memory fit of its candidates on the right,
// the warnings below. File: New, Open, Quit; Help: About.
#pragma once

#include <QMainWindow>

class QLabel;
class QListWidget;
class QTableView;

namespace wb {

class BriefView;
class Document;
class FitTableModel;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(Document *document, QWidget *parent = nullptr);

    // Opens a brief, reporting a bad file in a message box; returns whether it opened.
    bool openFile(const QString &path);
    QTableView *fitTable() const { return m_fitTable; }
    QListWidget *warningList() const { return m_warnings; }

private:
    void createMenus();
    void newDocument();
    void openWithDialog();
    void about();
    void refresh();

    Document *m_document;
    BriefView *m_briefView = nullptr;
    FitTableModel *m_fitModel = nullptr;
    QTableView *m_fitTable = nullptr;
    QListWidget *m_warnings = nullptr;
    QLabel *m_fitTitle = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace wb
