#pragma once
// sealint's findings in LSP's terms: a Diagnostic with its severity, the rule id as `code`, the
// rule's docs page (the URL SARIF and JSON give) as `codeDescription`, the related locations as
// `relatedInformation`, and `source: "sealint"`. An input error (a syntax error, a configuration
// that could not be read) is a diagnostic without a code.
#include <string>
#include <string_view>

#include "analyzer/core/diagnostic.h"
#include "analyzer/server/json_rpc.h"
#include "analyzer/server/line_index.h"

namespace sealint::server {

// A document's text with the index that turns the analysis's byte offsets into LSP positions.
// The analysis counts offsets after a byte order mark; an editor that keeps the mark in the
// buffer counts it.
class DocumentPositions {
 public:
  DocumentPositions(std::string_view text, PositionEncoding encoding);
  [[nodiscard]] Json range(uint32_t begin, uint32_t end) const;
  [[nodiscard]] Json range(const Span& span) const {
    return range(span.begin.offset, span.end.offset);
  }
  const LineIndex& index() const { return index_; }
  // Byte offsets into the document's text (with its BOM), as the index counts them.
  [[nodiscard]] size_t text_offset(uint32_t code_offset) const { return code_offset + bom_; }

 private:
  LineIndex index_;
  size_t bom_ = 0;
};

// An LSP Range between two byte offsets of the document's text.
[[nodiscard]] Json text_range(const LineIndex& index, size_t begin, size_t end);

[[nodiscard]] Json lsp_diagnostic(const Diagnostic& diagnostic, const DocumentPositions& positions,
                                  const std::string& uri);
[[nodiscard]] Json lsp_diagnostic(const InputError& error, const DocumentPositions& positions);
// A test function whose findings were left out (analyse-tests off): a hint on its definition's
// line naming the rules, so that an editor shows what the command line's summary counts.
[[nodiscard]] Json lsp_diagnostic(const LeftOutTest& test, const DocumentPositions& positions);

// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information (sealint's notes).
[[nodiscard]] int lsp_severity(Severity severity);

// Do two LSP ranges (as JSON, as the client sent them) overlap or touch? A position is the range
// from it to itself. False for anything malformed.
[[nodiscard]] bool ranges_meet(const Json& a, const Json& b);

}  // namespace sealint::server
