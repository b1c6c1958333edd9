// A discrete-event simulator of continuous batching: one scheduler per replica, modelled on
// vLLM's (first come first served; running requests first, then new ones; at most maxSequences
// per step and maxBatchedTokens tokens per step with chunked prefill; KV cache allocated in
// blocks from a fixed budget; when a decode cannot get a block the most recently admitted
// request is preempted and recomputed later). Arrivals go to the replica with the fewest
// requests in flight. Deterministic for a given seed. Units: seconds, tokens.
#pragma once

#include "performance/stepmodel.h"

#include <cstdint>
#include <stop_token>
#include <optional>
#include <vector>

namespace wb {

struct SimConfig
{
    int replicas = 1;
    int maxSequences = 256;
    int maxBatchedTokens = 8192;
    // Steps between the scheduler's intakes of new requests while others run (SGLang's
    // --scheduler-recv-interval): an idle replica takes them at once.
    int receiveIntervalSteps = 1;
    double kvCapacityTokens = 0;   // per replica
    int kvBlockTokens = 16;
    std::optional<int> slidingWindow;  // KV read per sequence is capped at this many tokens
    // TensorRT-LLM's default GUARANTEED_NO_EVICT policy: a request is admitted only when the KV
    // for its whole prompt and answer can be reserved, so nothing is ever preempted. Otherwise
    // (vLLM, SGLang) admission needs the prompt's blocks plus a 1% watermark, and decodes that
    // run out preempt the newest request.
    bool reserveFullContext = false;
    // An encoder (embedding) request: its prompt runs whole in one step, never chunked (every
    // token attends to every other, BERT's bidirectional self-attention, arXiv 1810.04805), and
    // its attention covers all L^2 (query, key) pairs rather than a causal L(L+1)/2.
    bool encoder = false;
    // A padded server (Hugging Face tokenizers' padding="longest", as sentence-transformers
    // batches; encoders only): every sequence of a step counts at the step's longest. Packed engines
    // (TensorRT's variable-length BERT, vLLM and SGLang flattening a batch) pay real lengths only.
    bool padToLongest = false;
    // Run every step through the general scheduler, one request at a time, instead of advancing
    // decode-only steps in O(1) (Simulation::fastStep). The results are the same; this exists so
    // that a test can show it.
    bool stepByStep = false;
};

struct LengthSpec
{
    double mean = 0;
    std::optional<double> p95;     // a spread: lognormal with this mean and 95th percentile
    int max = 1 << 30;             // lengths are clamped to [min, max]
    int min = 1;
};

struct TrafficSpec
{
    TrafficMode mode = TrafficMode::Offline;
    double ratePerS = 0;           // open-loop base rate
    double burstiness = 1.0;       // gamma shape of inter-arrival times
    int concurrency = 1;           // closed-loop
    std::optional<double> burstMultiplier;
    double burstDurationS = 0;
    double burstPeriodS = 0;
    int requests = 3000;
    std::uint64_t seed = 1;
    LengthSpec input;
    LengthSpec output;             // mean 0: prefill-only requests (embeddings)
    double warmupFraction = 0.1;
};

struct Distribution
{
    double mean = 0, p50 = 0, p95 = 0, p99 = 0;
    bool empty = true;
};

struct SimResult
{
    Distribution ttft, tpot, itl, e2e;
    Distribution ntpot;            // E2E over output tokens, per request (the first token included)
    double durationS = 0;          // from the first measured arrival to the last completion
    double outputTokensPerS = 0;
    double inputTokensPerS = 0;
    double requestsPerS = 0;
    int completed = 0;             // measured requests
    int rejected = 0;              // requests whose context can never fit the KV budget
    long long preemptions = 0;
    double meanBatchSequences = 0; // per step, averaged over steps
    long long steps = 0;
    long long fastSteps = 0;       // of them, decode-only steps advanced in O(1) (SimConfig::stepByStep)
    bool stopped = false;          // the caller asked to stop before the run finished
    // Set when more replicas were asked for than are simulated one by one (core/limits.h): the
    // count asked for. A representative set ran at the same load per replica; the throughputs
    // are scaled to this count.
    int replicasRepresented = 0;
    // Per measured request, in the same order: time to first token, time per output token after
    // the first (NaN for one-token answers) and end to end, in seconds.
    std::vector<double> ttfts, tpots, e2es;
};

// A stop requested through `stop` ends the run within a few hundred steps; the result then has
// stopped set and its figures cover only what was simulated. More replicas than
// limits::kSimulatedReplicas are simulated as a representative set (SimResult::replicasRepresented).
SimResult simulate(const StepModel &model, const SimConfig &config, const TrafficSpec &traffic,
                   std::stop_token stop = {});

// Mean and the p50/p95/p99 (nearest rank) of values, NaN entries left out.
Distribution distributionOf(std::vector<double> values);

} // namespace wb
