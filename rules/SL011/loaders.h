#pragma once
// Finds the DataLoaders of a file that start worker processes, and the dataset classes of the
// file each one loads (SL011 reports a dataset only when workers read it).
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/ir/ir.h"
#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/definitions.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::rules::sl011 {

// Where a DataLoader gets its workers.
struct Workers {
  enum class Count { Zero, Positive, Unknown };
  Count count = Count::Zero;
  long long n = 0;
  const ir::Expr* expr = nullptr;  // the num_workers value
};

struct LoaderUse {
  const ir::Expr* call = nullptr;
  Workers workers;
  const ir::Expr* via =
      nullptr;  // the call of the file that passes the dataset to `call`'s function
};

class LoaderScan {
 public:
  LoaderScan(const ir::Module& module, const ir::FileAnalysis& analysis)
      : module_(module), analysis_(analysis), calls_(module, analysis) {}

  // The DataLoader with workers that loads each dataset class: a literal count first.
  std::unordered_map<const ir::ClassDef*, LoaderUse> loaders();

 private:
  bool is_data_loader(const ir::Expr& call) const;
  std::optional<size_t> unbound_parameter(const ir::Function& function, const ir::Expr& expr,
                                          const ir::Expr& call);
  void dataset_classes(const ir::Function& function, const ir::Expr& expr, uint32_t pos, int depth,
                       std::vector<const ir::ClassDef*>& out);
  void place_classes(const ir::Function& function, const ir::Expr& expr, uint32_t pos, int depth,
                     std::vector<const ir::ClassDef*>& out);

  // workers.cpp: the worker count a DataLoader call gets.
  Workers workers_of(const ir::Function& function, const ir::Expr& call);
  const ir::Expr* dict_entry(const ir::Function& function, const ir::Expr& expr, uint32_t pos);
  Workers count_of(const ir::Function& function, const ir::Expr& value, uint32_t pos, int depth);
  Workers name_count(const ir::Function& function, std::string_view name, uint32_t pos, int depth);

  const ir::Module& module_;
  const ir::FileAnalysis& analysis_;
  semantic::Definitions definitions_;
  semantic::CallSites calls_;
  // While a call that passes a dataset is followed: the worker count comes from it too.
  const semantic::CallSite* pinned_ = nullptr;
  const ir::Function* pinned_function_ = nullptr;
};

}  // namespace sealint::rules::sl011
