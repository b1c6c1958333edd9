// A diffusion pipeline of the media catalog (resources/catalog/media.json): its denoiser, text
// encoders and VAE decoder, described by the architecture fields of each part's published
// config.json, and the arithmetic of its passes counted from them at any resolution rather than
// read off one published figure. Units: multiply-accumulates (MACs; FLOPs are twice as many).
//
// A UNet or VAE decoder is walked level by level as diffusers builds it (ResNet blocks of two 3x3
// convolutions, transformer blocks of self-attention, cross-attention and a GEGLU feed-forward,
// up- and down-sampling convolutions, the decoder's skip concatenations); a diffusion transformer
// is blocks x tokens x (4 h^2 + 2 h ffn) plus attention's 2 h T^2 a block. Linear and convolution
// MACs are what THOP-style counters report (BK-SDM's published counts for Stable Diffusion 1.4
// are the test); attention's matrix products are counted apart, because they run at another rate.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace wb {

// A latent-diffusion UNet (diffusers UNet2DConditionModel): resolution levels with their
// channels, ResNet blocks per level, and transformer blocks per level (0: a plain level).
struct UnetArch
{
    std::vector<int> blockOutChannels;    // e.g. SDXL 320, 640, 1280
    std::vector<int> transformerLayers;   // per level; 0 where the level has no attention
    int layersPerBlock = 2;
    int midTransformerLayers = 1;
    int crossAttentionDim = 768;          // width of the text states the cross-attention reads
};

// A diffusion transformer: its blocks act on the latent patches (and, when the text joins the
// sequence as in MMDiT, on the text tokens too).
struct DitArch
{
    int blocks = 0;          // double- and single-stream blocks together
    int hiddenSize = 0;
    int ffnSize = 0;         // feed-forward width
    bool jointText = true;   // text tokens join the attention sequence (MMDiT); else cross-attention
    int patchFrames = 1;     // latent frames per patch
    int patchSize = 2;       // latent pixels per patch side
};

// A VAE decoder (diffusers AutoencoderKL and its 3-D video relatives).
struct VaeArch
{
    std::vector<int> blockOutChannels;   // encoder order, e.g. 128, 256, 512, 512
    int layersPerBlock = 2;              // the decoder runs layersPerBlock + 1 ResNets per level
    int latentChannels = 4;
    int spatialFactor = 8;               // pixels per latent pixel, each side
    int temporalFactor = 1;              // video: frames per latent frame
    int temporalKernel = 1;              // video: 3-D convolutions' temporal extent
    double parameters = 0;
};

struct MediaModelSpec
{
    std::string id;
    std::string name;
    bool video = false;
    double denoiserParameters = 0;
    double textEncoderParameters = 0;    // all text encoders together
    int textTokens = 77;                 // tokens the text encoders emit (and the denoiser attends to)
    bool guidanceDistilled = false;      // one denoiser pass per step even with guidance
    std::optional<UnetArch> unet;        // exactly one of unet and dit
    std::optional<DitArch> dit;
    VaeArch vae;
    int defaultWidth = 1024, defaultHeight = 1024, defaultFrames = 1, defaultSteps = 50;
    int maxFrames = 1;
    // A video's frames per second as the model card plays its clips (native.fps): what turns
    // frames into the seconds a video API bills. 0 for an image model.
    double fps = 0;
    std::string sourceUrl;
    std::string sourceReadDate;
    std::string catalogFile;

    // Pixels a width or height must be a multiple of: the VAE's pixels per latent pixel times the
    // DiT's patch or the UNet's downsamplings.
    int pixelAlignment() const
    {
        return vae.spatialFactor * (dit ? dit->patchSize : 1 << (unet ? unet->blockOutChannels.size() - 1 : 0));
    }
};

// A part's arithmetic for one sample: linear and convolution MACs, attention MACs, and the
// activation elements alive at its peak.
struct MacCount
{
    double linear = 0;
    double attention = 0;
    double peakElements = 0;
};

// One pass of a UNet over a latent of latentH x latentW x channels, attending to textTokens.
MacCount unetPass(const UnetArch &unet, int latentChannels, int latentH, int latentW, int textTokens);
// One 2-D decode of a latent of latentH x latentW (a video decoder's per-frame share: see mediaWork).
MacCount vaeDecode(const VaeArch &vae, int latentH, int latentW);
// One pass of a diffusion transformer over `tokens` latent patches (text tokens added when they
// join the sequence).
MacCount ditPass(const DitArch &dit, double tokens, int textTokens);

// One output's work at the brief's size, batch 1.
struct MediaWork
{
    int latentH = 0, latentW = 0, latentFrames = 1;
    double tokens = 0;           // DiT: the latent patches of one pass (text excluded); UNet: latent pixels
    MacCount pass;               // one denoiser pass
    MacCount vae;                // decoding one output (all its frames)
    double textMacs = 0;         // the text encoders, once per prompt (and once for the negative prompt)
    double vaePeakElements = 0;  // decoding one chunk of frames
    int passesPerStep = 1;
    int steps = 0;
};
// width x height pixels, `frames` frames (1 for an image), `steps` steps of passesPerStep passes.
MediaWork mediaWork(const MediaModelSpec &model, int width, int height, int frames, int steps, int passesPerStep);

} // namespace wb
