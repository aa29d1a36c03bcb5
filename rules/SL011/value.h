#pragma once
// SL011's lattice: what an expression holds, as far as copy-on-read is concerned. A DataLoader
// worker process starts with the dataset's memory shared with its parent; reading a Python object
// writes its reference count, which copies the page it lives on. Bulk data that is not Python
// objects (a numpy array, a data frame, a file) is read without copying; a list or dict of
// strings, tuples or dicts is copied page by page, in every worker.
#include <cstdint>
#include <string>

#include "analyzer/ir/ir.h"

namespace sealint::rules::sl011 {

enum class Data : uint8_t {
  None,     // not data, or unknown
  Text,     // one string read from a file: iterating it yields characters, a small alphabet
  Source,   // bulk data that is not itself a Python container: a file, a listing, a data frame,
            // an array, a view into loaded objects
  Objects,  // a Python container of data-dependent size: what workers copy
};

enum class Shape : uint8_t { List, Dict, Set, Tuple, Loaded };

// What the items of a container (or of an iteration) are. Small ints, bools and constants are
// shared objects a worker never copies; strings, tuples, dicts and big ints are one object each.
enum class Items : uint8_t { Unknown, Small, Objects };

[[nodiscard]] inline Items join(Items a, Items b) {
  if (a == Items::Objects || b == Items::Objects) return Items::Objects;
  return a == Items::Small && b == Items::Small ? Items::Small : Items::Unknown;
}

struct Value {
  Data data = Data::None;
  Shape shape = Shape::List;
  Items items = Items::Unknown;
  const ir::Stmt* fill = nullptr;  // where an empty container is filled from the data
  std::string fill_key;            // the container filled there (`samples`, `self.samples`)
};

[[nodiscard]] inline bool is_data(const Value& value) {
  return value.data == Data::Source || value.data == Data::Objects;
}

// The more copy-prone of two values (a conditional that may give either).
[[nodiscard]] inline Value join(const Value& a, const Value& b) {
  if (a.data == Data::Objects) return a;
  if (b.data == Data::Objects) return b;
  if (a.data == Data::Source) return a;
  if (b.data == Data::Source) return b;
  return a.data == Data::Text ? a : b;
}

[[nodiscard]] inline Value objects(Shape shape, Items items) {
  return {Data::Objects, shape, items, nullptr, {}};
}
[[nodiscard]] inline Value source(Items items) {
  return {Data::Source, Shape::List, items, nullptr, {}};
}
[[nodiscard]] inline Value text() {
  return {Data::Text, Shape::List, Items::Unknown, nullptr, {}};
}

}  // namespace sealint::rules::sl011
