// sealint's model of the LibTorch 1.13 API: the ATen / c10 core.
//
// NOT the real <ATen/ATen.h>. sealint serves this file (through Clang's in-memory
// file system) in place of the real header so that user training code parses in a
// fraction of a second. Names, namespaces and signatures follow LibTorch 1.13
// (Debian's libtorch-dev); bodies are left out. Coverage and simplifications are
// listed in ../README.md and at the top of torch/torch.h.
//
// Layout, as in LibTorch:
//   namespace c10   optional/nullopt, variant, ArrayRef, ScalarType, Device, Layout,
//                   MemoryFormat, Scalar, TensorOptions, GradMode guards,
//                   InferenceMode, IValue
//   namespace caffe2 TypeMeta
//   namespace at    `using namespace c10;`, TensorBase, Tensor, free functions
//                   (operators, at::relu, at::cat, ...), at::indexing, grad-mode aliases
#pragma once
// A system header, like the real ATen/c10 headers under /usr/include: no warnings
// from inside the model (the README at the model root covers the real torch/ dir).
#pragma GCC system_header

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#define SEALINT_TORCH_MODEL 1

// ---------------------------------------------------------------------------
// Macros (c10/macros, c10/util/Exception.h), simplified.
// ---------------------------------------------------------------------------
#define TORCH_API
#define C10_API
#define TORCH_CUDA_CPP_API
#define C10_UNUSED __attribute__((__unused__))
#define C10_NODISCARD
#define C10_LIKELY(expr) (expr)
#define C10_UNLIKELY(expr) (expr)

#define TORCH_CHECK(cond, ...)                                                         \
  if (!(cond)) {                                                                       \
    ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                  ::c10::str(__VA_ARGS__));                            \
  }
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define AT_ERROR(...)                                                                \
  ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                ::c10::str(__VA_ARGS__))
#define TORCH_WARN(...) ::c10::detail::warn(::c10::str(__VA_ARGS__))
#define TORCH_WARN_ONCE(...) ::c10::detail::warn(::c10::str(__VA_ARGS__))

// Forward declarations used by Tensor (torch/csrc/autograd/function.h).
namespace torch {
namespace autograd {
struct Node;
}  // namespace autograd
}  // namespace torch

namespace caffe2 {
class TypeMeta;
}  // namespace caffe2

namespace c10 {

namespace detail {
[[noreturn]] void torchCheckFail(const char* func, const char* file, uint32_t line,
                                 const std::string& msg);
void warn(const std::string& msg);
}  // namespace detail

// Bodies below exist only where a template may be instantiated with a lambda or a
// function-local type: Clang rejects a used-but-undefined function whose type has
// no linkage ("cannot be defined in any other translation unit").
template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream ss;
  (void)std::initializer_list<int>{((void)(ss << args), 0)...};
  return ss.str();
}

class Error : public std::exception {
 public:
  const char* what() const noexcept override;
  const char* what_without_backtrace() const noexcept;
  const std::string& msg() const;
};
// c10/util/Exception.h: what LibTorch throws, by kind (each crosses to Python as its namesake).
class IndexError : public Error {};
class ValueError : public Error {};
class TypeError : public Error {};
class NotImplementedError : public Error {};
class LinAlgError : public Error {};
class OutOfMemoryError : public Error {};

// ---------------------------------------------------------------------------
// c10/util/Optional.h (c10::optional is its own class in 1.13, not std::optional)
// ---------------------------------------------------------------------------
struct nullopt_t {
  constexpr explicit nullopt_t(int) {}
};
constexpr nullopt_t nullopt{0};

struct in_place_t {
  explicit in_place_t() = default;
};
constexpr in_place_t in_place{};

class bad_optional_access : public std::logic_error {
 public:
  explicit bad_optional_access(const std::string& what_arg);
};

namespace detail {
// Lazy conjunction (std::conjunction is C++17): stops instantiating at the first
// false trait, so optional<Incomplete> stays usable in declarations.
template <class...>
struct conj : std::true_type {};
template <class B1>
struct conj<B1> : B1 {};
template <class B1, class... Bn>
struct conj<B1, Bn...> : std::conditional_t<bool(B1::value), conj<Bn...>, B1> {};
template <class B>
struct neg : std::integral_constant<bool, !bool(B::value)> {};
}  // namespace detail

template <class T>
class optional {
  template <class U>
  using not_special = detail::conj<detail::neg<std::is_same<std::decay_t<U>, optional<T>>>,
                                   detail::neg<std::is_same<std::decay_t<U>, nullopt_t>>,
                                   detail::neg<std::is_same<std::decay_t<U>, in_place_t>>>;
  template <class U>
  using enable_implicit_t =
      std::enable_if_t<detail::conj<not_special<U>, std::is_constructible<T, U&&>,
                                    std::is_convertible<U&&, T>>::value,
                       bool>;
  template <class U>
  using enable_explicit_t =
      std::enable_if_t<detail::conj<not_special<U>, std::is_constructible<T, U&&>,
                                    detail::neg<std::is_convertible<U&&, T>>>::value,
                       bool>;

 public:
  using value_type = T;
  optional() noexcept;
  optional(nullopt_t) noexcept;
  optional(const optional& rhs);
  optional(optional&& rhs) noexcept;
  template <class U = T, enable_implicit_t<U> = false>
  optional(U&& value) {}
  template <class U = T, enable_explicit_t<U> = false>
  explicit optional(U&& value) {}
  template <class... Args>
  explicit optional(in_place_t, Args&&... args);
  ~optional();

  optional& operator=(nullopt_t) noexcept;
  optional& operator=(const optional& rhs);
  optional& operator=(optional&& rhs) noexcept;
  template <class U = T, enable_implicit_t<U> = false>
  optional& operator=(U&& value) {
    return *this;
  }

  template <class... Args>
  T& emplace(Args&&... args);
  void reset() noexcept;

  bool has_value() const noexcept;
  explicit operator bool() const noexcept;
  T& value() &;
  const T& value() const&;
  T&& value() &&;
  T& operator*() &;
  const T& operator*() const&;
  T&& operator*() &&;
  T* operator->();
  const T* operator->() const;
  template <class U>
  T value_or(U&& default_value) const&;
  template <class U>
  T value_or(U&& default_value) &&;
};

template <class T>
optional<std::decay_t<T>> make_optional(T&& value);
template <class T>
bool operator==(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator==(nullopt_t, const optional<T>& x) noexcept;
template <class T>
bool operator!=(const optional<T>& x, nullopt_t) noexcept;
template <class T>
bool operator!=(nullopt_t, const optional<T>& x) noexcept;
template <class T>
bool operator==(const optional<T>& x, const optional<T>& y);
template <class T>
bool operator!=(const optional<T>& x, const optional<T>& y);
template <class T, class U>
bool operator==(const optional<T>& x, const U& v);
template <class T, class U>
bool operator!=(const optional<T>& x, const U& v);

// ---------------------------------------------------------------------------
// c10/util/variant.h (simplified: a converting constructor accepts anything one
// of the alternatives can be constructed from; no storage)
// ---------------------------------------------------------------------------
namespace detail {
template <typename T, typename... Ts>
struct constructible_from_any : std::false_type {};
template <typename T, typename Head, typename... Tail>
struct constructible_from_any<T, Head, Tail...>
    : std::conditional_t<__is_constructible(Head, T), std::true_type,
                         constructible_from_any<T, Tail...>> {};
}  // namespace detail

template <typename... Ts>
class variant {
  template <typename T>
  using enable_alt_t =
      std::enable_if_t<detail::conj<detail::neg<std::is_same<std::decay_t<T>, variant>>,
                                    detail::constructible_from_any<T&&, Ts...>>::value,
                       bool>;

 public:
  variant();
  variant(const variant&);
  variant(variant&&) noexcept;
  template <typename T, enable_alt_t<T> = false>
  variant(T&& t) {}
  variant& operator=(const variant&);
  variant& operator=(variant&&) noexcept;
  template <typename T, enable_alt_t<T> = false>
  variant& operator=(T&& t) {
    return *this;
  }
  size_t index() const noexcept;
};
template <typename T, typename... Ts>
T* get_if(variant<Ts...>* v) noexcept;
template <typename T, typename... Ts>
const T* get_if(const variant<Ts...>* v) noexcept;
template <typename T, typename... Ts>
T& get(variant<Ts...>& v);
template <typename T, typename... Ts>
const T& get(const variant<Ts...>& v);
template <typename T, typename... Ts>
bool holds_alternative(const variant<Ts...>& v) noexcept;

// c10/util/string_view.h
template <class CharT>
class basic_string_view final {
 public:
  basic_string_view() noexcept;
  basic_string_view(const CharT* str);
  basic_string_view(const CharT* str, size_t count);
  basic_string_view(const std::basic_string<CharT>& str);
  const CharT* data() const noexcept;
  size_t size() const noexcept;
  bool empty() const noexcept;
  explicit operator std::basic_string<CharT>() const;
};
using string_view = basic_string_view<char>;
std::ostream& operator<<(std::ostream& stream, string_view sv);

// ---------------------------------------------------------------------------
// c10/util/ArrayRef.h
// ---------------------------------------------------------------------------
template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

  ArrayRef();
  /* implicit */ ArrayRef(const T& OneElt);
  ArrayRef(const T* data, size_t length);
  ArrayRef(const T* begin, const T* end);
  template <typename A>
  /* implicit */ ArrayRef(const std::vector<T, A>& Vec);
  template <size_t N>
  /* implicit */ ArrayRef(const std::array<T, N>& Arr);
  template <size_t N>
  /* implicit */ ArrayRef(const T (&Arr)[N]);
  /* implicit */ ArrayRef(const std::initializer_list<T>& Vec);

  iterator begin() const;
  iterator end() const;
  const_iterator cbegin() const;
  const_iterator cend() const;
  bool empty() const;
  const T* data() const;
  size_t size() const;
  const T& front() const;
  const T& back() const;
  bool equals(ArrayRef RHS) const;
  ArrayRef<T> slice(size_t N, size_t M) const;
  ArrayRef<T> slice(size_t N) const;
  const T& operator[](size_t Index) const;
  const T& at(size_t Index) const;
  std::vector<T> vec() const;
};
template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list);
template <typename T>
bool operator==(ArrayRef<T> a1, ArrayRef<T> a2);
template <typename T>
bool operator!=(ArrayRef<T> a1, ArrayRef<T> a2);
template <typename T>
bool operator==(const std::vector<T>& a1, ArrayRef<T> a2);
template <typename T>
bool operator==(ArrayRef<T> a1, const std::vector<T>& a2);

using IntArrayRef = ArrayRef<int64_t>;

// c10/util/OptionalArrayRef.h
template <typename T>
class OptionalArrayRef final {
 public:
  OptionalArrayRef() noexcept;
  OptionalArrayRef(nullopt_t) noexcept;
  OptionalArrayRef(const OptionalArrayRef& other);
  OptionalArrayRef(OptionalArrayRef&& other);
  OptionalArrayRef(const optional<ArrayRef<T>>& other) noexcept;
  OptionalArrayRef(const T& value) noexcept;
  OptionalArrayRef(ArrayRef<T> value) noexcept;
  template <typename A>
  OptionalArrayRef(const std::vector<T, A>& value) noexcept;
  OptionalArrayRef(const std::initializer_list<T>& Vec);
  OptionalArrayRef& operator=(const OptionalArrayRef& other);
  OptionalArrayRef& operator=(nullopt_t) noexcept;
  bool has_value() const noexcept;
  explicit operator bool() const noexcept;
  ArrayRef<T>& value() &;
  const ArrayRef<T>& value() const&;
  ArrayRef<T>* operator->() noexcept;
  const ArrayRef<T>& operator*() const&;
};
using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

// c10/util/irange.h
template <typename I>
struct integer_range {
  struct iterator {
    I operator*() const;
    iterator& operator++();
    bool operator==(const iterator& other) const;
    bool operator!=(const iterator& other) const;
  };
  iterator begin() const;
  iterator end() const;
};
template <typename Integer1, typename Integer2,
          std::enable_if_t<std::is_integral<Integer1>::value, bool> = true,
          std::enable_if_t<std::is_integral<Integer2>::value, bool> = true>
integer_range<Integer2> irange(Integer1 begin, Integer2 end);
template <typename Integer, std::enable_if_t<std::is_integral<Integer>::value, bool> = true>
integer_range<Integer> irange(Integer end);

// c10/util/intrusive_ptr.h (minimal)
template <class TTarget>
class intrusive_ptr final {
 public:
  intrusive_ptr() noexcept;
  intrusive_ptr(std::nullptr_t) noexcept;
  TTarget* get() const noexcept;
  TTarget& operator*() const noexcept;
  TTarget* operator->() const noexcept;
  explicit operator bool() const noexcept;
  bool defined() const noexcept;
};
template <class TTarget, class... Args>
intrusive_ptr<TTarget> make_intrusive(Args&&... args);

// ---------------------------------------------------------------------------
// c10/core: ScalarType, DeviceType, Device, Layout, MemoryFormat
// ---------------------------------------------------------------------------
enum class ScalarType : int8_t {
  Byte,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexHalf,
  ComplexFloat,
  ComplexDouble,
  Bool,
  QInt8,
  QUInt8,
  QInt32,
  BFloat16,
  QUInt4x2,
  QUInt2x4,
  Undefined,
  NumOptions
};
constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kComplexHalf = ScalarType::ComplexHalf;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kQInt8 = ScalarType::QInt8;
constexpr ScalarType kQUInt8 = ScalarType::QUInt8;
constexpr ScalarType kQInt32 = ScalarType::QInt32;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kQUInt4x2 = ScalarType::QUInt4x2;
constexpr ScalarType kQUInt2x4 = ScalarType::QUInt2x4;
const char* toString(ScalarType t);
std::ostream& operator<<(std::ostream& stream, ScalarType scalar_type);
bool isFloatingType(ScalarType t);
bool isIntegralType(ScalarType t, bool includeBool);
size_t elementSize(ScalarType t);

enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  ORT = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  PrivateUse1 = 19,
  COMPILE_TIME_MAX_DEVICE_TYPES = 20,
};
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kFPGA = DeviceType::FPGA;
constexpr DeviceType kORT = DeviceType::ORT;
constexpr DeviceType kXLA = DeviceType::XLA;
constexpr DeviceType kMPS = DeviceType::MPS;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr DeviceType kVulkan = DeviceType::Vulkan;
constexpr DeviceType kMetal = DeviceType::Metal;
constexpr DeviceType kXPU = DeviceType::XPU;
constexpr DeviceType kHPU = DeviceType::HPU;
constexpr DeviceType kVE = DeviceType::VE;
constexpr DeviceType kLazy = DeviceType::Lazy;
constexpr DeviceType kIPU = DeviceType::IPU;
constexpr DeviceType kPrivateUse1 = DeviceType::PrivateUse1;
std::string DeviceTypeName(DeviceType d, bool lower_case = false);
std::ostream& operator<<(std::ostream& stream, DeviceType type);

using DeviceIndex = int8_t;

struct Device final {
  using Type = DeviceType;
  /* implicit */ Device(DeviceType type, DeviceIndex index = -1);
  /* implicit */ Device(const std::string& device_string);
  bool operator==(const Device& other) const noexcept;
  bool operator!=(const Device& other) const noexcept;
  void set_index(DeviceIndex index);
  DeviceType type() const noexcept;
  DeviceIndex index() const noexcept;
  bool has_index() const noexcept;
  bool is_cuda() const noexcept;
  bool is_mps() const noexcept;
  bool is_hip() const noexcept;
  bool is_cpu() const noexcept;
  bool is_meta() const noexcept;
  std::string str() const;
};
std::ostream& operator<<(std::ostream& stream, const Device& device);

enum class Layout : int8_t {
  Strided,
  Sparse,
  SparseCsr,
  Mkldnn,
  SparseCsc,
  SparseBsr,
  SparseBsc,
  NumOptions
};
constexpr auto kStrided = Layout::Strided;
constexpr auto kSparse = Layout::Sparse;
constexpr auto kSparseCsr = Layout::SparseCsr;
constexpr auto kMkldnn = Layout::Mkldnn;
std::ostream& operator<<(std::ostream& stream, Layout layout);

enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };
std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format);

}  // namespace c10

namespace caffe2 {
// c10/util/typeid.h: a tensor's dtype() is a TypeMeta
class TypeMeta final {
 public:
  TypeMeta() noexcept;
  c10::string_view name() const noexcept;
  size_t itemsize() const noexcept;
  c10::ScalarType toScalarType();
  template <typename T>
  bool Match() const noexcept;
  template <class T>
  static TypeMeta Make();
  static TypeMeta fromScalarType(c10::ScalarType scalar_type);
  friend bool operator==(const TypeMeta& lhs, const TypeMeta& rhs) noexcept;
  friend bool operator!=(const TypeMeta& lhs, const TypeMeta& rhs) noexcept;
};
std::ostream& operator<<(std::ostream& stream, const TypeMeta& typeMeta);
}  // namespace caffe2

namespace c10 {
// c10/core/ScalarTypeToTypeMeta.h
ScalarType typeMetaToScalarType(caffe2::TypeMeta dtype);
caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType scalar_type);
bool operator==(const ScalarType t, const caffe2::TypeMeta m);
bool operator==(const caffe2::TypeMeta m, const ScalarType t);
bool operator!=(const ScalarType t, const caffe2::TypeMeta m);
bool operator!=(const caffe2::TypeMeta m, const ScalarType t);

// ---------------------------------------------------------------------------
// c10/core/Scalar.h
// ---------------------------------------------------------------------------
class Scalar {
 public:
  Scalar();
  /* implicit */ Scalar(uint8_t vv);
  /* implicit */ Scalar(int8_t vv);
  /* implicit */ Scalar(int16_t vv);
  /* implicit */ Scalar(int vv);
  /* implicit */ Scalar(int64_t vv);
  /* implicit */ Scalar(float vv);
  /* implicit */ Scalar(double vv);
  template <typename T,
            typename std::enable_if<std::is_same<T, bool>::value, bool>::type* = nullptr>
  /* implicit */ Scalar(T vv);
  Scalar(const Scalar& rhs);
  Scalar(Scalar&& rhs) noexcept;
  Scalar& operator=(const Scalar& other);
  Scalar& operator=(Scalar&& other) noexcept;
  ~Scalar();

  uint8_t toByte() const;
  int8_t toChar() const;
  int16_t toShort() const;
  int toInt() const;
  int64_t toLong() const;
  float toFloat() const;
  double toDouble() const;
  bool toBool() const;
  template <typename T>
  T to() const;

  bool isFloatingPoint() const;
  bool isIntegral(bool includeBool) const;
  bool isComplex() const;
  bool isBoolean() const;
  Scalar operator-() const;
  Scalar conj() const;
  Scalar log() const;
  ScalarType type() const;
  template <typename T>
  bool equal(T num) const;
};
std::ostream& operator<<(std::ostream& out, const Scalar& s);
std::string toString(const Scalar& s);

// ---------------------------------------------------------------------------
// c10/core/TensorOptions.h
// ---------------------------------------------------------------------------
struct TensorOptions {
  TensorOptions();
  /* implicit */ TensorOptions(Layout layout);
  /* implicit */ TensorOptions(Device device);
  template <typename... Args,
            typename = std::enable_if_t<std::is_constructible<Device, Args&&...>::value>>
  /* implicit */ TensorOptions(Args&&... args);
  /* implicit */ TensorOptions(caffe2::TypeMeta dtype);
  /* implicit */ TensorOptions(ScalarType dtype);
  /* implicit */ TensorOptions(MemoryFormat memory_format);

  C10_NODISCARD TensorOptions device(c10::optional<Device> device) const noexcept;
  template <typename... Args>
  C10_NODISCARD TensorOptions device(Args&&... args) const noexcept;
  C10_NODISCARD TensorOptions device_index(int16_t device_index) const noexcept;
  C10_NODISCARD TensorOptions dtype(c10::optional<caffe2::TypeMeta> dtype) const noexcept;
  C10_NODISCARD TensorOptions dtype(c10::optional<ScalarType> dtype) const noexcept;
  template <typename T>
  TensorOptions& dtype();
  C10_NODISCARD TensorOptions layout(c10::optional<Layout> layout) const noexcept;
  C10_NODISCARD TensorOptions requires_grad(c10::optional<bool> requires_grad) const noexcept;
  C10_NODISCARD TensorOptions pinned_memory(c10::optional<bool> pinned_memory) const noexcept;
  C10_NODISCARD TensorOptions
  memory_format(c10::optional<MemoryFormat> memory_format) const noexcept;

  Device device() const noexcept;
  bool has_device() const noexcept;
  int32_t device_index() const noexcept;
  caffe2::TypeMeta dtype() const noexcept;
  bool has_dtype() const noexcept;
  Layout layout() const noexcept;
  bool has_layout() const noexcept;
  bool requires_grad() const noexcept;
  bool has_requires_grad() const noexcept;
  bool pinned_memory() const noexcept;
  bool has_memory_format() const noexcept;
};
TensorOptions dtype(caffe2::TypeMeta dtype);
TensorOptions dtype(ScalarType dtype);
template <typename T>
TensorOptions dtype();
TensorOptions layout(Layout layout);
TensorOptions device(Device device);
TensorOptions device_index(int16_t device_index);
TensorOptions requires_grad(bool requires_grad = true);
TensorOptions memory_format(MemoryFormat memory_format);
std::ostream& operator<<(std::ostream& stream, const TensorOptions& options);

// ---------------------------------------------------------------------------
// c10/core/GradMode.h, c10/core/InferenceMode.h
// ---------------------------------------------------------------------------
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// RAII guard: enables or disables grad mode, restores the previous mode on exit.
// (Not `explicit` in 1.13: `AutoGradMode g = false;` compiles.)
struct AutoGradMode {
  AutoGradMode(bool enabled);
  ~AutoGradMode();
  bool prev_mode;
};

// RAII guard: no graph is recorded while it is alive.
struct NoGradGuard : public AutoGradMode {
  NoGradGuard();
};

struct AutoFwGradMode {
  AutoFwGradMode(bool enabled);
  ~AutoFwGradMode();
  bool prev_mode;
};

struct InferenceMode {
  InferenceMode(bool enabled = true);
  ~InferenceMode();
  static bool is_enabled();
};

// c10/core/GeneratorImpl.h (minimal)
struct Generator {
  Generator() = default;
  bool defined() const;
  void set_current_seed(uint64_t seed);
  uint64_t current_seed() const;
  uint64_t seed();
  Device device() const;
};
struct Storage;

}  // namespace c10

// ---------------------------------------------------------------------------
// ATen
// ---------------------------------------------------------------------------
namespace at {
using namespace c10;  // as in c10/macros/Macros.h

class Tensor;
class TensorBase;
using TensorList = ArrayRef<Tensor>;
// 1.13's at::cat takes `const ITensorListRef&`; modelled as ArrayRef<Tensor>.
using ITensorListRef = ArrayRef<Tensor>;
using Generator = c10::Generator;

namespace indexing {
struct TensorIndex;
}  // namespace indexing

// ATen/core/Dimname.h: only as an overload set member. Named-dimension overloads
// matter to user code in one way: `t.mean({0, 1})` is ambiguous in 1.13 (the braced
// list also converts to ArrayRef<Dimname>(const Dimname*, size_t)).
struct Dimname {
  static Dimname wildcard();
  bool isBasic() const;
  bool isWildcard() const;
};
using DimnameList = c10::ArrayRef<Dimname>;

// ATen/core/grad_mode.h
using GradMode = c10::GradMode;
using AutoGradMode = c10::AutoGradMode;
using NoGradGuard = c10::NoGradGuard;
using AutoFwGradMode = c10::AutoFwGradMode;

namespace Reduction {
enum Reduction { None, Mean, Sum, END };
}  // namespace Reduction

// ATen/core/TensorAccessor.h (simplified: no PtrTraits/index_t parameters)
template <typename T, size_t N>
class TensorAccessor {
 public:
  TensorAccessor<T, N - 1> operator[](int64_t i);
  const TensorAccessor<T, N - 1> operator[](int64_t i) const;
  IntArrayRef sizes() const;
  int64_t size(int64_t i) const;
  T* data();
};
template <typename T>
class TensorAccessor<T, 1> {
 public:
  T& operator[](int64_t i);
  const T& operator[](int64_t i) const;
  IntArrayRef sizes() const;
  int64_t size(int64_t i) const;
  T* data();
};

// ATen/core/TensorBase.h
class TensorBase {
 public:
  TensorBase() = default;
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) = default;
  TensorBase& operator=(const TensorBase& x) &;
  TensorBase& operator=(TensorBase&& x) &;

  int64_t dim() const;
  int64_t storage_offset() const;
  TensorBase contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  const TensorBase& fill_(const c10::Scalar& scalar) const;
  const TensorBase& zero_() const;
  TensorBase to(at::TensorOptions options = {}, bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  bool is_complex() const;
  bool is_floating_point() const;
  bool is_signed() const;
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  bool defined() const;
  void reset();
  bool is_same(const TensorBase& other) const noexcept;
  size_t use_count() const noexcept;
  size_t weak_use_count() const noexcept;
  std::string toString() const;
  IntArrayRef sizes() const;
  IntArrayRef strides() const;
  int64_t ndimension() const;
  bool is_contiguous(at::MemoryFormat memory_format = at::MemoryFormat::Contiguous) const;
  size_t nbytes() const;
  int64_t numel() const;
  size_t itemsize() const;
  int64_t element_size() const;
  ScalarType scalar_type() const;
  bool has_storage() const;
  bool is_alias_of(const at::TensorBase& other) const;
  Layout layout() const;
  caffe2::TypeMeta dtype() const;
  Device device() const;
  int64_t get_device() const;
  bool is_cpu() const;
  bool is_cuda() const;
  bool is_xpu() const;
  bool is_xla() const;
  bool is_hip() const;
  bool is_sparse() const;
  bool is_mkldnn() const;
  bool is_mps() const;
  bool is_vulkan() const;
  bool is_metal() const;
  bool is_quantized() const;
  bool is_meta() const;
  bool is_inference() const;
  bool is_nested() const;
  TensorOptions options() const;
  void print() const;

  template <typename T>
  T* data_ptr() const;
  void* data_ptr() const;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;

  // Autograd (TensorBase part)
  const TensorBase& set_requires_grad(bool requires_grad) const;
  bool requires_grad() const;
  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;
  void remove_hook(unsigned pos) const;
  bool is_leaf() const;
  int64_t output_nr() const;
  void set_data(const TensorBase& new_data) const;
  TensorBase data() const;
  int64_t _version() const;
  void retain_grad() const;
  bool retains_grad() const;
  const TensorBase& requires_grad_(bool _requires_grad = true) const;
  bool is_view() const;
  const TensorBase& _base() const;
  const std::string& name() const;
  at::TensorBase tensor_data() const;
  at::TensorBase variable_data() const;
};

// ATen/core/TensorBody.h (at::Tensor; torch::Tensor is the same class)
class Tensor : public TensorBase {
 public:
  Tensor() = default;
  Tensor(const Tensor& tensor) = default;
  Tensor(Tensor&& tensor) = default;
  explicit Tensor(const TensorBase& base);
  /*implicit*/ Tensor(TensorBase&& base);

  Tensor& operator=(const TensorBase& x) &;
  Tensor& operator=(TensorBase&& x) &;
  Tensor& operator=(const Tensor& x) &;
  Tensor& operator=(Tensor&& x) &;
  // Assignment to a temporary (`t[0] = 1;`, `t.index(...) = x`) copies data in.
  Tensor& operator=(Scalar v) &&;
  Tensor& operator=(const Tensor& rhs) &&;
  Tensor& operator=(Tensor&& rhs) &&;

  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  using TensorBase::size;
  using TensorBase::stride;

  Tensor toType(ScalarType t) const;
  template <typename T>
  T* data() const;
  template <typename T>
  T item() const;
  at::Scalar item() const;

  Tensor operator~() const;
  Tensor operator-() const;
  Tensor& operator+=(const Tensor& other);
  Tensor& operator+=(Scalar other);
  Tensor& operator-=(const Tensor& other);
  Tensor& operator-=(Scalar other);
  Tensor& operator*=(const Tensor& other);
  Tensor& operator*=(Scalar other);
  Tensor& operator/=(const Tensor& other);
  Tensor& operator/=(Scalar other);
  Tensor& operator&=(const Tensor& other);
  Tensor& operator|=(const Tensor& other);
  Tensor& operator^=(const Tensor& other);
  Tensor operator[](Scalar index) const;
  Tensor operator[](Tensor index) const;
  Tensor operator[](int64_t index) const;

  Tensor index(ArrayRef<at::indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<at::indexing::TensorIndex> indices) const;
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(ArrayRef<at::indexing::TensorIndex> indices, const Scalar& v);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, Tensor const& rhs);
  Tensor& index_put_(std::initializer_list<at::indexing::TensorIndex> indices, const Scalar& v);

  Tensor cpu() const;
  Tensor cuda() const;
  Tensor hip() const;
  Tensor meta() const;

  // Autograd
  template <typename T>
  using hook_return_void_t =
      std::enable_if_t<std::is_void<decltype(std::declval<T&>()(std::declval<Tensor>()))>::value,
                       unsigned>;
  template <typename T>
  using hook_return_var_t = std::enable_if_t<
      std::is_same<decltype(std::declval<T&>()(std::declval<Tensor>())), Tensor>::value, unsigned>;
  template <typename T>
  hook_return_void_t<T> register_hook(T&& hook) const {
    return 0;
  }
  template <typename T>
  hook_return_var_t<T> register_hook(T&& hook) const {
    return 0;
  }
  void backward(const Tensor& gradient = {}, c10::optional<bool> retain_graph = c10::nullopt,
                bool create_graph = false, c10::optional<TensorList> inputs = c10::nullopt) const;
  const Tensor& set_requires_grad(bool requires_grad) const;
  Tensor& mutable_grad() const;
  const Tensor& grad() const;
  Tensor data() const;
  const Tensor& requires_grad_(bool _requires_grad = true) const;
  void _backward(TensorList inputs, const c10::optional<Tensor>& gradient,
                 c10::optional<bool> keep_graph, bool create_graph) const;

  // Generated methods (a subset of TensorBody.h)
  at::Tensor abs() const;
  at::Tensor& abs_() const;
  at::Tensor add(const at::Tensor& other, const at::Scalar& alpha = 1) const;
  at::Tensor& add_(const at::Tensor& other, const at::Scalar& alpha = 1) const;
  at::Tensor add(const at::Scalar& other, const at::Scalar& alpha = 1) const;
  at::Tensor& add_(const at::Scalar& other, const at::Scalar& alpha = 1) const;
  at::Tensor addmm(const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta = 1,
                   const at::Scalar& alpha = 1) const;
  at::Tensor all(int64_t dim, bool keepdim = false) const;
  at::Tensor all() const;
  bool allclose(const at::Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                bool equal_nan = false) const;
  at::Tensor any(int64_t dim, bool keepdim = false) const;
  at::Tensor any() const;
  at::Tensor argmax(c10::optional<int64_t> dim = c10::nullopt, bool keepdim = false) const;
  at::Tensor argmin(c10::optional<int64_t> dim = c10::nullopt, bool keepdim = false) const;
  at::Tensor argsort(int64_t dim = -1, bool descending = false) const;
  at::Tensor bmm(const at::Tensor& mat2) const;
  at::Tensor ceil() const;
  ::std::vector<at::Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  at::Tensor clamp(const c10::optional<at::Scalar>& min,
                   const c10::optional<at::Scalar>& max = c10::nullopt) const;
  at::Tensor clamp(const c10::optional<at::Tensor>& min = {},
                   const c10::optional<at::Tensor>& max = {}) const;
  at::Tensor& clamp_(const c10::optional<at::Scalar>& min,
                     const c10::optional<at::Scalar>& max = c10::nullopt) const;
  at::Tensor clamp_max(const at::Scalar& max) const;
  at::Tensor clamp_min(const at::Scalar& min) const;
  at::Tensor& clamp_min_(const at::Scalar& min) const;
  at::Tensor clone(c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor& copy_(const at::Tensor& src, bool non_blocking = false) const;
  at::Tensor cos() const;
  at::Tensor cumsum(int64_t dim, c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor detach() const;
  at::Tensor& detach_() const;
  at::Tensor diag(int64_t diagonal = 0) const;
  at::Tensor div(const at::Tensor& other) const;
  at::Tensor& div_(const at::Tensor& other) const;
  at::Tensor div(const at::Tensor& other, c10::optional<c10::string_view> rounding_mode) const;
  at::Tensor div(const at::Scalar& other) const;
  at::Tensor& div_(const at::Scalar& other) const;
  at::Tensor dot(const at::Tensor& tensor) const;
  at::Tensor eq(const at::Scalar& other) const;
  at::Tensor eq(const at::Tensor& other) const;
  at::Tensor& eq_(const at::Scalar& other) const;
  at::Tensor& eq_(const at::Tensor& other) const;
  bool equal(const at::Tensor& other) const;
  at::Tensor exp() const;
  at::Tensor& exp_() const;
  at::Tensor expand(at::IntArrayRef size, bool implicit = false) const;
  at::Tensor expand_as(const at::Tensor& other) const;
  at::Tensor& fill_(const at::Scalar& value) const;
  at::Tensor& fill_(const at::Tensor& value) const;
  at::Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  at::Tensor flip(at::IntArrayRef dims) const;
  at::Tensor floor() const;
  at::Tensor gather(int64_t dim, const at::Tensor& index, bool sparse_grad = false) const;
  at::Tensor ge(const at::Scalar& other) const;
  at::Tensor ge(const at::Tensor& other) const;
  at::Tensor gt(const at::Scalar& other) const;
  at::Tensor gt(const at::Tensor& other) const;
  at::Tensor index_select(int64_t dim, const at::Tensor& index) const;
  at::Tensor isnan() const;
  at::Tensor isinf() const;
  at::Tensor le(const at::Scalar& other) const;
  at::Tensor le(const at::Tensor& other) const;
  at::Tensor log() const;
  at::Tensor& log_() const;
  at::Tensor log1p() const;
  at::Tensor log_softmax(int64_t dim, c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor logsumexp(at::IntArrayRef dim, bool keepdim = false) const;
  at::Tensor lt(const at::Scalar& other) const;
  at::Tensor lt(const at::Tensor& other) const;
  at::Tensor masked_fill(const at::Tensor& mask, const at::Scalar& value) const;
  at::Tensor masked_fill(const at::Tensor& mask, const at::Tensor& value) const;
  at::Tensor& masked_fill_(const at::Tensor& mask, const at::Scalar& value) const;
  at::Tensor masked_select(const at::Tensor& mask) const;
  at::Tensor matmul(const at::Tensor& other) const;
  ::std::tuple<at::Tensor, at::Tensor> max(int64_t dim, bool keepdim = false) const;
  at::Tensor max() const;
  at::Tensor max(const at::Tensor& other) const;
  at::Tensor maximum(const at::Tensor& other) const;
  at::Tensor mean(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor mean(at::OptionalIntArrayRef dim, bool keepdim = false,
                  c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor mean(at::DimnameList dim, bool keepdim = false,
                  c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  ::std::tuple<at::Tensor, at::Tensor> min(int64_t dim, bool keepdim = false) const;
  at::Tensor min() const;
  at::Tensor min(const at::Tensor& other) const;
  at::Tensor minimum(const at::Tensor& other) const;
  at::Tensor mm(const at::Tensor& mat2) const;
  at::Tensor mul(const at::Tensor& other) const;
  at::Tensor& mul_(const at::Tensor& other) const;
  at::Tensor mul(const at::Scalar& other) const;
  at::Tensor& mul_(const at::Scalar& other) const;
  at::Tensor mv(const at::Tensor& vec) const;
  at::Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  at::Tensor ne(const at::Scalar& other) const;
  at::Tensor ne(const at::Tensor& other) const;
  at::Tensor neg() const;
  at::Tensor nonzero() const;
  at::Tensor norm(const at::Scalar& p = 2) const;
  at::Tensor norm(const c10::optional<at::Scalar>& p, at::IntArrayRef dim,
                  bool keepdim = false) const;
  at::Tensor& normal_(double mean = 0, double std = 1,
                      c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor permute(at::IntArrayRef dims) const;
  at::Tensor pin_memory(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor pow(const at::Tensor& exponent) const;
  at::Tensor pow(const at::Scalar& exponent) const;
  at::Tensor& pow_(const at::Scalar& exponent) const;
  at::Tensor prod(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor prod(int64_t dim, bool keepdim = false,
                  c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor reciprocal() const;
  at::Tensor relu() const;
  at::Tensor& relu_() const;
  at::Tensor remainder(const at::Scalar& other) const;
  at::Tensor repeat(at::IntArrayRef repeats) const;
  at::Tensor reshape(at::IntArrayRef shape) const;
  at::Tensor reshape_as(const at::Tensor& other) const;
  at::Tensor round() const;
  at::Tensor rsqrt() const;
  at::Tensor select(int64_t dim, int64_t index) const;
  at::Tensor sigmoid() const;
  at::Tensor& sigmoid_() const;
  at::Tensor sign() const;
  at::Tensor sin() const;
  at::Tensor slice(int64_t dim = 0, c10::optional<int64_t> start = c10::nullopt,
                   c10::optional<int64_t> end = c10::nullopt, int64_t step = 1) const;
  at::Tensor softmax(int64_t dim, c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  ::std::tuple<at::Tensor, at::Tensor> sort(int64_t dim = -1, bool descending = false) const;
  ::std::vector<at::Tensor> split(int64_t split_size, int64_t dim = 0) const;
  at::Tensor sqrt() const;
  at::Tensor square() const;
  at::Tensor squeeze() const;
  at::Tensor squeeze(int64_t dim) const;
  at::Tensor& squeeze_() const;
  at::Tensor std(bool unbiased = true) const;
  at::Tensor std(at::OptionalIntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  at::Tensor std(at::DimnameList dim, bool unbiased = true, bool keepdim = false) const;
  at::Tensor sub(const at::Tensor& other, const at::Scalar& alpha = 1) const;
  at::Tensor& sub_(const at::Tensor& other, const at::Scalar& alpha = 1) const;
  at::Tensor sub(const at::Scalar& other, const at::Scalar& alpha = 1) const;
  at::Tensor& sub_(const at::Scalar& other, const at::Scalar& alpha = 1) const;
  at::Tensor sum(c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor sum(at::OptionalIntArrayRef dim, bool keepdim = false,
                 c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor sum(at::DimnameList dim, bool keepdim = false,
                 c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor t() const;
  at::Tensor tanh() const;
  at::Tensor& tanh_() const;
  at::Tensor to(at::TensorOptions options = {}, bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(at::Device device, at::ScalarType dtype, bool non_blocking = false,
                bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(at::ScalarType dtype, bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor to(const at::Tensor& other, bool non_blocking = false, bool copy = false,
                c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  ::std::tuple<at::Tensor, at::Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                            bool sorted = true) const;
  at::Tensor transpose(int64_t dim0, int64_t dim1) const;
  at::Tensor tril(int64_t diagonal = 0) const;
  at::Tensor triu(int64_t diagonal = 0) const;
  at::Tensor type_as(const at::Tensor& other) const;
  at::Tensor& uniform_(double from = 0, double to = 1,
                       c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor unsqueeze(int64_t dim) const;
  at::Tensor& unsqueeze_(int64_t dim) const;
  at::Tensor var(bool unbiased = true) const;
  at::Tensor view(at::IntArrayRef size) const;
  at::Tensor view(at::ScalarType dtype) const;
  at::Tensor view_as(const at::Tensor& other) const;
  at::Tensor where(const at::Tensor& condition, const at::Tensor& other) const;
  at::Tensor& zero_() const;

  // More generated methods, verbatim from ATen/core/TensorBody.h
  at::Tensor bernoulli(c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor& bernoulli_(const at::Tensor& p,
                         c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor& bernoulli_(double p = 0.5,
                         c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor bernoulli(double p, c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor logical_not() const;
  at::Tensor logical_and(const at::Tensor& other) const;
  at::Tensor logical_or(const at::Tensor& other) const;
  at::Tensor& ceil_() const;
  ::std::vector<at::Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  ::std::vector<at::Tensor> tensor_split(at::IntArrayRef indices, int64_t dim = 0) const;
  ::std::vector<at::Tensor> tensor_split(const at::Tensor& tensor_indices_or_sections,
                                         int64_t dim = 0) const;
  at::Tensor& clamp_max_(const at::Scalar& max) const;
  at::Tensor& clamp_max_(const at::Tensor& max) const;
  at::Tensor clip(const c10::optional<at::Scalar>& min,
                  const c10::optional<at::Scalar>& max = c10::nullopt) const;
  at::Tensor clip(const c10::optional<at::Tensor>& min = {},
                  const c10::optional<at::Tensor>& max = {}) const;
  at::Tensor& clip_(const c10::optional<at::Scalar>& min,
                    const c10::optional<at::Scalar>& max = c10::nullopt) const;
  at::Tensor& clip_(const c10::optional<at::Tensor>& min = {},
                    const c10::optional<at::Tensor>& max = {}) const;
  at::Tensor& cos_() const;
  at::Tensor cosh() const;
  at::Tensor cumprod(int64_t dim, c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor& fill_diagonal_(const at::Scalar& fill_value, bool wrap = false) const;
  at::Tensor diff(int64_t n = 1, int64_t dim = -1, const c10::optional<at::Tensor>& prepend = {},
                  const c10::optional<at::Tensor>& append = {}) const;
  at::Tensor true_divide(const at::Tensor& other) const;
  at::Tensor true_divide(const at::Scalar& other) const;
  at::Tensor new_empty(at::IntArrayRef size, at::TensorOptions options = {}) const;
  at::Tensor new_full(at::IntArrayRef size, const at::Scalar& fill_value,
                      at::TensorOptions options = {}) const;
  at::Tensor new_zeros(at::IntArrayRef size, at::TensorOptions options = {}) const;
  at::Tensor new_ones(at::IntArrayRef size, at::TensorOptions options = {}) const;
  const at::Tensor& resize_(at::IntArrayRef size,
                            c10::optional<at::MemoryFormat> memory_format = c10::nullopt) const;
  at::Tensor erf() const;
  at::Tensor expm1() const;
  at::Tensor unflatten(int64_t dim, at::IntArrayRef sizes) const;
  at::Tensor& floor_() const;
  at::Tensor floor_divide(const at::Tensor& other) const;
  at::Tensor floor_divide(const at::Scalar& other) const;
  at::Tensor frac() const;
  at::Tensor& index_copy_(int64_t dim, const at::Tensor& index, const at::Tensor& source) const;
  at::Tensor isclose(const at::Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                     bool equal_nan = false) const;
  bool is_nonzero() const;
  bool is_same_size(const at::Tensor& other) const;
  ::std::tuple<at::Tensor, at::Tensor> kthvalue(int64_t k, int64_t dim = -1,
                                                bool keepdim = false) const;
  at::Tensor nan_to_num(c10::optional<double> nan = c10::nullopt,
                        c10::optional<double> posinf = c10::nullopt,
                        c10::optional<double> neginf = c10::nullopt) const;
  at::Tensor log10() const;
  at::Tensor log2() const;
  at::Tensor amax(at::IntArrayRef dim = {}, bool keepdim = false) const;
  at::Tensor nanmean(at::OptionalIntArrayRef dim = c10::nullopt, bool keepdim = false,
                     c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor median() const;
  ::std::tuple<at::Tensor, at::Tensor> median(int64_t dim, bool keepdim = false) const;
  at::Tensor amin(at::IntArrayRef dim = {}, bool keepdim = false) const;
  at::Tensor movedim(at::IntArrayRef source, at::IntArrayRef destination) const;
  at::Tensor movedim(int64_t source, int64_t destination) const;
  bool is_pinned(c10::optional<at::Device> device = c10::nullopt) const;
  at::Tensor& reciprocal_() const;
  at::Tensor& neg_() const;
  at::Tensor repeat_interleave(const at::Tensor& repeats, c10::optional<int64_t> dim = c10::nullopt,
                               c10::optional<int64_t> output_size = c10::nullopt) const;
  at::Tensor repeat_interleave(int64_t repeats, c10::optional<int64_t> dim = c10::nullopt,
                               c10::optional<int64_t> output_size = c10::nullopt) const;
  at::Tensor& round_() const;
  at::Tensor& round_(int64_t decimals) const;
  at::Tensor hardshrink(const at::Scalar& lambd = 0.5) const;
  at::Tensor logit(c10::optional<double> eps = c10::nullopt) const;
  at::Tensor& sin_() const;
  at::Tensor sinh() const;
  ::std::vector<at::Tensor> split_with_sizes(at::IntArrayRef split_sizes, int64_t dim = 0) const;
  at::Tensor nansum(at::OptionalIntArrayRef dim = c10::nullopt, bool keepdim = false,
                    c10::optional<at::ScalarType> dtype = c10::nullopt) const;
  at::Tensor sum_to_size(at::IntArrayRef size) const;
  at::Tensor& sqrt_() const;
  at::Tensor& square_() const;
  at::Tensor& t_() const;
  at::Tensor tan() const;
  at::Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  at::Tensor fliplr() const;
  at::Tensor flipud() const;
  at::Tensor roll(at::IntArrayRef shifts, at::IntArrayRef dims = {}) const;
  at::Tensor trunc() const;
  ::std::vector<at::Tensor> unbind(int64_t dim = 0) const;
  at::Tensor masked_scatter(const at::Tensor& mask, const at::Tensor& source) const;
  at::Tensor& index_add_(int64_t dim, const at::Tensor& index, const at::Tensor& source,
                         const at::Scalar& alpha = 1) const;
  at::Tensor index_add(int64_t dim, const at::Tensor& index, const at::Tensor& source,
                       const at::Scalar& alpha = 1) const;
  at::Tensor& index_fill_(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor& index_fill_(int64_t dim, const at::Tensor& index, const at::Tensor& value) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Scalar& value) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Tensor& src,
                     c10::string_view reduce) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Tensor& src,
                       c10::string_view reduce) const;
  at::Tensor scatter(int64_t dim, const at::Tensor& index, const at::Scalar& value,
                     c10::string_view reduce) const;
  at::Tensor& scatter_(int64_t dim, const at::Tensor& index, const at::Scalar& value,
                       c10::string_view reduce) const;
  at::Tensor scatter_add(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& scatter_add_(int64_t dim, const at::Tensor& index, const at::Tensor& src) const;
  at::Tensor& tril_(int64_t diagonal = 0) const;
  at::Tensor& triu_(int64_t diagonal = 0) const;
  at::Tensor& lerp_(const at::Tensor& end, const at::Scalar& weight) const;
  at::Tensor& lerp_(const at::Tensor& end, const at::Tensor& weight) const;
  at::Tensor& random_(int64_t from, c10::optional<int64_t> to,
                      c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor& random_(int64_t to, c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor& random_(c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor cross(const at::Tensor& other, c10::optional<int64_t> dim = c10::nullopt) const;
  at::Tensor greater(const at::Scalar& other) const;
  at::Tensor greater(const at::Tensor& other) const;
  at::Tensor less(const at::Scalar& other) const;
  at::Tensor less(const at::Tensor& other) const;
  at::Tensor take(const at::Tensor& index) const;
  at::Tensor swapaxes(int64_t axis0, int64_t axis1) const;
  at::Tensor multinomial(int64_t num_samples, bool replacement = false,
                         c10::optional<at::Generator> generator = c10::nullopt) const;
  at::Tensor& sign_() const;
  at::Tensor lerp(const at::Tensor& end, const at::Scalar& weight) const;
  at::Tensor lerp(const at::Tensor& end, const at::Tensor& weight) const;
  at::Tensor fmod(const at::Scalar& other) const;
  at::Tensor fmod(const at::Tensor& other) const;
  at::Tensor& remainder_(const at::Scalar& other) const;
  at::Tensor& remainder_(const at::Tensor& other) const;
  at::Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  at::Tensor isfinite() const;
  at::Tensor det() const;
  at::Tensor inverse() const;
  at::Tensor outer(const at::Tensor& vec2) const;
};

std::ostream& operator<<(std::ostream& out, const Tensor& t);

// ATen/TensorOperators.h
#define SEALINT_AT_BINARY_OP(op)                        \
  Tensor operator op(const Tensor& x, const Tensor& y); \
  Tensor operator op(const Tensor& x, const Scalar& y); \
  Tensor operator op(const Scalar& x, const Tensor& y);
SEALINT_AT_BINARY_OP(+)
SEALINT_AT_BINARY_OP(*)
SEALINT_AT_BINARY_OP(-)
SEALINT_AT_BINARY_OP(/)
SEALINT_AT_BINARY_OP(%)
SEALINT_AT_BINARY_OP(&)
SEALINT_AT_BINARY_OP(|)
SEALINT_AT_BINARY_OP(^)
SEALINT_AT_BINARY_OP(<)
SEALINT_AT_BINARY_OP(<=)
SEALINT_AT_BINARY_OP(>)
SEALINT_AT_BINARY_OP(>=)
SEALINT_AT_BINARY_OP(==)
SEALINT_AT_BINARY_OP(!=)
#undef SEALINT_AT_BINARY_OP

// ATen/TensorIndexing.h
namespace indexing {
constexpr c10::nullopt_t None = c10::nullopt;
struct EllipsisIndexType final {
  EllipsisIndexType() {}
};
extern const EllipsisIndexType Ellipsis;
struct Slice final {
 public:
  Slice(c10::optional<int64_t> start_index = c10::nullopt,
        c10::optional<int64_t> stop_index = c10::nullopt,
        c10::optional<int64_t> step_index = c10::nullopt);
  int64_t start() const;
  int64_t stop() const;
  int64_t step() const;
};
struct TensorIndex final {
  TensorIndex(c10::nullopt_t);
  TensorIndex(at::indexing::EllipsisIndexType);
  TensorIndex(const char* str);
  TensorIndex(int64_t integer);
  TensorIndex(int integer);
  template <class T, class = typename std::enable_if<std::is_same<bool, T>::value>::type>
  TensorIndex(T boolean);
  TensorIndex(Slice slice);
  TensorIndex(Tensor tensor);
};
}  // namespace indexing

// ---------------------------------------------------------------------------
// ATen free functions (ATen/Functions.h, a subset). torch:: sees them through
// `namespace torch { using namespace at; }`.
// ---------------------------------------------------------------------------
// Factories (torch:: has its own autograd-aware overloads in torch/torch.h).
at::Tensor arange(const at::Scalar& end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step,
                  at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {},
                 c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor empty_like(const at::Tensor& self, at::TensorOptions options = {},
                      c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor eye(int64_t n, at::TensorOptions options = {});
at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar& fill_value, at::TensorOptions options = {});
at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill_value,
                     at::TensorOptions options = {},
                     c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor linspace(const at::Scalar& start, const at::Scalar& end, int64_t steps,
                    at::TensorOptions options = {});
at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor ones_like(const at::Tensor& self, at::TensorOptions options = {},
                     c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator,
                at::TensorOptions options = {});
at::Tensor rand_like(const at::Tensor& self, at::TensorOptions options = {},
                     c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = at::kLong);
at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator,
                 at::TensorOptions options = {});
at::Tensor randn_like(const at::Tensor& self, at::TensorOptions options = {},
                      c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor randperm(int64_t n, at::TensorOptions options = at::kLong);
at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
at::Tensor zeros_like(const at::Tensor& self, at::TensorOptions options = {},
                      c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor normal(double mean, double std, at::IntArrayRef size,
                  c10::optional<at::Generator> generator = c10::nullopt,
                  at::TensorOptions options = {});
at::Tensor from_blob(void* data, at::IntArrayRef sizes,
                     const at::TensorOptions& options = at::TensorOptions());

// Shape / joining
at::Tensor cat(const at::ITensorListRef& tensors, int64_t dim = 0);
at::Tensor stack(at::TensorList tensors, int64_t dim = 0);
at::Tensor hstack(at::TensorList tensors);
at::Tensor vstack(at::TensorList tensors);
::std::vector<at::Tensor> chunk(const at::Tensor& self, int64_t chunks, int64_t dim = 0);
::std::vector<at::Tensor> split(const at::Tensor& self, int64_t split_size, int64_t dim = 0);
at::Tensor flatten(const at::Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
at::Tensor reshape(const at::Tensor& self, at::IntArrayRef shape);
at::Tensor squeeze(const at::Tensor& self);
at::Tensor squeeze(const at::Tensor& self, int64_t dim);
at::Tensor unsqueeze(const at::Tensor& self, int64_t dim);
at::Tensor transpose(const at::Tensor& self, int64_t dim0, int64_t dim1);
at::Tensor permute(const at::Tensor& self, at::IntArrayRef dims);
at::Tensor t(const at::Tensor& self);
at::Tensor narrow(const at::Tensor& self, int64_t dim, int64_t start, int64_t length);
at::Tensor select(const at::Tensor& self, int64_t dim, int64_t index);
at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index);
at::Tensor gather(const at::Tensor& self, int64_t dim, const at::Tensor& index,
                  bool sparse_grad = false);
at::Tensor masked_fill(const at::Tensor& self, const at::Tensor& mask, const at::Scalar& value);
at::Tensor masked_fill(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& value);
at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other);
at::Tensor where(const at::Tensor& condition, const at::Scalar& self, const at::Tensor& other);
at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Scalar& other);
at::Tensor where(const at::Tensor& condition, const at::Scalar& self, const at::Scalar& other);
at::Tensor nonzero(const at::Tensor& self);
at::Tensor tril(const at::Tensor& self, int64_t diagonal = 0);
at::Tensor triu(const at::Tensor& self, int64_t diagonal = 0);
at::Tensor clone(const at::Tensor& self,
                 c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor detach(const at::Tensor& self);

// Pointwise
at::Tensor abs(const at::Tensor& self);
at::Tensor ceil(const at::Tensor& self);
at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Scalar>& min,
                 const c10::optional<at::Scalar>& max = c10::nullopt);
at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Tensor>& min = {},
                 const c10::optional<at::Tensor>& max = {});
at::Tensor cos(const at::Tensor& self);
at::Tensor exp(const at::Tensor& self);
at::Tensor floor(const at::Tensor& self);
at::Tensor isfinite(const at::Tensor& self);
at::Tensor isinf(const at::Tensor& self);
at::Tensor isnan(const at::Tensor& self);
at::Tensor log(const at::Tensor& self);
at::Tensor log1p(const at::Tensor& self);
at::Tensor maximum(const at::Tensor& self, const at::Tensor& other);
at::Tensor minimum(const at::Tensor& self, const at::Tensor& other);
at::Tensor neg(const at::Tensor& self);
at::Tensor pow(const at::Tensor& self, const at::Tensor& exponent);
at::Tensor pow(const at::Scalar& self, const at::Tensor& exponent);
at::Tensor pow(const at::Tensor& self, const at::Scalar& exponent);
at::Tensor round(const at::Tensor& self);
at::Tensor rsqrt(const at::Tensor& self);
at::Tensor sign(const at::Tensor& self);
at::Tensor sin(const at::Tensor& self);
at::Tensor sqrt(const at::Tensor& self);
at::Tensor square(const at::Tensor& self);
at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor sub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha = 1);
at::Tensor mul(const at::Tensor& self, const at::Tensor& other);
at::Tensor div(const at::Tensor& self, const at::Tensor& other);
at::Tensor eq(const at::Tensor& self, const at::Scalar& other);
at::Tensor eq(const at::Tensor& self, const at::Tensor& other);
at::Tensor ne(const at::Tensor& self, const at::Tensor& other);
at::Tensor gt(const at::Tensor& self, const at::Scalar& other);
at::Tensor lt(const at::Tensor& self, const at::Scalar& other);
bool allclose(const at::Tensor& self, const at::Tensor& other, double rtol = 1e-05,
              double atol = 1e-08, bool equal_nan = false);
bool equal(const at::Tensor& self, const at::Tensor& other);

// Reductions
at::Tensor all(const at::Tensor& self);
at::Tensor all(const at::Tensor& self, int64_t dim, bool keepdim = false);
at::Tensor any(const at::Tensor& self);
at::Tensor any(const at::Tensor& self, int64_t dim, bool keepdim = false);
at::Tensor argmax(const at::Tensor& self, c10::optional<int64_t> dim = c10::nullopt,
                  bool keepdim = false);
at::Tensor argmin(const at::Tensor& self, c10::optional<int64_t> dim = c10::nullopt,
                  bool keepdim = false);
at::Tensor cumsum(const at::Tensor& self, int64_t dim,
                  c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor logsumexp(const at::Tensor& self, at::IntArrayRef dim, bool keepdim = false);
::std::tuple<at::Tensor, at::Tensor> max(const at::Tensor& self, int64_t dim, bool keepdim = false);
at::Tensor max(const at::Tensor& self);
at::Tensor max(const at::Tensor& self, const at::Tensor& other);
at::Tensor mean(const at::Tensor& self, c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor mean(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim = false,
                c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor mean(const at::Tensor& self, at::DimnameList dim, bool keepdim = false,
                c10::optional<at::ScalarType> dtype = c10::nullopt);
::std::tuple<at::Tensor, at::Tensor> min(const at::Tensor& self, int64_t dim, bool keepdim = false);
at::Tensor min(const at::Tensor& self);
at::Tensor min(const at::Tensor& self, const at::Tensor& other);
at::Tensor norm(const at::Tensor& self, const at::Scalar& p = 2);
at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar>& p, at::IntArrayRef dim,
                bool keepdim = false);
at::Tensor prod(const at::Tensor& self, c10::optional<at::ScalarType> dtype = c10::nullopt);
::std::tuple<at::Tensor, at::Tensor> sort(const at::Tensor& self, int64_t dim = -1,
                                          bool descending = false);
at::Tensor std(const at::Tensor& self, bool unbiased = true);
at::Tensor sum(const at::Tensor& self, c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim = false,
               c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor sum(const at::Tensor& self, at::DimnameList dim, bool keepdim = false,
               c10::optional<at::ScalarType> dtype = c10::nullopt);
::std::tuple<at::Tensor, at::Tensor> topk(const at::Tensor& self, int64_t k, int64_t dim = -1,
                                          bool largest = true, bool sorted = true);
at::Tensor var(const at::Tensor& self, bool unbiased = true);

// Linear algebra
at::Tensor bmm(const at::Tensor& self, const at::Tensor& mat2);
at::Tensor einsum(c10::string_view equation, at::TensorList tensors);
at::Tensor matmul(const at::Tensor& self, const at::Tensor& other);
at::Tensor mm(const at::Tensor& self, const at::Tensor& mat2);
at::Tensor outer(const at::Tensor& self, const at::Tensor& vec2);

// Neural-network functions
at::Tensor adaptive_avg_pool2d(const at::Tensor& self, at::IntArrayRef output_size);
at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size,
                      at::IntArrayRef stride = {}, at::IntArrayRef padding = 0,
                      bool ceil_mode = false, bool count_include_pad = true,
                      c10::optional<int64_t> divisor_override = c10::nullopt);
at::Tensor batch_norm(const at::Tensor& input, const c10::optional<at::Tensor>& weight,
                      const c10::optional<at::Tensor>& bias,
                      const c10::optional<at::Tensor>& running_mean,
                      const c10::optional<at::Tensor>& running_var, bool training, double momentum,
                      double eps, bool cudnn_enabled);
at::Tensor binary_cross_entropy(const at::Tensor& self, const at::Tensor& target,
                                const c10::optional<at::Tensor>& weight = {},
                                int64_t reduction = at::Reduction::Mean);
at::Tensor binary_cross_entropy_with_logits(const at::Tensor& self, const at::Tensor& target,
                                            const c10::optional<at::Tensor>& weight = {},
                                            const c10::optional<at::Tensor>& pos_weight = {},
                                            int64_t reduction = at::Reduction::Mean);
at::Tensor conv1d(const at::Tensor& input, const at::Tensor& weight,
                  const c10::optional<at::Tensor>& bias = {}, at::IntArrayRef stride = 1,
                  at::IntArrayRef padding = 0, at::IntArrayRef dilation = 1, int64_t groups = 1);
at::Tensor conv2d(const at::Tensor& input, const at::Tensor& weight,
                  const c10::optional<at::Tensor>& bias = {}, at::IntArrayRef stride = 1,
                  at::IntArrayRef padding = 0, at::IntArrayRef dilation = 1, int64_t groups = 1);
at::Tensor cosine_similarity(const at::Tensor& x1, const at::Tensor& x2, int64_t dim = 1,
                             double eps = 1e-08);
at::Tensor cross_entropy_loss(const at::Tensor& self, const at::Tensor& target,
                              const c10::optional<at::Tensor>& weight = {},
                              int64_t reduction = at::Reduction::Mean, int64_t ignore_index = -100,
                              double label_smoothing = 0.0);
at::Tensor dropout(const at::Tensor& input, double p, bool train);
at::Tensor& dropout_(at::Tensor& self, double p, bool train);
at::Tensor embedding(const at::Tensor& weight, const at::Tensor& indices, int64_t padding_idx = -1,
                     bool scale_grad_by_freq = false, bool sparse = false);
at::Tensor gelu(const at::Tensor& self, c10::string_view approximate = "none");
at::Tensor kl_div(const at::Tensor& self, const at::Tensor& target,
                  int64_t reduction = at::Reduction::Mean, bool log_target = false);
at::Tensor l1_loss(const at::Tensor& self, const at::Tensor& target,
                   int64_t reduction = at::Reduction::Mean);
at::Tensor layer_norm(const at::Tensor& input, at::IntArrayRef normalized_shape,
                      const c10::optional<at::Tensor>& weight = {},
                      const c10::optional<at::Tensor>& bias = {}, double eps = 1e-05,
                      bool cudnn_enable = true);
at::Tensor leaky_relu(const at::Tensor& self, const at::Scalar& negative_slope = 0.01);
at::Tensor linear(const at::Tensor& input, const at::Tensor& weight,
                  const c10::optional<at::Tensor>& bias = {});
at::Tensor log_softmax(const at::Tensor& self, int64_t dim,
                       c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor max_pool1d(const at::Tensor& self, at::IntArrayRef kernel_size,
                      at::IntArrayRef stride = {}, at::IntArrayRef padding = 0,
                      at::IntArrayRef dilation = 1, bool ceil_mode = false);
at::Tensor max_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size,
                      at::IntArrayRef stride = {}, at::IntArrayRef padding = 0,
                      at::IntArrayRef dilation = 1, bool ceil_mode = false);
at::Tensor mse_loss(const at::Tensor& self, const at::Tensor& target,
                    int64_t reduction = at::Reduction::Mean);
at::Tensor nll_loss(const at::Tensor& self, const at::Tensor& target,
                    const c10::optional<at::Tensor>& weight = {},
                    int64_t reduction = at::Reduction::Mean, int64_t ignore_index = -100);
at::Tensor one_hot(const at::Tensor& self, int64_t num_classes = -1);
at::Tensor relu(const at::Tensor& self);
at::Tensor& relu_(at::Tensor& self);
at::Tensor sigmoid(const at::Tensor& self);
at::Tensor silu(const at::Tensor& self);
at::Tensor smooth_l1_loss(const at::Tensor& self, const at::Tensor& target,
                          int64_t reduction = at::Reduction::Mean, double beta = 1.0);
at::Tensor softmax(const at::Tensor& self, int64_t dim,
                   c10::optional<at::ScalarType> dtype = c10::nullopt);
at::Tensor tanh(const at::Tensor& self);

// ATen/Context.h
class Context {
 public:
  static bool hasCUDA();
  static bool hasMPS();
  static bool setFlushDenormal(bool on);
  bool benchmarkCuDNN() const;
  void setBenchmarkCuDNN(bool);
  bool deterministicCuDNN() const;
  void setDeterministicCuDNN(bool);
  bool deterministicAlgorithms() const;
  void setDeterministicAlgorithms(bool, bool);
  bool allowTF32CuDNN() const;
  void setAllowTF32CuDNN(bool);
  bool allowTF32CuBLAS() const;
  void setAllowTF32CuBLAS(bool);
};
Context& globalContext();
bool hasCUDA();
void manual_seed(uint64_t seed);
void init_num_threads();
int get_num_threads();
void set_num_threads(int nthreads);
int get_num_interop_threads();
void set_num_interop_threads(int nthreads);

}  // namespace at

// ---------------------------------------------------------------------------
// c10::IValue (ATen/core/ivalue.h), minimal: what scripted-module calls need.
// ---------------------------------------------------------------------------
namespace c10 {
struct IValue;
namespace ivalue {
struct Tuple {
  const std::vector<IValue>& elements() const&;
  size_t size() const;
};
}  // namespace ivalue

struct IValue final {
  IValue();
  IValue(const IValue& rhs);
  IValue(IValue&& rhs) noexcept;
  IValue& operator=(const IValue& rhs) &;
  IValue& operator=(IValue&& rhs) & noexcept;
  ~IValue();
  IValue(at::TensorBase t);
  IValue(double d);
  IValue(int64_t i);
  IValue(int32_t i);
  template <class T, class = typename std::enable_if<std::is_same<T, bool>::value>::type>
  IValue(T b);
  IValue(std::string v);
  IValue(const char* v);
  IValue(std::vector<IValue> v);
  IValue(c10::nullopt_t);

  bool isTensor() const;
  at::Tensor toTensor() &&;
  at::Tensor& toTensor() &;
  const at::Tensor& toTensor() const&;
  bool isDouble() const;
  double toDouble() const;
  bool isInt() const;
  int64_t toInt() const;
  bool isBool() const;
  bool toBool() const;
  bool isString() const;
  const std::string& toStringRef() const;
  bool isTuple() const;
  c10::intrusive_ptr<ivalue::Tuple> toTuple() const&;
  bool isList() const;
  bool isTensorList() const;
  std::vector<at::Tensor> toTensorVector() const;
  bool isNone() const;
  std::string tagKind() const;
};
std::ostream& operator<<(std::ostream& out, const IValue& v);
}  // namespace c10
