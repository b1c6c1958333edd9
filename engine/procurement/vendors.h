// The vendors a project asks the checklist's questions, and their answers. A project holds one
// ProjectChecklist (store/project.h saves it): the template version its answers were given
// against, the items and sections the team added, and per vendor its details and answers.
//
// The exchange file ("gpu-workbench-checklist-answers", version 1) carries vendors and answers
// in and out: `gpuwb checklist PROJECT --format json` writes it (every item with its question,
// required commitment and each vendor's answer), a vendor fills its answers, and
// `gpuwb checklist import` or the Checklist page reads it back.
#pragma once

#include "core/result.h"
#include "core/sheet.h"
#include "core/types.h"
#include "procurement/checklist.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace wb {

// Attachments larger than this are refused (the file named, its size and the limit said): a
// project keeps evidence documents, not datasets.
inline constexpr std::uint64_t kAttachmentMaxBytes = 25ull << 20;
// One import reads at most this much evidence (each file counted once).
inline constexpr std::uint64_t kImportEvidenceMaxBytes = 200ull << 20;
// Vendors a checklist (and an answers file) holds at most.
inline constexpr std::size_t kMaxVendors = 100;

// A file attached into the project as evidence; its bytes live in the project, found by hash.
struct Attachment
{
    std::string name;    // the file's name when it was attached (no folders)
    std::string sha256;  // 64 lower-case hex digits
    std::uint64_t bytes = 0;
};

struct VendorAnswer
{
    std::string item;  // a checklist item id
    Answer answer = Answer::Unknown;
    std::string text;                   // the vendor's words, or the team's notes
    std::string link;                   // evidence as a URL (or a document reference)
    std::optional<Attachment> file;     // evidence as a file in the project
    std::string answeredOn;             // ISO date, or empty
    std::string answeredBy;

    // A link (not blank) or a file.
    bool hasEvidence() const;
};

// A scenario's candidate a vendor backs (candidate counts from 1, as the window numbers them).
struct CandidateRef
{
    std::string scenario;
    int candidate = 1;
    bool operator==(const CandidateRef &) const = default;
};

struct Vendor
{
    std::string name;  // unique in the project; 1 to 200 printable characters
    VendorOffer offer = VendorOffer::PublicCloud;
    // The price quotes it backs, by the provider name a price gives ("cost.prices[].provider" or
    // the catalog's), and the candidates it offers.
    std::vector<std::string> providers;
    std::vector<CandidateRef> candidates;
    std::string contact;    // a person, an email or a phone number
    std::string contacted;  // ISO date the questions were sent, or empty
    std::string notes;
    std::vector<VendorAnswer> answers;  // at most one per item, in the template's order

    const VendorAnswer *answer(const std::string &item) const;
    // Sets (or, with nullopt, removes) the answer to an item, keeping the items' order.
    void setAnswer(const ChecklistTemplate &tmpl, const std::string &item, std::optional<VendorAnswer> answer);
    // Whether it backs a price quote (by provider name), a candidate, or either.
    bool quotes(const std::string &provider) const;
    bool offers(const CandidateRef &candidate) const;
    bool backs(const std::string &provider, const CandidateRef &candidate) const
    {
        return quotes(provider) || offers(candidate);
    }
};

struct ProjectChecklist
{
    std::string templateVersion;  // of the shipped template when the project's checklist began
    std::vector<ChecklistSection> extraSections;  // added by the team
    std::vector<ChecklistItem> extraItems;        // added by the team, in any section
    std::vector<Vendor> vendors;

    const Vendor *vendor(const std::string &name) const;
    Vendor *vendor(const std::string &name);
    bool operator==(const ProjectChecklist &) const;
};

// The questions a project asks: the shipped template with the team's sections and items, each
// added item placed after the last item of its section.
ChecklistTemplate projectTemplate(const ChecklistTemplate &shipped, const ProjectChecklist &checklist);

// How far a vendor's answers go: answered items (any answer but unknown), and required items
// (for a commitment) that are missing (unanswered or unknown) or, from a purchase on, answered
// without evidence (the method: the larger the commitment, the more evidence it demands); a
// "not applicable" then needs its reason in the answer's text, if not evidence.
struct ChecklistProgress
{
    int items = 0, answered = 0;
};
struct VendorGaps
{
    std::vector<std::string> missing;     // required, unanswered or unknown
    std::vector<std::string> unbacked;    // required, answered without the evidence the commitment needs
    bool empty() const { return missing.empty() && unbacked.empty(); }
};
// Where one answer stands at a commitment (vendorGaps' rule for one item).
enum class Standing { NotRequired, Missing, Unbacked, Met };
Standing standing(const ChecklistItem &item, const VendorAnswer *answer, Commitment commitment);
ChecklistProgress vendorProgress(const ChecklistTemplate &tmpl, const Vendor &vendor, const std::string &section = {});
VendorGaps vendorGaps(const ChecklistTemplate &tmpl, const Vendor &vendor, Commitment commitment);
// From this commitment on, a required answer needs evidence (a link or a file).
inline constexpr Commitment kEvidenceFrom = Commitment::Purchase;

// What is wrong with a vendor's name, or nothing: 1 to 200 bytes of valid UTF-8 that shows
// something, no control character or bidirectional override, no space at either end.
std::optional<std::string> checkVendorName(const std::string &name);
// The whole checklist checked as the store keeps it: names valid and unique, at most
// kMaxVendors, dates ISO, texts clean (limits::textProblem), files with a hash and a size
// within the limit. Returns what is wrong, naming the vendor.
std::optional<std::string> checkChecklist(const ProjectChecklist &checklist);

// Reads an answers file. Every vendor named must have a valid name and offer; every item must be
// one of `tmpl`'s; answers must be one of Answer's names (or null: left as it is); dates ISO;
// "evidence_file" paths are returned for the caller to attach (relative to the file), and
// "attachment" entries must already be in the project (the caller checks). Errors name the file
// and the JSON path; nothing is returned then.
struct AnswersImport
{
    struct PendingFile
    {
        std::string vendor, item, path;  // path as written (the caller resolves it)
    };
    std::string templateVersion;
    std::vector<Vendor> vendors;  // as the file gives them: details, and the answers it sets
    std::vector<PendingFile> files;
};
Result<AnswersImport> parseAnswersFile(const std::string &jsonText, const std::string &fileName,
                                       const ChecklistTemplate &tmpl);
// Applies an import to a checklist: vendors are matched by name (new ones added); a vendor's
// details are replaced, and each answer the file gives replaces that item's answer.
void mergeAnswers(ProjectChecklist &checklist, const ChecklistTemplate &tmpl, const AnswersImport &import);

// The exchange file for these vendors (all when `only` is empty): every item of the template,
// with its section, question, evidence, required commitment and each vendor's answer.
std::string answersToJson(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only = {});
// The checklist as CSV (RFC 4180, formula-like cells neutralised): one row per item, five columns
// per vendor (answer, text, evidence, answered on, by).
std::string checklistToCsv(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only = {});
// The same table as typed cells, for the XLSX export (what checklistToCsv prints).
Sheet checklistSheet(const ChecklistTemplate &tmpl, const ProjectChecklist &checklist, const std::string &only = {});

} // namespace wb
