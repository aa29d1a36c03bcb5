#pragma once
// Owning wrappers over the tree-sitter C API (the runtime pinned in grammars/) (api.h says who owns
// what): one move-only owner per C object, stateless deleters, and the checks the C API leaves to
// its caller.
#include <memory>

#include <tree_sitter/api.h>

namespace sealint::python::ts {

struct ParserDeleter {
  void operator()(TSParser* parser) const { ts_parser_delete(parser); }
};
struct TreeDeleter {
  void operator()(TSTree* tree) const { ts_tree_delete(tree); }
};
using ParserPtr = std::unique_ptr<TSParser, ParserDeleter>;
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

// A move-only TSTreeCursor (ts_tree_cursor_delete on destruction).
class TreeCursor {
 public:
  explicit TreeCursor(TSNode node) : cursor_(ts_tree_cursor_new(node)) {}
  TreeCursor(const TreeCursor&) = delete;
  TreeCursor& operator=(const TreeCursor&) = delete;
  TreeCursor(TreeCursor&& other) noexcept : cursor_(other.cursor_), owns_(other.owns_) {
    other.owns_ = false;
  }
  TreeCursor& operator=(TreeCursor&&) = delete;
  ~TreeCursor() {
    if (owns_) ts_tree_cursor_delete(&cursor_);
  }

  void reset(TSNode node) { ts_tree_cursor_reset(&cursor_, node); }
  [[nodiscard]] bool goto_first_child() { return ts_tree_cursor_goto_first_child(&cursor_); }
  [[nodiscard]] bool goto_next_sibling() { return ts_tree_cursor_goto_next_sibling(&cursor_); }
  [[nodiscard]] bool goto_parent() { return ts_tree_cursor_goto_parent(&cursor_); }
  TSNode node() const { return ts_tree_cursor_current_node(&cursor_); }
  TSFieldId field_id() const { return ts_tree_cursor_current_field_id(&cursor_); }

 private:
  TSTreeCursor cursor_;
  bool owns_ = true;
};

inline bool is_error(TSNode node) {
  return ts_node_is_error(node);
}

}  // namespace sealint::python::ts
