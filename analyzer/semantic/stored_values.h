#pragma once
// What a loop keeps beyond an iteration, back to where it came from: the root names whose graph
// a value the loop stores (appends, or assigns to a subscript or attribute) is computed from,
// within one iteration. Such a name's graph outlives the loop through the store, so deleting the
// name frees nothing (allennlp's `all_embeddings.append(emb.view(...))`, fairseq's LSTM state).
#include <functional>
#include <set>
#include <string>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// The stored graph values' root names, then, back through the loop's assignments to a fixed
// point, every name they were computed from and the names bound with those by one statement
// (`emb, _ = strip(emb, mask)`).
[[nodiscard]] std::set<std::string, std::less<>> names_feeding_stores(
    const ir::FileAnalysis& analysis, const ir::Stmt& loop);

}  // namespace sealint::semantic
