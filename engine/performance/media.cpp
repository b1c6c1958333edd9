#include "performance/media.h"

#include "core/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <queue>
#include <random>

namespace wb {

double mediaPeakFlops(const GpuSpec &gpu, Precision weights)
{
    if (weights == Precision::Fp32)
        return gpu.denseFlops.tf32.value_or(gpu.denseFlops.fp32.value_or(0));
    return gpu.peakFlops(Precision::Bf16).value_or(0);
}

MediaTimes mediaBatchTime(const Brief &brief, const Candidate &cand, const GpuSpec &gpu, const EfficiencyTable &table,
                          int batch)
{
    const MediaSpec &media = *brief.workload.media;
    const MediaWork w = media.work();
    const double peak = mediaPeakFlops(gpu, brief.workload.weightsPrecision);
    // The denoiser's passes split over the replica's GPUs; text encoders and the VAE run on one.
    const double oneGpu = peak * table.value("media_dense_share");
    const double dense = oneGpu * cand.gpusPerReplica();
    const double attention = peak * table.value("media_attention_share") * cand.gpusPerReplica();
    const double weightBytes = media.denoiserBytes(brief.workload.weightsPrecision);
    const double stream = gpu.memoryBandwidthBytesPerS * table.value(table.memoryKey(gpu));
    MediaTimes t;
    const double b = batch;
    t.text = b * 2 * w.textMacs / oneGpu;
    const double pass = std::max(b * 2 * (w.pass.linear / dense + w.pass.attention / attention), weightBytes / stream);
    t.denoise = double(w.steps) * w.passesPerStep * pass;
    t.vae = b * 2 * (w.vae.linear + w.vae.attention * table.value("media_dense_share") / table.value("media_attention_share"))
        / oneGpu;
    return t;
}

std::optional<MediaPerformance> mediaPerformance(const Brief &brief, const Candidate &cand, const GpuSpec &gpu,
                                                 const FitResult &fit, const EfficiencyTable &table,
                                                 std::vector<Warning> &warnings)
{
    if (!fit.mediaBatch || !(mediaPeakFlops(gpu, brief.workload.weightsPrecision) > 0))
        return std::nullopt;
    const MediaSpec &media = *brief.workload.media;
    MediaPerformance p;
    p.work = media.work();
    p.denseShare = table.value("media_dense_share");
    p.attentionShare = table.value("media_attention_share");
    p.single = mediaBatchTime(brief, cand, gpu, table, 1);
    p.secondsPerOutput = p.single.total();
    const int gpus = cand.gpusPerReplica();
    const int replicas = std::max(1, cand.replicas());
    // The batch is the brief's, or the largest that fits (the fit's): the queue takes up to it
    // from what is waiting, so at light load outputs still go one by one.
    for (int b = 1; b <= *fit.mediaBatch; ++b)
        p.outputsPerHourByBatch.push_back({b, b / mediaBatchTime(brief, cand, gpu, table, b).total() * 3600 / gpus});
    p.batch = *fit.mediaBatch;
    p.batchFromBrief = media.batchSize.has_value();
    p.queueBatch = p.batch;
    for (const auto &[b, perGpu] : p.outputsPerHourByBatch)
        if (perGpu >= 0.99 * p.outputsPerHourByBatch.back().second) {
            p.queueBatch = int(b);
            break;
        }
    p.batchParts = mediaBatchTime(brief, cand, gpu, table, p.batch);
    p.secondsPerBatch = p.batchParts.total();
    p.outputsPerHour = replicas * p.batch / p.secondsPerBatch * 3600;
    p.outputsPerHourPerGpu = p.outputsPerHour / (replicas * gpus);
    p.flopsPerOutput = 2 * (p.work.textMacs + double(p.work.steps) * p.work.passesPerStep * (p.work.pass.linear + p.work.pass.attention)
                            + p.work.vae.linear + p.work.vae.attention);

    // Batching pays in this model only while a pass streams its weights faster than it computes.
    // A pipeline compute-bound from one output on gets no more outputs an hour from a larger
    // batch here; real stacks gain some from fuller kernels, which the model does not count.
    if (p.outputsPerHourByBatch.size() > 1
        && p.outputsPerHourByBatch.back().second < 1.01 * p.outputsPerHourByBatch.front().second) {
        const double peak = mediaPeakFlops(gpu, brief.workload.weightsPrecision) * gpus;
        const double mathS = 2 * (p.work.pass.linear / (peak * p.denseShare) + p.work.pass.attention / (peak * p.attentionShare));
        const double weightsS = media.denoiserBytes(brief.workload.weightsPrecision)
                                / (gpu.memoryBandwidthBytesPerS * table.value(table.memoryKey(gpu)));
        warnings.push_back(makeMessage(
            "media-batch-no-gain", "/workload/media/batch_size",
            WB_MESSAGE("Messages", "one denoising pass of one output takes {math_ms:.1f} ms of math against {weights_ms:.1f} ms "
                       "to read the denoiser's weights, so the model finds the pipeline compute-bound from batch 1: "
                       "outputs an hour do not grow with the batch ({batch} fits), and batching only makes outputs "
                       "wait for each other. Real stacks gain some throughput from fuller kernels at larger batches, "
                       "which the model does not count (no published batch sweep is in its validation data)"),
            {{"math_ms", 1e3 * mathS}, {"weights_ms", 1e3 * weightsS}, {"batch", std::int64_t(p.batch)}}));
    }

    const Precision wp = brief.workload.weightsPrecision;
    if (wp == Precision::Fp8 || wp == Precision::Int8 || wp == Precision::Fp4 || wp == Precision::Int4 || wp == Precision::Nf4)
        warnings.push_back(makeMessage("media-quantized-speed", "/workload/weights_precision",
                                       WB_MESSAGE("Messages", "{precision} weights are counted for memory only: the pipeline's math "
                                                  "is timed at the bf16 rate. Public SDXL runs with an fp8 UNet (MLPerf) "
                                                  "reach about the bf16 rate of the same count; a DiT's larger GEMMs may "
                                                  "gain more than that"),
                                       {{"precision", std::string(enumName(wp))}}));
    if (wp == Precision::Fp32)
        warnings.push_back(makeMessage("media-fp32", "/workload/weights_precision",
                                       WB_MESSAGE("Messages", "fp32 weights: the pipeline's math is timed at the TF32 tensor rate "
                                                  "(PyTorch's TF32 matmuls), half the bf16 rate; without TF32 it is "
                                                  "slower still")));
    if (gpus > 1)
        warnings.push_back(makeMessage(
            "media-parallel-overhead", candidateField("tensor_parallel"),
            gpus > gpu.scaleUp.domainGpus
                ? WB_MESSAGE("Messages", "the {gpus} GPUs of a replica are assumed to split each denoising pass evenly (sequence "
                             "parallelism; text encoders and VAE on one); the exchange between them is not counted, so "
                             "the speed-up is an upper bound, and {gpus} GPUs cross the {domain_gpus}-GPU scale-up domain")
                : WB_MESSAGE("Messages", "the {gpus} GPUs of a replica are assumed to split each denoising pass evenly (sequence "
                             "parallelism; text encoders and VAE on one); the exchange between them is not counted, so "
                             "the speed-up is an upper bound"),
            {{"gpus", std::int64_t(gpus)}, {"domain_gpus", std::int64_t(gpu.scaleUp.domainGpus)}}));
    if (media.model.video)
        warnings.push_back(makeMessage("media-video-vae-estimate", "",
                                       WB_MESSAGE("Messages", "the video VAE's 3-D decoder is counted as its 2-D decoder on every "
                                                  "frame times its temporal kernel, an upper bound on its work")));
    std::vector<std::string> prior;
    for (const char *key : {"media_dense_share", "media_attention_share"})
        if (const EfficiencyFactor *f = table.factor(key); f && !f->calibrated())
            prior.push_back(key);
    if (!prior.empty())
        warnings.push_back(makeMessage("uncalibrated-efficiency", "",
                                       WB_MESSAGE("Messages", "the media factors {factors} rest on their literature priors (no "
                                                  "calibration loaded)"),
                                       {{"factors", fmt::format("{}", fmt::join(prior, ", "))}}));
    return p;
}

MediaQueueResult simulateMediaQueue(const TrafficSpec &t, int replicas, int maxBatch, const std::vector<double> &batchSeconds)
{
    MediaQueueResult out;
    const int n = std::max(1, t.requests);
    std::mt19937_64 rng(t.seed);
    // Pending arrivals (time, request), earliest first.
    using Arrival = std::pair<double, int>;
    std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> pending;
    std::vector<double> arrival(std::size_t(n), 0), finish(std::size_t(n), 0);
    int issued = 0;
    if (t.mode == TrafficMode::OpenLoop) {
        const double k = std::max(1e-3, t.burstiness);
        double now = 0;
        for (; issued < n; ++issued) {
            double rate = t.ratePerS;
            if (t.burstMultiplier && t.burstPeriodS > 0 && std::fmod(now, t.burstPeriodS) >= t.burstPeriodS - t.burstDurationS)
                rate *= *t.burstMultiplier;
            now += std::gamma_distribution<double>(k, 1.0 / (rate * k))(rng);
            pending.push({now, issued});
        }
    } else {
        const int first = t.mode == TrafficMode::ClosedLoop ? std::min(n, std::max(1, t.concurrency)) : n;
        for (; issued < first; ++issued)
            pending.push({0.0, issued});
    }
    // The servers' free times, earliest first. More servers than requests never queue: as many
    // servers as requests behave the same.
    std::priority_queue<double, std::vector<double>, std::greater<>> freeAt;
    for (int s = 0; s < std::clamp(replicas, 1, n); ++s)
        freeAt.push(0.0);
    std::deque<int> queue;
    int done = 0;
    while (done < n) {
        // The server free first starts its next batch once it is free and a request has arrived;
        // it takes what has arrived by then (a queue filled by a server further on in time may
        // hold requests that arrive later still).
        double start = freeAt.top();
        if (!queue.empty())
            start = std::max(start, arrival[std::size_t(queue.front())]);
        else if (!pending.empty())
            start = std::max(start, pending.top().first);
        else
            break;
        while (!pending.empty() && pending.top().first <= start) {
            arrival[std::size_t(pending.top().second)] = pending.top().first;
            queue.push_back(pending.top().second);
            pending.pop();
        }
        // What has arrived is shared among the servers idle by then (a batch is no faster per output
        // than one alone, so idle GPUs take their part), each taking at most maxBatch.
        int waiting = 0;
        while (waiting < int(queue.size()) && arrival[std::size_t(queue[std::size_t(waiting)])] <= start)
            ++waiting;
        int b = std::min(maxBatch, waiting);
        if (b > 1) {
            std::vector<double> servers;  // the heap's contents, to count the idle ones (batching briefs only)
            for (auto copy = freeAt; !copy.empty() && copy.top() <= start; copy.pop())
                servers.push_back(copy.top());
            const int idle = std::max(1, int(servers.size()));
            b = std::min(maxBatch, (waiting + idle - 1) / idle);
        }
        if (b == 0)
            break;
        freeAt.pop();
        const double end = start + batchSeconds[std::size_t(b - 1)];
        for (int i = 0; i < b; ++i) {
            const int id = queue.front();
            queue.pop_front();
            finish[std::size_t(id)] = end;
            ++done;
            if (t.mode == TrafficMode::ClosedLoop && issued < n)
                pending.push({end, issued++});
        }
        freeAt.push(end);
    }
    const int warm = std::min(n - 1, int(t.warmupFraction * n));
    std::vector<double> e2e;
    double firstArrival = INFINITY, lastFinish = 0;
    for (int i = warm; i < n; ++i) {
        e2e.push_back(finish[std::size_t(i)] - arrival[std::size_t(i)]);
        firstArrival = std::min(firstArrival, arrival[std::size_t(i)]);
        lastFinish = std::max(lastFinish, finish[std::size_t(i)]);
    }
    out.completed = int(e2e.size());
    out.e2e = distributionOf(std::move(e2e));
    out.outputsPerS = lastFinish > firstArrival ? out.completed / (lastFinish - firstArrival) : 0;
    return out;
}

} // namespace wb
