// workload.media of a media-generation brief (mediabrief.h).
#include "brief/mediabrief.h"

#include "brief/fields.h"

#include <algorithm>
#include <string>

namespace wb::detail {

void noteUnknownFields(const Fields &f, const std::set<std::string> &known, std::vector<Warning> &warnings)
{
    for (const std::string &path : f.unknownKeys(known))
        warnings.push_back(makeMessage("unknown-field", path,
                                       WB_MESSAGE("Messages", "{field} is not a field this version reads; it was ignored"),
                                       {{"field", path}}));
}

// Sizes follow the latent grid: the VAE's pixels per latent pixel times the denoiser's patch (DiT)
// or its downsamplings (UNet).
MediaSpec parseMediaSpec(const Fields &w, const Catalog &catalog, std::vector<Warning> &warnings)
{
    if (!w.has("media"))
        w.fail("media", "is missing: a media-generation brief needs workload.media (model, and optionally width, "
                        "height, frames, steps, guidance, batch_size)");
    const Fields f = w.object("media");
    const std::string id = f.string("model");
    const MediaModelSpec *spec = catalog.mediaModel(id);
    if (!spec)
        f.fail("model", "\"" + id + "\" is not in the media catalog (gpuwb catalog media lists the ids)");
    const auto row = [&f](const char *key) -> const FieldRow & {
        return briefFields().at(f.pathOf(key), WorkloadKind::MediaGeneration);
    };
    MediaSpec m;
    m.model = *spec;
    const int align = spec->pixelAlignment();
    auto size = [&](const char *key, int native) {
        auto v = f.optInteger(key, row(key).range());
        if (!v) {
            m.defaulted.push_back(key);
            return native;
        }
        if (*v % align != 0)
            f.fail(key, "must be a multiple of " + std::to_string(align) + " pixels for " + spec->name
                            + " (its latent grid), not " + std::to_string(*v));
        return int(*v);
    };
    m.width = size("width", spec->defaultWidth);
    m.height = size("height", spec->defaultHeight);
    // An image is one frame (the spec: "frames (1 for an image)"); more applies to video pipelines.
    if (!spec->video && f.has("frames")) {
        const auto given = f.optInteger("frames", row("frames").range());
        if (given != 1)
            f.fail("frames", "must be 1 for an image pipeline (" + spec->name + " makes images, not video), not "
                                 + (given ? std::to_string(*given) : std::string("null")));
        m.frames = 1;
    } else if (auto frames = f.optInteger("frames", Range{row("frames").min, std::min(row("frames").max, double(spec->maxFrames))})) {
        m.frames = int(*frames);
        if ((m.frames - 1) % spec->vae.temporalFactor != 0)
            f.fail("frames", "must be 1 more than a multiple of " + std::to_string(spec->vae.temporalFactor) + " for "
                                 + spec->name + " (its VAE makes one latent frame of every "
                                 + std::to_string(spec->vae.temporalFactor) + " after the first), not "
                                 + std::to_string(m.frames));
    } else {
        m.frames = spec->defaultFrames;
        if (spec->video)
            m.defaulted.push_back("frames");
    }
    if (auto steps = f.optInteger("steps", row("steps").range())) {
        m.steps = int(*steps);
    } else {
        m.steps = spec->defaultSteps;
        m.defaulted.push_back("steps");
    }
    m.guidance = f.optBoolean("guidance").value_or(row("guidance").defaultBoolean());
    if (auto b = f.optInteger("batch_size", row("batch_size").range()))
        m.batchSize = int(*b);
    noteUnknownFields(f, briefFields().childKeys(f.path()), warnings);
    if (!m.defaulted.empty()) {
        // Each field taken from the model card, with the card's value.
        std::string list;
        for (const std::string &d : m.defaulted) {
            const int value = d == "width" ? m.width : d == "height" ? m.height : d == "frames" ? m.frames : m.steps;
            list += (list.empty() ? "" : ", ") + d + " " + std::to_string(value);
        }
        warnings.push_back(makeMessage("media-defaults", "/workload/media",
                                       WB_MESSAGE("Messages", "/workload/media: not given, so {pipeline}'s model card is followed: "
                                                  "{defaults}"),
                                       {{"pipeline", spec->name}, {"defaults", list}}));
    }
    return m;
}

} // namespace wb::detail
