#pragma once
// How SL011 words a finding: what the attribute holds, how many workers copy it, and where it
// is filled and loaded.
#include <string_view>

#include "analyzer/core/diagnostic_sink.h"
#include "analyzer/core/rule_info.h"
#include "analyzer/ir/ir.h"
#include "rules/SL011/loaders.h"
#include "rules/SL011/value.h"

namespace sealint::rules::sl011 {

// SL011's metadata (defined with the rule in SL011_dataset_object_lists.cpp).
const RuleInfo& info();

// Reports the store `stmt` of the dataset attribute `key`, which holds `value`, for the
// DataLoader `loader` that loads `dataset` with workers.
void report(const ir::Module& module, std::string_view dataset, std::string_view key,
            const ir::Stmt& stmt, const Value& value, const LoaderUse& loader,
            DiagnosticSink& sink);

}  // namespace sealint::rules::sl011
