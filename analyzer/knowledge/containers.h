#pragma once
// Methods that put a value into the container they are called on (Python's list, deque, set,
// dict and queue, C++'s std::vector and std::deque): one table, read by the grad-flow
// analysis and by every rule that asks "is this value kept in a container".
#include <cstdint>
#include <span>
#include <string_view>

namespace sealint::knowledge {

struct ContainerStore {
  std::string_view method;
  uint8_t value_arg = 0;  // which argument is stored: `insert(i, v)` stores argument 1
  bool spreads = false;   // the argument's elements are stored (`extend`, `update`)
  // The name is also a common method of other objects (`Tensor.add`, `AverageMeter.update`, a
  // cache's `put`): trust it only on a receiver known to be a container.
  bool ambiguous = false;
  std::string_view verb = "appended to";  // how messages say it: "`loss` is appended to `xs`"
};

// The store `method` makes, or nullptr when it stores nothing.
[[nodiscard]] const ContainerStore* container_store(std::string_view method);

// Every entry, sorted by method (for tests and docs).
[[nodiscard]] std::span<const ContainerStore> all_container_stores();

// A container type that keeps only its last N items once given N (`collections.deque(maxlen=N)`):
// the keyword and the position that pass N to its constructor.
struct BoundedContainer {
  std::string_view constructor;  // qualified through the file's imports
  std::string_view keyword;
  uint8_t position = 0;  // 0-based among the positional arguments
};

// The bounded container `qualified` constructs, or nullptr.
[[nodiscard]] const BoundedContainer* bounded_container(std::string_view qualified);

}  // namespace sealint::knowledge
