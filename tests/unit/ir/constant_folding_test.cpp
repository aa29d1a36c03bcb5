#include "analyzer/ir/constant_folding.h"

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "tests/unit/lower_for_test.h"

namespace sealint {
namespace {

using ir::FoldedInt;
using testing::lower_python;

constexpr FoldedInt exact(int64_t value) {
  return {value, false};
}
const FoldedInt kHuge = FoldedInt::make_huge();

// The value of the last top-level assignment in `code`, folded with the module's constants.
std::optional<FoldedInt> fold_last(const std::string& code) {
  auto lowered = lower_python(code);
  const ir::ModuleConstants constants(*lowered.module);
  const ir::Stmt* last = lowered.module->top_level().body.back();
  EXPECT_NE(last->value, nullptr);
  return ir::fold_int(*last->value, [&](const ir::Expr& name) -> std::optional<FoldedInt> {
    const ir::ModuleConstant* constant = constants.find(name.text);
    return constant ? std::optional(constant->value) : std::nullopt;
  });
}

TEST(ConstantFoldingTest, ParsesPythonIntLiterals) {
  EXPECT_EQ(ir::parse_int_literal("4096"), exact(4096));
  EXPECT_EQ(ir::parse_int_literal("1_000_000"), exact(1000000));
  EXPECT_EQ(ir::parse_int_literal("0x10000"), exact(65536));
  EXPECT_EQ(ir::parse_int_literal("0XfF"), exact(255));
  EXPECT_EQ(ir::parse_int_literal("0o17"), exact(15));
  EXPECT_EQ(ir::parse_int_literal("0b1010"), exact(10));
  EXPECT_EQ(ir::parse_int_literal("0"), exact(0));
  EXPECT_EQ(ir::parse_int_literal("00"), exact(0));
}

TEST(ConstantFoldingTest, RejectsLiteralsThatAreNotInts) {
  EXPECT_EQ(ir::parse_int_literal("10j"), std::nullopt);
  EXPECT_EQ(ir::parse_int_literal("1e3"), std::nullopt);
  EXPECT_EQ(ir::parse_int_literal("10L"), std::nullopt);
  EXPECT_EQ(ir::parse_int_literal("0x"), std::nullopt);
  EXPECT_EQ(ir::parse_int_literal("0b102"), std::nullopt);
  EXPECT_EQ(ir::parse_int_literal(""), std::nullopt);
}

TEST(ConstantFoldingTest, LiteralsPast2To62AreHuge) {
  EXPECT_EQ(ir::parse_int_literal("4611686018427387904"), exact(FoldedInt::kMaxExact));
  EXPECT_EQ(ir::parse_int_literal("4611686018427387905"), kHuge);
  EXPECT_EQ(ir::parse_int_literal("99999999999999999999999999999999999999999"), kHuge);
  EXPECT_EQ(ir::parse_int_literal("0xffffffffffffffffffffffff"), kHuge);
}

TEST(ConstantFoldingTest, FloorDivisionAndModuloFollowPython) {
  EXPECT_EQ(ir::fold_binary("//", exact(-7), exact(2)), exact(-4));
  EXPECT_EQ(ir::fold_binary("//", exact(7), exact(-2)), exact(-4));
  EXPECT_EQ(ir::fold_binary("//", exact(7), exact(2)), exact(3));
  EXPECT_EQ(ir::fold_binary("%", exact(-7), exact(2)), exact(1));
  EXPECT_EQ(ir::fold_binary("%", exact(7), exact(-2)), exact(-1));
  EXPECT_EQ(ir::fold_binary(">>", exact(-7), exact(1)), exact(-4));
}

TEST(ConstantFoldingTest, WhatPythonRejectsIsUnknown) {
  EXPECT_EQ(ir::fold_binary("//", exact(1), exact(0)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("%", exact(1), exact(0)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("<<", exact(1), exact(-1)), std::nullopt);
  EXPECT_EQ(ir::fold_binary(">>", exact(1), exact(-1)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("**", exact(2), exact(-1)), std::nullopt);  // a float
  EXPECT_EQ(ir::fold_binary("/", exact(4), exact(2)), std::nullopt);    // a float
  EXPECT_EQ(ir::fold_binary("@", exact(4), exact(2)), std::nullopt);
  EXPECT_EQ(ir::fold_unary("not", exact(4)), std::nullopt);
}

TEST(ConstantFoldingTest, ArithmeticOnExactValues) {
  EXPECT_EQ(ir::fold_binary("+", exact(2), exact(3)), exact(5));
  EXPECT_EQ(ir::fold_binary("-", exact(2), exact(3)), exact(-1));
  EXPECT_EQ(ir::fold_binary("*", exact(-4), exact(3)), exact(-12));
  EXPECT_EQ(ir::fold_binary("**", exact(2), exact(16)), exact(65536));
  EXPECT_EQ(ir::fold_binary("**", exact(-3), exact(3)), exact(-27));
  EXPECT_EQ(ir::fold_binary("**", exact(0), exact(0)), exact(1));
  EXPECT_EQ(ir::fold_binary("<<", exact(1), exact(62)), exact(FoldedInt::kMaxExact));
  EXPECT_EQ(ir::fold_binary("&", exact(12), exact(10)), exact(8));
  EXPECT_EQ(ir::fold_binary("|", exact(12), exact(10)), exact(14));
  EXPECT_EQ(ir::fold_binary("^", exact(12), exact(10)), exact(6));
  EXPECT_EQ(ir::fold_unary("-", exact(5)), exact(-5));
  EXPECT_EQ(ir::fold_unary("~", exact(5)), exact(-6));
}

TEST(ConstantFoldingTest, OverflowSaturatesToHugeNeverWraps) {
  const FoldedInt max = exact(FoldedInt::kMaxExact);
  EXPECT_EQ(ir::fold_binary("+", max, exact(1)), kHuge);
  EXPECT_EQ(ir::fold_binary("+", max, max), kHuge);
  EXPECT_EQ(ir::fold_binary("*", max, max), kHuge);
  EXPECT_EQ(ir::fold_binary("*", exact(65536 * 65536LL), exact(65536 * 65536LL)), kHuge);
  EXPECT_EQ(ir::fold_binary("**", exact(2), exact(63)), kHuge);
  EXPECT_EQ(ir::fold_binary("**", exact(2), exact(1000000)), kHuge);
  EXPECT_EQ(ir::fold_binary("**", exact(3), exact(4000000000000)), kHuge);
  EXPECT_EQ(ir::fold_binary("**", exact(1), exact(4000000000000)), exact(1));
  EXPECT_EQ(ir::fold_binary("<<", exact(1), exact(63)), kHuge);
  EXPECT_EQ(ir::fold_binary("<<", exact(3), exact(61)), kHuge);
  EXPECT_EQ(ir::fold_binary("<<", exact(0), exact(1000)), exact(0));
  // A negative value past the bound is not "huge": it is unknown.
  EXPECT_EQ(ir::fold_binary("*", max, exact(-2)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("-", exact(-FoldedInt::kMaxExact), max), std::nullopt);
  EXPECT_EQ(ir::fold_binary("**", exact(-2), exact(63)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("<<", exact(-1), exact(100)), std::nullopt);
}

TEST(ConstantFoldingTest, HugeOperandsKeepOnlyWhatIsKnown) {
  EXPECT_EQ(ir::fold_binary("+", kHuge, exact(1)), kHuge);
  EXPECT_EQ(ir::fold_binary("+", kHuge, exact(-1)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("-", kHuge, exact(1)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("-", kHuge, kHuge), std::nullopt);
  EXPECT_EQ(ir::fold_binary("*", kHuge, exact(0)), exact(0));
  EXPECT_EQ(ir::fold_binary("*", kHuge, exact(3)), kHuge);
  EXPECT_EQ(ir::fold_binary("//", kHuge, exact(2)), std::nullopt);
  EXPECT_EQ(ir::fold_binary("//", exact(5), kHuge), exact(0));
  EXPECT_EQ(ir::fold_binary("//", exact(-5), kHuge), exact(-1));
  EXPECT_EQ(ir::fold_binary("**", kHuge, exact(0)), exact(1));
  EXPECT_EQ(ir::fold_binary("**", exact(2), kHuge), kHuge);
  EXPECT_EQ(ir::fold_binary(">>", exact(5), kHuge), exact(0));
  EXPECT_EQ(ir::fold_unary("-", kHuge), std::nullopt);
  EXPECT_EQ(ir::fold_unary("+", kHuge), kHuge);
}

TEST(ConstantFoldingTest, FoldsExpressionsWithParentheses) {
  EXPECT_EQ(fold_last("x = 224 * 224 * 3\n"), exact(150528));
  EXPECT_EQ(fold_last("x = (1 << 15) + 7\n"), exact(32775));
  EXPECT_EQ(fold_last("x = 2**16 // (4 - 2)\n"), exact(32768));
  EXPECT_EQ(fold_last("x = -(2 ** 10)\n"), exact(-1024));
  EXPECT_EQ(fold_last("x = 2 ** 3 ** 2\n"), exact(512));  // right-associative
  EXPECT_EQ(fold_last("x = 10 - 2 - 3\n"), exact(5));     // left-associative
  EXPECT_EQ(fold_last("x = 2 ** 200 * 2 ** 200\n"), kHuge);
}

TEST(ConstantFoldingTest, WhatIsNotAnIntLiteralOrConstantDoesNotFold) {
  EXPECT_EQ(fold_last("x = 1.5 * 2\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = 4 / 2\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = len(y) * 2\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = cfg.hidden * 2\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = True + 1\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = 'a' * 2\n"), std::nullopt);
  EXPECT_EQ(fold_last("x = unknown + 1\n"), std::nullopt);
}

TEST(ConstantFoldingTest, NamesNeedALookup) {
  auto lowered = lower_python("x = HIDDEN * 2\n");
  const ir::Expr& value = *lowered.module->top_level().body.back()->value;
  EXPECT_EQ(ir::fold_int(value), std::nullopt);
  EXPECT_EQ(ir::fold_int(value, [](const ir::Expr&) { return std::optional(exact(21)); }),
            exact(42));
}

TEST(ConstantFoldingTest, ModuleConstantsFoldFromConstantsAboveThem) {
  EXPECT_EQ(fold_last("HIDDEN = 1024\nFF = 4 * HIDDEN\nx = FF + HIDDEN\n"), exact(5120));
  EXPECT_EQ(fold_last("VOCAB: int = 50_257\nx = VOCAB\n"), exact(50257));
  EXPECT_EQ(fold_last("A, B = 2, 3\nx = A * B\n"), exact(6));
  EXPECT_EQ(fold_last("A = B = 7\nx = A * B\n"), exact(49));
  // B is not defined yet when A is computed.
  EXPECT_EQ(fold_last("A = B + 1\nB = 2\nx = A\n"), std::nullopt);
}

TEST(ConstantFoldingTest, RebindingAnywhereAtModuleScopeDisqualifies) {
  EXPECT_EQ(fold_last("A = 1\nA = 2\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nA += 2\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nif c:\n    A = 2\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nfor A in r:\n    pass\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nimport A\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\ndef A():\n    pass\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\ntry:\n    pass\nexcept E as A:\n    pass\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nwith f() as A:\n    pass\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\ndel A\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\nprint(A := 3)\nx = A\n"), std::nullopt);
  EXPECT_EQ(fold_last("A = 1\ndef f():\n    global A\n    A = 5\nx = A\n"), std::nullopt);
  // Only a top-level assignment makes a constant.
  EXPECT_EQ(fold_last("if c:\n    A = 2\nx = A\n"), std::nullopt);
  // A function's local of the same name does not rebind the module's.
  EXPECT_EQ(fold_last("A = 1\ndef f():\n    A = 5\nx = A\n"), exact(1));
}

TEST(ConstantFoldingTest, ModuleConstantsRememberTheirDefinition) {
  auto lowered = lower_python("import torch\nHIDDEN = 4096\n");
  const ir::ModuleConstants constants(*lowered.module);
  ASSERT_EQ(constants.size(), 1U);
  const ir::ModuleConstant* hidden = constants.find("HIDDEN");
  ASSERT_NE(hidden, nullptr);
  EXPECT_EQ(hidden->value, exact(4096));
  EXPECT_EQ(hidden->definition, lowered.module->top_level().body.back());
  EXPECT_EQ(hidden->target->text, "HIDDEN");
  EXPECT_EQ(constants.find("torch"), nullptr);
}

TEST(ConstantFoldingTest, LocallyBoundNamesCoverEveryWayAFunctionBindsAName) {
  auto lowered = lower_python(
      "def f(a, b=1, *args, c, **kw):\n"
      "    d = 1\n"
      "    e, (g, *h) = x\n"
      "    i += 1\n"
      "    j: int = 2\n"
      "    k: int\n"
      "    for l in r:\n"
      "        pass\n"
      "    with m() as n:\n"
      "        import o\n"
      "        from p import q as s\n"
      "    try:\n"
      "        pass\n"
      "    except E as t:\n"
      "        pass\n"
      "    def u():\n"
      "        inner = 1\n"
      "    class V:\n"
      "        pass\n"
      "    print(w := 1)\n"
      "    global y\n"
      "    y = 2\n"
      "    self.attr = 3\n"
      "    z[0] = 4\n");
  const ir::Function* f = nullptr;
  for (const ir::Function& function : lowered.module->functions()) {
    if (function.name == "f") f = &function;
  }
  ASSERT_NE(f, nullptr);
  const auto bound = ir::locally_bound_names(*f);
  for (std::string_view name : {"a", "b", "args", "c", "kw", "d", "e", "g", "h", "i",
                                "j", "k", "l",    "n", "o",  "s", "t", "u", "V", "w"}) {
    EXPECT_TRUE(bound.contains(name)) << name;
  }
  for (std::string_view name : {"inner", "y", "self", "attr", "z", "x", "r"}) {
    EXPECT_FALSE(bound.contains(name)) << name;
  }
}

TEST(ConstantFoldingTest, DeepExpressionsFoldWithoutRecursion) {
  // Lowering caps nesting; build a deeper chain by hand to show the folder needs no stack.
  auto file = SourceFile::from_bytes("deep.py", "1");
  ASSERT_TRUE(file.has_value());
  ir::Module module(std::make_shared<const SourceFile>(std::move(*file)), ir::Language::Python);
  auto one = [&] {
    ir::Expr* e = module.new_expr(ir::ExprKind::Const, {0, 1});
    e->const_kind = ir::ConstKind::Int;
    e->text = "1";
    return e;
  };
  ir::Expr* chain = one();
  constexpr int kDepth = 200000;
  for (int i = 0; i < kDepth; ++i) {
    ir::Expr* add = module.new_expr(ir::ExprKind::BinOp, {0, 1});
    add->text = "+";
    add->items = {chain, one()};
    chain = add;
  }
  EXPECT_EQ(ir::fold_int(*chain), exact(kDepth + 1));
}

}  // namespace
}  // namespace sealint
