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
    f.push_back({Group::Workload, BriefForm::tr("&Kind:"), "/workload/kind", T::Choice, {}, 1, 0, 0, 0, {},
                 enumChoices<WorkloadKind>(),
                 BriefForm::tr("What the GPUs will do: each kind presses on memory, compute and the network differently"),
                 always, [](const Brief &b) { return jsonEnum(b.workload.kind); }});
    f.push_back({Group::Workload, BriefForm::tr("&Model:"), "/workload/model", T::Choice, {}, 1, 0, 0, 0, {}, models,
                 BriefForm::tr("The model sets the weights, the KV cache per token and the work per token"), languageModel,
                 [](const Brief &b) {
                     return b.workload.modelFromCatalog ? jsonString(QString::fromStdString(b.workload.model.id))
                                                        : QString();
                 }});
    f.push_back({Group::Workload, BriefForm::tr("&Weights:"), "/workload/weights_precision", T::Choice, {}, 1, 0, 0, 0, {},
                 precisions, BriefForm::tr("Storage of the weights; fp8 and fp4 need a GPU with that tensor path"), always,
                 [](const Brief &b) { return jsonEnum(b.workload.weightsPrecision); }});
    f.push_back({Group::Workload, BriefForm::tr("KV cache:"), "/workload/kv_cache_precision", T::Choice, {}, 1, 0, 0, 0, {},
                 precisions, BriefForm::tr("Storage of the attention cache; fp8 halves it against bf16"), inference,
                 [](const Brief &b) { return jsonEnum(b.workload.kvCachePrecision); }});

    // Context and outputs
    f.push_back({Group::Context, BriefForm::tr("&Input:"), "/workload/input_tokens", T::Integer, BriefForm::tr(" tokens"), 1, 1, 1e8, 0,
                 {}, {}, BriefForm::tr("Mean prompt length: prefill work and KV cache per request"), inference,
                 [](const Brief &b) { return jsonNumber(b.workload.inputTokens); }});
    f.push_back({Group::Context, BriefForm::tr("Input p95:"), "/workload/input_tokens_p95", T::Integer, BriefForm::tr(" tokens"), 1, 1,
                 1e8, 0, notStated, {}, BriefForm::tr("The long prompts the memory fit must hold, not just the average"),
                 inference, [](const Brief &b) { return jsonNumber(b.workload.inputTokensP95); }});
    f.push_back({Group::Context, BriefForm::tr("&Output:"), "/workload/output_tokens", T::Integer, BriefForm::tr(" tokens"), 1, 0, 1e8,
                 0, {}, {}, BriefForm::tr("Mean answer length: decode steps per request"), inference,
                 [](const Brief &b) { return jsonNumber(b.workload.outputTokens); }});
    f.push_back({Group::Context, BriefForm::tr("Output p95:"), "/workload/output_tokens_p95", T::Integer, BriefForm::tr(" tokens"), 1,
                 1, 1e8, 0, notStated, {}, BriefForm::tr("Long answers hold their KV cache and their batch slot longer"),
                 inference, [](const Brief &b) { return jsonNumber(b.workload.outputTokensP95); }});

    // Media generation: the pipeline and one output.
    Choices pipelines;
    for (const MediaModelSpec &m : catalog.mediaModels())
        pipelines.append({QString::fromStdString(m.name), jsonString(QString::fromStdString(m.id))});
    const QString modelCard = BriefForm::tr("the model card's");
    f.push_back({Group::Media, BriefForm::tr("&Pipeline:"), "/workload/media/model", T::Choice, {}, 1, 0, 0, 0, {}, pipelines,
                 BriefForm::tr("The diffusion pipeline: its denoiser, text encoders and VAE set the memory and the work per "
                               "output"),
                 media, [](const Brief &b) { return media(b) ? jsonString(QString::fromStdString(b.workload.media->model.id)) : kUnset; }});
    f.push_back({Group::Media, BriefForm::tr("Width:"), "/workload/media/width", T::Integer, BriefForm::tr(" px"), 1, 64, 8192, 0,
                 modelCard, {}, BriefForm::tr("Output width: the work per step grows with the pixels (faster for attention)"),
                 media, [](const Brief &b) { return mediaValue(b, "width", &MediaSpec::width); }});
    f.push_back({Group::Media, BriefForm::tr("Height:"), "/workload/media/height", T::Integer, BriefForm::tr(" px"), 1, 64, 8192, 0,
                 modelCard, {}, BriefForm::tr("Output height"), media,
                 [](const Brief &b) { return mediaValue(b, "height", &MediaSpec::height); }});
    f.push_back({Group::Media, BriefForm::tr("Frames:"), "/workload/media/frames", T::Integer, BriefForm::tr(" frames"), 1, 1, 10000, 0,
                 modelCard, {}, BriefForm::tr("Frames of a clip: the tokens of a pass grow with them"), video,
                 [](const Brief &b) { return mediaValue(b, "frames", &MediaSpec::frames); }});
    f.push_back({Group::Media, BriefForm::tr("&Steps:"), "/workload/media/steps", T::Integer, BriefForm::tr(" steps"), 1, 1, 1000, 0,
                 modelCard, {}, BriefForm::tr("Denoising steps: each is one pass of the denoiser (two under guidance)"), media,
                 [](const Brief &b) { return mediaValue(b, "steps", &MediaSpec::steps); }});
    f.push_back({Group::Media, BriefForm::tr("Guidance:"), "/workload/media/guidance", T::Choice, {}, 1, 0, 0, 0, {},
                 yesNo(BriefForm::tr("classifier-free (two passes a step)"), BriefForm::tr("none (one pass a step)")),
                 BriefForm::tr("Classifier-free guidance doubles the passes, unless the model is guidance-distilled"), media,
                 [](const Brief &b) {
                     return media(b) ? QString(b.workload.media->guidance ? QStringLiteral("true") : QStringLiteral("false"))
                                     : kUnset;
                 }});
    f.push_back({Group::Media, BriefForm::tr("Batch:"), "/workload/media/batch_size", T::Integer, BriefForm::tr(" outputs"), 1, 1, 1024,
                 0, BriefForm::tr("the largest that fits"), {}, BriefForm::tr("Outputs denoised together"), media,
                 [](const Brief &b) {
                     return media(b) && b.workload.media->batchSize ? jsonNumber(double(*b.workload.media->batchSize)) : kUnset;
                 }});

    // Training set-up
    f.push_back({Group::Training, BriefForm::tr("Sequence length:"), "/workload/training/sequence_length", T::Integer,
                 BriefForm::tr(" tokens"), 1, 1, 1e8, 0, {}, {}, BriefForm::tr("Tokens per training sequence: activations grow with it"),
                 trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.sequenceLength); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Micro-batch:"), "/workload/training/micro_batch_size", T::Integer,
                 BriefForm::tr(" sequences"), 1, 1, 1e6, 0, {}, {}, BriefForm::tr("Sequences per GPU per micro-step"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.microBatchSize); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Tokens to train on:"), "/workload/training/tokens", T::Real,
                 BriefForm::tr(" M tokens"), 1e-6, 1, 1e15, 1, notStated, {},
                 BriefForm::tr("Total tokens of the run: its time and cost follow from them"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.tokens); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Global batch:"), "/workload/training/global_batch_tokens", T::Real,
                 BriefForm::tr(" k tokens"), 1e-3, 1, 1e12, 0, notStated, {},
                 BriefForm::tr("Tokens per optimizer step across all GPUs (sets gradient accumulation)"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.globalBatchTokens); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Optimizer:"), "/workload/training/optimizer", T::Choice, {}, 1, 0, 0, 0, {},
                 enumChoices<Optimizer>(), BriefForm::tr("AdamW keeps two fp32 moments per trained parameter; 8-bit AdamW two bytes"),
                 trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.optimizer); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Optimizer states:"), "/workload/training/optimizer_placement", T::Choice, {},
                 1, 0, 0, 0, {}, enumChoices<OptimizerPlacement>(),
                 BriefForm::tr("Where the optimizer states live: GPU memory, host memory (offload) or paged"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.optimizerPlacement); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Sharding:"), "/workload/training/sharding", T::Choice, {}, 1, 0, 0, 0, {},
                 enumChoices<Sharding>(), BriefForm::tr("ZeRO / FSDP split optimizer states, gradients and weights over GPUs"),
                 trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.sharding); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Recompute:"), "/workload/training/activation_recompute", T::Choice, {}, 1,
                 0, 0, 0, {}, enumChoices<Recompute>(), BriefForm::tr("Recomputing activations trades compute for memory"),
                 trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.recompute); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Master weights:"), "/workload/training/master_weights", T::Choice, {}, 1, 0,
                 0, 0, {}, yesNo(BriefForm::tr("fp32 copy (mixed precision)"), BriefForm::tr("none (pure bf16)")),
                 BriefForm::tr("Mixed precision keeps an fp32 copy of the trained weights"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonBool(t.masterWeights); });
                 }});
    const auto adapter = [](const Brief &b) { return isAdapter(b.workload.kind); };
    f.push_back({Group::Training, BriefForm::tr("LoRA rank:"), "/workload/training/lora_rank", T::Integer, {}, 1, 1, 65536, 0,
                 {}, {}, BriefForm::tr("Rank of the adapter matrices: their parameters and optimizer states"), adapter,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.loraRank); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("LoRA targets:"), "/workload/training/lora_targets", T::Choice, {}, 1, 0, 0,
                 0, {}, enumChoices<LoraTargets>(), BriefForm::tr("Which linear layers carry adapters"), adapter,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonEnum(t.loraTargets); });
                 }});
    // Checkpoints and failures (performance/training.h); unstated: the named defaults.
    f.push_back({Group::Training, BriefForm::tr("Checkpoint writes:"), "/workload/training/checkpoint/storage_write_bytes_per_s",
                 T::Real, BriefForm::tr(" GB/s"), 1e-9, 1e6, 1e14, 2, BriefForm::tr("0.2 GB/s per GPU"), {},
                 BriefForm::tr("The storage's write bandwidth for the whole job: how long each checkpoint stalls training"),
                 trainingKind, [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.storageWriteBytesPerS); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Checkpoint reads:"), "/workload/training/checkpoint/storage_read_bytes_per_s",
                 T::Real, BriefForm::tr(" GB/s"), 1e-9, 1e6, 1e14, 2, BriefForm::tr("0.3 GB/s per GPU"), {},
                 BriefForm::tr("The storage's read bandwidth for the whole job: part of every restart"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.storageReadBytesPerS); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Checkpoint every:"), "/workload/training/checkpoint/interval_s", T::Real,
                 BriefForm::tr(" min"), 1.0 / 60, 1, 1e7, 1, BriefForm::tr("the least wasteful"), {},
                 BriefForm::tr("Time between checkpoints; unstated, the interval that wastes least for this job's failure "
                               "rate (Daly)"),
                 trainingKind, [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.intervalS); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Restart takes:"), "/workload/training/checkpoint/restart_s", T::Real,
                 BriefForm::tr(" s"), 1, 0, 1e7, 0, BriefForm::tr("10 min + the read"), {},
                 BriefForm::tr("From an interruption to the restarted job reading its checkpoint (detection, rescheduling, "
                               "start-up); the read is added"),
                 trainingKind, [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.checkpoint.restartS); });
                 }});
    f.push_back({Group::Training, BriefForm::tr("Interruptions:"), "/workload/training/interruptions_per_gpu_hour", T::Real,
                 BriefForm::tr(" per million GPU-h"), 1e6, 0, 1, 1, BriefForm::tr("19.7 (Llama 3's cluster)"), {},
                 BriefForm::tr("Job interruptions per million GPU-hours; Llama 3 405B saw 19.7 on 16,384 H100s"), trainingKind,
                 [](const Brief &b) {
                     return trainingValue(b, [](const TrainingSpec &t) { return jsonNumber(t.interruptionsPerGpuHour); });
                 }});

    // Traffic and latency targets
    f.push_back({Group::Traffic, BriefForm::tr("Traffic:"), "/workload/traffic/mode", T::Choice, {}, 1, 0, 0, 0, {},
                 enumChoices<TrafficMode>(),
                 BriefForm::tr("offline: everything queued at once; closed-loop: a fixed number of users; open-loop: arrivals "
                    "at a rate"),
                 serves, [](const Brief &b) { return jsonEnum(b.workload.traffic.mode); }});
    f.push_back({Group::Traffic, BriefForm::tr("&Request rate:"), "/workload/traffic/request_rate_per_s", T::Real,
                 BriefForm::tr(" requests/s"), 1, 0.001, limits::kRequestRatePerS, 3, {}, {}, BriefForm::tr("Average open-loop arrival rate the service must carry"),
                 openLoop, [](const Brief &b) { return jsonNumber(b.workload.traffic.requestRatePerS); }});
    f.push_back({Group::Traffic, BriefForm::tr("Concurrency:"), "/workload/traffic/concurrency", T::Integer, BriefForm::tr(" requests"),
                 1, 1, limits::kConcurrency, 0, {}, {}, BriefForm::tr("Requests in flight at once (closed loop: each user waits for its answer)"),
                 [](const Brief &b) { return serves(b) && b.workload.traffic.mode == TrafficMode::ClosedLoop; },
                 [](const Brief &b) {
                     return jsonNumber(b.workload.traffic.concurrency ? std::optional<double>(*b.workload.traffic.concurrency)
                                                                      : std::nullopt);
                 }});
    f.push_back({Group::Traffic, BriefForm::tr("Burstiness:"), "/workload/traffic/burstiness", T::Real, {}, 1, 0.01, 100, 2,
                 {}, {}, BriefForm::tr("Shape of the gaps between arrivals: 1 is Poisson, below 1 burstier"), openLoop,
                 [](const Brief &b) { return jsonNumber(b.workload.traffic.burstiness); }});
    f.push_back({Group::Traffic, BriefForm::tr("Bursts:"), "/workload/traffic/bursts", T::Choice, {}, 1, 0, 0, 0, {},
                 {{BriefForm::tr("none"), kUnset}, {BriefForm::tr("periodic bursts"), kDefaultBursts}},
                 BriefForm::tr("Steady traffic with periodic bursts on top (a launch, the Monday morning peak)"), openLoop,
                 [](const Brief &b) { return b.workload.traffic.burstMultiplier ? kDefaultBursts : kUnset; }});
    f.push_back({Group::Traffic, BriefForm::tr("Burst size:"), "/workload/traffic/bursts/multiplier", T::Real,
                 BriefForm::tr(" × the rate"), 1, 1, 1000, 1, {}, {}, BriefForm::tr("The arrival rate during a burst, as a multiple of the base rate"),
                 bursting, [](const Brief &b) { return jsonNumber(b.workload.traffic.burstMultiplier); }});
    f.push_back({Group::Traffic, BriefForm::tr("Burst length:"), "/workload/traffic/bursts/duration_s", T::Real, BriefForm::tr(" s"), 1,
                 0.1, 1e7, 1, {}, {}, BriefForm::tr("How long each burst lasts"), bursting,
                 [](const Brief &b) { return jsonNumber(b.workload.traffic.burstDurationS); }});
    f.push_back({Group::Traffic, BriefForm::tr("Burst every:"), "/workload/traffic/bursts/period_s", T::Real, BriefForm::tr(" s"), 1, 0.1,
                 1e7, 1, {}, {}, BriefForm::tr("Time from the start of one burst to the next"), bursting,
                 [](const Brief &b) { return jsonNumber(b.workload.traffic.burstPeriodS); }});
    f.push_back({Group::Traffic, BriefForm::tr("Peak to carry:"), "/workload/traffic/peak_request_rate_per_s", T::Real,
                 BriefForm::tr(" requests/s"), 1, 0.001, limits::kRequestRatePerS, 3, BriefForm::tr("from the traffic"), {},
                 BriefForm::tr("The rate the replica count is sized for within the latency targets"), openLoop,
                 [](const Brief &b) { return jsonNumber(b.workload.traffic.peakRequestRatePerS); }});
    const QString noTarget = BriefForm::tr("no target");
    f.push_back({Group::Traffic, BriefForm::tr("TTFT p99 ≤:"), "/workload/slo/ttft_p99_s", T::Real, BriefForm::tr(" ms"), 1000, 0.001, 1e4, 0,
                 noTarget, {}, BriefForm::tr("99th-percentile time to first token the service must meet"), realtime,
                 [](const Brief &b) { return jsonNumber(b.workload.slo.ttftP99S); }});
    f.push_back({Group::Traffic, BriefForm::tr("TPOT p99 ≤:"), "/workload/slo/tpot_p99_s", T::Real, BriefForm::tr(" ms"), 1000, 0.001, 1e3, 0,
                 noTarget, {}, BriefForm::tr("99th-percentile time per output token after the first"), realtime,
                 [](const Brief &b) { return jsonNumber(b.workload.slo.tpotP99S); }});
    f.push_back({Group::Traffic, BriefForm::tr("End to end p99 ≤:"), "/workload/slo/e2e_p99_s", T::Real, BriefForm::tr(" s"), 1, 0.01, 1e6,
                 2, noTarget, {}, BriefForm::tr("99th-percentile time from a request to its answer (the last token, the "
                                               "finished image or clip)"),
                 [](const Brief &b) { return realtime(b) || media(b); },
                 [](const Brief &b) { return jsonNumber(b.workload.slo.e2eP99S); }});

    // Acceptance and quality
    const auto accepted = [](double Acceptance::*member) {
        return [member](const Brief &b) {
            return b.workload.acceptance.given ? jsonNumber(b.workload.acceptance.*member) : kUnset;
        };
    };
    f.push_back({Group::Acceptance, BriefForm::tr("Quality pass rate:"), "/workload/acceptance/quality_pass_rate", T::Real,
                 BriefForm::tr(" %"), 100, 0, 1, 1, notStated, {},
                 BriefForm::tr("Share of outputs that pass the quality filters: the denominator is accepted work"), serves,
                 accepted(&Acceptance::qualityPassRate)});
    f.push_back({Group::Acceptance, BriefForm::tr("Failed requests:"), "/workload/acceptance/failure_rate", T::Real, BriefForm::tr(" %"),
                 100, 0, 0.999, 1, notStated, {}, BriefForm::tr("Share of requests that fail and are retried at full cost"),
                 serves, accepted(&Acceptance::failureRate)});

    // Data boundary and operating model
    const auto decided = [](auto get) {
        return [get](const Brief &b) { return b.cost.decision.given ? get(b.cost.decision) : kUnset; };
    };
    Choices api = {{notStated, kUnset}};
    api += yesNo(BriefForm::tr("yes, a model API may see the data"), BriefForm::tr("no, the data stays in-house"));
    f.push_back({Group::Operations, BriefForm::tr("Data boundary:"), "/cost/decision/api_allowed", T::Choice, {}, 1, 0, 0, 0,
                 {}, api, BriefForm::tr("Whether the data may go to a third-party model API: that route is compared only if so"),
                 always, decided([](const Decision &d) { return jsonBool(d.apiAllowed); })});
    f.push_back({Group::Operations, BriefForm::tr("Hardware control:"), "/cost/decision/needs_hardware_control", T::Choice,
                 {}, 1, 0, 0, 0, {}, yesNo(BriefForm::tr("needed (kernels, runtime, topology)"), BriefForm::tr("not needed")),
                 BriefForm::tr("Custom kernels, runtimes or topology keep the GPU route open whatever the API costs"), always,
                 decided([](const Decision &d) { return jsonBool(d.needsHardwareControl); })});
    f.push_back({Group::Operations, BriefForm::tr("Demand certainty:"), "/cost/decision/demand_certainty", T::Choice, {}, 1, 0,
                 0, 0, {}, enumChoices<Level>(), BriefForm::tr("How sure the volume is over a reservation or purchase term"),
                 always, decided([](const Decision &d) { return jsonEnum(d.demandCertainty); })});
    f.push_back({Group::Operations, BriefForm::tr("Model churn:"), "/cost/decision/model_churn", T::Choice, {}, 1, 0, 0, 0, {},
                 enumChoices<Level>(), BriefForm::tr("How often the model is expected to change (bought hardware outlives it)"),
                 always, decided([](const Decision &d) { return jsonEnum(d.modelChurn); })});
    f.push_back({Group::Operations, BriefForm::tr("Spot interruptions:"), "/cost/decision/interruptions_acceptable", T::Choice,
                 {}, 1, 0, 0, 0, {},
                 Choices{{BriefForm::tr("not stated (acceptable only without a latency target)"), kUnset}}
                     + yesNo(BriefForm::tr("acceptable (work is retried)"), BriefForm::tr("not acceptable")),
                 BriefForm::tr("Whether the service tolerates spot GPUs taken back mid-request; spot is recommended only if so"),
                 inference, [](const Brief &b) {
                     const auto &v = b.cost.decision.interruptionsAcceptable;
                     return v ? jsonBool(*v) : kUnset;
                 }});
    f.push_back({Group::Operations, BriefForm::tr("Rented GPUs billed:"), "/cost/billing", T::Choice, {}, 1, 0, 0, 0, {},
                 {{BriefForm::tr("not stated (always on)"), kUnset},
                  {BriefForm::tr("always on, at the peak's capacity"), kBillingAlwaysOn},
                  {BriefForm::tr("in a scheduled window"), kBillingScheduled},
                  {BriefForm::tr("autoscaled with the load"), kBillingAutoscaled},
                  {BriefForm::tr("serverless, per second of use"), kBillingServerless}},
                 BriefForm::tr("How on-demand and spot GPUs are paid for; reservations and purchases are paid every hour"),
                 inference, [](const Brief &b) {
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
    f.push_back({Group::Operations, BriefForm::tr("Window hours a day:"), "/cost/billing/hours_per_day", T::Real, BriefForm::tr(" h"),
                 1, 0.1, 24, 1, {}, {}, BriefForm::tr("Hours a day the work runs and rented GPUs are billed"), scheduled,
                 [](const Brief &b) { return jsonNumber(b.cost.billing.hoursPerDay); }});
    f.push_back({Group::Operations, BriefForm::tr("Window days a month:"), "/cost/billing/days_per_month", T::Real, {}, 1, 0.1, 31,
                 1, {}, {}, BriefForm::tr("Days a month the window runs"), scheduled,
                 [](const Brief &b) { return jsonNumber(b.cost.billing.daysPerMonth); }});
    f.push_back({Group::Operations, BriefForm::tr("Minimum replicas:"), "/cost/billing/min_replicas", T::Integer, {}, 1, 0,
                 limits::kGpusPerCandidate, 0, {}, {}, BriefForm::tr("Replicas kept running with no load (0: scale to zero)"),
                 autoscaled, [](const Brief &b) { return jsonNumber(double(b.cost.billing.minReplicas)); }});
    f.push_back({Group::Operations, BriefForm::tr("Requests a month:"), "/cost/requests_per_month", T::Real, BriefForm::tr(" M"), 1e-6,
                 1, limits::kRequestsPerMonth, 3, BriefForm::tr("from the request rate"), {},
                 BriefForm::tr("Monthly volume for the cost per accepted output, when the traffic does not imply one"), inference,
                 [](const Brief &b) { return jsonNumber(b.cost.requestsPerMonth); }});
    f.push_back({Group::Operations, BriefForm::tr("Platform engineers:"), "/assumptions/platform_fte_self_hosted", T::Real,
                 BriefForm::tr(" FTE"), 1, fte ? fte->min : 0, fte ? fte->max : 1000, 2,
                 BriefForm::tr("not stated (%1 assumed)").arg(fte ? fte->defaultValue : 0),
                 {}, BriefForm::tr("Who runs drivers, model servers, autoscaling and on-call for self-hosted GPUs"), always,
                 [](const Brief &b) {
                     return b.assumptions.overridden(Assumption::PlatformFteSelfHosted)
                                ? jsonNumber(b.assumptions.value(Assumption::PlatformFteSelfHosted))
                                : kUnset;
                 }});
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
    return QString(f.label).remove(u'&').remove(u':');
}

} // namespace wb::brieffields
