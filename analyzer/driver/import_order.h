#pragma once
// The order a run analyses its files in, when project scope is on: each file before the files of
// the run that import it (their import statements read from the text, project/import_scan.h), so
// that the project index takes an imported file's summary from the driver's own analysis of it
// instead of parsing it a second time (a second parse of every imported file was 11 % of a run
// over the torch package). Findings never depend on the order: a summary is the same whoever
// makes it, and the output is sorted.
#include <cstddef>
#include <vector>

#include "analyzer/driver/driver.h"

namespace sealint {

struct ImportOrder {
  std::vector<size_t> order;   // every input's index once, imported files before their importers
  std::vector<bool> imported;  // by input index: another input of the run imports it
};

// Python files read from disk (not notebooks, stdin or C++) take part; the others keep their
// place. Import cycles are cut where the walk meets them.
[[nodiscard]] ImportOrder import_order(const std::vector<FileInput>& inputs);

}  // namespace sealint
