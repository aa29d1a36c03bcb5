#pragma once
// One file's summaries for the other files of its project (ir/foreign.h): what its top-level
// functions and classes do, from its own analysis alone, with no pointer into its IR.
#include <map>
#include <string>

#include "analyzer/ir/foreign.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::project {

struct ModuleSummary {
  std::map<std::string, ir::ForeignFunction, std::less<>> functions;
  std::map<std::string, ir::ForeignClass, std::less<>> classes;
  // Names the file imports and does not define (a package's `from .meters import Meter`): the
  // dotted path each stands for, followed when another file imports the name from here.
  std::map<std::string, std::string, std::less<>> reexports;
};

// `file` names the classes' origin (ForeignClass::file).
[[nodiscard]] ModuleSummary summarize(const ir::FileAnalysis& analysis, const std::string& file);

}  // namespace sealint::project
