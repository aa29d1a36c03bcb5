#pragma once
// How often a statement inside a loop runs: every iteration, once (a lazy initialisation, the
// first iteration), or every n-th iteration; and loops that run a fixed handful of times. Rules
// that flag something "built on every iteration" ask these before reporting.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "analyzer/ir/ir.h"
#include "analyzer/ir/walk.h"
#include "analyzer/semantic/call_sites.h"

namespace sealint::semantic {

// The `if` runs its body once rather than every iteration of `loop`: a lazy initialisation
// (`if op is None: op = ...`, `if not hasattr(self, "op"):`) or the first iteration only
// (`if step == 0:` on the loop's own counter).
[[nodiscard]] bool runs_once_per_loop(const ir::Stmt& branch, const ir::Stmt& loop);

// Is the statement at `where` under an `if`, inside `loop`, that runs once rather than every
// iteration?
[[nodiscard]] bool under_once_branch(const ir::StmtContext& where, const ir::Stmt& loop);

// Is the statement at `where`, in a function a framework calls again and again (a hook), under
// an `if` that holds on one call only: a lazy initialisation, or a parameter compared with a
// literal (`if epoch == 0:`)?
[[nodiscard]] bool under_once_per_call_branch(const ir::StmtContext& where,
                                              const ir::Function& function);

// Is the statement at `where` under an `if`, inside `loop`, that holds only every n-th
// iteration (`if epoch % 200 == 0:`)?
[[nodiscard]] bool under_periodic_branch(const ir::StmtContext& where, const ir::Stmt& loop);

// `for x in [a, b, c]:` iterates a literal display: a fixed handful of times.
[[nodiscard]] bool iterates_display(const ir::Stmt& loop);

// What the loop goes over: a `for` loop's iterable, or for a `while` that advances an iterator
// by hand (`x = next(it)` in its body, `it = iter(xs)` bound once in the function) that
// iterator's source, `xs`; nullptr when neither.
[[nodiscard]] const ir::Expr* advanced_iterable(const ir::Function& function, const ir::Stmt& loop);

// What `expr` reads from: its root through methods, attributes and subscripts (`batch` for
// `batch[0].to(device)`, `next(it)` for `next(it).image`), or the first expression on the way
// that `stop` accepts (`feed.pull()` in `feed.pull()[0]`); nullptr for none.
[[nodiscard]] const ir::Expr* read_root(const ir::Expr* expr,
                                        const std::function<bool(const ir::Expr&)>& stop = {});

// `next(it)`: the next item of an iterator, as a `for` loop over it would bind.
[[nodiscard]] bool is_next_call(const ir::Expr& expr);

// The function hands out the next item of an iterator as `next()` does: it returns `next(...)`,
// or what it reads from such an item (`x, y = next(self.it); return x.to(dev), y.to(dev)`), on
// some path. A loop that calls it (`batch = draw(it)`, `x, y = feed.pull()`) advances by hand.
// `draws` says which other calls hand out an item too (a helper that calls such a helper).
[[nodiscard]] bool returns_next_item(const ir::Function& function,
                                     const std::function<bool(const ir::Expr&)>& draws = {});

// The loop's body ends every pass it starts: a `break`, `return` or `raise` among its own
// statements (not under an `if`), as in `for batch in loader: print(model(batch).shape); break`,
// a look at the first batch. It runs at most once.
[[nodiscard]] bool runs_at_most_once(const ir::Stmt& loop);

// The loop runs a fixed handful of times that the code writes out (also by hand, through
// `next()`): over a display, or
// `range(k)` with a literal k of at most kHandful, directly or through a name bound once to
// one (`test_nums = range(15)` at the top of a demo). Work repeated that many times is bounded;
// a step loop runs over data or a count of thousands.
inline constexpr int64_t kHandful = 20;
[[nodiscard]] bool iterates_fixed_handful(const ir::Module& module, const ir::Function& function,
                                          const ir::Stmt& loop);

// The loop goes over a display of values written out in the code (`for flag in [True, False]`,
// over `names = ["a", "b"]` bound once): a few settings checked one by one. Unlike
// iterates_fixed_handful, a count is not one (`range(10)` test episodes are an evaluation), nor a
// display of names (`[train_loader, val_loader]`: a pass over each).
[[nodiscard]] bool iterates_written_out_items(const ir::Module& module,
                                              const ir::Function& function, const ir::Stmt& loop);

// How many times at most the statement at `where` runs over all passes of its innermost loop,
// when the code bounds the count with a literal (or a module constant): it sits in the true arm
// of `if i < N` (`i <= N`, `N > i`, `(i + 1) < N`) or after `if i >= N: break`, where `i` counts
// the loop's passes (`enumerate`'s index, `range`'s variable) or is `len(filled)`, the size of
// the container the statement fills (`filled` may be empty). nullopt when nothing bounds it: a
// test on the item itself (`if len(words) < 50`) filters, it does not count.
[[nodiscard]] std::optional<int64_t> bounded_pass_count(const ir::Module& module,
                                                        const ir::StmtContext& where,
                                                        const ir::Stmt& stmt,
                                                        std::string_view filled);

// `for c in range(len(word)):` where the function binds `word` once, to a value it makes from
// data written out in the code (`word = str2tensor("pytorch")`, `torch.LongTensor([1, 2, 3])`):
// a few steps of a demonstration or a smoke test, not an evaluation over data.
[[nodiscard]] bool iterates_literal_value(const ir::Function& function, const ir::Stmt& loop);

// `for ch in prime:` (or over `enumerate(prime)`) where `prime` is a parameter of `function`
// and every call of the file passes it data written out in the code (`sample(net, 1000,
// prime="Anna")`), or leaves it at such a default: a loop over a few literal items of a
// demonstration. False when the file never calls `function` (a framework or another file may).
[[nodiscard]] bool iterates_written_out_argument(const ir::Function& function, const ir::Stmt& loop,
                                                 CallSites& calls);

// Every call of `function` in the file is a demonstration: the file calls it at least once,
// only from its top level outside any loop, and passes only data written out in the code
// (`predict_date_strs(["July 14, 1789", "May 01, 2020"])`). What its loops repeat runs for
// those few literal inputs.
[[nodiscard]] bool called_only_on_written_out_data(const ir::Module& module,
                                                   const ir::Function& function, CallSites& calls);

// `range(k)` with a literal k above kHandful, or `range(n)` with `n` a parameter of `function`
// that some call of the file passes such a literal (`compose(seed, 32)`): a loop that the code
// says repeats many times.
[[nodiscard]] bool iterates_many_written_out(const ir::Function& function, const ir::Stmt& loop,
                                             CallSites& calls);

// A method that counts its own calls: `self.calls += 1` (any receiver attribute increased by a
// literal) outside its loops, not in `__init__`. The counter says the method runs again and
// again (a step called by a simulation or a server), whoever calls it. The statement, or nullptr.
[[nodiscard]] const ir::Stmt* counts_own_calls(const ir::Function& function);

// Decorated with something other than `@staticmethod`/`@classmethod` (`@lru_cache`,
// `@memoize`): a call may not run the body every time.
[[nodiscard]] bool may_skip_body(const ir::Function& function);

// Does `condition` hold on every run (a configuration flag: `args.aux_head`, `self.training`),
// as opposed to a one-time or occasional guard (`step == 0`, `self.proj is None`, `not
// hasattr(...)`, a call, a flag that `scope` rebinds)?
[[nodiscard]] bool holds_every_time(const ir::Expr* condition, const std::vector<ir::Stmt*>& scope);

// Does `body` store something on the receiver (`self.proj = ...`, `setattr(self, ...)`,
// `self.add_module(...)`): a branch that caches what it builds?
[[nodiscard]] bool stores_on_receiver(const std::vector<ir::Stmt*>& body);

}  // namespace sealint::semantic
