// Private to the performance layer: the serving simulator's state and its steps (simulator.h is
// the interface). simulator.cpp holds the event loop and the general scheduler;
// simulationsummary.cpp the O(1) decode summary and the statistics of a finished run.
#pragma once

#include "performance/simulator.h"

#include <bit>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>
#include <stop_token>
#include <vector>

namespace wb::detail {

constexpr double kNever = std::numeric_limits<double>::infinity();

// Histogram for inter-token gaps: pooled ITLs run to millions of values, which would cost more
// to store and sort than the simulation itself. A bin is the exponent and top 7 mantissa bits of
// the double (128 bins per octave, values within 0.3% of a bin's centre), found with a shift
// instead of a logarithm; from 1 us to about 1000 s.
class GapHistogram
{
public:
    // `weight` gaps of s seconds each (a decode step's gap, once per sequence it advanced).
    void add(double s, long long weight = 1)
    {
        m_count += weight;
        m_sum += s * double(weight);
        m_bins[bin(s)] += weight;
    }
    Distribution distribution() const
    {
        Distribution d;
        if (m_count == 0)
            return d;
        d.empty = false;
        d.mean = m_sum / double(m_count);
        d.p50 = quantile(0.50);
        d.p95 = quantile(0.95);
        d.p99 = quantile(0.99);
        return d;
    }

private:
    static constexpr int kShift = 52 - 7;
    static constexpr int kBins = 30 * 128;
    static std::uint64_t key(double s) { return std::bit_cast<std::uint64_t>(s) >> kShift; }
    static int bin(double s)
    {
        static const std::uint64_t low = key(1e-6);
        const std::uint64_t k = s > 1e-6 ? key(s) : low;
        return int(std::min<std::uint64_t>(k - low, kBins - 1));
    }
    static double centre(int index)
    {
        static const std::uint64_t low = key(1e-6);
        const double a = std::bit_cast<double>((low + std::uint64_t(index)) << kShift);
        const double b = std::bit_cast<double>((low + std::uint64_t(index) + 1) << kShift);
        return 0.5 * (a + b);
    }
    double quantile(double q) const
    {
        const double target = std::ceil(q * double(m_count));
        double seen = 0;
        for (int i = 0; i < kBins; ++i) {
            seen += double(m_bins[i]);
            if (seen >= target)
                return centre(i);
        }
        return centre(kBins - 1);
    }
    std::vector<long long> m_bins = std::vector<long long>(kBins, 0);
    long long m_count = 0;
    double m_sum = 0;
};

struct Request
{
    double arrival = 0;
    int input = 0;
    int output = 0;
    int prefillTarget = 0;  // prompt tokens to compute: the input, or input + generated after preemption
    int prefilled = 0;
    int generated = 0;
    long kvTokens = 0;      // tokens whose KV entries exist
    long blocks = 0;
    double firstToken = -1;
    double lastToken = 0;
    double finish = -1;
    int replica = -1;
    bool done = false;
    bool rejected = false;
    long fastBase = -1;     // in its replica's summary since this many fast steps; -1: not in it
};

struct Replica
{
    std::deque<int> waiting;
    std::vector<int> running;
    long freeBlocks = 0;
    bool busy = false;
    double stepEnd = kNever;
    int inFlight = 0;
    std::vector<int> stepDecodes;
    std::vector<std::pair<int, int>> stepPrefills;  // request, chunk tokens

    // The summary decode steps run from in O(1) (Simulation::fastDecodes).
    bool uniform = false;        // every running request is in the summary
    bool stepFast = false;       // the step under way decoded from the summary
    long fastSteps = 0;          // steps run from the summary since it was taken
    double stepStart = 0;
    double lastFastEnd = 0;
    long decoding = 0;           // requests in the summary
    // Running requests still prefilling, outside the summary: always the last ones of `running`
    // (a request is admitted at the back), so the decodes come first in a step as in the
    // general scheduler's pass.
    long prefilling = 0;
    long admitted = 0;           // requests the step under way admitted
    long long started = 0;       // steps started (for the scheduler's receive interval)
    long uncapped = 0;           // of them, those whose KV read is below the sliding window
    double uncappedKv = 0;       // their KV tokens, less the steps before each joined
    long capSlack = 0;           // steps before the first of them reaches the window
    std::vector<long> blockPhase;  // requests needing a new KV block at step s, by s mod block size
    // (step at whose end the request emits its last token, request), earliest first
    std::vector<std::pair<long, int>> finishing;
};

class Simulation
{
public:
    Simulation(const StepModel &model, const SimConfig &config, const TrafficSpec &traffic);

    SimResult run(const std::stop_token &stop);

private:
    void makeRequests();

    double nextArrivalTime(std::size_t next) const;

    void dispatch(int id, double now);

    long blocksFor(long tokens) const { return (tokens + m_blockTokens - 1) / m_blockTokens; }

    void release(Replica &r, Request &q);

    // Recompute preemption: the request gives back its KV and will prefill its prompt and the
    // tokens generated so far again.
    void preempt(Replica &r, int id);

    // Decode steps in O(1). Between the events that change a replica's batch in other ways (a
    // chunked prefill, a preemption, a request reaching the sliding window) a step decodes the
    // same requests, each one token further: its work changes only by the KV read growing one
    // token per sequence and the blocks taken by the sequences that cross a block boundary. After
    // each general step the running requests are summarised (summarise); while the summary holds,
    // the decode part of a step is computed from it without touching the requests, a new request's
    // prefill is scheduled as usual and the request joins the summary once its first token is out
    // (join), and the requests finishing are found in a heap (finishStep). A request catches up
    // with the steps it was advanced by (catchUp) when it finishes or before a general step. The
    // batch is the one the general scheduler would have built, to the last token: the sums are of
    // whole numbers, exact in double.
    bool fastDecodes(Replica &r, StepBatch &batch);

    // A request in the summary, advanced by fastSteps since it joined at fastBase, takes on those
    // steps (its tokens, KV entries, blocks and last token time) and leaves the summary.
    void catchUp(Replica &r, Request &q);

    void catchUpAll(Replica &r);

    // q, decoding with its latest token out at this step's end, joins the summary: its figures
    // are kept as they would be had it been there since the summary was taken (fastSteps ago).
    bool join(Replica &r, Request &q, int id, bool heap = true);

    void leave(Replica &r, const Request &q);

    // After a general step: the summary of the running requests, if they all decode with their
    // latest token out at `now`.
    void summarise(Replica &r, double now);

    void startStep(int index, double now);

    // The general scheduler's pass over the running requests: prefill chunks, then decodes, each
    // decode taking a KV slot and preempting the newest request when none is free.
    void scheduleRunning(Replica &r, StepBatch &batch, long &budget);

    // The next chunk of a running request's prefill, as far as the budget and the free blocks go.
    void schedulePrefillChunk(Replica &r, StepBatch &batch, int id, long &budget);

    // New requests, first come first served, while the token budget, the sequence limit and the
    // free KV blocks allow.
    void admit(Replica &r, StepBatch &batch, long budget);

    double kvRead(long tokens) const;

    void schedulePrefill(Replica &r, StepBatch &batch, int id, int chunk);

    // Emits one token of q at `now`; returns true when q is complete.
    bool emit(Request &q, double now);

    // The step's tokens are emitted (prefills first, then decodes in running order) and its
    // requests complete afterwards; each completion records the output tokens emitted when its
    // own last token was (the throughput is measured on those records), so a decode from the
    // summary records what the same decode in the general pass would have.
    int finishStep(int index, double now);

    void complete(Replica &r, Request &q, double now, long long tokensEmitted);

    // Closed loop: a finished (or refused) request's client sends the next one at once.
    void issueNext(double now);

    SimResult collect();

    const StepModel &m_model;
    SimConfig m_config;
    TrafficSpec m_traffic;
    std::vector<Request> m_requests;
    std::vector<Replica> m_replicas;
    int m_blockTokens = 16;
    long m_totalBlocks = 0;
    long m_watermarkBlocks = 0;
    int m_warmup = 0;
    int m_issued = 0;
    int m_rejectedNow = 0;
    std::vector<std::pair<int, long long>> m_finishedNow;
    double m_measureStart = 0;
    double m_lastFinish = 0;
    long long m_preemptions = 0;
    long long m_steps = 0;
    long long m_fastSteps = 0;
    double m_batchSum = 0;
    long long m_tokensEmitted = 0;
    long long m_completed = 0;
    struct Progress
    {
        double time;
        long long tokens;       // output tokens emitted by then
        long long completed;    // requests finished by then
    };
    std::vector<Progress> m_progress;  // at every completion
    bool m_measuring = false;
    GapHistogram m_gaps;
    // (step end, replica), earliest first; ties go to the lower replica index.
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> m_stepEnds;
};

} // namespace wb::detail
