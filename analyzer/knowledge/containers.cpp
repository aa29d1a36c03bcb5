#include "analyzer/knowledge/containers.h"

#include <algorithm>
#include <array>

namespace sealint::knowledge {

namespace {

constexpr std::array<ContainerStore, 14> kStores = {{
    {"add", 0, false, true, "added to"},         // set.add; Tensor.add is arithmetic
    {"append", 0, false, false, "appended to"},  // list, deque
    {"appendleft", 0, false, false, "appended to"},
    {"emplace_back", 0, false, false, "appended to"},  // std::vector, std::deque
    {"emplace_front", 0, false, false, "appended to"},
    {"extend", 0, true, false, "added to"},          // list, deque
    {"extendleft", 0, true, false, "added to"},      // deque
    {"insert", 1, false, false, "inserted into"},    // list.insert(i, v); vector::insert(pos, v)
    {"push_back", 0, false, false, "appended to"},   // std::vector, std::deque
    {"push_front", 0, false, false, "appended to"},  // std::deque
    {"put", 0, false, true, "put into"},             // queue.Queue; also many other objects' `put`
    {"put_nowait", 0, false, false, "put into"},     // queue.Queue
    {"setdefault", 1, false, false, "stored in"},    // dict.setdefault(k, v)
    {"update", 0, true, true, "added to"},           // dict, set; also meters' `update(val)`
}};
static_assert(std::is_sorted(kStores.begin(), kStores.end(),
                             [](const ContainerStore& a, const ContainerStore& b) {
                               return a.method < b.method;
                             }) &&
                  std::adjacent_find(kStores.begin(), kStores.end(),
                                     [](const ContainerStore& a, const ContainerStore& b) {
                                       return a.method == b.method;
                                     }) == kStores.end(),
              "kStores must be sorted by method and unique");

}  // namespace

const ContainerStore* container_store(std::string_view method) {
  const auto* it =
      std::lower_bound(kStores.begin(), kStores.end(), method,
                       [](const ContainerStore& s, std::string_view m) { return s.method < m; });
  return it != kStores.end() && it->method == method ? &*it : nullptr;
}

std::span<const ContainerStore> all_container_stores() {
  return kStores;
}

const BoundedContainer* bounded_container(std::string_view qualified) {
  // `deque(maxlen=100)` drops its oldest item on each append past 100.
  static constexpr BoundedContainer kDeque{"collections.deque", "maxlen", 1};
  return qualified == kDeque.constructor ? &kDeque : nullptr;
}

}  // namespace sealint::knowledge
