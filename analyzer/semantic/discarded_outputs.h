#pragma once
// A model run whose graph nothing can use (GENERALIZE.md, "evidence from effects"): in a loop
// that does not train, the call's result is dropped (`model(x)`, `print(model(x))`,
// `predict(model, x)` as a statement) or bound to names that are only read as values (`.item()`,
// `.argmax()`, `.data`, `int(...)`, a comparison) or fed back into the same call (a generation
// loop's hidden state). No backward can ever reach that graph: the run is evaluation, whatever
// the function, the model or the loop are called.
#include "analyzer/ir/ir.h"
#include "analyzer/semantic/grad_flow.h"

namespace sealint::semantic {

// `call` (in the body of `loop`, a loop of `function`) runs a model whose graph no later code of
// the function can reach. `values_only`: the call returns values only (a helper that detaches or
// reads the run), so what the loop does with them does not matter; the loop must still be a
// pass over changing inputs.
[[nodiscard]] bool graph_is_discarded(const ir::FileAnalysis& analysis,
                                      const ir::Function& function, const ir::Stmt& loop,
                                      const ir::Expr& call, bool values_only = false);

// The helper `helper` (which a loop calls) keeps no graph of its model run `call`: it drops the
// result, reads it as values, or (when `returns_it`) returns it to the caller whose use
// graph_is_discarded judges; never stores it (`self.runner.outputs = model(batch)`).
[[nodiscard]] bool helper_keeps_no_graph(const ir::FileAnalysis& analysis,
                                         const ir::Function& helper, const ir::Expr& call,
                                         bool returns_it);

// In `loop`, a loop of `function` that trains, `call` runs a model a second time for something
// other than the loss: its result is bound to names that are only ever read as values (an
// accuracy printed every k steps, a preview image, the action a policy picks per step), or
// handed to functions of the file that only read it so (`self.save_grid(self.gen(z), path)`),
// so the graph it records is used by no backward. A result dropped at once (`features(image)`
// whose forward hooks feed the loss) is not one.
[[nodiscard]] bool graph_unused_in_training(const ir::FileAnalysis& analysis,
                                            const ir::Function& function, const ir::Stmt& loop,
                                            const ir::Expr& call);
// The same for a statement `stmt` of `step`, a training step the loop calls once per iteration
// (`fit_step(net, batch)` whose body also runs `net(probe)` for a printout).
[[nodiscard]] bool graph_unused_in_step(const ir::FileAnalysis& analysis,
                                        const ir::Function& function, const ir::Stmt& loop,
                                        const ir::Function& step, const ir::Stmt& stmt,
                                        const ir::Expr& call);

}  // namespace sealint::semantic
