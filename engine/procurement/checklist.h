// The vendor checklist's template: the method's procurement questions in four sections (hardware
// and topology, software stack, commercial model, security and governance), each with what counts
// as evidence and the commitment from which it is required. Shipped as
// resources/checklist/procurement.json; vendors' answers live in the project (a later step).
#pragma once

#include "core/result.h"
#include "core/types.h"

#include <string>
#include <vector>

namespace wb {

struct ChecklistSection
{
    std::string id;       // a plain name: "hardware"
    std::string title;    // English
    std::string titleEs;  // as the method writes it, kept for the translated UI
};

struct ChecklistItem
{
    std::string id;          // a plain name, unique in the template: "hw-interconnect"
    std::string section;     // a ChecklistSection id
    std::string question;    // English
    std::string questionEs;  // as the method writes it
    std::string evidence;    // what counts as an answer backed by evidence
    Commitment requiredFrom = Commitment::OnDemand;  // required from this commitment upward
    // The figures an answer bears on ("fit", "performance" or "cost"; empty: none) and what in
    // them: shown beside those figures (gateByChecklist's notes).
    std::string affects;
    std::string affectsWhat;

    bool requiredFor(Commitment commitment) const { return commitment >= requiredFrom; }
};

struct ChecklistTemplate
{
    std::string templateVersion;  // stored with a project's answers: which questions they answer
    std::string source;           // where the questions come from
    std::vector<ChecklistSection> sections;
    std::vector<ChecklistItem> items;  // in the template's order, grouped by section

    const ChecklistSection *section(const std::string &id) const;
    const ChecklistItem *item(const std::string &id) const;
};

// Reads a checklist template (format "gpu-workbench-checklist", version 1). Refused, with the
// file and the JSON path named: unknown sections, duplicate ids, empty questions or evidence, an
// unknown commitment, ids that are not plain names, items not grouped under their section.
Result<ChecklistTemplate> parseChecklistTemplate(const std::string &jsonText, const std::string &fileName);
// The shipped template, resources/checklist/procurement.json (under resourceDir() when
// `resources` is empty).
Result<ChecklistTemplate> loadChecklistTemplate(const std::string &resources = {});

} // namespace wb
