// libFuzzer target: opening a project file from arbitrary bytes must never crash, hang or leak;
// it either opens or says why not.
#include <store/project.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    auto project = wb::Project::openBytes(bytes, "fuzz.gpuwb");
    if (project) {
        // Reading everything back must work on whatever opened.
        for (const wb::Scenario &s : project->scenarios())
            (void)s.briefJson.size();
        (void)project->snapshots();
        (void)project->contentDigest();
    } else {
        (void)project.error().toString();
    }
    return 0;
}
