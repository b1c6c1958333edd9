// Memory fit of a media-generation pipeline: its weights, one batch's denoiser activations or
// one VAE decode, and the runtime; the largest batch that fits when the brief names none.
#include "fit/fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace wb {

MediaMemory mediaMemory(const Brief &brief, const Candidate &cand, int batch)
{
    const Workload &wl = brief.workload;
    const MediaSpec &media = *wl.media;
    const Assumptions &a = brief.assumptions;
    const MediaWork work = media.work();
    const double act = a.value(Assumption::ActivationBytes);
    MediaMemory m;
    // Every GPU of a replica holds the whole pipeline (sequence parallelism splits the tokens,
    // not the weights); text encoders and VAE stay in bf16.
    m.weights = media.pipelineBytes(wl.weightsPrecision);
    const double denoise = double(batch) * work.passesPerStep * work.pass.peakElements * act / cand.gpusPerReplica();
    m.activations = std::max(denoise, work.vaePeakElements * act);
    m.runtime = a.value(Assumption::RuntimeOverheadBytes);
    return m;
}

FitResult detail::fitMedia(const Brief &brief, const Candidate &cand, const GpuSpec &gpu)
{
    FitResult r;
    const Assumptions &a = brief.assumptions;
    const MediaSpec &media = *brief.workload.media;
    r.capacityBytes = gpu.memoryBytes;
    for (const std::string &c : gpu.caveats)
        r.warnings.push_back(catalogCaveat(gpu, c));
    r.computed = true;
    r.usableBytes = std::uint64_t(double(gpu.memoryBytes) * a.value(Assumption::GpuMemoryUtilization));
    const int most = int(a.value(Assumption::MediaMaxBatch));
    int batch = media.batchSize.value_or(1);
    if (!media.batchSize)
        while (batch < most && mediaMemory(brief, cand, batch + 1).total() <= double(r.usableBytes))
            ++batch;
    const MediaMemory m = mediaMemory(brief, cand, batch);
    r.breakdown.weights = std::uint64_t(m.weights);
    r.breakdown.activations = std::uint64_t(m.activations);
    r.breakdown.runtimeOverhead = std::uint64_t(m.runtime);
    r.perGpuBytes = r.breakdown.total();
    r.fits = double(r.perGpuBytes) <= double(r.usableBytes);
    r.headroomFraction = 1 - double(r.perGpuBytes) / double(r.capacityBytes);
    r.mediaBatch = batch;
    r.peakBasis = fmt::format("the pipeline's weights ({} denoiser, text encoders and VAE in bf16), the activations of "
                              "{} output{} denoised together{} or of one VAE decode, whichever is larger, and the runtime",
                              enumName(brief.workload.weightsPrecision), batch, batch == 1 ? "" : "s",
                              media.passesPerStep() == 2 ? " (two passes each under guidance)" : "");
    if (mediaMemory(brief, cand, 1).total() <= double(r.usableBytes))
        r.smallestGpuCount = cand.gpusPerReplica();
    if (!r.fits)
        r.warnings.push_back(makeMessage("does-not-fit", candidateField("gpu"),
                                         WB_MESSAGE("Messages", "{pipeline} needs {needed_gib:.1f} GiB a GPU at batch {batch}, above "
                                                    "the {usable_gib:.1f} GiB usable of {gpu}"),
                                         {{"pipeline", media.model.name}, {"needed_gib", double(r.perGpuBytes) / (1 << 30)},
                                          {"batch", std::int64_t(batch)}, {"usable_gib", double(r.usableBytes) / (1 << 30)},
                                          {"gpu", gpu.name}}));
    return r;
}

HeadroomGrid detail::mediaHeadroomGrid(const Brief &brief, const Candidate &cand, const GpuSpec &gpu)
{
    HeadroomGrid grid;
    const MediaSpec &media = *brief.workload.media;
    const int longSide = std::max(media.width, media.height);
    const int align = media.model.pixelAlignment();
    std::set<int> sides = {longSide};
    for (int side = 256; side <= 2048; side *= 2)
        sides.insert(side);
    std::set<int> batches = {media.batchSize.value_or(1)};
    const int most = int(brief.assumptions.value(Assumption::MediaMaxBatch));
    for (int b = 1; b <= most; b *= 2)
        batches.insert(b);
    grid.contexts.assign(sides.begin(), sides.end());
    grid.concurrencies.assign(batches.begin(), batches.end());
    grid.briefContext = longSide;
    grid.briefConcurrency = fitMedia(brief, cand, gpu).mediaBatch.value_or(1);
    batches.insert(grid.briefConcurrency);
    grid.concurrencies.assign(batches.begin(), batches.end());
    Brief scaled = brief;
    for (int side : grid.contexts) {
        // The aspect ratio kept, each side on the latent grid.
        const auto onGrid = [&](int pixels) {
            return std::max(align, int(std::lround(double(pixels) * side / longSide / align)) * align);
        };
        scaled.workload.media->width = onGrid(media.width);
        scaled.workload.media->height = onGrid(media.height);
        for (int batch : grid.concurrencies) {
            const double need = mediaMemory(scaled, cand, batch).total();
            grid.headroom.push_back(1 - need / double(gpu.memoryBytes));
            grid.fits.push_back(need <= double(gpu.memoryBytes) * brief.assumptions.value(Assumption::GpuMemoryUtilization));
        }
    }
    return grid;
}

} // namespace wb
