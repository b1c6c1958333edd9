#include "pages/checklistmodel.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>

namespace wb {

namespace {

bool missing(const VendorAnswer *a)
{
    return !a || a->answer == Answer::Unknown;
}

} // namespace

ChecklistModel::ChecklistModel(QObject *parent) : QAbstractTableModel(parent) {}

QString ChecklistModel::commitmentWords(Commitment c)
{
    switch (c) {
    case Commitment::OnDemand: return tr("On-demand");
    case Commitment::Reserved: return tr("Reserved");
    case Commitment::Purchase: return tr("Purchase");
    case Commitment::DedicatedCluster: return tr("Dedicated cluster");
    }
    return {};
}

QString ChecklistModel::answerWords(Answer answer)
{
    switch (answer) {
    case Answer::Yes: return tr("Yes");
    case Answer::No: return tr("No");
    case Answer::Partial: return tr("Partial");
    case Answer::Unknown: return tr("Unknown");
    case Answer::NotApplicable: return tr("N/A");
    }
    return {};
}

void ChecklistModel::setChecklist(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist)
{
    beginResetModel();
    m_tmpl = tmpl;
    m_checklist = checklist;
    rebuild();
    endResetModel();
}

void ChecklistModel::setCommitment(Commitment commitment)
{
    beginResetModel();
    m_commitment = commitment;
    rebuild();
    endResetModel();
}

void ChecklistModel::setFilter(Filter filter)
{
    beginResetModel();
    m_filter = filter;
    rebuild();
    endResetModel();
}

bool ChecklistModel::visible(const ChecklistItem &item) const
{
    switch (m_filter) {
    case Filter::All: return true;
    case Filter::Required: return item.requiredFor(m_commitment);
    case Filter::Unanswered:
        return m_checklist.vendors.empty() ||
               std::any_of(m_checklist.vendors.begin(), m_checklist.vendors.end(),
                           [&](const Vendor &v) { return missing(v.answer(item.id)); });
    case Filter::AnsweredNo:
        return std::any_of(m_checklist.vendors.begin(), m_checklist.vendors.end(), [&](const Vendor &v) {
            const VendorAnswer *a = v.answer(item.id);
            return a && a->answer == Answer::No;
        });
    }
    return true;
}

void ChecklistModel::rebuild()
{
    m_rows.clear();
    for (const ChecklistSection &s : m_tmpl.sections) {
        std::vector<Row> items;
        for (const ChecklistItem &item : m_tmpl.items)
            if (item.section == s.id && visible(item))
                items.push_back({false, item.id});
        if (items.empty())
            continue;
        m_rows.push_back({true, s.id});
        m_rows.insert(m_rows.end(), items.begin(), items.end());
    }
}

std::string ChecklistModel::itemAt(int row) const
{
    if (row < 0 || std::size_t(row) >= m_rows.size() || m_rows[std::size_t(row)].section)
        return {};
    return m_rows[std::size_t(row)].id;
}

int ChecklistModel::vendorAt(int column) const
{
    const int v = column - FirstVendor;
    return v >= 0 && std::size_t(v) < m_checklist.vendors.size() ? v : -1;
}

int ChecklistModel::rowOfItem(const std::string &item) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (!m_rows[i].section && m_rows[i].id == item)
            return int(i);
    return -1;
}

int ChecklistModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ChecklistModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstVendor + int(m_checklist.vendors.size());
}

QVariant ChecklistModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || std::size_t(index.row()) >= m_rows.size())
        return {};
    const Row &row = m_rows[std::size_t(index.row())];
    if (row.section) {
        const ChecklistSection *s = m_tmpl.section(row.id);
        return s ? sectionCell(*s, index.column(), role) : QVariant();
    }
    const ChecklistItem *item = m_tmpl.item(row.id);
    return item ? itemCell(*item, index.column(), role) : QVariant();
}

QVariant ChecklistModel::sectionCell(const ChecklistSection &section, int column, int role) const
{
    if (role == Qt::FontRole) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (role == Qt::BackgroundRole)
        return QColor(128, 128, 128, 40);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (column == Question)
        return QString::fromStdString(section.title);
    const int v = vendorAt(column);
    if (v < 0)
        return {};
    const ChecklistProgress p = vendorProgress(m_tmpl, m_checklist.vendors[std::size_t(v)], section.id);
    return tr("%1/%2 answered").arg(p.answered).arg(p.items);
}

QVariant ChecklistModel::itemCell(const ChecklistItem &item, int column, int role) const
{
    const bool required = item.requiredFor(m_commitment);
    if (column == Question) {
        if (role == Qt::DisplayRole)
            return QString::fromStdString(item.question);
        if (role == Qt::ToolTipRole)
            return tr("<b>%1</b><br>%2<br><i>%3</i><br>Evidence: %4")
                .arg(QString::fromStdString(item.id).toHtmlEscaped(), QString::fromStdString(item.question).toHtmlEscaped(),
                     QString::fromStdString(item.questionEs).toHtmlEscaped(), QString::fromStdString(item.evidence).toHtmlEscaped());
        return {};
    }
    if (column == RequiredFrom) {
        if (role == Qt::DisplayRole)
            return commitmentWords(item.requiredFrom);
        if (role == Qt::FontRole && required) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        if (role == Qt::ToolTipRole)
            return required ? tr("Required at the %1 commitment").arg(commitmentWords(m_commitment).toLower())
                            : tr("Required from a %1 commitment on").arg(commitmentWords(item.requiredFrom).toLower());
        return {};
    }
    const int v = vendorAt(column);
    if (v < 0)
        return {};
    const VendorAnswer *a = m_checklist.vendors[std::size_t(v)].answer(item.id);
    const Standing s = standing(item, a, m_commitment);
    const bool gap = s == Standing::Missing, unbacked = s == Standing::Unbacked;
    switch (role) {
    case Qt::DisplayRole: {
        if (!a)
            return gap ? tr("— missing") : QString();
        QString text = answerWords(a->answer);
        if (a->file)
            text += tr(" · file");
        else if (!a->link.empty())
            text += tr(" · link");
        return text;
    }
    case Qt::BackgroundRole:
        if (gap)
            return QColor(220, 50, 47, 70);
        if (unbacked)
            return QColor(230, 160, 0, 70);
        return {};
    case Qt::ToolTipRole: {
        if (!a)
            return gap ? tr("Required at this commitment and not answered") : tr("Not answered (Y, N, P, U or A answers it)");
        QString tip = tr("<b>%1</b>").arg(answerWords(a->answer));
        if (!a->text.empty())
            tip += QStringLiteral("<br>") + QString::fromStdString(a->text).toHtmlEscaped();
        if (!a->link.empty())
            tip += tr("<br>Evidence: %1").arg(QString::fromStdString(a->link).toHtmlEscaped());
        if (a->file)
            tip += tr("<br>File: %1 (%2 bytes, SHA-256 %3)")
                       .arg(QString::fromStdString(a->file->name).toHtmlEscaped())
                       .arg(a->file->bytes)
                       .arg(QString::fromStdString(a->file->sha256.substr(0, 16)) + QStringLiteral("…"));
        if (!a->answeredOn.empty() || !a->answeredBy.empty())
            tip += tr("<br>Answered %1 %2").arg(QString::fromStdString(a->answeredOn),
                                                 a->answeredBy.empty() ? QString() : tr("by %1").arg(QString::fromStdString(a->answeredBy).toHtmlEscaped()));
        if (unbacked)
            tip += tr("<br><i>A %1 needs evidence for this answer: a link or a file (or, for not applicable, the "
                      "reason in the text).</i>")
                       .arg(commitmentWords(m_commitment).toLower());
        return tip;
    }
    default: return {};
    }
}

QVariant ChecklistModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        if (section == Question)
            return tr("Question");
        if (section == RequiredFrom)
            return tr("Required from");
        const int v = vendorAt(section);
        if (v < 0)
            return {};
        const Vendor &vendor = m_checklist.vendors[std::size_t(v)];
        const ChecklistProgress p = vendorProgress(m_tmpl, vendor);
        const VendorGaps gaps = vendorGaps(m_tmpl, vendor, m_commitment);
        // A long name is cut (the tooltip has it whole) so that four vendors fit beside the questions.
        QString name = QString::fromStdString(vendor.name);
        if (name.size() > 19)
            name = name.left(18) + QStringLiteral("…");
        return tr("%1\n%2/%3 answered\n%4 required open")
            .arg(name)
            .arg(p.answered)
            .arg(p.items)
            .arg(gaps.missing.size() + gaps.unbacked.size());
    }
    if (role == Qt::ToolTipRole && vendorAt(section) >= 0) {
        const Vendor &vendor = m_checklist.vendors[std::size_t(vendorAt(section))];
        QStringList providers;
        for (const std::string &p : vendor.providers)
            providers << QString::fromStdString(p);
        return tr("%1 (%2)\nBacks: %3\nContact: %4")
            .arg(QString::fromStdString(vendor.name), QString::fromStdString(std::string(enumName(vendor.offer))),
                 providers.isEmpty() ? tr("no price quote named") : providers.join(QStringLiteral(", ")),
                 vendor.contact.empty() ? tr("not given") : QString::fromStdString(vendor.contact));
    }
    return {};
}

} // namespace wb
