#pragma once
// The modules a Python file's import statements name, read from its text without parsing it: the
// driver orders a run's files so that a file is analysed before the files that import it, and the
// project index then takes its summary from that analysis instead of parsing the file again.
// Only the order of work depends on it, never a finding: a statement it misreads (an import in a
// string, a form it does not know) costs at most a second parse of one file.
#include <string>
#include <string_view>
#include <vector>

namespace sealint::project {

struct ScannedImport {
  std::string module;  // `a.b` of `import a.b as c`, `.m` of `from .m import x`, `.` of `from .`
  std::string name;    // `x` of `from .m import x`; empty for `import a.b` and `from m import *`
  // The dotted path as lowering spells it: `a.b`, `.m.x`, `.x` (of `from . import x`), `m`.
  [[nodiscard]] std::string dotted() const;
  bool operator==(const ScannedImport&) const = default;
};

// Each import statement's names, in the order of the file, repeats included.
[[nodiscard]] std::vector<ScannedImport> scan_imports(std::string_view code);

}  // namespace sealint::project
