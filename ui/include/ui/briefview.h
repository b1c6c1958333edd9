// Read-only summary of a brief in the seed's order: workload and model; context and outputs;
// traffic and latency targets; acceptance. The editable form is a later issue.
#pragma once

#include <QWidget>

class QLabel;

namespace wb {

struct Brief;

class BriefView : public QWidget
{
    Q_OBJECT

public:
    explicit BriefView(QWidget *parent = nullptr);
    void setBrief(const Brief *brief);

private:
    QLabel *m_text = nullptr;
};

} // namespace wb
