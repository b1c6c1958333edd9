// What the window's tests share: the includes, the shipped catalog, the sample briefs, and typing
// into fields and table cells as a person does.
#pragma once

#include <catalog/catalog.h>
#include <catalog/prices.h>
#include <store/project.h>
#include <usecase/records.h>
#include <pages/candidatesmodel.h>
#include <dialogs/apiquote.h>
#include <dialogs/catalogbrowser.h>
#include <dialogs/helpguide.h>
#include <dialogs/newcomparison.h>
#include <dialogs/apiquote.h>
#include <pages/comparisonmodel.h>
#include <pages/costtablemodel.h>
#include <pages/checklistmodel.h>
#include <pages/checklistpage.h>
#include <pages/planpage.h>
#include <pages/evidencepage.h>
#include <pages/recordpage.h>
#include <dialogs/evidenceimport.h>
#include <report/report.h>
#include <pages/resultpage.h>
#include <pages/briefform.h>
#include <document/document.h>
#include <pages/fittablemodel.h>
#include <dialogs/layoutsearch.h>
#include <mainwindow.h>
#include "testsupport.h"
#include <settings.h>
#include <pages/performancetablemodel.h>
#include <pages/resultstablemodel.h>
#include <dialogs/pricequote.h>
#include <dialogs/scenariocompare.h>
#include <parts/recommendation.h>
#include <widgets/chartview.h>
#include <parts/words.h>
#include <parts/resultcharts.h>
#include <widgets/chartexportdialog.h>
#include <widgets/numberedit.h>

#include <QAbstractItemModelTester>

#include <functional>

#include <QCheckBox>
#include <QComboBox>
#include <QApplication>
#include <QDate>
#include <QDateEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QAction>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QImage>
#include <QSplitter>
#include <QToolTip>
#include <QSet>
#include <QAbstractButton>
#include <QWizard>
#include <QGroupBox>
#include <QTextBrowser>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTextBrowser>
#include <QPushButton>
#include <QListWidget>
#include <QPalette>
#include <QSignalSpy>
#include <QLabel>
#include <QStatusBar>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QSpinBox>
#include <QProcess>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <QTest>

namespace windowtest {

inline wb::Catalog shippedCatalog()
{
    auto loaded = wb::Catalog::loadShipped(std::string(WB_SOURCE_DIR) + "/resources");
    if (!loaded)
        qFatal("catalog does not load");
    return std::move(loaded).value();
}

inline const QString kSample = QStringLiteral(WB_SOURCE_DIR "/resources/samples/chat-70b.brief.json");
inline const QString kSampleAnswers = QStringLiteral(WB_SOURCE_DIR "/resources/samples/vendors.answers.json");

inline QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(37, 37, 38));
    p.setColor(QPalette::WindowText, QColor(230, 230, 230));
    p.setColor(QPalette::Base, QColor(30, 30, 30));
    p.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
    p.setColor(QPalette::Text, QColor(230, 230, 230));
    p.setColor(QPalette::Button, QColor(53, 53, 55));
    p.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    p.setColor(QPalette::Highlight, QColor(0, 114, 178));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, QColor(53, 53, 55));
    p.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
    return p;
}

// Shows the window and opens the sample brief in it, as the tests of a visible window start.
inline bool showOnSample(wb::MainWindow &w, wb::Document &doc)
{
    w.show();
    return QTest::qWaitForWindowExposed(&w) && !doc.openFile(kSample).has_value();
}

// The brief form's validation message (the first label that says something).
inline QString findChildLabelText(QWidget *form)
{
    for (QLabel *label : form->findChildren<QLabel *>())
        if (label->accessibleName() == QLatin1String("Brief validation message"))
            return label->text();
    return {};
}

// Replaces what a number field shows with typed keys, as a person selecting it and typing does.
inline void typeInto(QWidget *field, const QString &text)
{
    auto *number = qobject_cast<wb::NumberEdit *>(field);
    if (!number)
        qFatal("not a number field: %s", qPrintable(field->objectName()));
    number->lineEdit()->setFocus(Qt::TabFocusReason);
    number->lineEdit()->selectAll();
    if (text.isEmpty())
        QTest::keyClick(number->lineEdit(), Qt::Key_Backspace);
    else
        QTest::keyClicks(number->lineEdit(), text);
}

// Types into a table cell as a person does: click it, F2, select all, the text, Return.
inline void typeInCell(QTableView *table, int row, int column, const QString &text)
{
    const QModelIndex cell = table->model()->index(row, column);
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QTest::keyClick(table, Qt::Key_F2);
    QWidget *editor = QApplication::focusWidget();
    if (!editor || editor == table)
        qFatal("no editor opened on cell %d, %d", row, column);
    QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(editor, Qt::Key_Backspace);
    else
        QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();  // the delegate commits on a queued call
}

wb::NumberEdit *numberField(wb::BriefForm *form, const char *pointer)
{
    return qobject_cast<wb::NumberEdit *>(form->field(QLatin1String(pointer)));
}

} // namespace windowtest

using namespace windowtest;
