// A Hugging Face config.json read into the brief's model value ({"name": ..., "hf_config": {...}}):
// the brief form and the new-comparison wizard both import models this way. Private to ui/.
#pragma once

#include <QString>

#include <optional>

namespace wb {

struct HfModel
{
    QString name;       // the config's folder, the usual name of the repository
    QString briefValue; // the JSON value for /workload/model
};

// The error names the file and what is wrong (unreadable, not JSON, an architecture the engine
// does not read); nothing is returned half-made.
std::optional<QString> readHfModel(const QString &path, HfModel *model);

} // namespace wb
