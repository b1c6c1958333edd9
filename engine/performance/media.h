// Media generation (text to image and video by latent diffusion) on one candidate: the arithmetic
// of a denoising pass counted from the pipeline's architecture at the brief's resolution, the
// pipeline's memory at a batch, seconds per output, outputs per hour at the best batch that fits,
// and end-to-end latency under the brief's traffic through a batching queue. Units: seconds,
// bytes, multiply-accumulates (MACs; FLOPs are twice as many).
//
// The arithmetic of a pass is counted from the pipeline's architecture (catalog/mediamodel.h).
//
// Time. Convolutions and linear layers run at media_dense_share of the bf16 dense peak and
// attention at media_attention_share of it (efficiency.h; calibrated on the media cases), a pass
// at least as long as reading the denoiser's weights; fp8 and int8 weights save memory, not time
// (see mediaPerformance's note). A batch is: text encoding, steps x passes (two a step under
// classifier-free guidance), and the VAE decode of each output.
#pragma once

#include "brief/brief.h"
#include "catalog/efficiency.h"
#include "fit/fit.h"
#include "performance/simulator.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wb {

struct MediaTimes
{
    double text = 0, denoise = 0, vae = 0;   // seconds for the batch
    double total() const { return text + denoise + vae; }
};

struct MediaPerformance
{
    int batch = 1;                      // the batch the throughput is at: the brief's, or the largest that fits
    // The most outputs the queue serves together: the smallest batch within 1% of the throughput at
    // `batch` (a larger one only makes outputs wait for each other).
    int queueBatch = 1;
    bool batchFromBrief = false;
    double secondsPerOutput = 0;        // one output alone on a replica
    MediaTimes single;                  // its parts
    double secondsPerBatch = 0;
    MediaTimes batchParts;
    double outputsPerHour = 0;          // whole candidate, at `batch`
    double outputsPerHourPerGpu = 0;
    double flopsPerOutput = 0;          // everything: text, denoiser, VAE
    double denseShare = 0, attentionShare = 0;   // the factors used
    std::vector<std::pair<double, double>> outputsPerHourByBatch;   // per GPU, every batch that fits
    MediaWork work;
};

// The dense peak a pipeline's math runs at: bf16's, or TF32's for fp32 weights.
double mediaPeakFlops(const GpuSpec &gpu, Precision weights);
// A batch of b outputs on one replica of the candidate, seconds by part.
MediaTimes mediaBatchTime(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu, const EfficiencyTable &table,
                          int batch);

// Speed and throughput; warnings are appended. Empty when the fit has no batch.
std::optional<MediaPerformance> mediaPerformance(const Brief &brief, const Candidate &candidate, const GpuSpec &gpu,
                                                 const FitResult &fit, const EfficiencyTable &table,
                                                 std::vector<Warning> &warnings);

// A batching queue: `replicas` servers; a free server takes its share of the waiting requests
// (shared among the servers idle then, at most `maxBatch`) and serves them together for
// batchSeconds(b). Arrivals as the simulator's (open-loop gamma with
// bursts, or closed-loop clients). End-to-end times of the measured requests.
struct MediaQueueResult
{
    Distribution e2e;
    double outputsPerS = 0;
    int completed = 0;
};
MediaQueueResult simulateMediaQueue(const TrafficSpec &traffic, int replicas, int maxBatch,
                                    const std::vector<double> &batchSeconds);

} // namespace wb
