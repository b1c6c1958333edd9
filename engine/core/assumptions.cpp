#include "core/assumptions.h"

#include <algorithm>
#include <cstdio>

namespace wb {

namespace {
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kBig = 1e15;
}

const std::vector<AssumptionInfo> &assumptionCatalog()
{
    static const std::vector<AssumptionInfo> list = {
        {"gpu_memory_utilization", "fraction", 0.90, 0.05, 1.0,
         "vLLM's default --gpu-memory-utilization (generic and vllm stacks): the share of GPU memory the "
         "engine may fill with weights, activations and KV cache; the rest absorbs fragmentation"},
        {"sglang_mem_fraction_static", "fraction", 0.88, 0.05, 1.0,
         "SGLang's --mem-fraction-static for 80 GB-class GPUs (it picks 0.79-0.88 by GPU size): the share "
         "for weights and the KV pool"},
        {"trtllm_kv_cache_free_fraction", "fraction", 0.90, 0.05, 1.0,
         "TensorRT-LLM's kv_cache_free_gpu_mem_fraction default: the share of memory left after weights and "
         "activations that becomes KV cache"},
        {"runtime_overhead_bytes", "bytes", 1.8 * GiB, 0, kBig,
         "CUDA context, cuBLAS/cuDNN workspaces and allocator reserve outside the tensors: vLLM's profiler "
         "printed 1.79 GiB of non-torch memory on an 80 GB GPU at TP1 (vllm-project/vllm PR #10511)"},
        {"comm_buffer_bytes", "bytes", 0.4 * GiB, 0, kBig,
         "NCCL communicator buffers on each GPU once a model spans several GPUs (0.35-0.4 GB in NVIDIA's "
         "aiconfigurator memory model)"},
        {"cuda_graph_bytes", "bytes", 0.5 * GiB, 0, kBig,
         "memory of the CUDA graphs serving engines capture for decode batch sizes (vLLM logs report about "
         "0.3-1 GiB for 7B-70B models)"},
        {"max_num_batched_tokens", "tokens", 8192, 1, 1e7,
         "tokens one serving step may process (vLLM's online-serving default on data-centre GPUs); "
         "activation memory is reserved for this many"},
        {"max_num_seqs", "sequences", 256, 1, 1e6,
         "sequences one serving step may hold (vLLM's default); more concurrent requests queue"},
        {"kv_block_tokens", "tokens", 16, 1, 4096,
         "KV cache is allocated in blocks of this many tokens per sequence (vLLM's default block size)"},
        {"activation_bytes", "bytes", 2, 1, 4, "element size of activations (bf16)"},
        {"sampler_bytes_per_logit", "bytes", 8, 0, 64,
         "fp32 logits and fp32 probabilities over the vocabulary for each sequence being sampled"},
        {"quantize_embeddings", "bool", 0, 0, 1,
         "quantized checkpoints (FP8, INT8, GPTQ/AWQ, NVFP4, bitsandbytes) usually keep the token embedding "
         "and output head in 16 bit; 1 quantizes them too"},
        {"nf4_double_quant", "bool", 1, 0, 1,
         "QLoRA recipes quantize the NF4 block constants again (bnb_4bit_use_double_quant=True): 4.127 "
         "instead of 4.5 bits per weight (arXiv 2305.14314)"},
        {"dequant_compute_bytes", "bytes", 2, 1, 4,
         "bitsandbytes 4-bit layers dequantize one weight matrix at a time to the compute dtype (bf16 in "
         "QLoRA recipes; bitsandbytes' own default is fp32, 4 bytes)"},
        {"training_safety_margin", "fraction", 0.05, 0, 0.5,
         "share of GPU memory a training plan leaves free for the caching allocator's fragmentation"},
        {"flash_attention", "bool", 1, 0, 1,
         "FlashAttention/SDPA kernels keep no sequence x sequence score matrix, so Korthikanti's 5as/h "
         "activation term (arXiv 2205.05198) drops"},
        {"logits_bytes_per_element", "bytes", 6, 0, 16,
         "training keeps bf16 logits for the backward pass plus an fp32 copy for the loss"},
        {"loss_chunks", "count", 1, 1, 1024,
         "the fp32 loss copy is made this many tokens-chunks at a time (torchtune's chunked loss uses 8)"},
        {"zero3_prefetch_layers", "count", 2, 0, 64,
         "ZeRO-3/FSDP keep about this many layers gathered in full while prefetching (DeepSpeed's "
         "4 x largest-layer bytes in bf16)"},
        // Performance model (stepmodel.cpp, simulator.cpp, performance.cpp).
        {"compute_efficiency", "fraction", 0, 0, 1,
         "fraction of the dense peak FLOP/s a step's matrix multiplies reach; 0 takes the per-family, "
         "per-precision table in efficiency.cpp"},
        {"memory_efficiency", "fraction", 0, 0, 1,
         "fraction of peak memory bandwidth reached streaming weights; 0 takes the per-family table"},
        {"kv_read_efficiency", "fraction", 0, 0, 1,
         "fraction of peak memory bandwidth reached reading the paged KV cache; 0 takes the per-family table"},
        {"link_efficiency", "fraction", 0.65, 0.05, 1,
         "fraction of the scale-up link bandwidth an all-reduce achieves (Calculon's NVLink figure; "
         "reference/estimator-notes.md A.9)"},
        {"step_overhead_s", "seconds", 0, 0, 1,
         "fixed cost of one serving step (scheduling, sampling, launches); 0 takes the serving stack's "
         "figure in efficiency.cpp"},
        {"layer_overhead_s", "seconds", 12e-6, 0, 0.01,
         "per-layer, per-step cost of small kernels and launch gaps (norms, rotary, activation), between the "
         "5-10 us all-reduce latency and the 20 us per layer of reference/estimator-notes.md A.8"},
        {"allreduce_latency_s", "seconds", 8e-6, 0, 0.01,
         "latency of one small all-reduce inside a switched NVLink or Infinity Fabric domain (one-shot "
         "custom all-reduce kernels, 5-10 us in GenZ and aiconfigurator)"},
        {"ring_hop_latency_s", "seconds", 5e-6, 0, 0.01,
         "latency of each of the 2(t-1) ring steps of an all-reduce over PCIe or between nodes"},
        {"scale_out_bandwidth_bytes_per_s", "bytes/s", 50e9, 1e8, 1e13,
         "per-GPU network bandwidth when tensor parallelism leaves the scale-up domain (one 400 Gb/s NIC "
         "per GPU, as on HGX nodes)"},
        {"trtllm_sglang_max_batch", "sequences", 2048, 1, 1e6,
         "sequences one step may hold on TensorRT-LLM (max_batch_size default 2048) and SGLang (request "
         "pool of at least 2048); vLLM and generic stacks use max_num_seqs"},
        {"simulated_requests", "count", 3000, 100, 1e6,
         "requests each simulation replays; enough for about 30 samples beyond the p99"},
        {"warmup_fraction", "fraction", 0.1, 0, 0.5,
         "share of the first requests left out of latency statistics while the simulated server fills"},
        {"simulation_seed", "count", 1, 0, 1e9, "seed of the simulator's random arrivals and lengths"},
        // Cost model (cost.cpp). Prices themselves are dated entries of the price book.
        {"hours_per_month", "hours", 730.5, 1, 744,
         "hours a rented or owned GPU is paid for in an average month (8,766 hours a year / 12)"},
        {"price_stale_days", "days", 180, 1, 3650,
         "a price observed longer ago than this is flagged stale (the seed: date every price you copy)"},
        {"spot_work_lost_fraction", "fraction", 0.05, 0, 0.9,
         "share of spot GPU time whose work is lost to interruptions and redone (an estimate; providers publish "
         "interruption frequencies, not lost work)"},
        {"storage_usd_per_gb_month", "usd/GB-month", 0.08, 0, 10,
         "block storage for model weights, one copy per replica plus one (AWS EBS gp3 list price, us-east-1)"},
        {"egress_usd_per_gb", "usd/GB", 0.09, 0, 10,
         "internet data transfer out (AWS list price for the first 10 TB a month)"},
        {"egress_bytes_per_output_token", "bytes", 60, 0, 1e4,
         "bytes sent per streamed output token with its server-sent-event JSON framing (an estimate)"},
        {"serving_stack_usd_per_gpu_month", "usd", 0, 0, 1e6,
         "serving software licence and support per GPU: vLLM, SGLang and TensorRT-LLM are open source (0); "
         "NVIDIA AI Enterprise, needed for NIM support, lists at $4,500 per GPU per year (375 a month)"},
        {"observability_fraction", "fraction", 0.03, 0, 1,
         "metrics, logs and tracing as a share of the GPU spend (an estimate; set your own)"},
        {"platform_fte_self_hosted", "count", 0.5, 0, 1000,
         "engineers running drivers, containers, model servers, autoscaling, on-call and spend reports for a "
         "self-hosted service (the seed's common mistake 5; an estimate for one service)"},
        {"platform_fte_api", "count", 0.1, 0, 1000,
         "engineers integrating and governing a model-API route (keys, quotas, fallbacks, spend reports)"},
        {"engineer_usd_per_year", "usd", 180000, 0, 1e8,
         "fully loaded yearly cost of one platform engineer (an estimate; set your own)"},
        {"depreciation_years", "years", 4, 1, 15, "years over which purchased GPUs are depreciated"},
        {"residual_value_fraction", "fraction", 0.15, 0, 1,
         "share of the purchase price recovered by selling the hardware at the end of depreciation"},
        {"node_capex_usd_per_gpu", "usd", 0, 0, 1e7,
         "server, network and installation capital per GPU when the purchase price covers the GPU alone (0 when "
         "the price is a whole-server quote divided by its GPUs)"},
        {"pue", "ratio", 1.3, 1, 3, "data-centre power usage effectiveness (modern colocation, about 1.2-1.4)"},
        {"energy_usd_per_kwh", "usd/kWh", 0.12, 0, 10, "electricity price"},
        {"idle_power_fraction", "fraction", 0.3, 0, 1,
         "share of board power an idle but loaded GPU still draws; power scales from it to full with utilization"},
        {"server_power_overhead", "ratio", 1.8, 1, 5,
         "server power per GPU over the GPU's board power: a DGX H100 draws about 10.2 kW for 8 x 700 W GPUs "
         "(servnetuk.com AI servers data study, 2026-07-05)"},
        {"colocation_usd_per_kw_month", "usd", 180, 0, 1e4,
         "colocation space and cooling per provisioned kW a month (public ranges quote $150-250)"},
        {"support_fraction_per_year", "fraction", 0.08, 0, 1,
         "hardware support contract a year as a share of the purchase price (an estimate)"},
        {"operations_fte_purchase", "count", 0.25, 0, 1000,
         "extra engineer time for owned hardware (racking, repairs, firmware, spares) on top of the platform team"},
    };
    return list;
}

const AssumptionInfo *findAssumption(std::string_view name)
{
    const auto &list = assumptionCatalog();
    auto it = std::find_if(list.begin(), list.end(), [&](const AssumptionInfo &a) { return a.name == name; });
    return it == list.end() ? nullptr : &*it;
}

double Assumptions::value(std::string_view name) const
{
    if (auto it = m_overrides.find(name); it != m_overrides.end())
        return it->second;
    const AssumptionInfo *info = findAssumption(name);
    return info ? info->defaultValue : 0.0;
}

bool Assumptions::overridden(std::string_view name) const
{
    return m_overrides.find(name) != m_overrides.end();
}

Status Assumptions::set(const std::string &name, double value, const std::string &jsonPath)
{
    const AssumptionInfo *info = findAssumption(name);
    if (!info)
        return Error{"", jsonPath, "is not a known assumption"};
    if (!(value >= info->min && value <= info->max)) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "must be between %.10g and %.10g, not %.10g", info->min, info->max, value);
        return Error{"", jsonPath, buf};
    }
    if (info->unit == std::string_view("bool") && value != 0.0 && value != 1.0)
        return Error{"", jsonPath, "must be 0 or 1 (or true/false)"};
    m_overrides[name] = value;
    return Ok{};
}

} // namespace wb
