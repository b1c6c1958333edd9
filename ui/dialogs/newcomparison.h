// File > New: a short wizard that produces a complete brief for a comparison of any kind. The
// workload (kind first; a language model from the catalog or a Hugging Face config, or a media
// pipeline; precision; token lengths, a run's sequence, micro-batch and tokens, or an output's
// size and steps), then for a service its traffic and latency targets, for a run its campaign and
// dataset; acceptance and the decision inputs (data boundary, demand, model churn, who runs the
// platform or watches the run), then the candidates, picked from the catalog and each sized by the
// engine (the smallest count that holds the brief, on the recommended stack), and an optional
// model-API quote in the unit the kind bills by. Finish is offered only when the brief is complete
// and the engine accepts it; the error, if any, names the field.
#pragma once

#include <core/types.h>

#include <QJsonObject>
#include <QJsonValue>
#include <QWizard>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace wb {

class ApiQuoteForm;
class Catalog;
struct MediaModelSpec;
class NumberEdit;

class NewComparisonWizard : public QWizard
{
    Q_OBJECT

public:
    explicit NewComparisonWizard(const Catalog &catalog, QWidget *parent = nullptr);

    // The brief the answers give (valid once the wizard is accepted), and its name.
    QString briefJson() const;
    QString name() const;

    // For tests that drive it as a person would.
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QComboBox *modelBox() const { return m_model; }
    QComboBox *pipelineBox() const { return m_pipeline; }
    NumberEdit *sequenceBox() const { return m_sequence; }
    NumberEdit *microBatchBox() const { return m_microBatch; }
    NumberEdit *trainingTokensBox() const { return m_trainingTokens; }
    NumberEdit *loraRankBox() const { return m_loraRank; }
    NumberEdit *widthBox() const { return m_width; }
    NumberEdit *heightBox() const { return m_height; }
    NumberEdit *framesBox() const { return m_frames; }
    NumberEdit *stepsBox() const { return m_steps; }
    NumberEdit *e2eBox() const { return m_e2e; }
    NumberEdit *runsPerYearBox() const { return m_runsPerYear; }
    NumberEdit *datasetBox() const { return m_dataset; }
    QComboBox *datasetLocationBox() const { return m_datasetLocation; }
    QComboBox *precisionBox() const { return m_precision; }
    NumberEdit *inputBox() const { return m_input; }
    NumberEdit *outputBox() const { return m_output; }
    NumberEdit *inputP95Box() const { return m_inputP95; }
    NumberEdit *outputP95Box() const { return m_outputP95; }
    NumberEdit *rateBox() const { return m_rate; }
    NumberEdit *ttftBox() const { return m_ttft; }
    NumberEdit *tpotBox() const { return m_tpot; }
    NumberEdit *qualityBox() const { return m_quality; }
    NumberEdit *failureBox() const { return m_failure; }
    QComboBox *apiAllowedBox() const { return m_apiAllowed; }
    QLineEdit *gpuFilter() const { return m_filter; }
    QListWidget *gpuList() const { return m_gpus; }
    QGroupBox *apiGroup() const { return m_apiGroup; }
    ApiQuoteForm *apiForm() const { return m_api; }
    QLabel *problemLabel() const { return m_problem; }
    // Imports a Hugging Face config.json as the model (what the Import button does after its
    // file dialog); the error names the file.
    std::optional<QString> importHfConfig(const QString &path);

    enum PageId { WorkloadPage, TrafficPage, RunsPage, DecisionPage, CandidatesPage };
    int nextId() const override;
    void reject() override;  // asks before answers typed are thrown away

private:
    WorkloadKind kind() const;
    bool serves() const;  // a service (traffic and latency), not a run
    bool runs() const { return !serves(); }
    const MediaModelSpec *pipeline() const;
    void kindChanged();   // shows the rows the kind asks for, in its words
    QJsonValue modelValue() const;
    QJsonObject briefObject() const;  // the brief the answers give, without its candidates
    bool checkWorkload();  // a catalog id, or an imported model's object; null: none
    bool validateCurrentPage() override;
    bool eventFilter(QObject *watched, QEvent *event) override;

    const Catalog &m_catalog;
    QLineEdit *m_name = nullptr;
    QComboBox *m_kind = nullptr;
    QComboBox *m_model = nullptr;
    QComboBox *m_pipeline = nullptr;
    QComboBox *m_precision = nullptr;
    NumberEdit *m_sequence = nullptr;
    NumberEdit *m_microBatch = nullptr;
    NumberEdit *m_trainingTokens = nullptr;
    NumberEdit *m_loraRank = nullptr;
    NumberEdit *m_width = nullptr;
    NumberEdit *m_height = nullptr;
    NumberEdit *m_frames = nullptr;
    NumberEdit *m_steps = nullptr;
    NumberEdit *m_e2e = nullptr;
    NumberEdit *m_runsPerYear = nullptr;
    NumberEdit *m_dataset = nullptr;
    QComboBox *m_datasetLocation = nullptr;
    NumberEdit *m_input = nullptr;
    NumberEdit *m_output = nullptr;
    NumberEdit *m_inputP95 = nullptr;
    NumberEdit *m_outputP95 = nullptr;
    NumberEdit *m_rate = nullptr;
    NumberEdit *m_ttft = nullptr;
    NumberEdit *m_tpot = nullptr;
    NumberEdit *m_quality = nullptr;
    NumberEdit *m_failure = nullptr;
    QComboBox *m_apiAllowed = nullptr;
    QComboBox *m_demand = nullptr;
    QComboBox *m_churn = nullptr;
    NumberEdit *m_fte = nullptr;
    QLineEdit *m_filter = nullptr;
    QListWidget *m_gpus = nullptr;
    QGroupBox *m_apiGroup = nullptr;
    ApiQuoteForm *m_api = nullptr;
    QLabel *m_problem = nullptr;
    QString m_importedModel;  // the brief's model value from a Hugging Face config, when imported
    QString m_brief;          // built by the last page's check
    bool m_touched = false;   // something was typed or picked
};

} // namespace wb
