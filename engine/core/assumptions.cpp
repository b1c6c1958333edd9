#include "core/assumptions.h"

#include <fmt/format.h>

#include <cmath>

namespace wb {

namespace {
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBig = 1e15;
}

std::span<const AssumptionInfo> assumptionCatalog()
{
    static constexpr AssumptionInfo list[] = {
        {Assumption::GpuMemoryUtilization, "gpu_memory_utilization", "fraction", 0.90, 0.05, 1.0,
         "vLLM's default --gpu-memory-utilization (generic and vllm stacks): the share of GPU memory the "
         "engine may fill with weights, activations and KV cache; the rest absorbs fragmentation"},
        {Assumption::SglangMemFractionStatic, "sglang_mem_fraction_static", "fraction", 0.88, 0.05, 1.0,
         "SGLang's --mem-fraction-static for 80 GB-class GPUs (it picks 0.79-0.88 by GPU size): the share "
         "for weights and the KV pool"},
        {Assumption::TrtllmKvCacheFreeFraction, "trtllm_kv_cache_free_fraction", "fraction", 0.90, 0.05, 1.0,
         "TensorRT-LLM's kv_cache_free_gpu_mem_fraction default: the share of memory left after weights and "
         "activations that becomes KV cache"},
        {Assumption::RuntimeOverheadBytes, "runtime_overhead_bytes", "bytes", 1.8 * GiB, 0, kBig,
         "CUDA context, cuBLAS/cuDNN workspaces and allocator reserve outside the tensors: vLLM's profiler "
         "printed 1.79 GiB of non-torch memory on an 80 GB GPU at TP1 (vllm-project/vllm PR #10511)"},
        {Assumption::CommBufferBytes, "comm_buffer_bytes", "bytes", 0.4 * GiB, 0, kBig,
         "NCCL communicator buffers on each GPU once a model spans several GPUs (0.35-0.4 GB in NVIDIA's "
         "aiconfigurator memory model)"},
        {Assumption::CudaGraphBytes, "cuda_graph_bytes", "bytes", 0.5 * GiB, 0, kBig,
         "memory of the CUDA graphs serving engines capture for decode batch sizes (vLLM logs report about "
         "0.3-1 GiB for 7B-70B models)"},
        {Assumption::MaxNumBatchedTokens, "max_num_batched_tokens", "tokens", 8192, 1, 1e7,
         "tokens one serving step may process (vLLM's online-serving default on data-centre GPUs); "
         "activation memory is reserved for this many"},
        {Assumption::MaxNumSeqs, "max_num_seqs", "sequences", 256, 1, 1e6,
         "sequences one serving step may hold (vLLM's default); more concurrent requests queue"},
        {Assumption::KvBlockTokens, "kv_block_tokens", "tokens", 16, 1, 4096,
         "KV cache is allocated in blocks of this many tokens per sequence (vLLM's default block size)"},
        {Assumption::ActivationBytes, "activation_bytes", "bytes", 2, 1, 4, "element size of activations (bf16)"},
        {Assumption::Fp8ActivationStorage, "fp8_activation_storage", "bool", 1, 0, 1,
         "FP8 training (Transformer Engine) keeps the FP8 copies of the linear layers' inputs it saves for the "
         "weight gradients, and its FP8 recipes store the MLP's saved activations in FP8 too (NVIDIA's and "
         "AMD's MLPerf Training recipes: FP8_ACTIVATION=True); the norms' inputs and attention's q, k, v and "
         "output stay in bf16. 0 keeps every saved activation at activation_bytes"},
        {Assumption::SamplerBytesPerLogit, "sampler_bytes_per_logit", "bytes", 8, 0, 64,
         "fp32 logits and fp32 probabilities over the vocabulary for each sequence being sampled"},
        {Assumption::QuantizeEmbeddings, "quantize_embeddings", "bool", 0, 0, 1,
         "quantized checkpoints (FP8, INT8, GPTQ/AWQ, NVFP4, bitsandbytes) usually keep the token embedding "
         "and output head in 16 bit; 1 quantizes them too"},
        {Assumption::Nf4DoubleQuant, "nf4_double_quant", "bool", 1, 0, 1,
         "QLoRA recipes quantize the NF4 block constants again (bnb_4bit_use_double_quant=True): 4.127 "
         "instead of 4.5 bits per weight (arXiv 2305.14314)"},
        {Assumption::DequantComputeBytes, "dequant_compute_bytes", "bytes", 2, 1, 4,
         "bitsandbytes 4-bit layers dequantize one weight matrix at a time to the compute dtype (bf16 in "
         "QLoRA recipes; bitsandbytes' own default is fp32, 4 bytes)"},
        {Assumption::TrainingSafetyMargin, "training_safety_margin", "fraction", 0.05, 0, 0.5,
         "share of GPU memory a training plan leaves free for the caching allocator's fragmentation"},
        {Assumption::FlashAttention, "flash_attention", "bool", 1, 0, 1,
         "FlashAttention/SDPA kernels keep no sequence x sequence score matrix, so Korthikanti's 5as/h "
         "activation term (arXiv 2205.05198) drops"},
        {Assumption::LogitsBytesPerElement, "logits_bytes_per_element", "bytes", 6, 0, 16,
         "training keeps bf16 logits for the backward pass plus an fp32 copy for the loss"},
        {Assumption::LossChunks, "loss_chunks", "count", 1, 1, 1024,
         "the fp32 loss copy is made this many tokens-chunks at a time (torchtune's chunked loss uses 8)"},
        {Assumption::Zero3PrefetchLayers, "zero3_prefetch_layers", "count", 2, 0, 64,
         "ZeRO-3/FSDP keep about this many layers gathered in full while prefetching (DeepSpeed's "
         "4 x largest-layer bytes in bf16)"},
        // Performance model (stepmodel.cpp, simulator.cpp, performance.cpp).
        {Assumption::ComputeEfficiency, "compute_efficiency", "fraction", 0, 0, 1,
         "fraction of the dense peak FLOP/s a step's matrix multiplies reach; 0 takes the per-family, "
         "per-precision table in efficiency.cpp"},
        {Assumption::MemoryEfficiency, "memory_efficiency", "fraction", 0, 0, 1,
         "fraction of peak memory bandwidth reached streaming weights; 0 takes the per-family table"},
        {Assumption::KvReadEfficiency, "kv_read_efficiency", "fraction", 0, 0, 1,
         "fraction of peak memory bandwidth reached reading the paged KV cache; 0 takes the per-family table"},
        {Assumption::LinkEfficiency, "link_efficiency", "fraction", 0.65, 0.05, 1,
         "fraction of the scale-up link bandwidth an all-reduce achieves (Calculon's NVLink figure; "
         "reference/estimator-notes.md A.9)"},
        {Assumption::StepOverheadS, "step_overhead_s", "seconds", 0, 0, 1,
         "fixed cost of one serving step (scheduling, sampling, launches); 0 takes the serving stack's "
         "figure in efficiency.cpp"},
        {Assumption::LayerOverheadS, "layer_overhead_s", "seconds", 0, 0, 0.01,
         "0: each decoder layer costs a step its kernel count (9 for a fused dense layer, more for MLA and "
         "mixture-of-experts layers) times the calibrated least kernel time (kernel_time_s in the efficiency "
         "table); a positive value replaces that with a flat cost per layer per step"},
        {Assumption::AllreduceLatencyS, "allreduce_latency_s", "seconds", 8e-6, 0, 0.01,
         "latency of one small all-reduce inside a switched NVLink or Infinity Fabric domain (one-shot "
         "custom all-reduce kernels, 5-10 us in GenZ and aiconfigurator)"},
        {Assumption::RingHopLatencyS, "ring_hop_latency_s", "seconds", 5e-6, 0, 0.01,
         "latency of each of the 2(t-1) ring steps of an all-reduce over PCIe or between nodes"},
        {Assumption::ScaleOutBandwidthBytesPerS, "scale_out_bandwidth_bytes_per_s", "bytes/s", 50e9, 1e8, 1e13,
         "per-GPU network bandwidth when tensor parallelism leaves the scale-up domain (one 400 Gb/s NIC "
         "per GPU, as on HGX nodes)"},
        {Assumption::TrtllmSglangMaxBatch, "trtllm_sglang_max_batch", "sequences", 2048, 1, 1e6,
         "sequences one step may hold on TensorRT-LLM (max_batch_size default 2048) and SGLang (request "
         "pool of at least 2048); vLLM and generic stacks use max_num_seqs"},
        {Assumption::SchedulerRecvInterval, "scheduler_recv_interval", "steps", 1, 1, 1000,
         "decode steps between the scheduler's intakes of new requests while others run (SGLang's "
         "--scheduler-recv-interval, default 1; its DeepSeek-R1 recipes on B200/B300 set 30 at 16 clients and "
         "more): a new request waits up to that many steps for its first token"},
        {Assumption::SimulatedRequests, "simulated_requests", "count", 3000, 100, 1e6,
         "requests each simulation replays; enough for about 30 samples beyond the p99"},
        {Assumption::WarmupFraction, "warmup_fraction", "fraction", 0.1, 0, 0.5,
         "share of the first requests left out of latency statistics while the simulated server fills"},
        {Assumption::SimulationSeed, "simulation_seed", "count", 1, 0, 1e9, "seed of the simulator's random arrivals and lengths"},
        // Cost model (cost.cpp). Prices themselves are dated entries of the price book.
        {Assumption::HoursPerMonth, "hours_per_month", "hours", 730.5, 1, 744,
         "hours a rented or owned GPU is paid for in an average month (8,766 hours a year / 12)"},
        {Assumption::PriceStaleDays, "price_stale_days", "days", 180, 1, 3650,
         "a price observed longer ago than this is flagged stale (the method: date every price you copy)"},
        {Assumption::SpotInterruptionsPerGpuMonth, "spot_interruptions_per_gpu_month", "count", 30, 0, 10000,
         "times a month a spot GPU's instance is taken back, unless the price states its own rate: one a day, the "
         "most a preemptible VM on Google Cloud runs before it is stopped (24 hours); AWS's Spot Instance Advisor puts "
         "most GPU instance types in its highest band, over 20% a month (an estimate between the two)"},
        {Assumption::SpotNoticeS, "spot_notice_s", "seconds", 30, 0, 3600,
         "warning a spot instance gets before it is taken back, in which requests in flight may finish (Google "
         "Cloud gives 30 s; AWS two minutes)"},
        {Assumption::SpotRestartWarnFraction, "spot_restart_warn_fraction", "fraction", 0.05, 0, 1,
         "share of their time spot replicas may spend restarting after interruptions before it is warned about: "
         "the capacity they lose is not replaced in the price (a twentieth)"},
        {Assumption::SpotRestartMaxFraction, "spot_restart_max_fraction", "fraction", 0.5, 0, 1,
         "share of their time restarting from which spot replicas cannot carry the load they were sized for, and "
         "the option is not priced (half)"},
        {Assumption::AutoscaleTargetUtilization, "autoscale_target_utilization", "fraction", 0.7, 0.05, 1,
         "load an autoscaler keeps each replica at, leaving room for growth while a new replica starts (Kubernetes "
         "HPA and KEDA targets are commonly set between 50% and 80%)"},
        {Assumption::ModelLoadGbPerS, "model_load_gb_per_s", "GB/s", 1, 0.01, 1000,
         "rate at which a starting replica reads its weights from network or object storage (an estimate; local "
         "NVMe is faster)"},
        {Assumption::ReplicaStartS, "replica_start_s", "seconds", 60, 0, 3600,
         "a new replica's start besides loading weights: node and container start, CUDA context, engine warm-up "
         "and graph capture (an estimate)"},
        {Assumption::ScaleToZeroIdleS, "scale_to_zero_idle_s", "seconds", 300, 0, 86400,
         "time a replica of a service that scales to zero (serverless, or autoscaled with no minimum) stays up after "
         "its last request (Vertex AI's scale-to-zero waits at least 5 minutes, its idle_scaledown_period minimum)"},
        {Assumption::CommitmentMonthsWithoutCertainty, "commitment_months_without_certainty", "months", 3, 0, 120,
         "longest minimum commitment accepted without a warning while the brief's demand certainty is not high (a "
         "quarter: about as far ahead as a volume that is not firm can be forecast)"},
        {Assumption::StorageUsdPerGbMonth, "storage_usd_per_gb_month", "usd/GB-month", 0.08, 0, 10,
         "block storage for model weights, one copy per replica plus one (AWS EBS gp3 list price, us-east-1)"},
        {Assumption::EgressUsdPerGb, "egress_usd_per_gb", "usd/GB", 0.09, 0, 10,
         "internet data transfer out (AWS list price for the first 10 TB a month)"},
        {Assumption::EgressBytesPerOutputToken, "egress_bytes_per_output_token", "bytes", 60, 0, 1e4,
         "bytes sent per streamed output token with its server-sent-event JSON framing (an estimate)"},
        {Assumption::ServingStackUsdPerGpuMonth, "serving_stack_usd_per_gpu_month", "usd", 0, 0, 1e6,
         "serving software licence and support per GPU: vLLM, SGLang and TensorRT-LLM are open source (0); "
         "NVIDIA AI Enterprise, needed for NIM support, lists at $4,500 per GPU per year (375 a month)"},
        {Assumption::ObservabilityFraction, "observability_fraction", "fraction", 0.03, 0, 1,
         "metrics, logs and tracing as a share of the GPU spend (an estimate; set your own)"},
        {Assumption::PlatformFteSelfHosted, "platform_fte_self_hosted", "count", 0.5, 0, 1000,
         "engineers running drivers, containers, model servers, autoscaling, on-call and spend reports for a "
         "self-hosted service (the method's common mistake 5; an estimate for one service)"},
        {Assumption::PlatformFteApi, "platform_fte_api", "count", 0.1, 0, 1000,
         "engineers integrating and governing a model-API route (keys, quotas, fallbacks, spend reports)"},
        {Assumption::EngineerUsdPerYear, "engineer_usd_per_year", "usd", 180000, 0, 1e8,
         "fully loaded yearly cost of one platform engineer (an estimate; set your own)"},
        {Assumption::DepreciationYears, "depreciation_years", "years", 4, 1, 15, "years over which purchased GPUs are depreciated"},
        {Assumption::ResidualValueFraction, "residual_value_fraction", "fraction", 0.15, 0, 1,
         "share of the purchase price recovered by selling the hardware at the end of depreciation"},
        {Assumption::NodeCapexUsdPerGpu, "node_capex_usd_per_gpu", "usd", 0, 0, 1e7,
         "server, network and installation capital per GPU when the purchase price covers the GPU alone (0 when "
         "the price is a whole-server quote divided by its GPUs)"},
        {Assumption::Pue, "pue", "ratio", 1.3, 1, 3, "data-centre power usage effectiveness (modern colocation, about 1.2-1.4)"},
        {Assumption::EnergyUsdPerKwh, "energy_usd_per_kwh", "usd/kWh", 0.12, 0, 10, "electricity price"},
        {Assumption::IdlePowerFraction, "idle_power_fraction", "fraction", 0.3, 0, 1,
         "share of board power an idle but loaded GPU still draws; power scales from it to full with utilization"},
        {Assumption::ServerPowerOverhead, "server_power_overhead", "ratio", 1.8, 1, 5,
         "server power per GPU over the GPU's board power: a DGX H100 draws about 10.2 kW for 8 x 700 W GPUs "
         "(servnetuk.com AI servers data study, 2026-07-05)"},
        {Assumption::ColocationUsdPerKwMonth, "colocation_usd_per_kw_month", "usd", 180, 0, 1e4,
         "colocation space and cooling per provisioned kW a month (public ranges quote $150-250)"},
        {Assumption::SupportFractionPerYear, "support_fraction_per_year", "fraction", 0.08, 0, 1,
         "hardware support contract a year as a share of the purchase price (an estimate)"},
        {Assumption::OperationsFtePurchase, "operations_fte_purchase", "count", 0.25, 0, 1000,
         "extra engineer time for owned hardware (racking, repairs, firmware, spares) on top of the platform team"},
        // Recommendation thresholds (cost.cpp): the judgement calls of the seed's section on renting,
        // reserving, buying or using an API, named so that a reviewer can see and change them.
        {Assumption::ApiFlexibilityPremium, "api_flexibility_premium", "ratio", 1.25, 1, 10,
         "while demand is uncertain or the model churns, the model API is still recommended when it costs up to "
         "this multiple of the best GPU option per accepted output: no commitment is worth paying some for"},
        {Assumption::HybridMinPeakToAverage, "hybrid_min_peak_to_average", "ratio", 1.5, 1, 100,
         "traffic whose peak is at least this multiple of its average is priced as a hybrid too (GPUs for the "
         "steady base, the API for the bursts above it)"},
        {Assumption::FragileFitHeadroomFraction, "fragile_fit_headroom_fraction", "fraction", 0.10, 0, 1,
         "a fit with less memory headroom than this is warned as fragile (the method's common mistake 2: memory "
         "fit read as yes or no)"},
        {Assumption::CommitmentMinHeadroomFraction, "commitment_min_headroom_fraction", "fraction", 0.25, 0, 1,
         "a recommended reservation or purchase with less memory headroom than this is warned as sized only for "
         "today's model (the method's common mistake 6)"},
        {Assumption::NearTieFraction, "near_tie_fraction", "fraction", 0.06, 0, 1,
         "options whose cost per accepted output is within this fraction of the cheapest are flagged as a near "
         "tie: between them the ranking rests on the assumptions more than on the GPUs"},
        {Assumption::SizingTpotS, "sizing_tpot_s", "seconds", 0.05, 0.001, 10,
         "when the latency targets bound only the time to first token, a request's time in flight (for sizing the "
         "KV cache by Little's law) is that target plus its output tokens at this time per token: 20 tokens/s, an "
         "interactive reading pace"},
        {Assumption::TrainingCommOverlap, "training_comm_overlap", "fraction", 0.5, 0, 1,
         "share of tensor- and context-parallel traffic a training step hides behind its GEMMs (Megatron-LM and "
         "Transformer Engine overlap them chunk by chunk, tp_comm_overlap in NeMo's recipes; half is an estimate). "
         "Over a PCIe scale-up domain the tensor-parallel collectives are all exposed: the overlap works through "
         "the peers' memory over NVLink-class links"},
        {Assumption::CheckpointWriteBytesPerSPerGpu, "checkpoint_write_bytes_per_s_per_gpu", "bytes/s", 0.2e9, 1e6, 1e12,
         "checkpoint write bandwidth per GPU when the brief gives no storage figure: a 504-GPU B200 campaign wrote its "
         "checkpoints through an NFS layer at 1.4-10.4% of each node's 200 Gb/s, 0.04-0.3 GB/s per GPU (arXiv "
         "2605.09370); 0.2 GB/s assumes a shared parallel file system of that class"},
        {Assumption::CheckpointReadBytesPerSPerGpu, "checkpoint_read_bytes_per_s_per_gpu", "bytes/s", 0.3e9, 1e6, 1e12,
         "checkpoint read bandwidth per GPU on restart when the brief gives no storage figure: the same campaign "
         "reloaded at 21.5% of 700 GB/s over 504 GPUs, 0.3 GB/s per GPU (arXiv 2605.09370)"},
        {Assumption::RestartInitS, "restart_init_s", "seconds", 600, 0, 1e6,
         "time from an interruption to the restarted job reading its checkpoint (detection, rescheduling, node "
         "checks, process and NCCL start): that campaign's automatic retries came a median 11 minutes apart (arXiv "
         "2605.09370); MLPerf Training's untimed initialisation alone takes 69-824 s (8-11,616 GPUs)"},
        {Assumption::InterruptionsPerGpuHour, "interruptions_per_gpu_hour", "count", 1.97e-5, 0, 1,
         "unexpected job interruptions per GPU-hour: Llama 3 405B pre-training saw 419 in 54 days on 16,384 H100s "
         "(arXiv 2407.21783, Table 5), one every 3.1 hours for the job; BLOOM's 384 A100s and a 504-GPU B200 "
         "campaign saw 2.3e-5 and 1.5e-5"},
        {Assumption::CheckpointsKept, "checkpoints_kept", "count", 2, 1, 1000,
         "checkpoints kept on storage at once during a run (the latest and the one before it, in case the latest is "
         "damaged)"},
        {Assumption::TrainingPlatformFte, "training_platform_fte", "count", 0.5, 0, 100,
         "engineers watching a training run and handling its restarts while it runs (a cluster run needs someone "
         "on call; half a person assumed)"},
        {Assumption::MediaMaxBatch, "media_max_batch", "outputs", 64, 1, 1024,
         "the largest batch of outputs the engine tries for a media pipeline: NVIDIA's MLPerf Inference v4.1 SDXL "
         "configuration runs the UNet at batch 64 per H100"},
        {Assumption::ImageBytesPerPixel, "image_bytes_per_pixel", "bytes", 1.5, 0, 16,
         "a stored image's size per pixel: a lossless PNG of a photographic 8-bit RGB image takes roughly half its "
         "3 raw bytes a pixel (an estimate; set your format's)"},
        {Assumption::VideoBytesPerPixelFrame, "video_bytes_per_pixel_frame", "bytes", 0.023, 0, 16,
         "a stored clip's size per pixel and frame: YouTube recommends 5 Mb/s for 720p at 24-30 frames a second "
         "(support.google.com/youtube/answer/1722171), 5e6 / 8 / (1280 x 720 x 30) = 0.023"},
        {Assumption::OutputRetentionMonths, "output_retention_months", "count", 12, 0, 1200,
         "months an accepted output is kept in storage (a year assumed); each month's outputs are paid for this long"},
        {Assumption::ModerationUsdPerOutput, "moderation_usd_per_output", "usd", 0.001, 0, 100,
         "automated moderation of every finished output: Amazon Rekognition's image moderation lists $0.001 an "
         "image for the first million a month (aws.amazon.com/rekognition/pricing); video is dearer, set your own"},
        {Assumption::QueueUsdPerMillionJobs, "queue_usd_per_million_jobs", "usd", 1.20, 0, 1e6,
         "the media job queue per million jobs: a managed queue's send, receive and delete of each job at Amazon "
         "SQS's $0.40 per million standard requests (aws.amazon.com/sqs/pricing, us-east-1); a broker run in-house "
         "is the platform team's work"},
        {Assumption::OperatorReviewUsdPerOutput, "operator_review_usd_per_output", "usd", 0.002, 0, 1000,
         "people reviewing outputs, spread over every finished output: 1% of them looked at for 10 s at $72 an hour "
         "is $0.002 each (an estimate; set your own)"},
    };
    static_assert(std::size(list) == kAssumptionCount, "one entry per Assumption key");
    static_assert([] {
        for (std::size_t i = 0; i < std::size(list); ++i)
            if (std::size_t(list[i].key) != i)
                return false;
        return true;
    }(), "entries in the order of the Assumption keys");
    return list;
}

const AssumptionInfo &assumptionInfo(Assumption key)
{
    return assumptionCatalog()[std::size_t(key)];
}

const AssumptionInfo *findAssumption(std::string_view name)
{
    for (const AssumptionInfo &a : assumptionCatalog())
        if (a.name == name)
            return &a;
    return nullptr;
}

double Assumptions::value(Assumption key) const
{
    const std::optional<double> &set = m_overrides[std::size_t(key)];
    return set ? *set : assumptionInfo(key).defaultValue;
}

bool Assumptions::overridden(Assumption key) const
{
    return m_overrides[std::size_t(key)].has_value();
}

Status Assumptions::set(std::string_view name, double value, const std::string &jsonPath)
{
    const AssumptionInfo *info = findAssumption(name);
    if (!info)
        return Error{"", jsonPath, "is not a known assumption"};
    if (!(value >= info->min && value <= info->max))
        return Error{"", jsonPath, fmt::format("must be between {} and {}, not {}", info->min, info->max, value)};
    if (info->unit == std::string_view("bool") && value != 0.0 && value != 1.0)
        return Error{"", jsonPath, "must be 0 or 1 (or true/false)"};
    // Things counted one by one: sequences, tokens and outputs come whole.
    const std::string_view unit = info->unit;
    if ((unit == "sequences" || unit == "tokens" || unit == "outputs") && value != std::floor(value))
        return Error{"", jsonPath, fmt::format("must be a whole number of {}, not {}", unit, value)};
    // An efficiency override is 0 (the calibrated table) or a fraction of a peak a real kernel
    // reaches: 1e-300 of a peak made runs of 10^300 seconds.
    const bool efficiency = info->key == Assumption::ComputeEfficiency || info->key == Assumption::MemoryEfficiency
        || info->key == Assumption::KvReadEfficiency;
    if (efficiency && value != 0.0 && value < 0.01)
        return Error{"", jsonPath, fmt::format("must be 0 (the calibrated table) or between 0.01 and 1, not {}", value)};
    m_overrides[std::size_t(info->key)] = value;
    return Ok{};
}

} // namespace wb
