// Media generation (catalog/mediamodel.h, fit/mediafit.cpp, performance/media.h, the media cost
// lines): the pass counts against published counts and hand-worked ones, the batching queue
// against queueing theory, the properties a person relies on (more steps, pixels or guidance
// never make an output faster; more GPUs never fewer outputs), and the brief's refusals.
#include "testsupport.h"

#include <catalog/mediamodel.h>
#include <evaluate/evaluate.h>
#include <fit/fit.h>
#include <performance/media.h>
#include <report/report.h>

#include <nlohmann/json.hpp>

#include <QObject>
#include <QTest>

#include <cmath>
#include <string>

namespace {

// An SDXL (or other) brief; `media` is the workload.media object's inside, `candidates` the list's.
std::string mediaBrief(const std::string &media = R"("model": "sdxl-1.0-base", "width": 1024, "height": 1024, "steps": 30)",
                       const std::string &candidates = R"({"gpu": "h100-sxm-80gb", "gpus": 8}, {"gpu": "l40s-48gb", "gpus": 8})",
                       const std::string &traffic = R"({"mode": "open-loop", "request_rate_per_s": 2})")
{
    return R"({"format": "gpu-workbench-brief", "version": 1, "name": "m",
      "workload": {"kind": "media-generation", "media": {)" + media + R"(}, "traffic": )" + traffic + R"(,
        "slo": {"e2e_p99_s": 20}, "acceptance": {"quality_pass_rate": 0.8, "failure_rate": 0.02}},
      "cost": {"decision": {"api_allowed": false}},
      "candidates": [)" + candidates + "]}";
}

wb::Results run(const std::string &json)
{
    wb::EvaluateOptions o;
    o.today = "2026-12-01";
    return wb::evaluate(wbtest::parseOrFail(json), wbtest::shippedCatalog(), o);
}

wb::MediaPerformance mediaOf(const wb::Results &r, std::size_t i = 0)
{
    const auto &m = r.results.at(i).performance.media;
    if (!m) {
        std::string why;
        for (const wb::Warning &w : r.results.at(i).warnings)
            why += w.code + ": " + w.message + "; ";
        qFatal("no media figures: %s", why.c_str());
    }
    return *m;
}

// The error a brief gets, as text ("" when it parses).
std::string refusal(const std::string &json)
{
    auto b = wb::parseBrief(json, "m.json", wbtest::shippedCatalog());
    return b ? std::string() : b.error().toString();
}

} // namespace

class TestMedia : public QObject
{
    Q_OBJECT

private slots:
    // BK-SDM's THOP counts for Stable Diffusion 1.4 at 512x512 (github.com/Nota-NetsPresso/BK-SDM
    // issue 53, src/count_macs_params.py): U-Net 338,749,194,240 MACs and image decoder
    // 1,240,079,532,032 MACs. SD 1.4's UNet config: channels 320/640/1280/1280, one transformer
    // block on the first three levels and in the middle, two ResNets a level, CLIP ViT-L's 768-wide
    // states over 77 tokens; its VAE: 128/256/512/512, two ResNets a level, 4 latent channels. THOP
    // counts convolutions and linear layers, not attention's products, as `linear` does here.
    void countsMatchPublishedSd14()
    {
        wb::UnetArch unet;
        unet.blockOutChannels = {320, 640, 1280, 1280};
        unet.transformerLayers = {1, 1, 1, 0};
        unet.layersPerBlock = 2;
        unet.midTransformerLayers = 1;
        unet.crossAttentionDim = 768;
        const wb::MacCount u = wb::unetPass(unet, 4, 64, 64, 77);
        QVERIFY2(std::fabs(u.linear / 338749194240.0 - 1) < 0.002, std::to_string(u.linear).c_str());
        wb::VaeArch vae;
        vae.blockOutChannels = {128, 256, 512, 512};
        vae.layersPerBlock = 2;
        vae.latentChannels = 4;
        vae.spatialFactor = 8;
        const wb::MacCount v = wb::vaeDecode(vae, 64, 64);
        QVERIFY2(std::fabs(v.linear / 1240079532032.0 - 1) < 0.002, std::to_string(v.linear).c_str());
        // Attention is counted apart: the first level's self-attention in one block alone is
        // 2 x 4096^2 x 320 MACs (Q K^T and A V over its 4,096 latent pixels).
        QVERIFY(u.attention > 2.0 * 4096 * 4096 * 320);
    }

    // FLUX.1 [dev] at 1024x1024: 128x128 latent, 2x2 patches -> 4,096 image tokens, plus 512 T5
    // tokens in the joint sequence: T = 4,608. 57 blocks of width 3,072, feed-forward 12,288:
    //   linear    = 57 x 4,608 x (4 x 3,072^2 + 2 x 3,072 x 12,288) = 57 x 4,608 x 113,246,208
    //             = 29,745,393,664,... = 2.9745e13 MACs
    //   attention = 57 x 2 x 3,072 x 4,608^2 = 7.4364e12 MACs
    void ditPassIsHandWorked()
    {
        const wb::MediaModelSpec *flux = wbtest::shippedCatalog().mediaModel("flux.1-dev");
        QVERIFY(flux);
        const wb::MediaWork w = wb::mediaWork(*flux, 1024, 1024, 1, 50, 1);
        QCOMPARE(w.tokens, 4096.0);
        QVERIFY(std::fabs(w.pass.linear / (57.0 * 4608 * 113246208) - 1) < 1e-12);
        QVERIFY(std::fabs(w.pass.attention / (57.0 * 2 * 3072 * 4608.0 * 4608) - 1) < 1e-12);
        // CogVideoX-5B, 49 frames of 720x480: (49 - 1) / 4 + 1 = 13 latent frames of 90x60, 2x2
        // patches: 13 x 45 x 30 = 17,550 tokens (226 text tokens join them).
        const wb::MediaWork c = wb::mediaWork(*wbtest::shippedCatalog().mediaModel("cogvideox-5b"), 720, 480, 49, 50, 2);
        QCOMPARE(c.latentFrames, 13);
        QCOMPARE(c.tokens, 17550.0);
    }

    // Batching pays only while a pass is bound by reading the weights. SDXL's UNet at 1,024 x
    // 1,024 (128 x 128 latent) is about 3.4 TMACs a pass (6.7 TFLOP) against 5.1 GB of bf16
    // weights: on an H100 (989 TFLOP/s dense, 3.35 TB/s) the math takes milliseconds more than the
    // read even at full rates, so outputs an hour are flat in the batch and the page says why. At
    // 256 x 256 (32 x 32 latent) a pass is about 1/16 of the linear work (attention less still),
    // under the 1.5 ms read: a larger batch gives more outputs an hour, and nothing is said.
    void batchingPaysOnlyWhenWeightsBind()
    {
        const auto flatWarned = [](const wb::Results &r) {
            for (const wb::Warning &w : wb::deployment(r.results.at(0)).warnings)
                if (w.code == "media-batch-no-gain")
                    return true;
            return false;
        };
        const wb::Results big = run(mediaBrief(R"("model": "sdxl-1.0-base", "width": 1024, "height": 1024, "steps": 30)",
                                               R"({"gpu": "h100-sxm-80gb", "gpus": 1})"));
        const auto &byBatch = mediaOf(big).outputsPerHourByBatch;
        QVERIFY(byBatch.size() > 8);
        QVERIFY(byBatch.back().second < 1.01 * byBatch.front().second);
        QVERIFY(flatWarned(big));
        const wb::Results small = run(mediaBrief(R"("model": "sdxl-1.0-base", "width": 256, "height": 256, "steps": 30)",
                                                 R"({"gpu": "h100-sxm-80gb", "gpus": 1})"));
        const auto &smallByBatch = mediaOf(small).outputsPerHourByBatch;
        QVERIFY(smallByBatch.size() > 8);
        QVERIFY2(smallByBatch.back().second > 1.2 * smallByBatch.front().second,
                 std::to_string(smallByBatch.back().second / smallByBatch.front().second).c_str());
        QVERIFY(!flatWarned(small));
    }

    // SDXL's pipeline in bf16: UNet 2,567,463,684 x 2 + (text encoders 817,720,320 + VAE
    // 83,653,863) x 2 = 5,134,927,368 + 1,802,748,366 = 6,937,675,734 bytes; in fp8 the UNet
    // halves: 2,567,463,684 + 1,802,748,366 = 4,370,212,050.
    void weightsAreHandWorked()
    {
        wb::Brief b = wbtest::parseOrFail(mediaBrief());
        QCOMPARE(wb::mediaMemory(b, b.candidates.front(), 1).weights, 6937675734.0);
        b.workload.weightsPrecision = wb::Precision::Fp8;
        QCOMPARE(wb::mediaMemory(b, b.candidates.front(), 1).weights, 4370212050.0);
        // Activations grow with the batch.
        QVERIFY(wb::mediaMemory(b, b.candidates.front(), 8).activations > wb::mediaMemory(b, b.candidates.front(), 1).activations);
    }

    // The issue's case: SDXL on 8x H100 and 8x L40S gives images per hour and a cost per accepted
    // image; the H100 is faster per GPU by about its bf16 peak (989.4 / 362.05 = 2.73 TFLOP/s
    // ratio; the passes are compute-bound), and every spec field is in the JSON.
    void sdxlOnH100AndL40s()
    {
        const wb::Results r = run(mediaBrief());
        const wb::MediaPerformance h100 = mediaOf(r, 0), l40s = mediaOf(r, 1);
        QVERIFY(h100.outputsPerHour > 0 && l40s.outputsPerHour > 0);
        const double ratio = h100.outputsPerHourPerGpu / l40s.outputsPerHourPerGpu;
        QVERIFY2(ratio > 2.4 && ratio < 3.0, std::to_string(ratio).c_str());
        for (std::size_t i = 0; i < 2; ++i) {
            const auto &options = r.results.at(i).cost.options;
            QVERIFY(!options.empty());
            const wb::CostOption &o = options.front();
            QVERIFY(o.costPerAcceptedOutput > 0);
            double sum = 0;
            for (const wb::CostLine &l : o.lines)
                sum += l.usdPerMonth;
            QVERIFY(std::fabs(sum - o.totalUsdPerMonth) < 0.011);
            for (const char *line : {"gpu_compute", "storage", "failed_renders", "moderation_or_quality_filtering",
                                     "queue_overhead", "operator_review"})
                QVERIFY2(std::any_of(o.lines.begin(), o.lines.end(), [&](const wb::CostLine &l) { return l.name == line; }), line);
            // The job queue per job, not per GPU: 2 jobs/s x 730 h x 3,600 s = 5,256,000 jobs at
            // $1.20 a million (queue_usd_per_million_jobs) = $6.31, whatever the GPU count.
            for (const wb::CostLine &l : o.lines)
                if (l.name == "queue_overhead")
                    QCOMPARE(l.usdPerMonth, 6.31);
        }
        const auto j = nlohmann::json::parse(wb::resultsToJson(wbtest::parseOrFail(mediaBrief()), r));
        const auto &m = j["results"][0]["performance"]["media"];
        for (const char *key : {"seconds_per_output", "outputs_per_hour", "outputs_per_hour_per_gpu"})
            QVERIFY2(m[key].is_number() && m[key].get<double>() > 0, key);
        QVERIFY(m["e2e_s"]["p99"].is_number());
        QVERIFY(j["results"][0]["performance"]["ttft_s"].is_null());
    }

    // Properties: more steps, more pixels, guidance on, or more frames never make an output
    // faster; more GPUs never give fewer outputs an hour.
    void properties()
    {
        double last = 0;
        for (int steps : {1, 4, 20, 50, 200}) {
            const double s = mediaOf(run(mediaBrief(R"("model": "sdxl-1.0-base", "steps": )" + std::to_string(steps))))
                                 .secondsPerOutput;
            QVERIFY(s > last);
            last = s;
        }
        last = 0;
        for (int side : {512, 768, 1024, 1536}) {
            const std::string size = std::to_string(side);
            const double s = mediaOf(run(mediaBrief(R"("model": "sd3.5-large", "steps": 28, "width": )" + size
                                                    + R"(, "height": )" + size)))
                                 .secondsPerOutput;
            QVERIFY(s > last);
            last = s;
        }
        const double guided = mediaOf(run(mediaBrief(R"("model": "sdxl-1.0-base", "steps": 30)"))).secondsPerOutput;
        const double unguided = mediaOf(run(mediaBrief(R"("model": "sdxl-1.0-base", "steps": 30, "guidance": false)"))).secondsPerOutput;
        QVERIFY(unguided < guided);
        // FLUX.1 [dev] is guidance-distilled: guidance on or off is one pass a step.
        QCOMPARE(mediaOf(run(mediaBrief(R"("model": "flux.1-dev", "steps": 28)"))).secondsPerOutput,
                 mediaOf(run(mediaBrief(R"("model": "flux.1-dev", "steps": 28, "guidance": false)"))).secondsPerOutput);
        const std::string h200 = R"({"gpu": "h200-sxm-141gb", "gpus": 1})";
        QVERIFY(mediaOf(run(mediaBrief(R"("model": "wan2.1-t2v-14b", "frames": 81, "steps": 50)", h200))).secondsPerOutput
                > mediaOf(run(mediaBrief(R"("model": "wan2.1-t2v-14b", "frames": 33, "steps": 50)", h200))).secondsPerOutput);
        last = 0;
        for (int gpus : {1, 2, 4, 8}) {
            const double perHour = mediaOf(run(mediaBrief(R"("model": "sdxl-1.0-base", "steps": 30)",
                                                          R"({"gpu": "l40s-48gb", "gpus": )" + std::to_string(gpus) + "}")))
                                       .outputsPerHour;
            QVERIFY(perHour >= last);
            last = perHour;
        }
    }

    // The batching queue at batch 1 with Poisson arrivals is an M/D/1 queue: the mean wait is
    // rho D / (2 (1 - rho)) (Pollaczek-Khinchine). At rate 0.5/s and D = 1 s, rho = 0.5: the
    // mean end-to-end time is 1 + 0.5 = 1.5 s.
    void queueIsMd1()
    {
        wb::TrafficSpec t;
        t.mode = wb::TrafficMode::OpenLoop;
        t.ratePerS = 0.5;
        t.requests = 200000;
        t.warmupFraction = 0.05;
        const wb::MediaQueueResult q = wb::simulateMediaQueue(t, 1, 1, {1.0});
        QVERIFY2(std::fabs(q.e2e.mean / 1.5 - 1) < 0.03, std::to_string(q.e2e.mean).c_str());
        // Closed loop, one client: every request waits for nothing, end to end is the service time.
        t.mode = wb::TrafficMode::ClosedLoop;
        t.concurrency = 1;
        t.requests = 100;
        QCOMPARE(wb::simulateMediaQueue(t, 1, 4, {2.0, 3.0, 4.0, 5.0}).e2e.p99, 2.0);
        // Three clients on eight servers: no request waits and none finishes before its service
        // time; 3 / 0.8 = 3.75 outputs a second.
        t.concurrency = 3;
        t.requests = 3000;
        const wb::MediaQueueResult few = wb::simulateMediaQueue(t, 8, 1, {0.8});
        QVERIFY2(std::fabs(few.e2e.p50 - 0.8) < 1e-9 && std::fabs(few.e2e.mean - 0.8) < 1e-9, std::to_string(few.e2e.p50).c_str());
        QVERIFY2(std::fabs(few.outputsPerS / 3.75 - 1) < 0.01, std::to_string(few.outputsPerS).c_str());
        // Batches: a request never finishes sooner than its batch takes (two clients, batches of
        // up to 4 taking 1 s and more: every output waits at least the 1 s of one).
        t.concurrency = 2;
        const wb::MediaQueueResult batched = wb::simulateMediaQueue(t, 1, 4, {1.0, 1.5, 2.0, 2.5});
        QVERIFY2(batched.e2e.p50 >= 1.0 - 1e-9, std::to_string(batched.e2e.p50).c_str());
    }

    void refusals()
    {
        QVERIFY(refusal(mediaBrief()).empty());
        const std::string withModel = R"({"format": "gpu-workbench-brief", "version": 1, "name": "m",
          "workload": {"kind": "media-generation", "model": "llama-3-8b", "media": {"model": "sdxl-1.0-base"}},
          "candidates": [{"gpu": "l40s-48gb"}]})";
        QVERIFY2(refusal(withModel).find("/workload/model") != std::string::npos, refusal(withModel).c_str());
        const std::string none = R"({"format": "gpu-workbench-brief", "version": 1, "name": "m",
          "workload": {"kind": "media-generation"}, "candidates": [{"gpu": "l40s-48gb"}]})";
        QVERIFY2(refusal(none).find("/workload/media") != std::string::npos, refusal(none).c_str());
        QVERIFY(refusal(mediaBrief(R"("model": "sdxl-2")")).find("/workload/media/model") != std::string::npos);
        QVERIFY(refusal(mediaBrief(R"("model": "sdxl-1.0-base", "width": 1000)")).find("/workload/media/width") != std::string::npos);
        QVERIFY(refusal(mediaBrief(R"("model": "cogvideox-5b", "frames": 48)")).find("/workload/media/frames") != std::string::npos);
        QVERIFY(refusal(mediaBrief(R"("model": "sdxl-1.0-base", "frames": 5)")).find("/workload/media/frames") != std::string::npos);
        // The spec: "frames (1 for an image)"; an image brief that says so is read as one image.
        QVERIFY2(refusal(mediaBrief(R"("model": "sdxl-1.0-base", "frames": 1)")).empty(),
                 refusal(mediaBrief(R"("model": "sdxl-1.0-base", "frames": 1)")).c_str());
        QCOMPARE(wbtest::parseOrFail(mediaBrief(R"("model": "sdxl-1.0-base", "frames": 1)")).workload.media->frames, 1);
        QVERIFY(refusal(mediaBrief(R"("model": "sdxl-1.0-base", "steps": 0)")).find("/workload/media/steps") != std::string::npos);
        QVERIFY(refusal(mediaBrief(R"("model": "sdxl-1.0-base")", R"({"gpu": "h100-sxm-80gb", "gpus": 2, "pipeline_parallel": 2})"))
                    .find("/candidates/0/pipeline_parallel") != std::string::npos);
        std::string noneAccepted = mediaBrief();
        noneAccepted.replace(noneAccepted.find("\"quality_pass_rate\": 0.8"), 24, "\"quality_pass_rate\": 0.0");
        QVERIFY2(refusal(noneAccepted).find("/workload/acceptance/quality_pass_rate") != std::string::npos, refusal(noneAccepted).c_str());
        // Defaults are the model card's, and said.
        const wb::Brief b = wbtest::parseOrFail(mediaBrief(R"("model": "hunyuanvideo")"));
        QCOMPARE(b.workload.media->frames, 129);
        QVERIFY(std::any_of(b.warnings.begin(), b.warnings.end(), [](const wb::Warning &w) { return w.code == "media-defaults"; }));
    }

    // A pipeline that does not fit is a result: FLUX.1 [dev] in bf16 (23.8 GB denoiser, 9.8 GB of
    // text encoders) on a 24 GB L4 does not fit, and is not timed or priced.
    void tooLargeIsAResult()
    {
        const wb::Results r = run(mediaBrief(R"("model": "flux.1-dev", "steps": 28)", R"({"gpu": "l4-24gb", "gpus": 1})"));
        QVERIFY(r.results.at(0).fit.computed);
        QVERIFY(!r.results.at(0).fit.fits);
        QVERIFY(!r.results.at(0).performance.media);
    }
};

QTEST_GUILESS_MAIN(TestMedia)
#include "tst_media.moc"
