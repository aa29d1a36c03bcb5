#pragma once
// Where rules put findings for one file: turns byte ranges into positions once, here.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/core/source_file.h"

namespace sealint {

struct Related {
  ByteRange range;
  std::string message;
};

class DiagnosticSink {
 public:
  DiagnosticSink(const SourceFile& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

  // Returns the finding, for a rule to add what confirm mode measures (Diagnostic::probe).
  Diagnostic& report(const RuleInfo& rule, ByteRange primary, std::string message, std::string help,
                     std::vector<Related> related = {}, std::optional<Fix> fix = std::nullopt,
                     std::optional<Severity> severity = std::nullopt);

  const SourceFile& file() const { return file_; }

 private:
  const SourceFile& file_;
  std::vector<Diagnostic>& out_;
};

}  // namespace sealint
