#pragma once
// Result<T>: a value or an input error message. Keeps std::expected's names (has_value, value,
// error, *, ->) so that moving to <expected> once the compiler has it is a rename.
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace sealint {

struct Error {
  std::string message;
};

[[nodiscard]] inline Error make_error(std::string message) {
  return Error{std::move(message)};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit like std::expected
  Result(Error error) : state_(std::move(error)) {}  // NOLINT

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value() && "value() on an error Result");
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(has_value() && "value() on an error Result");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(has_value() && "value() on an error Result");
    return std::get<0>(std::move(state_));
  }
  const std::string& error() const {
    assert(!has_value() && "error() on a value Result");
    return std::get<1>(state_).message;
  }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace sealint
