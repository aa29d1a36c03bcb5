#pragma once
// `textDocument/hover` over a finding: the rule, the finding's message and help, and the parts of
// the rule's docs page (docs/rules/SLxxx.md, the text `sealint explain` prints) that say what it
// flags, an example and the fix, with a link to the whole page.
#include <optional>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/server/json_rpc.h"
#include "analyzer/server/lsp_diagnostics.h"

namespace sealint::server {

// The Hover for `position` (as the client sent it), or nullopt when no finding is there.
// `markdown`: the client renders markdown (else the same text goes as plain text).
[[nodiscard]] std::optional<Json> hover(const std::vector<Diagnostic>& findings,
                                        const Json& position, const DocumentPositions& positions,
                                        bool markdown);

// The sections of a docs page with these headings (`## What it does` ...), in the page's order.
[[nodiscard]] std::string doc_sections(std::string_view page,
                                       const std::vector<std::string_view>& headings);

}  // namespace sealint::server
