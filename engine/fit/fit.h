// Memory fit: what one GPU of a candidate must hold, by component, for every workload kind;
// whether that fits under the engine's memory cap; how much headroom is left; the KV cache
// capacity and the largest concurrency at the brief's real context; the smallest GPU count
// that fits; and a headroom grid across context lengths x concurrency. Units: bytes, tokens,
// sequences. Every assumed figure comes from Brief::assumptions (see assumptions.h).
#pragma once

#include "brief/brief.h"
#include "catalog/catalog.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

struct MemoryBreakdown
{
    std::uint64_t weights = 0;
    std::uint64_t kvCache = 0;          // inference: KV the brief's concurrency uses (at most the KV pool)
    std::uint64_t activations = 0;      // includes sampler logits and dequantization buffers
    std::uint64_t gradients = 0;
    std::uint64_t optimizerStates = 0;  // includes fp32 master weights
    std::uint64_t runtimeOverhead = 0;  // CUDA context, libraries, NCCL buffers, CUDA graphs

    std::uint64_t total() const
    {
        return weights + kvCache + activations + gradients + optimizerStates + runtimeOverhead;
    }
};

struct Layout
{
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int dataParallel = 1;  // replicas for inference
    int contextParallel = 1;  // training: kept from the candidate
    int gpus() const { return tensorParallel * pipelineParallel * contextParallel * dataParallel; }
};

// A change to a training set-up that was tried at the layout as stated when that layout does
// not fit: the fit advises before it re-lays out (fit/remedies.cpp). `option` is one of
// "sequence-parallel", "full-recompute", "activation-offload", "optimizer-offload", "zero1",
// "zero2", "fsdp", or several joined by "+".
struct FitRemedy
{
    std::string option;
    std::uint64_t perGpuBytes = 0;   // the busiest GPU's need with it
    bool fits = false;
    std::optional<double> stepTimeS; // timed by the evaluation for the options that fit
    bool stepTimeLowerBound = false; // part of its cost (a CPU optimizer's update) is not timed
};

// The training set-up with a remedy's options applied, and the options in words
// ("full activation recomputation and FSDP (parameters sharded too)").
TrainingSpec withRemedy(TrainingSpec t, const std::string &option);
std::string remedyText(const std::string &option);

struct FitResult
{
    bool computed = false;        // false: media generation, or a precision the GPU cannot run
    bool fits = false;
    std::uint64_t perGpuBytes = 0;   // the busiest GPU's need; equals breakdown.total()
    std::uint64_t capacityBytes = 0; // catalog memory of one GPU
    std::uint64_t usableBytes = 0;   // what the engine may use: the cap, or capacity less the safety margin
    double headroomFraction = 0;     // 1 - perGpuBytes / capacityBytes
    MemoryBreakdown breakdown;
    int busiestStage = 0;            // pipeline stage the breakdown belongs to
    // Which peak perGpuBytes is: for training, the tensors PyTorch allocates at their peak plus
    // what lives outside its allocator (runtime_overhead_bytes); the caching allocator's reserve
    // above the allocated peak is the named default training_safety_margin, left free. For
    // inference, what the serving engine reserves (weights, workspace, the KV cache in use, runtime).
    std::string peakBasis;
    // Inference only.
    std::optional<double> kvCacheCapacityTokensPerReplica;
    std::optional<long long> maxConcurrencyPerReplica;  // sequences at the brief's context
    std::optional<long long> maxConcurrency;            // all replicas
    int sizedConcurrencyPerReplica = 0;  // sequences the KV need is sized for
    double sizedContextTokens = 0;       // tokens per sequence the KV need is sized for (p95 when given)
    // The smallest GPU count (same GPU, same stack) that fits, and its layout.
    std::optional<int> smallestGpuCount;
    std::optional<Layout> smallestLayout;
    // When the candidate as entered does not hold the brief (inference: the weights, workspace
    // and one request at the brief's longest context; more concurrency than the KV cache holds
    // queues and shows in latency), the smallest layout of the same GPU and stack that does, and
    // why. The evaluation then sizes the candidate to it rather than dropping it (evaluate.h).
    std::optional<Layout> resize;
    // Media generation: the batch the fit is for (the brief's, or the largest that fits).
    std::optional<int> mediaBatch;
    // Why, and what the rankings use instead (the "resized" warning, given when the resize holds).
    Message resizeReason;
    // Training, when the layout as stated does not fit: the changes to the set-up tried at that
    // layout that save memory, each alone, then the fewest combined that fit (or, when none
    // does, all at once, to show how far they get). The evaluation uses the fastest that fits
    // (appliedRemedy, with the stated need and step time kept) and re-lays out only when none does.
    std::vector<FitRemedy> remedies;
    std::optional<std::string> appliedRemedy;
    std::optional<std::uint64_t> statedPerGpuBytes;
    std::optional<double> statedStepTimeS;
    // Training: the activations one micro-batch saves for its backward on the busiest GPU (what
    // activation offload moves to the host and back).
    double savedActivationBytesPerMicroBatch = 0;
    std::vector<Warning> warnings;
};

FitResult fitCandidate(const Brief &brief, const Candidate &candidate, const Catalog &catalog);
// A doubt the catalog records about a GPU, as a warning ("catalog-caveat").
Message catalogCaveat(const GpuSpec &gpu, const std::string &caveat);
// How many times fitCandidate has run in this process (a diagnostic: tests check that an edit in
// the window fits each candidate once).
std::uint64_t fitCount();

// Memory of one GPU of a replica for a batch of outputs, bytes.
struct MediaMemory
{
    double weights = 0;       // denoiser at the brief's precision, text encoders and VAE at bf16
    double activations = 0;   // the batch's denoiser passes (split over the replica's GPUs) or one VAE decode
    double runtime = 0;
    double total() const { return weights + activations + runtime; }
};
// Media generation only (workload.media set).
MediaMemory mediaMemory(const Brief &brief, const Candidate &candidate, int batch);

// The serving stack to start a GPU's candidate on: the vendor's tuned stack where there is one
// (TensorRT-LLM on NVIDIA), else vLLM (the ROCm and XPU builds AMD and Intel maintain).
ServingStack recommendedStack(const GpuSpec &gpu);

// Whether a fit leaves less memory to spare than fragile_fit_headroom_fraction (common mistake
// 2). A serving engine capped at 90% of the memory leaves 10% by construction, which is not less
// (the fraction is compared to within 0.05 points).
bool fragileHeadroom(const FitResult &fit, const Assumptions &assumptions);

// A new candidate of `gpu` for the brief: the smallest count and layout that holds it (fit's
// resize of one GPU), on the recommended stack; for a service, widened within the GPU's
// NVLink-class fabric while it has less headroom than common mistake 2 asks. One GPU when nothing
// holds it or the fit cannot be computed (the fit page then says why).
Candidate defaultCandidate(const Brief &brief, const std::string &gpu, const Catalog &catalog);

// Headroom over a grid. For inference, rows are tokens per sequence (context) and columns are
// concurrent sequences per replica; for training kinds, rows are sequence lengths and columns
// micro-batch sizes. headroom[r * columns + c] = 1 - need / capacity (negative: does not fit).
struct HeadroomGrid
{
    std::vector<int> contexts;
    std::vector<int> concurrencies;
    std::vector<double> headroom;
    std::vector<bool> fits;
    int briefContext = 0;       // the brief's own point, to mark on a heatmap
    int briefConcurrency = 0;

    double at(std::size_t row, std::size_t column) const { return headroom[row * concurrencies.size() + column]; }
};

// Empty axes pick defaults: contexts in powers of two from 512 to the model's maximum (at most
// 131072) and the brief's own; concurrencies 1..512 (training: micro-batches 1..64). Media
// generation: rows are the output's long side in pixels (256 to 2,048 and the brief's), columns
// the batch (1 to media_max_batch); the axes given are ignored.
HeadroomGrid headroomGrid(const Brief &brief, const Candidate &candidate, const Catalog &catalog,
                          std::vector<int> contexts = {}, std::vector<int> concurrencies = {});

namespace detail {
// Media generation (fit/mediafit.cpp). The fit: the brief's batch, or the largest up to
// media_max_batch that fits.
FitResult fitMedia(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu);
// Headroom over the output's long side in pixels (rows, the aspect ratio kept) and the batch (columns).
HeadroomGrid mediaHeadroomGrid(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu);
} // namespace detail

} // namespace wb
