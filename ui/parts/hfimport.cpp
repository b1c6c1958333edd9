#include "parts/hfimport.h"

#include <core/fileio.h>

#include <catalog/catalog.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace wb {

std::optional<QString> readHfModel(const QString &path, HfModel *model)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("HfImport", text); };
    // The engine's reader: a regular file only, never blocking on a FIFO, at most its size limit.
    const Result<std::string> text = readTextFile(path.toStdString());
    if (!text)
        return QString::fromStdString(text.error().toString());
    const QByteArray bytes = QByteArray::fromStdString(*text);
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (doc.isNull() || !doc.isObject())
        return tr("%1: is not a JSON object (%2)").arg(path, parseError.errorString());
    // The engine reads the architecture; its error names the file and the field.
    auto spec = modelFromHfConfig(bytes.toStdString(), path.toStdString(), "");
    if (!spec)
        return QString::fromStdString(spec.error().toString());
    model->name = QFileInfo(path).absoluteDir().dirName();
    QJsonObject value;
    value.insert(QStringLiteral("name"), model->name);
    value.insert(QStringLiteral("hf_config"), doc.object());
    model->briefValue = QString::fromUtf8(QJsonDocument(value).toJson(QJsonDocument::Compact));
    return std::nullopt;
}

} // namespace wb
