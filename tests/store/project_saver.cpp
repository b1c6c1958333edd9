// Helper of tst_project's kill loop: opens a project and saves it again and again, each time with
// a scenario whose brief carries the next counter value (and enough text that a save takes a
// while), until it is killed. Usage: project_saver FILE.gpuwb
#include <store/project.h>

#include <cstdio>
#include <string>

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    auto project = wb::Project::open(argv[1]);
    if (!project || project->readOnly())
        return 3;
    long counter = 0;
    if (auto s = project->scenario("state")) {
        const auto at = s->briefJson.find("\"counter\":");  // stored compact: no space after the colon
        if (at != std::string::npos)
            counter = std::atol(s->briefJson.c_str() + at + 10);
    }
    // 200 KB of padding in four strings (one string may hold at most 64 KiB).
    const std::string padding(50000, 'x');
    for (;;) {
        ++counter;
        std::string json = "{\"counter\": " + std::to_string(counter);
        for (int i = 0; i < 4; ++i)
            json += ", \"padding" + std::to_string(i) + "\": \"" + padding + "\"";
        json += "}";
        if (!project->putScenario("state", json) || !project->save(argv[1]))
            return 4;
    }
}
