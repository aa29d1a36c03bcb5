#include "analyzer/semantic/definitions.h"

#include <gtest/gtest.h>

#include "analyzer/semantic/call_sites.h"
#include "analyzer/semantic/class_bases.h"
#include "analyzer/semantic/grad_flow.h"
#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using testing::function_named;

uint32_t offset_of(const ir::Module& module, std::string_view text) {
  return static_cast<uint32_t>(module.file().code().find(text));
}

TEST(DefinitionsTest, TheLastDefinitionBeforeAPositionReaches) {
  auto lowered = testing::lower_python(
      "def f(path):\n"
      "    xs = []\n"
      "    a, b = 1, g()\n"
      "    c, d = pair\n"
      "    for item in xs:\n"
      "        xs = sorted(xs)\n"
      "    with open(path) as fh:\n"
      "        pass\n"
      "    self.items = xs\n"
      "    stats['n'] = 1\n"
      "    del xs\n"
      "    return xs  # END\n");
  const ir::Module& module = *lowered.module;
  const ir::Function& f = function_named(module, "f");
  semantic::Definitions definitions;
  const uint32_t end = offset_of(module, "return xs");

  EXPECT_EQ(definitions.of(f, "xs").size(), 3U);  // `xs = []`, `xs = sorted(xs)`, `del xs`
  const semantic::Definition* before_loop =
      definitions.before(f, "xs", offset_of(module, "for item"));
  ASSERT_NE(before_loop, nullptr);
  ASSERT_NE(before_loop->value, nullptr);
  EXPECT_EQ(before_loop->value->kind, ir::ExprKind::Collection);
  // `del xs` defines it with no value.
  const semantic::Definition* at_end = definitions.before(f, "xs", end);
  ASSERT_NE(at_end, nullptr);
  EXPECT_EQ(at_end->value, nullptr);

  // A tuple target pairs with a tuple display; otherwise each place is an element.
  const semantic::Definition* b = definitions.before(f, "b", end);
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->element);
  EXPECT_EQ(b->value->kind, ir::ExprKind::Call);
  const semantic::Definition* d = definitions.before(f, "d", end);
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(d->element);

  // A loop target has no known value; a `with` target is its item.
  const semantic::Definition* item = definitions.before(f, "item", end);
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->value, nullptr);
  const semantic::Definition* fh = definitions.before(f, "fh", end);
  ASSERT_NE(fh, nullptr);
  ASSERT_NE(fh->value, nullptr);
  EXPECT_EQ(fh->value->kind, ir::ExprKind::Call);

  // Attribute places are defined; item stores and parameters are not.
  EXPECT_NE(definitions.before(f, "self.items", end), nullptr);
  EXPECT_TRUE(definitions.of(f, "stats").empty());
  EXPECT_EQ(definitions.before(f, "path", end), nullptr);
  // Nothing reaches the start of the function.
  EXPECT_EQ(definitions.before(f, "xs", offset_of(module, "xs = []")), nullptr);
}

TEST(CallSitesTest, ArgumentsMatchParametersPastTheReceiver) {
  auto lowered = testing::lower_python(
      "class Loader:\n"
      "    def make(self, dataset, workers=0):\n"
      "        return dataset\n"
      "    def run(self):\n"
      "        self.make(ds, workers=4)\n"
      "        self.make(*args)\n"
      "def build(dataset, workers):\n"
      "    return dataset\n"
      "build(a, 2)\n"
      "build(b, **kw)\n");
  const ir::Module& module = *lowered.module;
  const ir::FileAnalysis analysis(module);
  semantic::CallSites calls(module, analysis);

  const ir::Function& build = function_named(module, "build");
  ASSERT_EQ(calls.of(build).size(), 2U);
  EXPECT_EQ(semantic::receiver_name(build), "");
  EXPECT_EQ(semantic::parameter_index(build, "workers"), 1U);
  EXPECT_EQ(semantic::parameter_index(build, "nope"), std::nullopt);
  bool unknown = false;
  const ir::Expr* workers = semantic::argument_for(build, *calls.of(build)[0].call, 1, unknown);
  ASSERT_NE(workers, nullptr);
  EXPECT_EQ(workers->text, "2");
  EXPECT_FALSE(unknown);
  // `**kw` may pass it.
  EXPECT_EQ(semantic::argument_for(build, *calls.of(build)[1].call, 1, unknown), nullptr);
  EXPECT_TRUE(unknown);

  const ir::Function& make = function_named(module, "make");
  EXPECT_EQ(semantic::receiver_name(make), ir::kReceiver);
  ASSERT_EQ(calls.of(make).size(), 2U);
  const ir::Expr* dataset = semantic::argument_for(make, *calls.of(make)[0].call, 1, unknown);
  ASSERT_NE(dataset, nullptr);
  EXPECT_EQ(dataset->text, "ds");
  const ir::Expr* by_keyword = semantic::argument_for(make, *calls.of(make)[0].call, 2, unknown);
  ASSERT_NE(by_keyword, nullptr);
  EXPECT_EQ(by_keyword->text, "4");
  // `*args`: position unknown.
  EXPECT_EQ(semantic::argument_for(make, *calls.of(make)[1].call, 1, unknown), nullptr);
  EXPECT_TRUE(unknown);
  // The receiver is never an argument.
  EXPECT_EQ(semantic::argument_for(make, *calls.of(make)[0].call, 0, unknown), nullptr);
}

TEST(ClassBasesTest, TheSameFileChainEndsAtOutsideBasesAndCycles) {
  auto lowered = testing::lower_python(
      "import torch\n"
      "class Base(torch.utils.data.Dataset):\n"
      "    def load(self):\n        pass\n"
      "    def __init__(self):\n        pass\n"
      "class Mid(Base):\n"
      "    def __init__(self):\n        pass\n"
      "class Leaf(Mid):\n"
      "    pass\n"
      "class A(B):\n    pass\n"
      "class B(A):\n    pass\n");
  const ir::Module& module = *lowered.module;
  const ir::FileAnalysis analysis(module);
  const ir::ClassDef* leaf = analysis.class_named("Leaf");
  ASSERT_NE(leaf, nullptr);
  const auto chain = semantic::same_file_chain(analysis, *leaf);
  ASSERT_EQ(chain.size(), 3U);
  EXPECT_EQ(chain[1]->name, "Mid");
  EXPECT_EQ(chain[2]->name, "Base");
  const ir::Function* load = analysis.method_of(*leaf, "load");
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->parent_class->name, "Base");
  // The nearest definition wins.
  EXPECT_EQ(analysis.method_of(*leaf, "__init__")->parent_class->name, "Mid");
  EXPECT_EQ(analysis.method_of(*leaf, "missing"), nullptr);
  // A cycle of bases (invalid Python) ends.
  EXPECT_LE(semantic::same_file_chain(analysis, *analysis.class_named("A")).size(),
            module.classes().size() + 1);
  EXPECT_EQ(analysis.method_of(*analysis.class_named("A"), "missing"), nullptr);
  // What `self.__init__()` in Base may run instead: Mid's (Leaf inherits it, defines none).
  const auto overrides = analysis.overrides_of(*analysis.class_named("Base"), "__init__");
  ASSERT_EQ(overrides.size(), 1U);
  EXPECT_EQ(overrides[0]->parent_class->name, "Mid");
  EXPECT_TRUE(analysis.overrides_of(*leaf, "__init__").empty());
  EXPECT_TRUE(analysis.overrides_of(*analysis.class_named("A"), "missing").empty());
}

TEST(ClassBasesTest, SelfCallsRunTheOverridesAndNeverAnAbstractBase) {
  auto lowered = testing::lower_python(
      "import abc\n"
      "class Base:\n"
      "    def step(self):\n        \"\"\"Subclasses define it.\"\"\"\n        raise "
      "NotImplementedError\n"
      "    def score(self):\n        return 0\n"
      "    @abc.abstractmethod\n    def load(self):\n        return 1\n"
      "    def stub(self):\n        pass\n"
      "class Left(Base):\n"
      "    def step(self):\n        return 1\n"
      "    def score(self):\n        return 2\n"
      "    def load(self):\n        return 3\n"
      "    def stub(self):\n        ...\n"
      "class Right(Left):\n"
      "    def step(self):\n        return NotImplemented\n");
  const ir::FileAnalysis analysis(*lowered.module);
  const ir::ClassDef& base = *analysis.class_named("Base");
  auto owners = [&](std::string_view name) {
    std::vector<std::string_view> out;
    for (const ir::Function* f : analysis.self_call_targets(base, name))
      out.push_back(f->parent_class->name);
    return out;
  };
  // The base's `raise NotImplementedError` (after a docstring) never runs; Right's stub neither.
  EXPECT_EQ(owners("step"), std::vector<std::string_view>{"Left"});
  EXPECT_EQ(owners("score"), (std::vector<std::string_view>{"Base", "Left"}));
  EXPECT_EQ(owners("load"), std::vector<std::string_view>{"Left"});  // @abstractmethod
  EXPECT_TRUE(owners("stub").empty());                               // `pass` and `...`
  EXPECT_TRUE(owners("missing").empty());
}

}  // namespace
}  // namespace sealint
