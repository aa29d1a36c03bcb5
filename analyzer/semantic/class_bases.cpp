#include "analyzer/semantic/class_bases.h"

namespace sealint::semantic {

std::vector<const ir::ClassDef*> same_file_chain(const ir::FileAnalysis& analysis,
                                                 const ir::ClassDef& cls) {
  std::vector<const ir::ClassDef*> chain;
  const size_t limit = analysis.module().classes().size();
  for (const ir::ClassDef* current = &cls; current != nullptr && chain.size() <= limit;
       current = analysis.base_in_file(*current))
    chain.push_back(current);
  return chain;
}

}  // namespace sealint::semantic
