#pragma once
// `textDocument/codeAction`: for each finding under the cursor, its fix (the edits `--fix` would
// apply, as a WorkspaceEdit) and "suppress on this line" (sealint's own comment, or the rule added
// to one already there); for the document, "fix all" (`source.fixAll.sealint`, the safe fixes
// `--fix` applies, with the unsafe ones too when the settings say so).
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/server/documents.h"
#include "analyzer/server/json_rpc.h"
#include "analyzer/server/lsp_diagnostics.h"

namespace sealint::server {

// The analysed version of one document; the edits are in its terms.
struct ActionDocument {
  const std::string& uri;
  int64_t version = 0;
  std::string_view text;
  DocumentLanguage language = DocumentLanguage::Python;
  const DocumentPositions& positions;
};

struct ActionOptions {
  // The client takes versioned edits (`documentChanges`): it refuses one made for an older
  // version of the buffer instead of applying it at the wrong place.
  bool document_changes = false;
  bool unsafe_fixes = false;  // "fix all" applies unsafe fixes too
};

// The actions for `range`; `only` is the request's `context.only` (null: every kind).
[[nodiscard]] Json code_actions(const std::vector<Diagnostic>& findings, const Json& range,
                                const Json& only, const ActionDocument& document,
                                const ActionOptions& options);

// The comment edit that silences `finding` on its line, or nullopt where a comment cannot go (a
// line continued with a backslash).
[[nodiscard]] std::optional<Json> suppression_edit(const Diagnostic& finding,
                                                   const ActionDocument& document);

}  // namespace sealint::server
