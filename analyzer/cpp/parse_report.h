#pragma once
// The warnings for what a C++ parse recovered from: headers that were not found and names
// sealint's model of LibTorch lacks. Each says which of the file's functions had errors after it,
// since findings there may be missed, and how to give Clang what it lacked.
#include <string>
#include <vector>

#include "analyzer/core/diagnostic.h"
#include "analyzer/cpp/clang_parse.h"
#include "analyzer/ir/ir.h"

namespace sealint::cpp {

[[nodiscard]] std::vector<InputError> recovery_warnings(const ParseProblems& problems,
                                                        const ir::Module& module,
                                                        const std::string& shown_path);

// "`read_data()` (line 22), `main()` (line 240) and main.h": the innermost functions of `module`
// holding `offsets`, in order, then `headers`; empty when both are. Exposed for its unit test.
[[nodiscard]] std::string affected_code(const ir::Module& module,
                                        const std::vector<uint32_t>& offsets,
                                        const std::vector<std::string>& headers);

}  // namespace sealint::cpp
