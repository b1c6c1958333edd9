// A decision record (record/record.h's JSON) as a PDF finance can sign: cover with the decision,
// its route and reasons; the brief; candidates with their specifications and sources; the
// charts (vector); the normalization table; cost lines per option with their totals;
// break-evens; assumptions; calibration and evidence; the vendor checklist's open items;
// triggered mistakes; the benchmark plan's acceptance criteria; the sign-off block; and on every
// page the engine version, the prices' date and the record's hash. Tables break across pages
// with their header repeated. Needs a QGuiApplication (the offscreen platform will do).
#pragma once

#include <QByteArray>
#include <QPageSize>
#include <QString>

namespace wb {

struct RecordPdfOptions
{
    QPageSize::PageSizeId page = QPageSize::A4;   // A4 or Letter
    bool pdfA = true;                              // PDF/A-1b (Qt's writer embeds the fonts)
};

// Writes the PDF to path whole or not at all. Returns an empty string, or what went wrong,
// naming the file.
QString writeRecordPdf(const QByteArray &recordJson, const QString &path, const RecordPdfOptions &options = {});

} // namespace wb
