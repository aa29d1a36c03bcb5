#include "analyzer/project/import_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sealint::project {
namespace {

using Names = std::vector<std::string>;

// The dotted paths, as lowering spells them.
Names dotted(std::string_view code) {
  Names out;
  for (const ScannedImport& scanned : scan_imports(code)) out.push_back(scanned.dotted());
  return out;
}

TEST(ImportScanTest, ReadsPlainImportsWithTheirFullDottedPath) {
  EXPECT_EQ(dotted("import os\nimport torch.nn as nn, numpy\n"),
            (Names{"os", "torch.nn", "numpy"}));
}

TEST(ImportScanTest, JoinsTheModuleOfAFromImportWithEachName) {
  EXPECT_EQ(dotted("from .meters import AverageMeter as AM, Timer\n"),
            (Names{".meters.AverageMeter", ".meters.Timer"}));
  EXPECT_EQ(dotted("from .. import utils\nfrom . import train\n"), (Names{"..utils", ".train"}));
}

TEST(ImportScanTest, ReadsParenthesisedAndJoinedLines) {
  EXPECT_EQ(dotted("from pkg.mod import (\n    a,  # first\n    b,\n)\nx = 1\n"
                   "from m import c, \\\n    d\n"),
            (Names{"pkg.mod.a", "pkg.mod.b", "m.c", "m.d"}));
}

TEST(ImportScanTest, KeepsTheModuleApartFromTheNameItImports) {
  EXPECT_EQ(scan_imports("from ..pkg import x as y\nimport a.b\n"),
            (std::vector<ScannedImport>{{"..pkg", "x"}, {"a.b", ""}}));
}

TEST(ImportScanTest, NamesTheModuleOfAWildcardImport) {
  EXPECT_EQ(dotted("from torch._C import *\n"), (Names{"torch._C"}));
}

TEST(ImportScanTest, ReadsIndentedImportsAndSkipsOtherLines) {
  EXPECT_EQ(dotted("def f():\n    import helpers\n    frome = 1\n    imports = 2\n"),
            (Names{"helpers"}));
}

TEST(ImportScanTest, GivesUpOnAStatementThatIsNoImport) {
  // Prose in a docstring: "from the start" has no `import` keyword after its module.
  EXPECT_EQ(dotted("\"\"\"\nfrom the start, import x\n\"\"\"\n"), Names{});
}

}  // namespace
}  // namespace sealint::project
