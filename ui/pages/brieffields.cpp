#include "pages/brieffields.h"

#include "pages/briefform.h"
#include "parts/words.h"

#include <core/assumptions.h>
#include <core/limits.h>
#include <catalog/catalog.h>
#include <catalog/modelarch.h>

#include <QJsonDocument>
#include <QLocale>

#include <cmath>

namespace wb::brieffields {

QString jsonNumber(double v)
{
    return QString::number(v, 'g', 12);
}

// A number the brief may leave unstated. Beside the other overload, not in the anonymous
// namespace, where it would hide it (and call itself through optional's converting constructor).
static QString jsonNumber(const std::optional<double> &v)
{
    return v ? jsonNumber(*v) : QStringLiteral("null");
}

namespace {

QString jsonString(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (QChar c : s) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        out += c;
    }
    return out + u'"';
}

QString jsonBool(bool v)
{
    return v ? QStringLiteral("true") : QStringLiteral("false");
}

template<typename E>
QString jsonEnum(E value)
{
    return jsonString(QString::fromLatin1(enumName(value).data()));
}

template<typename E>
Choices enumChoices()
{
    Choices out;
    for (const auto &[value, name] : EnumNames<E>::items) {
        out.append({words(name), jsonString(QString::fromLatin1(name.data(), qsizetype(name.size())))});
    }
    return out;
}

Choices yesNo(const QString &yes, const QString &no)
{
    return {{yes, QStringLiteral("true")}, {no, QStringLiteral("false")}};
}

// What switching bursts on writes: a 3x burst for 20 s every 5 minutes, to be edited.
const QString kDefaultBursts = QStringLiteral(R"({"multiplier": 3, "duration_s": 20, "period_s": 300})");
// A billing model as first chosen: its fields start at values the person then sets (shown, not
// hidden defaults).
const QString kBillingAlwaysOn = QStringLiteral(R"({"model": "always-on"})");
const QString kBillingScheduled = QStringLiteral(R"({"model": "scheduled", "hours_per_day": 8, "days_per_month": 30})");
const QString kBillingAutoscaled = QStringLiteral(R"({"model": "autoscaled", "min_replicas": 1})");
const QString kBillingServerless = QStringLiteral(R"({"model": "serverless"})");

bool inference(const Brief &b) { return isInference(b.workload.kind); }
bool trainingKind(const Brief &b) { return isTraining(b.workload.kind) || isAdapter(b.workload.kind); }
bool media(const Brief &b) { return b.workload.media.has_value(); }
bool video(const Brief &b) { return media(b) && b.workload.media->model.video; }
bool languageModel(const Brief &b) { return !media(b); }
// Requests arrive and are answered: serving and media generation.
bool serves(const Brief &b) { return inference(b) || media(b); }
bool realtime(const Brief &b) { return b.workload.kind == WorkloadKind::RealtimeInference; }
bool openLoop(const Brief &b) { return serves(b) && b.workload.traffic.mode == TrafficMode::OpenLoop; }
bool bursting(const Brief &b) { return openLoop(b) && b.workload.traffic.burstMultiplier.has_value(); }
bool always(const Brief &) { return true; }
// Inference that generates an answer (an embedding's is one vector, with no output length).
bool generates(const Brief &b) { return inference(b) && b.workload.kind != WorkloadKind::Embedding; }

QString assumptionValue(const Brief &b, Assumption a)
{
    return b.assumptions.overridden(a) ? jsonNumber(b.assumptions.value(a)) : kUnset;
}
bool billedBy(const Brief &b, Billing model) { return inference(b) && b.cost.billing.given && b.cost.billing.model == model; }
bool scheduled(const Brief &b) { return billedBy(b, Billing::Scheduled); }
bool autoscaled(const Brief &b) { return billedBy(b, Billing::Autoscaled); }

template<typename F>
QString trainingValue(const Brief &b, F get)
{
    return b.workload.training ? get(*b.workload.training) : kUnset;
}

// A workload.media field as the brief states it ("null" where the model card's value was taken).
QString mediaValue(const Brief &b, const char *key, int MediaSpec::*member)
{
    const auto &m = b.workload.media;
    if (!m || std::find(m->defaulted.begin(), m->defaulted.end(), key) != m->defaulted.end())
        return kUnset;
    return jsonNumber(double((*m).*member));
}

} // namespace

std::vector<FieldSpec> fieldSpecs(const Catalog &catalog)
{
    using T = FieldSpec;
    Choices models;
    for (const ModelSpec &m : catalog.models())
        models.append({QString::fromStdString(m.name), jsonString(QString::fromStdString(m.id))});
    Choices precisions = enumChoices<Precision>();
    const AssumptionInfo *fte = &assumptionInfo(Assumption::PlatformFteSelfHosted);
    const QString notStated = BriefForm::tr("not stated");
    std::vector<FieldSpec> f;

    // Workload and model
    f.push_back({.group = Group::Workload, .label = BriefForm::tr("&Kind:"), .pointer = "/workload/kind",
                 .type = T::Choice, .choices = enumChoices<WorkloadKind>(),
                 .tip = BriefForm::tr("What the GPUs will do: each kind presses on memory, compute and the network "
                                      "differently"),
                 .applies = always, .value = [](const Brief &b) { return jsonEnum(b.workload.kind); }});
    f.push_back({.group = Group::Workload, .label = BriefForm::tr("&Model:"), .pointer = "/workload/model",
                 .type = T::Choice, .choices = models,
                 .tip = BriefForm::tr("The model sets the weights, the KV cache per token and the work per token"),
                 .applies = languageModel,
                 .value = [](const Brief &b) {
                     return b.workload.modelFromCatalog ? jsonString(QString::fromStdString(b.workload.model.id))
                                                        : QString();
                 }});
    f.push_back({.group = Group::Workload, .label = BriefForm::tr("&Weights:"),
                 .pointer = "/workload/weights_precision", .type = T::Choice, .choices = precisions,
                 .tip = BriefForm::tr("Storage of the weights; fp8 and fp4 need a GPU with that tensor path"),
                 .applies = always, .value = [](const Brief &b) { return jsonEnum(b.workload.weightsPrecision); }});
    f.push_back({.group = Group::Workload, .label = BriefForm::tr("KV cache:"),
                 .pointer = "/workload/kv_cache_precision", .type = T::Choice, .choices = precisions,
                 .tip = BriefForm::tr("Storage of the attention cache; fp8 halves it against bf16"), .applies = inference,
                 .value = [](const Brief &b) { return jsonEnum(b.workload.kvCachePrecision); }});

    // Context and outputs
    f.push_back({.group = Group::Context, .label = BriefForm::tr("&Input:"),
                 .pointer = "/workload/input_tokens", .type = T::Integer, .unit = BriefForm::tr(" tokens"),
                 .tip = BriefForm::tr("Mean prompt length: prefill work and KV cache per request"), .applies = inference,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.inputTokens); }});
    f.push_back({.group = Group::Context, .label = BriefForm::tr("Input p95:"),
                 .pointer = "/workload/input_tokens_p95", .type = T::Integer, .unit = BriefForm::tr(" tokens"),
                 .unsetText = notStated,
                 .tip = BriefForm::tr("The long prompts the memory fit must hold, not just the average"),
                 .applies = inference, .value = [](const Brief &b) { return jsonNumber(b.workload.inputTokensP95); }});
    f.push_back({.group = Group::Context, .label = BriefForm::tr("&Output:"),
                 .pointer = "/workload/output_tokens", .type = T::Integer, .unit = BriefForm::tr(" tokens"),
                 .tip = BriefForm::tr("Mean answer length: decode steps per request"), .applies = generates,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.outputTokens); }});
    f.push_back({.group = Group::Context, .label = BriefForm::tr("Output p95:"),
                 .pointer = "/workload/output_tokens_p95", .type = T::Integer, .unit = BriefForm::tr(" tokens"),
                 .unsetText = notStated,
                 .tip = BriefForm::tr("Long answers hold their KV cache and their batch slot longer"), .applies = generates,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.outputTokensP95); }});

    // Media generation: the pipeline and one output.
    Choices pipelines;
    for (const MediaModelSpec &m : catalog.mediaModels())
        pipelines.append({QString::fromStdString(m.name), jsonString(QString::fromStdString(m.id))});
    const QString modelCard = BriefForm::tr("the model card's");
    f.push_back({.group = Group::Media, .label = BriefForm::tr("&Pipeline:"),
                 .pointer = "/workload/media/model", .type = T::Choice, .choices = pipelines,
                 .tip = BriefForm::tr("The diffusion pipeline: its denoiser, text encoders and VAE set the memory and "
                                      "the work per output"),
                 .applies = media,
                 .value = [](const Brief &b) {
                     return media(b) ? jsonString(QString::fromStdString(b.workload.media->model.id)) : kUnset;
                 }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("Width:"), .pointer = "/workload/media/width",
                 .type = T::Integer, .unit = BriefForm::tr(" px"), .unsetText = modelCard,
                 .tip = BriefForm::tr("Output width: the work per step grows with the pixels (faster for attention)"),
                 .applies = media, .value = [](const Brief &b) { return mediaValue(b, "width", &MediaSpec::width); }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("Height:"), .pointer = "/workload/media/height",
                 .type = T::Integer, .unit = BriefForm::tr(" px"), .unsetText = modelCard,
                 .tip = BriefForm::tr("Output height"), .applies = media,
                 .value = [](const Brief &b) { return mediaValue(b, "height", &MediaSpec::height); }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("Frames:"), .pointer = "/workload/media/frames",
                 .type = T::Integer, .unit = BriefForm::tr(" frames"), .unsetText = modelCard,
                 .tip = BriefForm::tr("Frames of a clip: the tokens of a pass grow with them"), .applies = video,
                 .value = [](const Brief &b) { return mediaValue(b, "frames", &MediaSpec::frames); }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("&Steps:"), .pointer = "/workload/media/steps",
                 .type = T::Integer, .unit = BriefForm::tr(" steps"), .unsetText = modelCard,
                 .tip = BriefForm::tr("Denoising steps: each is one pass of the denoiser (two under guidance)"),
                 .applies = media, .value = [](const Brief &b) { return mediaValue(b, "steps", &MediaSpec::steps); }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("Guidance:"),
                 .pointer = "/workload/media/guidance", .type = T::Choice,
                 .choices = yesNo(BriefForm::tr("classifier-free (two passes a step)"),
                                  BriefForm::tr("none (one pass a step)")),
                 .tip = BriefForm::tr("Classifier-free guidance doubles the passes, unless the model is "
                                      "guidance-distilled"),
                 .applies = media,
                 .value = [](const Brief &b) {
                     return media(b) ? QString(b.workload.media->guidance ? QStringLiteral("true") : QStringLiteral("false"))
                                     : kUnset;
                 }});
    f.push_back({.group = Group::Media, .label = BriefForm::tr("Batch:"),
                 .pointer = "/workload/media/batch_size", .type = T::Integer, .unit = BriefForm::tr(" outputs"),
                 .unsetText = BriefForm::tr("the largest that fits"), .tip = BriefForm::tr("Outputs denoised together"),
                 .applies = media,
                 .value = [](const Brief &b) {
                     return media(b) && b.workload.media->batchSize ? jsonNumber(double(*b.workload.media->batchSize)) : kUnset;
                 }});

    // Training set-up
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Sequence length:"),
                 .pointer = "/workload/training/sequence_length", .type = T::Integer, .unit = BriefForm::tr(" tokens"),
                 .tip = BriefForm::tr("Tokens per training sequence: activations grow with it"), .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.sequenceLength); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Micro-batch:"),
                 .pointer = "/workload/training/micro_batch_size", .type = T::Integer, .unit = BriefForm::tr(" sequences"),
                 .tip = BriefForm::tr("Sequences per GPU per micro-step"), .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.microBatchSize); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Tokens to train on:"),
                 .pointer = "/workload/training/tokens", .type = T::Real, .unit = BriefForm::tr(" M tokens"), .scale = 1e-6,
                 .unsetText = notStated,
                 .tip = BriefForm::tr("Total tokens of the run: its time and cost follow from them"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.tokens); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Global batch:"),
                 .pointer = "/workload/training/global_batch_tokens", .type = T::Real, .unit = BriefForm::tr(" k tokens"),
                 .scale = 1e-3, .unsetText = notStated,
                 .tip = BriefForm::tr("Tokens per optimizer step across all GPUs (sets gradient accumulation)"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.globalBatchTokens); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Optimizer:"),
                 .pointer = "/workload/training/optimizer", .type = T::Choice, .choices = enumChoices<Optimizer>(),
                 .tip = BriefForm::tr("AdamW keeps two fp32 moments per trained parameter; 8-bit AdamW two bytes"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.optimizer); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Optimizer states:"),
                 .pointer = "/workload/training/optimizer_placement", .type = T::Choice,
                 .choices = enumChoices<OptimizerPlacement>(),
                 .tip = BriefForm::tr("Where the optimizer states live: GPU memory, host memory (offload) or paged"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.optimizerPlacement); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Sharding:"),
                 .pointer = "/workload/training/sharding", .type = T::Choice, .choices = enumChoices<Sharding>(),
                 .tip = BriefForm::tr("ZeRO / FSDP split optimizer states, gradients and weights over GPUs"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.sharding); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Recompute:"),
                 .pointer = "/workload/training/activation_recompute", .type = T::Choice,
                 .choices = enumChoices<Recompute>(),
                 .tip = BriefForm::tr("Recomputing activations trades compute for memory"), .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.recompute); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Master weights:"),
                 .pointer = "/workload/training/master_weights", .type = T::Choice,
                 .choices = yesNo(BriefForm::tr("fp32 copy (mixed precision)"), BriefForm::tr("none (pure bf16)")),
                 .tip = BriefForm::tr("Mixed precision keeps an fp32 copy of the trained weights"), .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonBool(t.masterWeights); });
                 }});
    const auto adapter = [](const Brief &b) { return isAdapter(b.workload.kind); };
    f.push_back({.group = Group::Training, .label = BriefForm::tr("LoRA rank:"),
                 .pointer = "/workload/training/lora_rank", .type = T::Integer,
                 .tip = BriefForm::tr("Rank of the adapter matrices: their parameters and optimizer states"),
                 .applies = adapter,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.loraRank); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("LoRA targets:"),
                 .pointer = "/workload/training/lora_targets", .type = T::Choice, .choices = enumChoices<LoraTargets>(),
                 .tip = BriefForm::tr("Which linear layers carry adapters"), .applies = adapter,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.loraTargets); });
                 }});
    // Checkpoints and failures (performance/training.h); unstated: the named defaults.
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Checkpoint writes:"),
                 .pointer = "/workload/training/checkpoint/storage_write_bytes_per_s", .type = T::Real,
                 .unit = BriefForm::tr(" GB/s"), .scale = 1e-9,
                 .unsetText = BriefForm::tr("0.2 GB/s per GPU"),
                 .tip = BriefForm::tr("The storage's write bandwidth for the whole job: how long each checkpoint "
                                      "stalls training"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.storageWriteBytesPerS); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Checkpoint reads:"),
                 .pointer = "/workload/training/checkpoint/storage_read_bytes_per_s", .type = T::Real,
                 .unit = BriefForm::tr(" GB/s"), .scale = 1e-9,
                 .unsetText = BriefForm::tr("0.3 GB/s per GPU"),
                 .tip = BriefForm::tr("The storage's read bandwidth for the whole job: part of every restart"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.storageReadBytesPerS); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Checkpoint every:"),
                 .pointer = "/workload/training/checkpoint/interval_s", .type = T::Real, .unit = BriefForm::tr(" min"),
                 .scale = 1.0 / 60, .unsetText = BriefForm::tr("the least wasteful"),
                 .tip = BriefForm::tr("Time between checkpoints; unstated, the interval that wastes least for this "
                                      "job's failure rate (Daly)"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.intervalS); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Restart takes:"),
                 .pointer = "/workload/training/checkpoint/restart_s", .type = T::Real, .unit = BriefForm::tr(" s"),
                 .unsetText = BriefForm::tr("10 min + the read"),
                 .tip = BriefForm::tr("From an interruption to the restarted job reading its checkpoint (detection, "
                                      "rescheduling, start-up); the read is added"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.restartS); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Interruptions:"),
                 .pointer = "/workload/training/interruptions_per_gpu_hour", .type = T::Real,
                 .unit = BriefForm::tr(" per million GPU-h"), .scale = 1e6,
                 .unsetText = BriefForm::tr("19.7 (Llama 3's cluster)"),
                 .tip = BriefForm::tr("Job interruptions per million GPU-hours; Llama 3 405B saw 19.7 on 16,384 H100s"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.interruptionsPerGpuHour); });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Runs a year:"),
                 .pointer = "/workload/training/runs_per_year", .type = T::Real, .unit = BriefForm::tr(" runs"),
                 .unsetText = BriefForm::tr("one run"),
                 .tip = BriefForm::tr("Runs like this one a year: a campaign shares a reservation's or purchase's term, "
                                      "so less of it idles; unstated, one run and the rest of the term is idle"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) { return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.runsPerYear); }); }});
    const auto hasDataset = [](const Brief &b) { return trainingKind(b) && b.workload.training && b.workload.training->datasetGb; };
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Dataset:"),
                 .pointer = "/workload/training/dataset/size_gb", .type = T::Real, .unit = BriefForm::tr(" GB"),
                 .unsetText = BriefForm::tr("not priced"),
                 .tip = BriefForm::tr("The training set's size: staged beside the GPUs for the run, and moved to them "
                                      "once a run unless it is already there"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) { return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.datasetGb); }); }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Dataset is:"),
                 .pointer = "/workload/training/dataset/location", .type = T::Choice,
                 .choices = {{BriefForm::tr("elsewhere (moved to the GPUs each run)"), QStringLiteral("\"elsewhere\"")},
                             {BriefForm::tr("already with the GPUs"), QStringLiteral("\"with-gpus\"")}},
                 .tip = BriefForm::tr("Where the training set is kept: moving it from another provider or site costs its "
                                      "transfer"),
                 .applies = hasDataset,
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) {
                         return t.datasetWithGpus ? QStringLiteral("\"with-gpus\"") : QStringLiteral("\"elsewhere\"");
                     });
                 }});
    f.push_back({.group = Group::Training, .label = BriefForm::tr("Transfer price:"),
                 .pointer = "/workload/training/dataset/transfer_usd_per_gb", .type = T::Real,
                 .unit = BriefForm::tr(" USD/GB"), .unsetText = BriefForm::tr("internet egress ($0.09/GB)"),
                 .tip = BriefForm::tr("What the dataset's home charges to send a GB out; unstated, egress_usd_per_gb "
                                      "(AWS's internet transfer out)"),
                 .applies = [hasDataset](const Brief &b) { return hasDataset(b) && !b.workload.training->datasetWithGpus; },
                 .value = [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.datasetTransferUsdPerGb); });
                 }});

    // Traffic and latency targets
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Traffic:"),
                 .pointer = "/workload/traffic/mode", .type = T::Choice, .choices = enumChoices<TrafficMode>(),
                 .tip = BriefForm::tr("offline: everything queued at once; closed-loop: a fixed number of users; "
                                      "open-loop: arrivals at a rate"),
                 .applies = serves, .value = [](const Brief &b) { return jsonEnum(b.workload.traffic.mode); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("&Request rate:"),
                 .pointer = "/workload/traffic/request_rate_per_s", .type = T::Real, .unit = BriefForm::tr(" requests/s"),
                 .tip = BriefForm::tr("Average open-loop arrival rate the service must carry"),
                 .applies = openLoop,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.requestRatePerS); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Concurrency:"),
                 .pointer = "/workload/traffic/concurrency", .type = T::Integer, .unit = BriefForm::tr(" requests"),
                 .tip = BriefForm::tr("Requests in flight at once (closed loop: each user waits for its answer)"),
                 .applies = [](const Brief &b) { return serves(b) && b.workload.traffic.mode == TrafficMode::ClosedLoop; },
                 .value = [](const Brief &b) {
                     return jsonNumber(b.workload.traffic.concurrency ? std::optional<double>(*b.workload.traffic.concurrency)
                                                                      : std::nullopt);
                 }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Burstiness:"),
                 .pointer = "/workload/traffic/burstiness", .type = T::Real,
                 .tip = BriefForm::tr("Shape of the gaps between arrivals: 1 is Poisson, below 1 burstier"),
                 .applies = openLoop, .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.burstiness); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Bursts:"),
                 .pointer = "/workload/traffic/bursts", .type = T::Choice,
                 .choices = {{BriefForm::tr("none"), kUnset}, {BriefForm::tr("periodic bursts"), kDefaultBursts}},
                 .tip = BriefForm::tr("Steady traffic with periodic bursts on top (a launch, the Monday morning peak)"),
                 .applies = openLoop,
                 .value = [](const Brief &b) { return b.workload.traffic.burstMultiplier ? kDefaultBursts : kUnset; }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Burst size:"),
                 .pointer = "/workload/traffic/bursts/multiplier", .type = T::Real, .unit = BriefForm::tr(" × the rate"),
                 .tip = BriefForm::tr("The arrival rate during a burst, as a multiple of the base rate"),
                 .applies = bursting,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.burstMultiplier); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Burst length:"),
                 .pointer = "/workload/traffic/bursts/duration_s", .type = T::Real, .unit = BriefForm::tr(" s"),
                 .tip = BriefForm::tr("How long each burst lasts"), .applies = bursting,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.burstDurationS); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Burst every:"),
                 .pointer = "/workload/traffic/bursts/period_s", .type = T::Real, .unit = BriefForm::tr(" s"),
                 .tip = BriefForm::tr("Time from the start of one burst to the next"), .applies = bursting,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.burstPeriodS); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("Peak to carry:"),
                 .pointer = "/workload/traffic/peak_request_rate_per_s", .type = T::Real,
                 .unit = BriefForm::tr(" requests/s"), .unsetText = BriefForm::tr("from the traffic"),
                 .tip = BriefForm::tr("The rate the replica count is sized for within the latency targets"),
                 .applies = openLoop,
                 .value = [](const Brief &b) { return jsonNumber(b.workload.traffic.peakRequestRatePerS); }});
    const QString noTarget = BriefForm::tr("no target");
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("TTFT p99 ≤:"),
                 .pointer = "/workload/slo/ttft_p99_s", .name = BriefForm::tr("TTFT p99 target"),
                 .type = T::Real, .unit = BriefForm::tr(" ms"), .scale = 1000,
                 .unsetText = noTarget, .tip = BriefForm::tr("99th-percentile time to first token the service must meet"),
                 .applies = realtime, .value = [](const Brief &b) { return jsonNumber(b.workload.slo.ttftP99S); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("TPOT p99 ≤:"),
                 .pointer = "/workload/slo/tpot_p99_s", .name = BriefForm::tr("TPOT p99 target"),
                 .type = T::Real, .unit = BriefForm::tr(" ms"), .scale = 1000,
                 .unsetText = noTarget, .tip = BriefForm::tr("99th-percentile time per output token after the first"),
                 .applies = realtime, .value = [](const Brief &b) { return jsonNumber(b.workload.slo.tpotP99S); }});
    f.push_back({.group = Group::Traffic, .label = BriefForm::tr("End to end p99 ≤:"),
                 .pointer = "/workload/slo/e2e_p99_s", .name = BriefForm::tr("End-to-end p99 target"),
                 .type = T::Real, .unit = BriefForm::tr(" s"),
                 .unsetText = noTarget,
                 .tip = BriefForm::tr("99th-percentile time from a request to its answer (the last token, the finished "
                                      "image or clip)"),
                 .applies = [](const Brief &b) { return realtime(b) || media(b); },
                 .value = [](const Brief &b) { return jsonNumber(b.workload.slo.e2eP99S); }});

    // Acceptance and quality
    const auto accepted = [](double Acceptance::*member) {
        return [member](const Brief &b) {
            return b.workload.acceptance.given ? jsonNumber(b.workload.acceptance.*member) : kUnset;
        };
    };
    f.push_back({.group = Group::Acceptance, .label = BriefForm::tr("Quality pass rate:"),
                 .pointer = "/workload/acceptance/quality_pass_rate", .type = T::Real, .unit = BriefForm::tr(" %"),
                 .scale = 100, .unsetText = notStated,
                 .tip = BriefForm::tr("Share of outputs that pass the quality filters: the denominator is accepted "
                                      "work"),
                 .applies = serves, .value = accepted(&Acceptance::qualityPassRate)});
    f.push_back({.group = Group::Acceptance, .label = BriefForm::tr("Failed requests:"),
                 .pointer = "/workload/acceptance/failure_rate", .type = T::Real, .unit = BriefForm::tr(" %"), .scale = 100,
                 .unsetText = notStated,
                 .tip = BriefForm::tr("Share of requests that fail and are retried at full cost"), .applies = serves,
                 .value = accepted(&Acceptance::failureRate)});

    // Data boundary and operating model
    const auto decided = [](auto get) {
        return [get](const Brief &b) { return b.cost.decision.given ? get(b.cost.decision) : kUnset; };
    };
    Choices api = {{notStated, kUnset}};
    api += yesNo(BriefForm::tr("yes, a model API may see the data"), BriefForm::tr("no, the data stays in-house"));
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Data boundary:"),
                 .pointer = "/cost/decision/api_allowed", .type = T::Choice, .choices = api,
                 .tip = BriefForm::tr("Whether the data may go to a third-party model API: that route is compared only "
                                      "if so"),
                 .applies = always, .value = decided([](const Decision &d) { return jsonBool(d.apiAllowed); })});
    Choices regions = {{BriefForm::tr("anywhere (no residency rule)"), kUnset}};
    regions += enumChoices<DataRegion>();
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Data must stay in:"),
                 .pointer = "/cost/decision/data_region", .type = T::Choice, .choices = regions,
                 .tip = BriefForm::tr("Residency: GPU offers and model APIs stated to run elsewhere are left out; those "
                                      "that do not say where they run are flagged"),
                 .applies = always,
                 .value = [](const Brief &b) {
                     return b.cost.decision.dataRegion ? jsonEnum(*b.cost.decision.dataRegion) : kUnset;
                 }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Hardware control:"),
                 .pointer = "/cost/decision/needs_hardware_control", .type = T::Choice,
                 .choices = yesNo(BriefForm::tr("needed (kernels, runtime, topology)"), BriefForm::tr("not needed")),
                 .tip = BriefForm::tr("Custom kernels, runtimes or topology keep the GPU route open whatever the API "
                                      "costs"),
                 .applies = always, .value = decided([](const Decision &d) { return jsonBool(d.needsHardwareControl); })});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Demand certainty:"),
                 .pointer = "/cost/decision/demand_certainty", .type = T::Choice, .choices = enumChoices<Level>(),
                 .tip = BriefForm::tr("How sure the volume is over a reservation or purchase term"), .applies = always,
                 .value = decided([](const Decision &d) { return jsonEnum(d.demandCertainty); })});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Model churn:"),
                 .pointer = "/cost/decision/model_churn", .type = T::Choice, .choices = enumChoices<Level>(),
                 .tip = BriefForm::tr("How often the model is expected to change (bought hardware outlives it)"),
                 .applies = always, .value = decided([](const Decision &d) { return jsonEnum(d.modelChurn); })});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Spot interruptions:"),
                 .pointer = "/cost/decision/interruptions_acceptable", .type = T::Choice,
                 .choices = Choices{{BriefForm::tr("not stated (acceptable only without a latency target)"), kUnset}}
                            + yesNo(BriefForm::tr("acceptable (work is retried)"), BriefForm::tr("not acceptable")),
                 .tip = BriefForm::tr("Whether the service tolerates spot GPUs taken back mid-request; spot is "
                                      "recommended only if so"),
                 .applies = inference,
                 .value = [](const Brief &b) {
                     const auto &v = b.cost.decision.interruptionsAcceptable;
                     return v ? jsonBool(*v) : kUnset;
                 }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Rented GPUs billed:"),
                 .pointer = "/cost/billing", .type = T::Choice,
                 .choices = {{BriefForm::tr("not stated (always on)"), kUnset},
                             {BriefForm::tr("always on, at the peak's capacity"), kBillingAlwaysOn},
                             {BriefForm::tr("in a scheduled window"), kBillingScheduled},
                             {BriefForm::tr("autoscaled with the load"), kBillingAutoscaled},
                             {BriefForm::tr("serverless, per second of use"), kBillingServerless}},
                 .tip = BriefForm::tr("How on-demand and spot GPUs are paid for; reservations and purchases are paid "
                                      "every hour"),
                 .applies = inference,
                 .value = [](const Brief &b) {
                     if (!b.cost.billing.given)
                         return kUnset;
                     switch (b.cost.billing.model) {
                     case Billing::Scheduled: return kBillingScheduled;
                     case Billing::Autoscaled: return kBillingAutoscaled;
                     case Billing::Serverless: return kBillingServerless;
                     case Billing::AlwaysOn: break;
                     }
                     return kBillingAlwaysOn;
                 }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Window hours a day:"),
                 .pointer = "/cost/billing/hours_per_day", .type = T::Real, .unit = BriefForm::tr(" h"),
                 .tip = BriefForm::tr("Hours a day the work runs and rented GPUs are billed"), .applies = scheduled,
                 .value = [](const Brief &b) { return jsonNumber(b.cost.billing.hoursPerDay); }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Window days a month:"),
                 .pointer = "/cost/billing/days_per_month", .type = T::Real,
                 .tip = BriefForm::tr("Days a month the window runs"), .applies = scheduled,
                 .value = [](const Brief &b) { return jsonNumber(b.cost.billing.daysPerMonth); }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Minimum replicas:"),
                 .pointer = "/cost/billing/min_replicas", .type = T::Integer,
                 .tip = BriefForm::tr("Replicas kept running with no load (0: scale to zero)"), .applies = autoscaled,
                 .value = [](const Brief &b) { return jsonNumber(double(b.cost.billing.minReplicas)); }});
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Requests a month:"),
                 .pointer = "/cost/requests_per_month", .type = T::Real, .unit = BriefForm::tr(" M"), .scale = 1e-6,
                 .unsetText = BriefForm::tr("from the request rate"),
                 .tip = BriefForm::tr("Monthly volume for the cost per accepted output, when the traffic does not "
                                      "imply one"),
                 .applies = inference, .value = [](const Brief &b) { return jsonNumber(b.cost.requestsPerMonth); }});
    // The engineers each kind's cost reads: a service's platform team a month, or those watching
    // a run while it runs.
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Platform engineers:"),
                 .pointer = "/assumptions/platform_fte_self_hosted", .type = T::Real, .unit = BriefForm::tr(" FTE"),
                 .unsetText = BriefForm::tr("not stated (%1 assumed)").arg(fte ? fte->defaultValue : 0),
                 .tip = BriefForm::tr("Who runs drivers, model servers, autoscaling and on-call for self-hosted GPUs"),
                 .applies = [](const Brief &b) { return !trainingKind(b); },
                 .value = [](const Brief &b) { return assumptionValue(b, Assumption::PlatformFteSelfHosted); }});
    const AssumptionInfo *runFte = &assumptionInfo(Assumption::TrainingPlatformFte);
    f.push_back({.group = Group::Operations, .label = BriefForm::tr("Engineers on a run:"),
                 .pointer = "/assumptions/training_platform_fte", .type = T::Real, .unit = BriefForm::tr(" FTE"),
                 .unsetText = BriefForm::tr("not stated (%1 assumed)").arg(runFte ? runFte->defaultValue : 0),
                 .tip = BriefForm::tr("Who watches the run and handles its restarts while it runs, priced for the "
                                      "run's length"),
                 .applies = trainingKind,
                 .value = [](const Brief &b) { return assumptionValue(b, Assumption::TrainingPlatformFte); }});
    return f;
}

QString groupTitle(Group g)
{
    switch (g) {
    case Group::Workload: return BriefForm::tr("Workload and model");
    case Group::Context: return BriefForm::tr("Context and outputs");
    case Group::Media: return BriefForm::tr("Image or clip");
    case Group::Training: return BriefForm::tr("Training set-up");
    case Group::Traffic: return BriefForm::tr("Traffic and latency targets");
    case Group::Acceptance: return BriefForm::tr("Acceptance and quality");
    case Group::Operations: return BriefForm::tr("Data boundary and operating model");
    }
    return {};
}

QString plainLabel(const FieldSpec &f)
{
    return !f.name.isEmpty() ? f.name : QString(f.label).remove(u'&').remove(u':');
}

} // namespace wb::brieffields
