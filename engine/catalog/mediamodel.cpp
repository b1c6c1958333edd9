// The media catalog's entries (a diffusion pipeline's parts as their config.json files describe
// them) and the arithmetic of their passes. tst_media checks the count against published figures.
#include "catalog/catalogparse.h"

#include "core/format.h"
#include "core/limits.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace wb::detail {

namespace {

std::vector<int> intList(const Fields &f, const std::string &key, int lo, int hi, std::size_t minSize, std::size_t maxSize)
{
    const Json &list = f.array(key);
    if (list.size() < minSize || list.size() > maxSize)
        f.fail(key, "must list " + std::to_string(minSize) + " to " + std::to_string(maxSize) + " numbers");
    std::vector<int> out;
    for (const Json &v : list) {
        if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
            f.fail(key, "must list whole numbers from " + std::to_string(lo) + " to " + std::to_string(hi));
        out.push_back(int(v.get<long long>()));
    }
    return out;
}

VaeArch parseVae(const Fields &f)
{
    VaeArch v;
    v.blockOutChannels = intList(f, "block_out_channels", 8, 4096, 1, 8);
    v.layersPerBlock = int(f.integer("layers_per_block", Range{1, 16}));
    v.latentChannels = int(f.integer("latent_channels", Range{1, 256}));
    v.spatialFactor = int(f.integer("spatial_factor", Range{1, 64}));
    if (v.spatialFactor != 1 << (v.blockOutChannels.size() - 1))
        f.fail("spatial_factor", "must be 2 to the power of the levels after the first (" +
                                     std::to_string(1 << (v.blockOutChannels.size() - 1)) + ")");
    v.temporalFactor = int(f.optInteger("temporal_factor", Range{1, 16}).value_or(1));
    v.temporalKernel = int(f.optInteger("temporal_kernel", Range{1, 7}).value_or(1));
    v.parameters = f.number("parameters", Range{1e5, 1e10});
    return v;
}

} // namespace

MediaModelSpec parseMediaEntry(const Fields &f)
{
    MediaModelSpec m;
    m.id = f.string("id");
    m.name = f.string("name");
    const std::string kind = f.string("kind");
    if (kind != "image" && kind != "video")
        f.fail("kind", "must be \"image\" or \"video\", not \"" + kind + "\"");
    m.video = kind == "video";
    m.denoiserParameters = f.number("denoiser_parameters", Range{1e6, 1e13});
    m.textEncoderParameters = f.number("text_encoder_parameters", Range{0, 1e13});
    m.textTokens = int(f.integer("text_tokens", Range{1, 4096}));
    m.guidanceDistilled = f.optBoolean("guidance_distilled").value_or(false);
    const bool hasUnet = f.has("unet"), hasDit = f.has("dit");
    if (hasUnet == hasDit)
        f.fail(hasUnet ? "dit" : "unet", "exactly one of unet and dit describes the denoiser");
    if (hasUnet) {
        const Fields u = f.object("unet");
        UnetArch a;
        a.blockOutChannels = intList(u, "block_out_channels", 8, 8192, 1, 8);
        a.transformerLayers = intList(u, "transformer_layers", 0, 64, 1, 8);
        if (a.transformerLayers.size() != a.blockOutChannels.size())
            u.fail("transformer_layers", "must give one count per level of block_out_channels");
        a.layersPerBlock = int(u.integer("layers_per_block", Range{1, 16}));
        a.midTransformerLayers = int(u.integer("mid_transformer_layers", Range{0, 64}));
        a.crossAttentionDim = int(u.integer("cross_attention_dim", Range{1, 1 << 16}));
        m.unet = a;
    } else {
        const Fields d = f.object("dit");
        DitArch a;
        a.blocks = int(d.integer("blocks", Range{1, 1000}));
        a.hiddenSize = int(d.integer("hidden_size", Range{64, 1 << 16}));
        a.ffnSize = int(d.integer("ffn_size", Range{64, 1 << 18}));
        a.jointText = d.boolean("joint_text");
        a.patchFrames = int(d.optInteger("patch_frames", Range{1, 16}).value_or(1));
        a.patchSize = int(d.integer("patch_size", Range{1, 16}));
        m.dit = a;
        // The weights a token passes through, blocks x (4 h^2 + 2 h ffn), are what a DiT's published
        // count holds at least once and at most about thrice (MMDiT's double streams, adaLN
        // modulation): 1.2x for CogVideoX-5B and Wan 2.1, 1.9x for FLUX.1, 3.0x for SD 3.5 Large.
        const double perToken = double(a.blocks) * (4.0 * a.hiddenSize * a.hiddenSize + 2.0 * a.hiddenSize * a.ffnSize);
        if (m.denoiserParameters < 0.8 * perToken || m.denoiserParameters > 4 * perToken)
            f.fail("denoiser_parameters", "says " + formatNumber(m.denoiserParameters / 1e9) + " B, but the DiT's blocks hold "
                                              + formatNumber(perToken / 1e9) + " B a token passes through (the count must be "
                                                                               "0.8 to 4 times that)");
    }
    m.vae = parseVae(f.object("vae"));
    if (m.video != (m.vae.temporalFactor > 1))
        f.fail("kind", m.video ? "is video, but the VAE has no temporal_factor above 1"
                               : "is image, but the VAE compresses frames (temporal_factor)");
    const Fields n = f.object("native");
    const int align = m.pixelAlignment();
    m.defaultWidth = int(n.integer("width", Range{double(align), 16384}));
    m.defaultHeight = int(n.integer("height", Range{double(align), 16384}));
    m.defaultSteps = int(n.integer("steps", Range{1, 1000}));
    m.maxFrames = int(n.optInteger("max_frames", Range{1, 10000}).value_or(1));
    m.defaultFrames = int(n.optInteger("frames", Range{1, double(m.maxFrames)}).value_or(1));
    if (!m.video && m.maxFrames != 1)
        n.fail("max_frames", "applies to video models");
    if (m.video)
        m.fps = n.number("fps", Range{1, 240});
    else if (n.has("fps"))
        n.fail("fps", "applies to video models");
    if (auto source = f.optObject("source")) {
        m.sourceUrl = source->string("url");
        m.sourceReadDate = source->string("read");
        if (!isIsoDate(m.sourceReadDate))
            source->fail("read", "must be a date written YYYY-MM-DD");
    }
    return m;
}

} // namespace wb::detail

namespace wb {

namespace {

double conv(double h, double w, double in, double out, int k)
{
    return h * w * in * out * k * k;
}

// A ResNet block: GroupNorm, 3x3 conv in -> out, the time embedding's projection, GroupNorm,
// 3x3 conv out -> out, and a 1x1 shortcut when the widths differ. Alive at its peak: its input,
// the two convolutions' outputs and the shortcut, about four tensors of the wider width.
void resnet(MacCount &m, double h, double w, int in, int out, int timeEmbed)
{
    m.linear += conv(h, w, in, out, 3) + conv(h, w, out, out, 3) + double(timeEmbed) * out;
    if (in != out)
        m.linear += conv(h, w, in, out, 1);
    m.peakElements = std::max(m.peakElements, 4 * h * w * std::max(in, out));
}

// A Transformer2DModel of `layers` BasicTransformerBlocks at width c over T = h x w tokens:
// projections in and out, self-attention (q, k, v, out), cross-attention (q and out on the image
// tokens, k and v on the text), a GEGLU feed-forward (c -> 2 x 4c, 4c -> c). Attention's products
// are Q K^T and A V: T x T x c each, and T x text x c for cross-attention.
void transformer(MacCount &m, double h, double w, int c, int layers, int crossDim, int textTokens)
{
    const double t = h * w;
    m.linear += 2 * t * c * c;
    for (int i = 0; i < layers; ++i) {
        m.linear += 4 * t * c * c + 2 * t * c * c + 2.0 * textTokens * crossDim * c + t * c * 8.0 * c + t * 4.0 * c * c;
        m.attention += 2 * t * t * c + 2 * t * textTokens * c;
    }
    m.peakElements = std::max(m.peakElements, t * (4.0 * c + 8.0 * c));  // residual, q, k, v and the GEGLU's 8c
}

} // namespace

MacCount unetPass(const UnetArch &u, int latentChannels, int latentH, int latentW, int textTokens)
{
    MacCount m;
    const int levels = int(u.blockOutChannels.size());
    const int timeEmbed = 4 * u.blockOutChannels.front();
    double h = latentH, w = latentW;
    m.linear += conv(h, w, latentChannels, u.blockOutChannels.front(), 3);
    m.linear += double(u.blockOutChannels.front()) * timeEmbed + double(timeEmbed) * timeEmbed;
    // The down path keeps every block's output for the up path's skip connections.
    std::vector<std::pair<int, double>> skips = {{u.blockOutChannels.front(), h * w}};
    int c = u.blockOutChannels.front();
    for (int i = 0; i < levels; ++i) {
        const int out = u.blockOutChannels[std::size_t(i)];
        for (int j = 0; j < u.layersPerBlock; ++j) {
            resnet(m, h, w, c, out, timeEmbed);
            c = out;
            if (u.transformerLayers[std::size_t(i)] > 0)
                transformer(m, h, w, c, u.transformerLayers[std::size_t(i)], u.crossAttentionDim, textTokens);
            skips.push_back({c, h * w});
        }
        if (i + 1 < levels) {
            h /= 2;
            w /= 2;
            m.linear += conv(h, w, c, c, 3);
            skips.push_back({c, h * w});
        }
    }
    double skipElements = 0;
    for (const auto &[channels, pixels] : skips)
        skipElements += channels * pixels;
    resnet(m, h, w, c, c, timeEmbed);
    if (u.midTransformerLayers > 0)
        transformer(m, h, w, c, u.midTransformerLayers, u.crossAttentionDim, textTokens);
    resnet(m, h, w, c, c, timeEmbed);
    for (int i = levels - 1; i >= 0; --i) {
        const int out = u.blockOutChannels[std::size_t(i)];
        for (int j = 0; j <= u.layersPerBlock; ++j) {
            const int skip = skips.back().first;
            skips.pop_back();
            resnet(m, h, w, c + skip, out, timeEmbed);
            c = out;
            if (u.transformerLayers[std::size_t(i)] > 0)
                transformer(m, h, w, c, u.transformerLayers[std::size_t(i)], u.crossAttentionDim, textTokens);
        }
        if (i > 0) {
            h *= 2;
            w *= 2;
            m.linear += conv(h, w, c, c, 3);
        }
    }
    m.linear += conv(h, w, c, latentChannels, 3);
    m.peakElements += skipElements;
    return m;
}

MacCount vaeDecode(const VaeArch &v, int latentH, int latentW)
{
    MacCount m;
    double h = latentH, w = latentW;
    int c = v.blockOutChannels.back();
    m.linear += conv(h, w, v.latentChannels, v.latentChannels, 1) + conv(h, w, v.latentChannels, c, 3);
    // Mid block: ResNet, one single-head self-attention over every latent pixel, ResNet.
    resnet(m, h, w, c, c, 0);
    m.linear += 4 * h * w * c * c;
    m.attention += 2 * (h * w) * (h * w) * c;
    resnet(m, h, w, c, c, 0);
    const int levels = int(v.blockOutChannels.size());
    for (int i = levels - 1; i >= 0; --i) {
        const int out = v.blockOutChannels[std::size_t(i)];
        for (int j = 0; j <= v.layersPerBlock; ++j) {
            resnet(m, h, w, c, out, 0);
            c = out;
        }
        if (i > 0) {
            h *= 2;
            w *= 2;
            m.linear += conv(h, w, c, c, 3);
        }
    }
    m.linear += conv(h, w, c, 3, 3);
    return m;
}

MacCount ditPass(const DitArch &d, double tokens, int textTokens)
{
    MacCount m;
    const double h = d.hiddenSize;
    const double t = tokens + (d.jointText ? textTokens : 0);
    // Per block: attention projections 4h^2 and the feed-forward 2 h ffn per token; a
    // cross-attention block adds q and out on the latent tokens and k, v on the text.
    m.linear = d.blocks * t * (4 * h * h + 2 * h * d.ffnSize);
    m.attention = d.blocks * 2 * h * t * t;
    if (!d.jointText) {
        m.linear += d.blocks * (2 * t * h * h + 2.0 * textTokens * h * h);
        m.attention += d.blocks * 2 * h * t * textTokens;
    }
    // Alive inside a block: the residual stream, q, k, v, the attention output and the feed-forward's width.
    m.peakElements = t * (5 * h + d.ffnSize);
    return m;
}

MediaWork mediaWork(const MediaModelSpec &spec, int width, int height, int frames, int steps, int passesPerStep)
{
    MediaWork w;
    w.latentH = height / spec.vae.spatialFactor;
    w.latentW = width / spec.vae.spatialFactor;
    w.latentFrames = (frames - 1) / spec.vae.temporalFactor + 1;
    w.passesPerStep = passesPerStep;
    w.steps = steps;
    if (spec.unet) {
        w.tokens = double(w.latentH) * w.latentW;
        w.pass = unetPass(*spec.unet, spec.vae.latentChannels, w.latentH, w.latentW, spec.textTokens);
    } else {
        const DitArch &d = *spec.dit;
        w.tokens = double((w.latentFrames + d.patchFrames - 1) / d.patchFrames) * (w.latentH / d.patchSize)
            * (w.latentW / d.patchSize);
        w.pass = ditPass(d, w.tokens, spec.textTokens);
    }
    // A video decoder's 3-D convolutions are counted as the 2-D decoder on every output frame
    // times the temporal kernel: an upper bound (its lower levels run on fewer frames). It
    // decodes a latent frame's output frames at a time.
    const MacCount frame = vaeDecode(spec.vae, w.latentH, w.latentW);
    const double perFrame = spec.video ? spec.vae.temporalKernel : 1;
    w.vae.linear = frame.linear * perFrame * frames;
    w.vae.attention = frame.attention * frames;
    w.vaePeakElements = frame.peakElements * spec.vae.temporalFactor * (spec.video ? spec.vae.temporalKernel : 1);
    // Transformer text encoders: about one MAC per parameter per token.
    w.textMacs = spec.textEncoderParameters * spec.textTokens * w.passesPerStep;
    return w;
}

} // namespace wb
