// sealint's model of the LibTorch 1.13 C++ API (<torch/torch.h>).
//
// This is NOT LibTorch. sealint serves this header through Clang's in-memory file
// system in place of the real torch/ATen headers (10 s and 650 MB per file) so that
// a training program parses in well under a second (0.7 s, 150 MB) with no LibTorch
// installed. It declares what user training code calls, with the real names,
// namespaces and (simplified) signatures of LibTorch 1.13, so that Clang resolves
// every call to the same declaration -- and every expression to the same type -- as
// with the real headers. Full notes: ../README.md.
//
// MODELLED (declarations; bodies only where a template needs one)
//   c10/at (ATen/ATen.h): c10::optional/nullopt (c10's own class, as in 1.13),
//     c10::variant, ArrayRef/IntArrayRef/OptionalIntArrayRef, ScalarType + kFloat..,
//     Device/DeviceType/kCUDA/kCPU, Layout, MemoryFormat, Scalar, TensorOptions and
//     torch::dtype()/device()/requires_grad(), GradMode, AutoGradMode (implicit from
//     bool, as in 1.13), NoGradGuard, InferenceMode, at::TensorBase / at::Tensor
//     (= torch::Tensor) with ~290 methods (item<T>, detach, backward(gradient,
//     retain_graph, create_graph, inputs), grad, register_hook, to/cpu/cuda, shape
//     ops, reductions, in-place ops, operators with tensors and scalars, operator[],
//     index/index_put_ with at::indexing::Slice/None/Ellipsis, accessor, data_ptr),
//     ~130 at:: free functions (reached as torch::relu, torch::cat, ...),
//     at::globalContext(), c10::IValue, TORCH_CHECK/AT_ASSERT/TORCH_WARN.
//   torch (this file): `using namespace at`, torch::kFloat32.., factory functions
//     (randn, zeros, ones, empty, full, arange, rand, randint, randperm, eye,
//     linspace, *_like, tensor, from_blob, normal), torch::autograd (Variable,
//     variable_list, grad, backward, GradMode, Function/AutogradContext, Node),
//     torch::cuda, OrderedDict, TORCH_ARG, ExpandingArray, torch::enumtype / kMean..,
//     serialize archives, torch::save/load, torch::jit::Module.
//   torch::nn: Module (register_module/parameter/buffer, parameters,
//     named_parameters, buffers, children, modules, train/eval/is_training, to,
//     zero_grad, apply, clone, as, save/load), ModuleHolder (->, *, operator()
//     forwarding to forward), TORCH_MODULE, Cloneable; Linear, Bilinear, Identity,
//     Flatten, Conv1d/2d/3d, ConvTranspose1d/2d/3d, MaxPool/AvgPool/AdaptiveAvgPool
//     1d/2d/3d, AdaptiveMaxPool2d, Embedding, RNN, LSTM, GRU, RNNCell, LSTMCell,
//     GRUCell, Dropout/2d/3d, ReLU, ReLU6, LeakyReLU, GELU, SiLU, ELU, Sigmoid, Tanh,
//     Softmax, LogSoftmax, BatchNorm1d/2d/3d, LayerNorm, GroupNorm, Sequential,
//     ModuleList, ModuleDict, Functional, AnyModule, losses (MSE, L1, SmoothL1, Huber,
//     CrossEntropy, NLL, BCE, BCEWithLogits, KLDiv) with their *Options builders;
//     torch::nn::functional (losses, activations, dropout, pooling, conv, linear,
//     normalize, layer_norm, batch_norm, embedding, one_hot, pad, interpolate);
//     torch::nn::init; torch::nn::utils (clip_grad_norm_/clip_grad_value_, ...).
//   torch::optim: Optimizer, OptimizerParamGroup, OptimizerOptions, SGD, Adam, AdamW,
//     Adagrad, RMSprop, LBFGS (+ *Options), LRScheduler, StepLR.
//   torch::data: Example, datasets (Dataset, BatchDataset, MapDataset, MNIST,
//     TensorDataset), transforms (Normalize, Stack, Lambda, TensorLambda,
//     BatchLambda), samplers (RandomSampler, SequentialSampler), DataLoaderOptions,
//     make_data_loader -> std::unique_ptr<StatelessDataLoader> iterating batches.
//   torch/script.h adds torch::jit::load and torch::autograd::InferenceMode.
//
// SIMPLIFIED / LEFT OUT: no storage or behaviour (ModuleHolder has no impl_, TORCH_ARG
//   accessors have no bodies); c10::variant, c10::string_view, ITensorListRef
//   (= ArrayRef<Tensor>), ska::flat_hash_map, ExpandingArrayWithOptionalElem
//   (= ExpandingArray), TensorAccessor and Dimname are minimal stand-ins. Absent: the
//   ~1,800 less common ATen operators, SymInt and most Dimname overloads,
//   Half/BFloat16/complex C++ types, sparse/quantized/CUDA-stream APIs, stateful data
//   loaders, PackedSequence, transformer/attention modules, distributed.
#pragma once
// A system header, like the real ATen/c10 headers under /usr/include: no warnings
// from inside the model (the README at the model root covers the real torch/ dir).
#pragma GCC system_header

#include <ATen/ATen.h>

// c10/util/flat_hash_map.h (minimal): Optimizer::state(), AutogradContext::saved_data.
namespace ska {
template <typename K, typename V, typename H = std::hash<K>, typename E = std::equal_to<K>,
          typename A = std::allocator<std::pair<K, V>>>
class flat_hash_map {
 public:
  using key_type = K;
  using mapped_type = V;
  using value_type = std::pair<K, V>;
  using iterator = value_type*;
  using const_iterator = const value_type*;
  flat_hash_map();
  V& operator[](const K& key);
  V& at(const K& key);
  const V& at(const K& key) const;
  iterator find(const K& key);
  const_iterator find(const K& key) const;
  size_t count(const K& key) const;
  size_t erase(const K& key);
  iterator begin();
  const_iterator begin() const;
  iterator end();
  const_iterator end() const;
  size_t size() const;
  bool empty() const;
  void clear();
  template <typename... Args>
  std::pair<iterator, bool> emplace(Args&&... args);
  std::pair<iterator, bool> insert(const value_type& value);
};
} // namespace ska

// ===========================================================================
// torch/types.h, torch/utils.h
// ===========================================================================
namespace torch {
using namespace at; // NOLINT (as in torch/types.h)

using c10::nullopt;
using c10::optional;

using Dtype = at::ScalarType;

constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;
constexpr auto kU8 = kUInt8;
constexpr auto kI8 = kInt8;
constexpr auto kI16 = kInt16;
constexpr auto kI32 = kInt32;
constexpr auto kI64 = kInt64;
constexpr auto kF16 = kFloat16;
constexpr auto kF32 = kFloat32;
constexpr auto kF64 = kFloat64;

template <bool Condition, typename T = void>
using enable_if_t = typename std::enable_if<Condition, T>::type;
template <bool Condition, typename T = void>
using disable_if_t = enable_if_t<!Condition, T>;

template <typename T, typename... Args>
std::unique_ptr<T> make_unique(Args&&... args);

using NoGradGuard = at::NoGradGuard;
using AutoGradMode = at::AutoGradMode;
using at::manual_seed;
using at::init_num_threads;
using at::get_num_threads;
using at::set_num_threads;
using at::get_num_interop_threads;
using at::set_num_interop_threads;

bool equal_if_defined(Tensor t1, Tensor t2);

// ===========================================================================
// torch/csrc/autograd
// ===========================================================================
namespace autograd {
using Variable = at::Tensor;
using variable_list = std::vector<Variable>;
using tensor_list = std::vector<at::Tensor>;
using GradMode = at::GradMode;
using AutoGradMode = at::AutoGradMode;

struct Node : std::enable_shared_from_this<Node> {
  virtual ~Node();
  virtual std::string name() const;
  uint32_t num_inputs() const noexcept;
  uint32_t num_outputs() const noexcept;
};

void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
              c10::optional<bool> retain_graph = c10::nullopt,
              bool create_graph = false, const variable_list& inputs = {});
variable_list grad(const variable_list& outputs, const variable_list& inputs,
                   const variable_list& grad_outputs = {},
                   c10::optional<bool> retain_graph = c10::nullopt,
                   bool create_graph = false, bool allow_unused = false);

Variable make_variable(at::Tensor data, bool requires_grad = false,
                       bool allow_tensor_metadata_change = true);

// torch/csrc/autograd/custom_function.h
struct AutogradContext {
  AutogradContext() = default;
  void save_for_backward(variable_list to_save);
  void mark_dirty(const variable_list& inputs);
  void mark_non_differentiable(const variable_list& outputs);
  void set_materialize_grads(bool value);
  variable_list get_saved_variables() const;
  bool needs_input_grad(size_t output_edge) const;
  ska::flat_hash_map<std::string, c10::IValue> saved_data;
};

template <typename T, typename... Args>
using forward_t = decltype(T::forward(nullptr, std::declval<Args>()...));

// Custom autograd functions derive from Function<Self> and define static
// forward(AutogradContext*, ...) and backward(AutogradContext*, variable_list).
template <class T>
struct Function {
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args)
      -> std::enable_if_t<std::is_same<X, T>::value, forward_t<X, Args...>>;
};
} // namespace autograd

// ===========================================================================
// torch/csrc/autograd/generated/variable_factories.h
// ===========================================================================
namespace detail {
// torch::tensor's argument: a scalar, a (nested) braced list, an ArrayRef or vector.
struct TensorDataContainer {
  TensorDataContainer();
#define SEALINT_TDC_CTORS(T)                                  \
  TensorDataContainer(T value);                               \
  TensorDataContainer(at::ArrayRef<T> values);                \
  TensorDataContainer(const std::vector<T>& values);
  SEALINT_TDC_CTORS(uint8_t)
  SEALINT_TDC_CTORS(int8_t)
  SEALINT_TDC_CTORS(int16_t)
  SEALINT_TDC_CTORS(int)
  SEALINT_TDC_CTORS(int64_t)
  SEALINT_TDC_CTORS(float)
  SEALINT_TDC_CTORS(double)
  SEALINT_TDC_CTORS(bool)
#undef SEALINT_TDC_CTORS
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  bool is_scalar() const;
  bool is_init_list() const;
  bool is_tensor() const;
  at::Tensor convert_to_tensor(at::TensorOptions options) const;
};
} // namespace detail

at::Tensor tensor(detail::TensorDataContainer tensor_data_container,
                  const at::TensorOptions& options = {});

using Deleter = std::function<void(void*)>;
using at::MemoryFormat;

at::Tensor from_blob(void* data, at::IntArrayRef sizes, at::IntArrayRef strides,
                     const Deleter& deleter,
                     const at::TensorOptions& options = at::TensorOptions());
at::Tensor from_blob(void* data, at::IntArrayRef sizes, at::IntArrayRef strides,
                     const at::TensorOptions& options = at::TensorOptions());
at::Tensor from_blob(void* data, at::IntArrayRef sizes, const Deleter& deleter,
                     const at::TensorOptions& options = at::TensorOptions());
at::Tensor from_blob(void* data, at::IntArrayRef sizes,
                     const at::TensorOptions& options = at::TensorOptions());

at::Tensor arange(const at::Scalar& end, at::TensorOptions options = {});
at::Tensor arange(const at::Scalar& start, const at::Scalar& end,
                  at::TensorOptions options = {});
at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step,
                  at::TensorOptions options = {});
at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {},
                 c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor empty_like(const at::Tensor& self, at::TensorOptions options = {},
                      c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
at::Tensor eye(int64_t n, at::TensorOptions options = {});
at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
at::Tensor full(at::IntArrayRef size, const at::Scalar& fill_value,
                at::TensorOptions options = {});
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
at::Tensor randint(int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = at::kLong);
at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size,
                   at::TensorOptions options = at::kLong);
at::Tensor randint_like(const at::Tensor& self, int64_t high,
                        at::TensorOptions options = {},
                        c10::optional<at::MemoryFormat> memory_format = c10::nullopt);
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

// ===========================================================================
// torch/cuda.h
// ===========================================================================
namespace cuda {
size_t device_count();
bool is_available();
bool cudnn_is_available();
void manual_seed(uint64_t seed);
void manual_seed_all(uint64_t seed);
void synchronize(int64_t device_index = -1);
} // namespace cuda

// ===========================================================================
// torch/ordered_dict.h
// ===========================================================================
template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item {
   public:
    Item(Key key, Value value);
    Value& operator*();
    const Value& operator*() const;
    Value* operator->();
    const Value* operator->() const;
    const Key& key() const noexcept;
    Value& value() noexcept;
    const Value& value() const noexcept;
    const std::pair<Key, Value>& pair() const noexcept;
  };
  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  explicit OrderedDict(std::string key_description = "Key");
  OrderedDict(const OrderedDict& other);
  OrderedDict& operator=(const OrderedDict& other);
  OrderedDict(OrderedDict&& other) = default;
  OrderedDict& operator=(OrderedDict&& other) = default;
  ~OrderedDict() = default;
  /*implicit */ OrderedDict(std::initializer_list<Item> initializer_list);

  const std::string& key_description() const noexcept;
  Item& front();
  const Item& front() const;
  Item& back();
  const Item& back() const;
  Item& operator[](size_t index);
  const Item& operator[](size_t index) const;
  Value& operator[](const Key& key);
  const Value& operator[](const Key& key) const;
  Value* find(const Key& key) noexcept;
  const Value* find(const Key& key) const noexcept;
  bool contains(const Key& key) const noexcept;
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  size_t size() const noexcept;
  bool is_empty() const noexcept;
  void reserve(size_t requested_capacity);
  template <typename K, typename V>
  Value& insert(K&& key, V&& value);
  Value& insert(Key key, Value&& value);
  void update(OrderedDict&& other);
  void update(const OrderedDict& other);
  void erase(const Key& key);
  void clear();
  const std::vector<Item>& items() const noexcept;
  ::std::vector<Key> keys() const;
  ::std::vector<Value> values() const;
  ::std::vector<std::pair<Key, Value>> pairs() const;
};
} // namespace torch

// ===========================================================================
// torch/arg.h: the real macro's signatures; its inline bodies are left out (they
// would instantiate std::vector/std::string assignment for every option struct).
// ===========================================================================
#define TORCH_ARG(T, name)                                      \
 public:                                                        \
  auto name(const T& new_##name)->decltype(*this); /* NOLINT */ \
  auto name(T&& new_##name)->decltype(*this); /* NOLINT */      \
  const T& name() const noexcept; /* NOLINT */                  \
  T& name() noexcept; /* NOLINT */                              \
                                                                \
 private:                                                       \
  T name##_ /* NOLINT */

// ===========================================================================
// torch/enum.h
// ===========================================================================
#define TORCH_ENUM_DECLARE(name)         \
  namespace torch {                      \
  namespace enumtype {                   \
  struct k##name {                       \
    k##name() {}                         \
  };                                     \
  }                                      \
  TORCH_API extern const enumtype::k##name k##name; \
  }

#define TORCH_OPTIONS_CTOR_VARIANT_ARG3(OPTIONS_NAME, ARG_NAME, TYPE1, TYPE2, TYPE3) \
  OPTIONS_NAME() {}                                                                 \
  OPTIONS_NAME(torch::enumtype::TYPE1 ARG_NAME) : ARG_NAME##_(torch::TYPE1) {}      \
  OPTIONS_NAME(torch::enumtype::TYPE2 ARG_NAME) : ARG_NAME##_(torch::TYPE2) {}      \
  OPTIONS_NAME(torch::enumtype::TYPE3 ARG_NAME) : ARG_NAME##_(torch::TYPE3) {}

#define TORCH_OPTIONS_CTOR_VARIANT_ARG4(OPTIONS_NAME, ARG_NAME, TYPE1, TYPE2, TYPE3, TYPE4) \
  OPTIONS_NAME() {}                                                                        \
  OPTIONS_NAME(torch::enumtype::TYPE1 ARG_NAME) : ARG_NAME##_(torch::TYPE1) {}             \
  OPTIONS_NAME(torch::enumtype::TYPE2 ARG_NAME) : ARG_NAME##_(torch::TYPE2) {}             \
  OPTIONS_NAME(torch::enumtype::TYPE3 ARG_NAME) : ARG_NAME##_(torch::TYPE3) {}             \
  OPTIONS_NAME(torch::enumtype::TYPE4 ARG_NAME) : ARG_NAME##_(torch::TYPE4) {}

TORCH_ENUM_DECLARE(Linear)
TORCH_ENUM_DECLARE(Conv1D)
TORCH_ENUM_DECLARE(Conv2D)
TORCH_ENUM_DECLARE(Conv3D)
TORCH_ENUM_DECLARE(ConvTranspose1D)
TORCH_ENUM_DECLARE(ConvTranspose2D)
TORCH_ENUM_DECLARE(ConvTranspose3D)
TORCH_ENUM_DECLARE(Sigmoid)
TORCH_ENUM_DECLARE(Tanh)
TORCH_ENUM_DECLARE(ReLU)
TORCH_ENUM_DECLARE(GELU)
TORCH_ENUM_DECLARE(SiLU)
TORCH_ENUM_DECLARE(Mish)
TORCH_ENUM_DECLARE(LeakyReLU)
TORCH_ENUM_DECLARE(FanIn)
TORCH_ENUM_DECLARE(FanOut)
TORCH_ENUM_DECLARE(Constant)
TORCH_ENUM_DECLARE(Reflect)
TORCH_ENUM_DECLARE(Replicate)
TORCH_ENUM_DECLARE(Circular)
TORCH_ENUM_DECLARE(Nearest)
TORCH_ENUM_DECLARE(Bilinear)
TORCH_ENUM_DECLARE(Bicubic)
TORCH_ENUM_DECLARE(Trilinear)
TORCH_ENUM_DECLARE(Area)
TORCH_ENUM_DECLARE(NearestExact)
TORCH_ENUM_DECLARE(Sum)
TORCH_ENUM_DECLARE(Mean)
TORCH_ENUM_DECLARE(Max)
TORCH_ENUM_DECLARE(None)
TORCH_ENUM_DECLARE(BatchMean)
TORCH_ENUM_DECLARE(Zeros)
TORCH_ENUM_DECLARE(Border)
TORCH_ENUM_DECLARE(Reflection)
TORCH_ENUM_DECLARE(RNN_TANH)
TORCH_ENUM_DECLARE(RNN_RELU)
TORCH_ENUM_DECLARE(LSTM)
TORCH_ENUM_DECLARE(GRU)
TORCH_ENUM_DECLARE(Valid)
TORCH_ENUM_DECLARE(Same)

namespace torch {
// ===========================================================================
// torch/expanding_array.h
// ===========================================================================
template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list);
  /*implicit*/ ExpandingArray(std::vector<T> vec);
  /*implicit*/ ExpandingArray(at::ArrayRef<T> values);
  /*implicit*/ ExpandingArray(T single_size);
  /*implicit*/ ExpandingArray(const std::array<T, D>& values);
  std::array<T, D>& operator*();
  const std::array<T, D>& operator*() const;
  std::array<T, D>* operator->();
  const std::array<T, D>* operator->() const;
  operator at::ArrayRef<T>() const;
  size_t size() const noexcept;
};
template <size_t D, typename T>
std::ostream& operator<<(std::ostream& stream, const ExpandingArray<D, T>& expanding_array);

// 1.13 uses ExpandingArrayWithOptionalElem for adaptive pooling; modelled as this.
template <size_t D, typename T = int64_t>
using ExpandingArrayWithOptionalElem = ExpandingArray<D, T>;

// ===========================================================================
// torch/serialize/archive.h
// ===========================================================================
namespace serialize {
class OutputArchive {
 public:
  OutputArchive();
  void write(const std::string& key, const c10::IValue& ivalue);
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested_archive);
  void save_to(const std::string& filename);
  void save_to(std::ostream& stream);
  void save_to(const std::function<size_t(const void*, size_t)>& func);
};
class InputArchive {
 public:
  InputArchive();
  void read(const std::string& key, c10::IValue& ivalue);
  bool try_read(const std::string& key, c10::IValue& ivalue);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, InputArchive& archive);
  void read(const std::string& key, InputArchive& archive);
  void load_from(const std::string& filename,
                 c10::optional<torch::Device> device = c10::nullopt);
  void load_from(std::istream& stream, c10::optional<torch::Device> device = c10::nullopt);
  void load_from(const char* data, size_t size,
                 c10::optional<torch::Device> device = c10::nullopt);
  std::vector<std::string> keys();
};
} // namespace serialize

// ===========================================================================
// torch/nn/module.h, torch/nn/pimpl.h, torch/nn/cloneable.h
// ===========================================================================
namespace nn {
template <typename Contained>
class ModuleHolder;

class Module : public std::enable_shared_from_this<Module> {
 public:
  using ModuleApplyFunction = std::function<void(Module&)>;
  using ConstModuleApplyFunction = std::function<void(const Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction =
      std::function<void(const std::string&, const Module&)>;
  using ModulePointerApplyFunction = std::function<void(const std::shared_ptr<Module>&)>;
  using NamedModulePointerApplyFunction =
      std::function<void(const std::string&, const std::shared_ptr<Module>&)>;

  explicit Module(std::string name);
  Module();
  virtual ~Module() = default;

  const std::string& name() const noexcept;
  virtual std::shared_ptr<Module> clone(const optional<Device>& device = nullopt) const;
  void apply(const ModuleApplyFunction& function);
  void apply(const ConstModuleApplyFunction& function) const;
  void apply(const NamedModuleApplyFunction& function,
             const std::string& name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction& function,
             const std::string& name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction& function) const;
  void apply(const NamedModulePointerApplyFunction& function,
             const std::string& name_prefix = std::string()) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(
      const std::string& name_prefix = std::string(), bool include_self = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  virtual void train(bool on = true);
  void eval();
  virtual bool is_training() const noexcept;
  virtual void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Device device, bool non_blocking = false);
  virtual void zero_grad(bool set_to_none = false);

  template <typename ModuleType>
  typename ModuleType::ContainedType* as() noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType>
  const typename ModuleType::ContainedType* as() const noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType,
            typename = torch::enable_if_t<std::is_base_of<Module, ModuleType>::value>>
  ModuleType* as() noexcept {
    return dynamic_cast<ModuleType*>(this);
  }
  template <typename ModuleType,
            typename = torch::enable_if_t<std::is_base_of<Module, ModuleType>::value>>
  const ModuleType* as() const noexcept {
    return dynamic_cast<const ModuleType*>(this);
  }

  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);
  virtual void pretty_print(std::ostream& stream) const;
  virtual bool is_serializable() const;

  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              std::shared_ptr<ModuleType> module) {
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name,
                                              ModuleHolder<ModuleType> module_holder) {
    return module_holder.ptr();
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             std::shared_ptr<ModuleType> module) {
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name,
                                             ModuleHolder<ModuleType> module_holder) {
    return module_holder.ptr();
  }
  void unregister_module(const std::string& name);
};

std::ostream& operator<<(std::ostream& stream, const nn::Module& module);
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const std::shared_ptr<nn::Module>& module);
serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                    const std::shared_ptr<nn::Module>& module);
} // namespace nn

// torch/nn/pimpl-inl.h
namespace detail {
struct ModuleHolderIndicator {};
template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;
template <typename T>
using disable_if_module_holder_t = disable_if_t<is_module_holder<T>::value>;
template <bool is_module_holder_value, typename T, typename C>
struct is_module_holder_of_impl;
template <typename T, typename C>
struct is_module_holder_of_impl<false, T, C> : std::false_type {};
template <typename T, typename C>
struct is_module_holder_of_impl<true, T, C>
    : std::is_same<typename T::ContainedType, C> {};
template <typename T, typename C>
struct is_module_holder_of
    : is_module_holder_of_impl<is_module_holder<T>::value, std::decay_t<T>,
                               std::decay_t<C>> {};
// torch/detail/static.h: has_forward is false for a template or overloaded
// `forward` (Sequential), so `holder(args)` then returns void, as in LibTorch.
template <typename T>
struct has_forward {
  using yes = int8_t;
  using no = int16_t;
  template <typename U>
  static yes test(decltype(&U::forward));
  template <typename U>
  static no test(...);
  static constexpr bool value = (sizeof(test<T>(nullptr)) == sizeof(yes));
};
template <bool has_forward_value, typename C, typename... Args>
struct return_type_of_forward_impl;
template <typename C, typename... Args>
struct return_type_of_forward_impl<true, C, Args...> {
  using type = decltype(::std::declval<C>().forward(::std::declval<Args>()...));
};
template <typename C, typename... Args>
struct return_type_of_forward_impl<false, C, Args...> {
  using type = void;
};
template <typename C, typename... Args>
using return_type_of_forward =
    return_type_of_forward_impl<torch::detail::has_forward<C>::value, C, Args...>;
template <typename C, typename... Args>
using return_type_of_forward_t = typename return_type_of_forward<C, Args...>::type;
template <typename T>
using enable_if_module_t =
    std::enable_if_t<std::is_base_of<torch::nn::Module, std::decay_t<T>>::value>;
} // namespace detail

namespace nn {
// A shared_ptr-like handle to a module implementation (`Linear` holds a
// `LinearImpl`); `holder->x` reaches the impl, `holder(args)` calls forward.
template <typename Contained>
class ModuleHolder : torch::detail::ModuleHolderIndicator {
  // The real holder stores `std::shared_ptr<Contained> impl_`; the model has no
  // storage (instantiating shared_ptr for every module type would cost ~2 ms each).
 public:
  using ContainedType = Contained;

  ModuleHolder() {
    static_assert(std::is_default_constructible<Contained>::value,
                  "You are trying to default construct a module which has "
                  "no default constructor. Use = nullptr to give it the empty state "
                  "(e.g. `Linear linear = nullptr;` instead of `Linear linear;`).");
  }
  /* implicit */ ModuleHolder(std::nullptr_t) {}
  template <typename Head, typename... Tail,
            typename = typename std::enable_if<
                !(torch::detail::is_module_holder_of<Head, ContainedType>::value &&
                  (sizeof...(Tail) == 0))>::type>
  explicit ModuleHolder(Head&& head, Tail&&... tail) {
    // As in LibTorch: the arguments must construct a `Contained`.
    (void)sizeof(new Contained(std::forward<Head>(head), std::forward<Tail>(tail)...));
  }
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) {}

  explicit operator bool() const noexcept {
    return !is_empty();
  }
  Contained* operator->() {
    return get();
  }
  const Contained* operator->() const {
    return get();
  }
  Contained& operator*() {
    return *get();
  }
  const Contained& operator*() const {
    return *get();
  }
  const std::shared_ptr<Contained>& ptr() const {
    static const std::shared_ptr<Contained> impl;
    return impl;
  }
  Contained* get() {
    return nullptr;
  }
  const Contained* get() const {
    return nullptr;
  }
  template <typename... Args>
  auto operator()(Args&&... args)
      -> torch::detail::return_type_of_forward_t<Contained, Args...> {
    return get()->forward(::std::forward<Args>(args)...);
  }
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[::std::forward<Arg>(arg)];
  }
  bool is_empty() const noexcept {
    return true;
  }
};

template <typename ModuleType>
std::ostream& operator<<(std::ostream& stream, const nn::ModuleHolder<ModuleType>& module);
template <typename ModuleType>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const nn::ModuleHolder<ModuleType>& module);
template <typename ModuleType>
serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                    nn::ModuleHolder<ModuleType>& module);

template <typename Derived>
class Cloneable : public virtual Module {
 public:
  using Module::Module;
  virtual void reset() = 0;
  std::shared_ptr<Module> clone(const optional<Device>& device = nullopt) const override;
};
} // namespace nn
} // namespace torch

#define TORCH_MODULE_IMPL(Name, ImplType)                              \
  class Name : public torch::nn::ModuleHolder<ImplType> { /* NOLINT */ \
   public:                                                             \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;             \
    using Impl C10_UNUSED = ImplType;                                  \
  }
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)

namespace torch {
namespace nn {

// ===========================================================================
// torch/nn/options + torch/nn/modules
// ===========================================================================

// ---- linear.h ----
struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features);
  TORCH_ARG(int64_t, in_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};
struct FlattenOptions {
  TORCH_ARG(int64_t, start_dim) = 1;
  TORCH_ARG(int64_t, end_dim) = -1;
};
struct BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features);
  TORCH_ARG(int64_t, in1_features);
  TORCH_ARG(int64_t, in2_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

class IdentityImpl : public Cloneable<IdentityImpl> {
 public:
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Identity);

class LinearImpl : public Cloneable<LinearImpl> {
 public:
  LinearImpl(int64_t in_features, int64_t out_features);
  explicit LinearImpl(const LinearOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  LinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Linear);

class FlattenImpl : public Cloneable<FlattenImpl> {
 public:
  explicit FlattenImpl(const FlattenOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& input);
  FlattenOptions options;
};
TORCH_MODULE(Flatten);

class BilinearImpl : public Cloneable<BilinearImpl> {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features);
  explicit BilinearImpl(const BilinearOptions& options_);
  void reset() override;
  Tensor forward(const Tensor& input1, const Tensor& input2);
  BilinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Bilinear);

// ---- conv.h ----
namespace detail {
typedef c10::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate,
                     enumtype::kCircular>
    conv_padding_mode_t;
template <size_t D>
using conv_padding_t = c10::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;

template <size_t D>
struct ConvNdOptions {
  using padding_t = conv_padding_t<D>;
  ConvNdOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size);
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = 0;

 public:
  ConvNdOptions& padding(std::initializer_list<int64_t> il);
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, transposed) = false;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(conv_padding_mode_t, padding_mode) = torch::kZeros;
};
} // namespace detail

template <size_t D>
struct ConvOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  using padding_t = detail::conv_padding_t<D>;
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size);
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = 0;

 public:
  ConvOptions& padding(std::initializer_list<int64_t> il);
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(padding_mode_t, padding_mode) = torch::kZeros;
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

template <size_t D>
struct ConvTransposeOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels,
                       ExpandingArray<D> kernel_size);
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, output_padding) = 0;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(padding_mode_t, padding_mode) = torch::kZeros;
};
using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;
using ConvTranspose3dOptions = ConvTransposeOptions<3>;

template <size_t D, typename Derived>
class ConvNdImpl : public torch::nn::Cloneable<Derived> {
 public:
  explicit ConvNdImpl(detail::ConvNdOptions<D> options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  detail::ConvNdOptions<D> options;
  Tensor weight;
  Tensor bias;
};

class Conv1dImpl : public ConvNdImpl<1, Conv1dImpl> {
 public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<1> kernel_size);
  explicit Conv1dImpl(Conv1dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv1d);

class Conv2dImpl : public ConvNdImpl<2, Conv2dImpl> {
 public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<2> kernel_size);
  explicit Conv2dImpl(Conv2dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv2d);

class Conv3dImpl : public ConvNdImpl<3, Conv3dImpl> {
 public:
  Conv3dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<3> kernel_size);
  explicit Conv3dImpl(Conv3dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv3d);

template <size_t D, typename Derived>
class ConvTransposeNdImpl : public ConvNdImpl<D, Derived> {
 public:
  using torch::nn::ConvNdImpl<D, Derived>::ConvNdImpl;
};

class ConvTranspose1dImpl : public ConvTransposeNdImpl<1, ConvTranspose1dImpl> {
 public:
  ConvTranspose1dImpl(int64_t input_channels, int64_t output_channels,
                      ExpandingArray<1> kernel_size);
  explicit ConvTranspose1dImpl(ConvTranspose1dOptions options_);
  Tensor forward(const Tensor& input,
                 const c10::optional<at::IntArrayRef>& output_size = c10::nullopt);
};
TORCH_MODULE(ConvTranspose1d);

class ConvTranspose2dImpl : public ConvTransposeNdImpl<2, ConvTranspose2dImpl> {
 public:
  ConvTranspose2dImpl(int64_t input_channels, int64_t output_channels,
                      ExpandingArray<2> kernel_size);
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options_);
  Tensor forward(const Tensor& input,
                 const c10::optional<at::IntArrayRef>& output_size = c10::nullopt);
};
TORCH_MODULE(ConvTranspose2d);

class ConvTranspose3dImpl : public ConvTransposeNdImpl<3, ConvTranspose3dImpl> {
 public:
  ConvTranspose3dImpl(int64_t input_channels, int64_t output_channels,
                      ExpandingArray<3> kernel_size);
  explicit ConvTranspose3dImpl(ConvTranspose3dOptions options_);
  Tensor forward(const Tensor& input,
                 const c10::optional<at::IntArrayRef>& output_size = c10::nullopt);
};
TORCH_MODULE(ConvTranspose3d);

// ---- pooling.h ----
template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, ceil_mode) = false;
};
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;

template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(bool, ceil_mode) = false;
  TORCH_ARG(bool, count_include_pad) = true;
  TORCH_ARG(c10::optional<int64_t>, divisor_override) = c10::nullopt;
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;
using AvgPool3dOptions = AvgPoolOptions<3>;

template <typename output_size_t>
struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size);
  TORCH_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveAvgPool3dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<3>>;

template <typename output_size_t>
struct AdaptiveMaxPoolOptions {
  AdaptiveMaxPoolOptions(output_size_t output_size);
  TORCH_ARG(output_size_t, output_size);
};
using AdaptiveMaxPool2dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<2>>;

template <size_t D, typename Derived>
class MaxPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  MaxPoolImpl(ExpandingArray<D> kernel_size);
  explicit MaxPoolImpl(const MaxPoolOptions<D>& options_);
  void reset() override;
  MaxPoolOptions<D> options;
};
class MaxPool1dImpl : public MaxPoolImpl<1, MaxPool1dImpl> {
 public:
  using MaxPoolImpl<1, MaxPool1dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(MaxPool1d);
class MaxPool2dImpl : public MaxPoolImpl<2, MaxPool2dImpl> {
 public:
  using MaxPoolImpl<2, MaxPool2dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(MaxPool2d);
class MaxPool3dImpl : public MaxPoolImpl<3, MaxPool3dImpl> {
 public:
  using MaxPoolImpl<3, MaxPool3dImpl>::MaxPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(MaxPool3d);

template <size_t D, typename Derived>
class AvgPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AvgPoolImpl(ExpandingArray<D> kernel_size);
  explicit AvgPoolImpl(const AvgPoolOptions<D>& options_);
  void reset() override;
  AvgPoolOptions<D> options;
};
class AvgPool1dImpl : public AvgPoolImpl<1, AvgPool1dImpl> {
 public:
  using AvgPoolImpl<1, AvgPool1dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool1d);
class AvgPool2dImpl : public AvgPoolImpl<2, AvgPool2dImpl> {
 public:
  using AvgPoolImpl<2, AvgPool2dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool2d);
class AvgPool3dImpl : public AvgPoolImpl<3, AvgPool3dImpl> {
 public:
  using AvgPoolImpl<3, AvgPool3dImpl>::AvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AvgPool3d);

template <size_t D, typename output_size_t, typename Derived>
class AdaptiveAvgPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AdaptiveAvgPoolImpl(output_size_t output_size);
  explicit AdaptiveAvgPoolImpl(const AdaptiveAvgPoolOptions<output_size_t>& options_);
  void reset() override;
  AdaptiveAvgPoolOptions<output_size_t> options;
};
class AdaptiveAvgPool1dImpl
    : public AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl> {
 public:
  using AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool1d);
class AdaptiveAvgPool2dImpl
    : public AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveAvgPool2dImpl> {
 public:
  using AdaptiveAvgPoolImpl<2, ExpandingArrayWithOptionalElem<2>,
                            AdaptiveAvgPool2dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool2d);
class AdaptiveAvgPool3dImpl
    : public AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveAvgPool3dImpl> {
 public:
  using AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>,
                            AdaptiveAvgPool3dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool3d);

template <size_t D, typename output_size_t, typename Derived>
class AdaptiveMaxPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AdaptiveMaxPoolImpl(output_size_t output_size);
  explicit AdaptiveMaxPoolImpl(const AdaptiveMaxPoolOptions<output_size_t>& options_);
  void reset() override;
  AdaptiveMaxPoolOptions<output_size_t> options;
};
class AdaptiveMaxPool2dImpl
    : public AdaptiveMaxPoolImpl<2, ExpandingArrayWithOptionalElem<2>, AdaptiveMaxPool2dImpl> {
 public:
  using AdaptiveMaxPoolImpl<2, ExpandingArrayWithOptionalElem<2>,
                            AdaptiveMaxPool2dImpl>::AdaptiveMaxPoolImpl;
  Tensor forward(const Tensor& input);
  std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
};
TORCH_MODULE(AdaptiveMaxPool2d);

// ---- embedding.h ----
struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim);
  TORCH_ARG(int64_t, num_embeddings);
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(c10::optional<int64_t>, padding_idx) = c10::nullopt;
  TORCH_ARG(c10::optional<double>, max_norm) = c10::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
  TORCH_ARG(torch::Tensor, _weight) = Tensor();
};
struct EmbeddingFromPretrainedOptions {
  TORCH_ARG(bool, freeze) = true;
  TORCH_ARG(c10::optional<int64_t>, padding_idx) = c10::nullopt;
  TORCH_ARG(c10::optional<double>, max_norm) = c10::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
};
class EmbeddingImpl : public torch::nn::Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim);
  explicit EmbeddingImpl(EmbeddingOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& indices);
  EmbeddingOptions options;
  Tensor weight;
};
class Embedding : public torch::nn::ModuleHolder<EmbeddingImpl> {
 public:
  using torch::nn::ModuleHolder<EmbeddingImpl>::ModuleHolder;
  using Impl = EmbeddingImpl;
  static Embedding from_pretrained(const torch::Tensor& embeddings,
                                   const EmbeddingFromPretrainedOptions& options = {});
};

// ---- rnn.h ----
namespace detail {
struct RNNOptionsBase {
  typedef c10::variant<enumtype::kLSTM, enumtype::kGRU, enumtype::kRNN_TANH,
                       enumtype::kRNN_RELU>
      rnn_options_base_mode_t;
  RNNOptionsBase(rnn_options_base_mode_t mode, int64_t input_size, int64_t hidden_size);
  TORCH_ARG(rnn_options_base_mode_t, mode);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  TORCH_ARG(int64_t, proj_size) = 0;
};
} // namespace detail

struct RNNOptions {
  typedef c10::variant<enumtype::kTanh, enumtype::kReLU> nonlinearity_t;
  RNNOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(nonlinearity_t, nonlinearity) = torch::kTanh;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
};
struct LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  TORCH_ARG(int64_t, proj_size) = 0;
};
struct GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
};
namespace detail {
struct RNNCellOptionsBase {
  RNNCellOptionsBase(int64_t input_size, int64_t hidden_size, bool bias,
                     int64_t num_chunks);
  virtual ~RNNCellOptionsBase() = default;
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias);
  TORCH_ARG(int64_t, num_chunks);
};
} // namespace detail
struct RNNCellOptions {
  typedef c10::variant<enumtype::kTanh, enumtype::kReLU> nonlinearity_t;
  RNNCellOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(nonlinearity_t, nonlinearity) = torch::kTanh;
};
struct LSTMCellOptions {
  LSTMCellOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
};
struct GRUCellOptions {
  GRUCellOptions(int64_t input_size, int64_t hidden_size);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias) = true;
};

namespace detail {
template <typename Derived>
class RNNImplBase : public torch::nn::Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_);
  void reset() override;
  void reset_parameters();
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Dtype dtype, bool non_blocking = false) override;
  void to(torch::Device device, bool non_blocking = false) override;
  void pretty_print(std::ostream& stream) const override;
  void flatten_parameters();
  std::vector<Tensor> all_weights() const;
  RNNOptionsBase options_base;
};
template <typename Derived>
class RNNCellImplBase : public torch::nn::Cloneable<Derived> {
 public:
  explicit RNNCellImplBase(const RNNCellOptionsBase& options_);
  void reset() override;
  void reset_parameters();
  RNNCellOptionsBase options_base;
  Tensor weight_ih;
  Tensor weight_hh;
  Tensor bias_ih;
  Tensor bias_hh;
};
} // namespace detail

class RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size);
  explicit RNNImpl(const RNNOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  RNNOptions options;
};
TORCH_MODULE(RNN);

class LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size);
  explicit LSTMImpl(const LSTMOptions& options_);
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(
      const Tensor& input, torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  LSTMOptions options;
};
TORCH_MODULE(LSTM);

class GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size);
  explicit GRUImpl(const GRUOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  GRUOptions options;
};
TORCH_MODULE(GRU);

class RNNCellImpl : public detail::RNNCellImplBase<RNNCellImpl> {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size);
  explicit RNNCellImpl(const RNNCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  RNNCellOptions options;
};
TORCH_MODULE(RNNCell);

class LSTMCellImpl : public detail::RNNCellImplBase<LSTMCellImpl> {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size);
  explicit LSTMCellImpl(const LSTMCellOptions& options_);
  std::tuple<Tensor, Tensor> forward(
      const Tensor& input, torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  LSTMCellOptions options;
};
TORCH_MODULE(LSTMCell);

class GRUCellImpl : public detail::RNNCellImplBase<GRUCellImpl> {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size);
  explicit GRUCellImpl(const GRUCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});
  GRUCellOptions options;
};
TORCH_MODULE(GRUCell);

// ---- dropout.h ----
struct DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5);
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, inplace) = false;
};
using Dropout2dOptions = DropoutOptions;
using Dropout3dOptions = DropoutOptions;
using AlphaDropoutOptions = DropoutOptions;

namespace detail {
template <typename Derived>
class _DropoutNd : public torch::nn::Cloneable<Derived> {
 public:
  _DropoutNd(double p);
  explicit _DropoutNd(const DropoutOptions& options_ = {});
  void reset() override;
  DropoutOptions options;
};
} // namespace detail

class DropoutImpl : public detail::_DropoutNd<DropoutImpl> {
 public:
  using detail::_DropoutNd<DropoutImpl>::_DropoutNd;
  Tensor forward(Tensor input);
  void pretty_print(std::ostream& stream) const override;
};
TORCH_MODULE(Dropout);
class Dropout2dImpl : public detail::_DropoutNd<Dropout2dImpl> {
 public:
  using detail::_DropoutNd<Dropout2dImpl>::_DropoutNd;
  Tensor forward(Tensor input);
};
TORCH_MODULE(Dropout2d);
class Dropout3dImpl : public detail::_DropoutNd<Dropout3dImpl> {
 public:
  using detail::_DropoutNd<Dropout3dImpl>::_DropoutNd;
  Tensor forward(Tensor input);
};
TORCH_MODULE(Dropout3d);

// ---- activation.h ----
struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false);
  TORCH_ARG(bool, inplace);
};
struct ReLU6Options {
  /* implicit */ ReLU6Options(bool inplace = false);
  TORCH_ARG(bool, inplace);
};
struct LeakyReLUOptions {
  TORCH_ARG(double, negative_slope) = 1e-2;
  TORCH_ARG(bool, inplace) = false;
};
struct ELUOptions {
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};
struct GELUOptions {
  TORCH_ARG(std::string, approximate) = "none";
};
struct SoftmaxOptions {
  SoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};
struct LogSoftmaxOptions {
  LogSoftmaxOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
};

class ReLUImpl : public torch::nn::Cloneable<ReLUImpl> {
 public:
  explicit ReLUImpl(const ReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  ReLUOptions options;
};
TORCH_MODULE(ReLU);
class ReLU6Impl : public torch::nn::Cloneable<ReLU6Impl> {
 public:
  explicit ReLU6Impl(const ReLU6Options& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  ReLU6Options options;
};
TORCH_MODULE(ReLU6);
class LeakyReLUImpl : public torch::nn::Cloneable<LeakyReLUImpl> {
 public:
  explicit LeakyReLUImpl(const LeakyReLUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  LeakyReLUOptions options;
};
TORCH_MODULE(LeakyReLU);
class ELUImpl : public torch::nn::Cloneable<ELUImpl> {
 public:
  explicit ELUImpl(const ELUOptions& options_ = {});
  Tensor forward(Tensor input);
  void reset() override;
  ELUOptions options;
};
TORCH_MODULE(ELU);
class GELUImpl : public torch::nn::Cloneable<GELUImpl> {
 public:
  explicit GELUImpl(GELUOptions options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override;
  GELUOptions options;
};
TORCH_MODULE(GELU);
class SiLUImpl : public torch::nn::Cloneable<SiLUImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
};
TORCH_MODULE(SiLU);
class SigmoidImpl : public torch::nn::Cloneable<SigmoidImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
};
TORCH_MODULE(Sigmoid);
class TanhImpl : public torch::nn::Cloneable<TanhImpl> {
 public:
  Tensor forward(const Tensor& input);
  void reset() override;
};
TORCH_MODULE(Tanh);
class SoftmaxImpl : public torch::nn::Cloneable<SoftmaxImpl> {
 public:
  explicit SoftmaxImpl(int64_t dim);
  explicit SoftmaxImpl(const SoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  SoftmaxOptions options;
};
TORCH_MODULE(Softmax);
class LogSoftmaxImpl : public torch::nn::Cloneable<LogSoftmaxImpl> {
 public:
  explicit LogSoftmaxImpl(int64_t dim);
  explicit LogSoftmaxImpl(const LogSoftmaxOptions& options_);
  Tensor forward(const Tensor& input);
  void reset() override;
  LogSoftmaxOptions options;
};
TORCH_MODULE(LogSoftmax);

// ---- batchnorm.h, normalization.h ----
struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features);
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(c10::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

namespace detail {
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public torch::nn::Cloneable<Derived> {
 public:
  explicit NormImplBase(const DerivedOptions& options_);
  void reset() override;
  void reset_running_stats();
  void reset_parameters();
  DerivedOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};
template <size_t D, typename Derived>
class BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions> {
 public:
  using detail::NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
};
} // namespace detail

class BatchNorm1dImpl : public detail::BatchNormImplBase<1, BatchNorm1dImpl> {
 public:
  using detail::BatchNormImplBase<1, BatchNorm1dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm1d);
class BatchNorm2dImpl : public detail::BatchNormImplBase<2, BatchNorm2dImpl> {
 public:
  using detail::BatchNormImplBase<2, BatchNorm2dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm2d);
class BatchNorm3dImpl : public detail::BatchNormImplBase<3, BatchNorm3dImpl> {
 public:
  using detail::BatchNormImplBase<3, BatchNorm3dImpl>::BatchNormImplBase;
};
TORCH_MODULE(BatchNorm3d);

struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape);
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, elementwise_affine) = true;
};
class LayerNormImpl : public torch::nn::Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape);
  explicit LayerNormImpl(LayerNormOptions options_);
  void reset() override;
  void reset_parameters();
  Tensor forward(const Tensor& input);
  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(LayerNorm);

struct GroupNormOptions {
  /* implicit */ GroupNormOptions(int64_t num_groups, int64_t num_channels);
  TORCH_ARG(int64_t, num_groups);
  TORCH_ARG(int64_t, num_channels);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, affine) = true;
};
class GroupNormImpl : public torch::nn::Cloneable<GroupNormImpl> {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels);
  explicit GroupNormImpl(const GroupNormOptions& options_);
  void reset() override;
  Tensor forward(const Tensor& input);
  GroupNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(GroupNorm);

// ---- loss.h ----
struct L1LossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_OPTIONS_CTOR_VARIANT_ARG3(L1LossOptions, reduction, kNone, kMean, kSum)
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};
struct KLDivLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum,
                       enumtype::kMean>
      reduction_t;
  TORCH_OPTIONS_CTOR_VARIANT_ARG4(KLDivLossOptions, reduction, kNone, kBatchMean, kSum,
                                  kMean)
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(bool, log_target) = false;
};
struct MSELossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_OPTIONS_CTOR_VARIANT_ARG3(MSELossOptions, reduction, kNone, kMean, kSum)
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};
struct BCELossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};
struct SmoothL1LossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_OPTIONS_CTOR_VARIANT_ARG3(SmoothL1LossOptions, reduction, kNone, kMean, kSum)
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(c10::optional<double>, beta) = c10::nullopt;
};
struct HuberLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_OPTIONS_CTOR_VARIANT_ARG3(HuberLossOptions, reduction, kNone, kMean, kSum)
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(double, delta) = 1.0;
};
struct NLLLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
};
struct CrossEntropyLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(double, label_smoothing) = 0.0;
};
struct BCEWithLogitsLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = torch::kMean;
  TORCH_ARG(Tensor, pos_weight) = {};
};

#define SEALINT_LOSS_MODULE(Name)                                       \
  struct Name##Impl : public Cloneable<Name##Impl> {                    \
    explicit Name##Impl(const Name##Options& options_ = {});            \
    void reset() override;                                              \
    void pretty_print(std::ostream& stream) const override;             \
    Tensor forward(const Tensor& input, const Tensor& target);          \
    Name##Options options;                                              \
  };                                                                    \
  TORCH_MODULE(Name);
SEALINT_LOSS_MODULE(L1Loss)
SEALINT_LOSS_MODULE(KLDivLoss)
SEALINT_LOSS_MODULE(MSELoss)
SEALINT_LOSS_MODULE(BCELoss)
SEALINT_LOSS_MODULE(SmoothL1Loss)
SEALINT_LOSS_MODULE(HuberLoss)
SEALINT_LOSS_MODULE(NLLLoss)
SEALINT_LOSS_MODULE(CrossEntropyLoss)
SEALINT_LOSS_MODULE(BCEWithLogitsLoss)
#undef SEALINT_LOSS_MODULE

// ---- container: any.h, named_any.h, sequential.h, modulelist.h, moduledict.h,
//      functional.h ----
class AnyModule {
 public:
  AnyModule() = default;
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module) {}
  template <typename ModuleType, typename = torch::detail::enable_if_module_t<ModuleType>>
  explicit AnyModule(ModuleType&& module) {}
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder) {}
  template <typename... ArgumentTypes>
  Tensor forward(ArgumentTypes&&... arguments);
  std::shared_ptr<Module> ptr() const;
  bool is_empty() const noexcept;
};

class NamedAnyModule {
 public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module_ptr) {}
  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  NamedAnyModule(std::string name, M&& module) {}
  template <typename M>
  NamedAnyModule(std::string name, const ModuleHolder<M>& module_holder) {}
  NamedAnyModule(std::string name, AnyModule any_module);
  const std::string& name() const noexcept;
  AnyModule& module() noexcept;
};

class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules) {}
  explicit SequentialImpl(torch::OrderedDict<std::string, AnyModule>&& ordered_dict);
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  std::shared_ptr<Module> clone(const optional<Device>& device = nullopt) const override;
  void reset() override;
  void pretty_print(std::ostream& stream) const override;

  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes&&... inputs);

  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr) {}
  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr) {}
  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(M&& module) {}
  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(std::string name, M&& module) {}
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {}
  template <typename M>
  void push_back(std::string name, const ModuleHolder<M>& module_holder) {}
  void push_back(AnyModule any_module);
  void push_back(std::string name, AnyModule any_module);
  template <typename Container>
  void extend(const Container& container) {}

  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  template <typename T>
  T& at(size_t index);
  std::shared_ptr<Module> ptr(size_t index) const;
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const;
  std::shared_ptr<Module> operator[](size_t index) const;
  size_t size() const noexcept;
  bool is_empty() const noexcept;
};
class Sequential : public torch::nn::ModuleHolder<SequentialImpl> {
 public:
  using torch::nn::ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules);
};

class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;
  ModuleListImpl() = default;
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules) {}
  void reset() override;
  void push_back(std::shared_ptr<Module> module);
  template <typename M, typename = torch::detail::enable_if_module_t<M>>
  void push_back(M&& module) {}
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {}
  template <typename Container>
  void extend(const Container& container) {}
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  template <typename T>
  T& at(size_t index);
  std::shared_ptr<Module> ptr(size_t index) const;
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const;
  std::shared_ptr<Module> operator[](size_t index) const;
  size_t size() const noexcept;
  bool is_empty() const noexcept;
};
TORCH_MODULE(ModuleList);

class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator = torch::OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator =
      torch::OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;
  ModuleDictImpl() = default;
  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  explicit ModuleDictImpl(const torch::OrderedDict<std::string, std::shared_ptr<Module>>& modules);
  void reset() override;
  std::vector<std::string> keys() const;
  std::vector<std::shared_ptr<Module>> values() const;
  Iterator begin();
  ConstIterator begin() const;
  Iterator end();
  ConstIterator end() const;
  size_t size() const noexcept;
  bool empty() const noexcept;
  bool contains(const std::string& key) const noexcept;
  void clear();
  std::shared_ptr<Module> operator[](const std::string& key) const;
  template <typename T>
  T& at(const std::string& key);
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const;
  std::shared_ptr<Module> pop(const std::string& key);
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);
  template <typename Container>
  void update(const Container& container) {}

 private:
  void insert(const std::string& key, std::shared_ptr<Module> module);
};
TORCH_MODULE(ModuleDict);

class FunctionalImpl : public torch::nn::Cloneable<FunctionalImpl> {
 public:
  using Function = std::function<Tensor(Tensor)>;
  explicit FunctionalImpl(Function function);
  template <typename SomeFunction, typename... Args,
            typename = torch::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args) {}
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input);
  bool is_serializable() const override;
};
TORCH_MODULE(Functional);

// ===========================================================================
// torch/nn/functional (`namespace F = torch::nn::functional;` is the user's)
// ===========================================================================
namespace functional {
using MSELossFuncOptions = MSELossOptions;
using L1LossFuncOptions = L1LossOptions;
using KLDivFuncOptions = KLDivLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using ReLUFuncOptions = ReLUOptions;
using ReLU6FuncOptions = ReLU6Options;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using ELUFuncOptions = ELUOptions;
using GELUFuncOptions = GELUOptions;
using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using MaxPool3dFuncOptions = MaxPool3dOptions;
using AvgPool1dFuncOptions = AvgPool1dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AvgPool3dFuncOptions = AvgPool3dOptions;
using AdaptiveAvgPool1dFuncOptions = AdaptiveAvgPool1dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;
using AdaptiveAvgPool3dFuncOptions = AdaptiveAvgPool3dOptions;

struct SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};
struct LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim);
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(c10::optional<torch::Dtype>, dtype) = c10::nullopt;
};
struct DropoutFuncOptions {
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(bool, inplace) = false;
};
using Dropout2dFuncOptions = DropoutFuncOptions;
using Dropout3dFuncOptions = DropoutFuncOptions;
template <size_t D>
struct ConvFuncOptions {
  using padding_t = torch::nn::detail::conv_padding_t<D>;
  TORCH_ARG(torch::Tensor, bias) = Tensor();
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  TORCH_ARG(padding_t, padding) = 0;

 public:
  ConvFuncOptions& padding(std::initializer_list<int64_t> il);
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;
using Conv3dFuncOptions = ConvFuncOptions<3>;
struct EmbeddingFuncOptions {
  TORCH_ARG(c10::optional<int64_t>, padding_idx) = c10::nullopt;
  TORCH_ARG(c10::optional<double>, max_norm) = c10::nullopt;
  TORCH_ARG(double, norm_type) = 2.;
  TORCH_ARG(bool, scale_grad_by_freq) = false;
  TORCH_ARG(bool, sparse) = false;
};
struct NormalizeFuncOptions {
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(int64_t, dim) = 1;
  TORCH_ARG(double, eps) = 1e-12;
  TORCH_ARG(c10::optional<Tensor>, out) = c10::nullopt;
};
struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape);
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, bias) = {};
  TORCH_ARG(double, eps) = 1e-5;
};
struct BatchNormFuncOptions {
  TORCH_ARG(Tensor, weight) = Tensor();
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(bool, training) = false;
  TORCH_ARG(c10::optional<double>, momentum) = 0.1;
  TORCH_ARG(double, eps) = 1e-5;
};
struct CosineSimilarityFuncOptions {
  TORCH_ARG(int64_t, dim) = 1;
  TORCH_ARG(double, eps) = 1e-8;
};
struct PadFuncOptions {
  typedef c10::variant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate,
                       enumtype::kCircular>
      mode_t;
  PadFuncOptions(std::vector<int64_t> pad);
  TORCH_ARG(std::vector<int64_t>, pad);
  TORCH_ARG(mode_t, mode) = torch::kConstant;
  TORCH_ARG(double, value) = 0;
};
struct InterpolateFuncOptions {
  typedef c10::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear,
                       enumtype::kBicubic, enumtype::kTrilinear, enumtype::kArea,
                       enumtype::kNearestExact>
      mode_t;
  TORCH_ARG(c10::optional<std::vector<int64_t>>, size) = c10::nullopt;
  TORCH_ARG(c10::optional<std::vector<double>>, scale_factor) = c10::nullopt;
  TORCH_ARG(mode_t, mode) = torch::kNearest;
  TORCH_ARG(c10::optional<bool>, align_corners) = c10::nullopt;
  TORCH_ARG(c10::optional<bool>, recompute_scale_factor) = c10::nullopt;
  TORCH_ARG(bool, antialias) = false;
};

Tensor l1_loss(const Tensor& input, const Tensor& target,
               const L1LossFuncOptions& options = {});
Tensor kl_div(const Tensor& input, const Tensor& target,
              const KLDivFuncOptions& options = {});
Tensor mse_loss(const Tensor& input, const Tensor& target,
                const MSELossFuncOptions& options = {});
Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                            const BinaryCrossEntropyFuncOptions& options = {});
Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                      const SmoothL1LossFuncOptions& options = {}, double beta = 1.);
Tensor huber_loss(const Tensor& input, const Tensor& target,
                  const HuberLossFuncOptions& options = {});
Tensor nll_loss(const Tensor& input, const Tensor& target,
                const NLLLossFuncOptions& options = {});
Tensor cross_entropy(const Tensor& input, const Tensor& target,
                     const CrossEntropyFuncOptions& options = {});
Tensor binary_cross_entropy_with_logits(
    const Tensor& input, const Tensor& target,
    const BinaryCrossEntropyWithLogitsFuncOptions& options = {});

Tensor elu(Tensor input, const ELUFuncOptions& options = {});
Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {});
Tensor silu(const Tensor& input);
Tensor mish(const Tensor& input);
Tensor logsigmoid(const Tensor& input);
Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {});
Tensor relu(Tensor input, const ReLUFuncOptions& options = {});
Tensor relu6(Tensor input, const ReLU6FuncOptions& options = {});
Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options);
Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options);
Tensor softplus(const Tensor& input);

Tensor dropout(Tensor input, const DropoutFuncOptions& options = {});
Tensor dropout2d(Tensor input, const Dropout2dFuncOptions& options = {});
Tensor dropout3d(Tensor input, const Dropout3dFuncOptions& options = {});

Tensor max_pool1d(const Tensor& input, const MaxPool1dFuncOptions& options);
Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options);
Tensor max_pool3d(const Tensor& input, const MaxPool3dFuncOptions& options);
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input,
                                                   const MaxPool2dFuncOptions& options);
Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& options);
Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options);
Tensor avg_pool3d(const Tensor& input, const AvgPool3dFuncOptions& options);
Tensor adaptive_avg_pool1d(const Tensor& input,
                           const AdaptiveAvgPool1dFuncOptions& options);
Tensor adaptive_avg_pool2d(const Tensor& input,
                           const AdaptiveAvgPool2dFuncOptions& options);
Tensor adaptive_avg_pool3d(const Tensor& input,
                           const AdaptiveAvgPool3dFuncOptions& options);

Tensor conv1d(const Tensor& input, const Tensor& weight,
              const Conv1dFuncOptions& options = {});
Tensor conv2d(const Tensor& input, const Tensor& weight,
              const Conv2dFuncOptions& options = {});
Tensor conv3d(const Tensor& input, const Tensor& weight,
              const Conv3dFuncOptions& options = {});
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias = Tensor());
Tensor one_hot(const Tensor& tensor, int64_t num_classes = -1);
Tensor embedding(const Tensor& input, const Tensor& weight,
                 const EmbeddingFuncOptions& options = {});
Tensor normalize(const Tensor& input, NormalizeFuncOptions options = {});
Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options);
Tensor batch_norm(const Tensor& input, const Tensor& running_mean,
                  const Tensor& running_var, const BatchNormFuncOptions& options = {});
Tensor cosine_similarity(const Tensor& x1, const Tensor& x2,
                         const CosineSimilarityFuncOptions& options = {});
Tensor pad(const Tensor& input, const PadFuncOptions& options);
Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options = {});
} // namespace functional

// ===========================================================================
// torch/nn/init.h, torch/nn/utils
// ===========================================================================
namespace init {
using NonlinearityType =
    c10::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D,
                 enumtype::kConv3D, enumtype::kConvTranspose1D,
                 enumtype::kConvTranspose2D, enumtype::kConvTranspose3D,
                 enumtype::kSigmoid, enumtype::kTanh, enumtype::kReLU,
                 enumtype::kLeakyReLU>;
using FanModeType = c10::variant<enumtype::kFanIn, enumtype::kFanOut>;
double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);
Tensor constant_(Tensor tensor, Scalar value);
Tensor dirac_(Tensor tensor);
Tensor eye_(Tensor matrix);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
Tensor ones_(Tensor tensor);
Tensor orthogonal_(Tensor tensor, double gain = 1.0);
Tensor sparse_(Tensor tensor, double sparsity, double std = 0.01);
Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = torch::kFanIn,
                       NonlinearityType nonlinearity = torch::kLeakyReLU);
Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = torch::kFanIn,
                        NonlinearityType nonlinearity = torch::kLeakyReLU);
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
Tensor zeros_(Tensor tensor);
std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);
} // namespace init

namespace utils {
double clip_grad_norm_(std::vector<Tensor> parameters, double max_norm,
                       double norm_type = 2.0, bool error_if_nonfinite = false);
double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm,
                       double norm_type = 2.0, bool error_if_nonfinite = false);
double clip_grad_norm_(Tensor parameter, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false);
void clip_grad_value_(std::vector<Tensor> parameters, double clip_value);
void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value);
void clip_grad_value_(Tensor parameter, double clip_value);
Tensor parameters_to_vector(const std::vector<Tensor>& parameters);
void vector_to_parameters(const Tensor& vec, const std::vector<Tensor>& parameters);
} // namespace utils
} // namespace nn

// ===========================================================================
// torch/optim
// ===========================================================================
namespace optim {
class OptimizerParamState {
 public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerParamState() = default;
};
template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override;
};
class OptimizerOptions {
 public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};
template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 private:
  std::unique_ptr<OptimizerOptions> clone() const override;
};

class OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group);
  OptimizerParamGroup(std::vector<Tensor> params);
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options);
  bool has_options() const;
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options);
  std::vector<Tensor>& params();
  const std::vector<Tensor>& params() const;
};

class Optimizer {
 public:
  Optimizer(const Optimizer& optimizer) = delete;
  Optimizer(Optimizer&& optimizer) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters,
                     std::unique_ptr<OptimizerOptions> defaults);
  void add_param_group(const OptimizerParamGroup& param_group);
  virtual ~Optimizer() = default;
  using LossClosure = std::function<Tensor()>;
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  void add_parameters(const std::vector<Tensor>& parameters);
  void zero_grad();
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  size_t size() const noexcept;
  OptimizerOptions& defaults() noexcept;
  const OptimizerOptions& defaults() const noexcept;
  std::vector<OptimizerParamGroup>& param_groups() noexcept;
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept;
  ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state() noexcept;
  const ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state()
      const noexcept;
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);
};
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const Optimizer& optimizer);
serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer);

struct SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class SGD : public Optimizer {
 public:
  explicit SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

struct AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(double, lr) = 1e-3;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class Adam : public Optimizer {
 public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

struct AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  AdamWOptions(double lr = 1e-3);
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(double, lr) = 1e-3;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 1e-2;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class AdamW : public Optimizer {
 public:
  explicit AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults = {});
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

struct AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, lr_decay) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, initial_accumulator_value) = 0;
  TORCH_ARG(double, eps) = 1e-10;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class Adagrad : public Optimizer {
 public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups,
                   AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

struct RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);
  TORCH_ARG(double, lr) = 1e-2;
  TORCH_ARG(double, alpha) = 0.99;
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(bool, centered) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class RMSprop : public Optimizer {
 public:
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups,
                   RMSpropOptions defaults = {});
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

struct LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1);
  TORCH_ARG(double, lr) = 1;
  TORCH_ARG(int64_t, max_iter) = 20;
  TORCH_ARG(c10::optional<int64_t>, max_eval) = c10::nullopt;
  TORCH_ARG(double, tolerance_grad) = 1e-7;
  TORCH_ARG(double, tolerance_change) = 1e-9;
  TORCH_ARG(int64_t, history_size) = 100;
  TORCH_ARG(c10::optional<std::string>, line_search_fn) = c10::nullopt;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};
class LBFGS : public Optimizer {
 public:
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {});
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {});
  Tensor step(LossClosure closure) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};

class LRScheduler {
 public:
  LRScheduler(torch::optim::Optimizer& optimizer);
  virtual ~LRScheduler() = default;
  void step();

 protected:
  virtual std::vector<double> get_lrs() = 0;
  std::vector<double> get_current_lrs() const;
  unsigned step_count_;
};
class StepLR : public LRScheduler {
 public:
  StepLR(torch::optim::Optimizer& optimizer, const unsigned step_size,
         const double gamma = 0.1);

 private:
  std::vector<double> get_lrs() override;
};
} // namespace optim

// ===========================================================================
// torch/data
// ===========================================================================
namespace data {
template <typename Data = at::Tensor, typename Target = at::Tensor>
struct Example {
  using DataType = Data;
  using TargetType = Target;
  Example() = default;
  Example(Data data, Target target);
  Data data;
  Target target;
};
namespace example {
using NoTarget = void;
} // namespace example
template <typename Data>
struct Example<Data, example::NoTarget> {
  using DataType = Data;
  using TargetType = example::NoTarget;
  Example() = default;
  /* implicit */ Example(Data data);
  operator Data&();
  operator const Data&() const;
  Data data;
};
using TensorExample = Example<at::Tensor, example::NoTarget>;

namespace datasets {
template <typename S, typename T>
class MapDataset;
template <typename D, typename T>
MapDataset<D, T> map(D, T); // NOLINT

namespace detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<optional<T>> : std::true_type {};
template <bool C, typename T>
using optional_if_t = typename std::conditional<C, torch::optional<T>, T>::type;
} // namespace detail

template <typename Self, typename Batch = std::vector<Example<>>,
          typename BatchRequest = ArrayRef<size_t>>
class BatchDataset {
 public:
  using SelfType = Self;
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  constexpr static bool is_stateful = detail::is_optional<BatchType>::value;
  virtual ~BatchDataset() = default;
  virtual Batch get_batch(BatchRequest request) = 0;
  virtual optional<size_t> size() const = 0;
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) &;
  template <typename TransformType>
  MapDataset<Self, TransformType> map(TransformType transform) &&;
};

template <typename Self, typename SingleExample = Example<>>
class Dataset : public BatchDataset<Self, std::vector<SingleExample>> {
 public:
  using ExampleType = SingleExample;
  virtual ExampleType get(size_t index) = 0;
  std::vector<ExampleType> get_batch(ArrayRef<size_t> indices) override;
};

template <typename Self, typename Batch = std::vector<Example<>>>
using StreamDataset = BatchDataset<Self, Batch, /*BatchRequest=*/size_t>;

template <typename SourceDataset, typename AppliedTransform>
class MapDataset
    : public BatchDataset<MapDataset<SourceDataset, AppliedTransform>,
                          detail::optional_if_t<SourceDataset::is_stateful,
                                                typename AppliedTransform::OutputBatchType>,
                          typename SourceDataset::BatchRequestType> {
 public:
  using DatasetType = SourceDataset;
  using TransformType = AppliedTransform;
  using BatchRequestType = typename SourceDataset::BatchRequestType;
  using OutputBatchType =
      detail::optional_if_t<SourceDataset::is_stateful,
                            typename AppliedTransform::OutputBatchType>;
  MapDataset(DatasetType dataset, TransformType transform);
  OutputBatchType get_batch(BatchRequestType indices) override;
  optional<size_t> size() const noexcept override;
  void reset();
  const SourceDataset& dataset() noexcept;
  const AppliedTransform& transform() noexcept;
};

class MNIST : public Dataset<MNIST> {
 public:
  enum class Mode { kTrain, kTest };
  explicit MNIST(const std::string& root, Mode mode = Mode::kTrain);
  Example<> get(size_t index) override;
  optional<size_t> size() const override;
  bool is_train() const noexcept;
  const Tensor& images() const;
  const Tensor& targets() const;
};

struct TensorDataset : public Dataset<TensorDataset, TensorExample> {
  explicit TensorDataset(const std::vector<Tensor>& tensors);
  explicit TensorDataset(torch::Tensor tensor);
  TensorExample get(size_t index) override;
  optional<size_t> size() const override;
  Tensor tensor;
};
} // namespace datasets
// torch/data.h: the dataset bases are also torch::data's.
using datasets::BatchDataset;
using datasets::Dataset;

namespace transforms {
template <typename InputBatch, typename OutputBatch>
class BatchTransform {
 public:
  using InputBatchType = InputBatch;
  using OutputBatchType = OutputBatch;
  virtual ~BatchTransform() = default;
  virtual OutputBatch apply_batch(InputBatch input_batch) = 0;
};
template <typename Input, typename Output>
class Transform : public BatchTransform<std::vector<Input>, std::vector<Output>> {
 public:
  using InputType = Input;
  using OutputType = Output;
  virtual OutputType apply(InputType input) = 0;
  std::vector<Output> apply_batch(std::vector<Input> input_batch) override;
};
template <typename Input, typename Output = Input>
class BatchLambda : public BatchTransform<Input, Output> {
 public:
  using typename BatchTransform<Input, Output>::InputBatchType;
  using typename BatchTransform<Input, Output>::OutputBatchType;
  using FunctionType = std::function<OutputBatchType(InputBatchType)>;
  explicit BatchLambda(FunctionType function);
  OutputBatchType apply_batch(InputBatchType input_batch) override;
};
template <typename Input, typename Output = Input>
class Lambda : public Transform<Input, Output> {
 public:
  using typename Transform<Input, Output>::InputType;
  using typename Transform<Input, Output>::OutputType;
  using FunctionType = std::function<Output(Input)>;
  explicit Lambda(FunctionType function);
  OutputType apply(InputType input) override;
};
template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;
template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

template <typename Target = Tensor>
class TensorTransform : public Transform<Example<Tensor, Target>, Example<Tensor, Target>> {
 public:
  using E = Example<Tensor, Target>;
  using typename Transform<E, E>::InputType;
  using typename Transform<E, E>::OutputType;
  virtual Tensor operator()(Tensor input) = 0;
  OutputType apply(InputType input) override;
};
template <typename Target = Tensor>
class TensorLambda : public TensorTransform<Target> {
 public:
  using FunctionType = std::function<Tensor(Tensor)>;
  explicit TensorLambda(FunctionType function);
  Tensor operator()(Tensor input) override;
};
template <typename Target = Tensor>
struct Normalize : public TensorTransform<Target> {
  Normalize(ArrayRef<double> mean, ArrayRef<double> stddev);
  torch::Tensor operator()(Tensor input) override;
  torch::Tensor mean, stddev;
};

template <typename T = Example<>>
struct Stack;
template <>
struct Stack<Example<>> : public Collation<Example<>> {
  Example<> apply_batch(std::vector<Example<>> examples) override;
};
template <>
struct Stack<TensorExample> : public Collation<Example<Tensor, example::NoTarget>> {
  TensorExample apply_batch(std::vector<TensorExample> examples) override;
};
} // namespace transforms

namespace samplers {
template <typename BatchRequest = std::vector<size_t>>
class Sampler {
 public:
  using BatchRequestType = BatchRequest;
  virtual ~Sampler() = default;
  virtual void reset(optional<size_t> new_size) = 0;
  virtual optional<BatchRequest> next(size_t batch_size) = 0;
  virtual void save(serialize::OutputArchive& archive) const = 0;
  virtual void load(serialize::InputArchive& archive) = 0;
};
class RandomSampler : public Sampler<> {
 public:
  explicit RandomSampler(int64_t size, Dtype index_dtype = torch::kInt64);
  ~RandomSampler() override;
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept;
};
class SequentialSampler : public Sampler<> {
 public:
  explicit SequentialSampler(size_t size);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept;
};
template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
 public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                     bool allow_duplicates = true);
  void set_epoch(size_t epoch);
  size_t epoch() const;
};
class DistributedRandomSampler : public DistributedSampler<> {
 public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                           bool allow_duplicates = true);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept;
};
class DistributedSequentialSampler : public DistributedSampler<> {
 public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1, size_t rank = 0,
                               bool allow_duplicates = true);
  void reset(optional<size_t> new_size = nullopt) override;
  optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
  size_t index() const noexcept;
};
} // namespace samplers

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  /* implicit */ DataLoaderOptions(size_t batch_size);
  TORCH_ARG(size_t, batch_size) = 1;
  TORCH_ARG(size_t, workers) = 0;
  TORCH_ARG(optional<size_t>, max_jobs);
  TORCH_ARG(optional<std::chrono::milliseconds>, timeout);
  TORCH_ARG(bool, enforce_ordering) = true;
  TORCH_ARG(bool, drop_last) = false;
};
struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(DataLoaderOptions options);
  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

template <typename Batch>
class Iterator {
 public:
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch*;
  using reference = Batch&;
  using iterator_category = std::input_iterator_tag;
  Iterator& operator++();
  Batch& operator*();
  Batch* operator->();
  bool operator==(const Iterator& other) const;
  bool operator!=(const Iterator& other) const;
};

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
 public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;
  DataLoaderBase(DataLoaderOptions options,
                 std::unique_ptr<Dataset> main_thread_dataset = nullptr);
  virtual ~DataLoaderBase();
  Iterator<Batch> begin();
  Iterator<Batch> end();
  void join();
  const FullDataLoaderOptions& options() const noexcept;
};

template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType,
                            typename Sampler::BatchRequestType> {
 public:
  using super = DataLoaderBase<Dataset, typename Dataset::BatchType,
                               typename Sampler::BatchRequestType>;
  using typename super::BatchRequestType;
  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options);
};

template <typename Dataset, typename Sampler>
torch::disable_if_t<Dataset::is_stateful,
                    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, Sampler sampler, DataLoaderOptions options);

template <typename Sampler = samplers::RandomSampler, typename Dataset>
torch::disable_if_t<Dataset::is_stateful ||
                        !std::is_constructible<Sampler, size_t>::value,
                    std::unique_ptr<StatelessDataLoader<Dataset, Sampler>>>
make_data_loader(Dataset dataset, DataLoaderOptions options = DataLoaderOptions());
} // namespace data

// ===========================================================================
// torch/serialize.h
// ===========================================================================
// torch/serialize/tensor.h
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Tensor& tensor);
serialize::InputArchive& operator>>(serialize::InputArchive& archive, Tensor& tensor);

// Bodies as in LibTorch: `archive << value` / `archive >> value` must exist
// (tensors, modules, module holders, optimizers).
template <typename Value, typename... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}
template <typename... SaveToArgs>
void save(const std::vector<torch::Tensor>& tensor_vec, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}
template <typename Value, typename... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}
template <typename... LoadFromArgs>
void load(std::vector<torch::Tensor>& tensor_vec, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
}
std::vector<char> pickle_save(const torch::IValue& ivalue);
torch::IValue pickle_load(const std::vector<char>& data);

// ===========================================================================
// torch/jit.h (torch/csrc/jit/api/module.h); torch::jit::load is in torch/script.h
// ===========================================================================
namespace jit {
using IValue = c10::IValue;
using Kwargs = std::unordered_map<std::string, IValue>;
struct Module {
  Module();
  explicit Module(const std::string& class_name);
  // `const Kwargs& kwargs = Kwargs()` in 1.13; split so that the default argument
  // does not instantiate std::unordered_map while the header is parsed.
  IValue forward(std::vector<IValue> inputs);
  IValue forward(std::vector<IValue> inputs, const Kwargs& kwargs);
  void train(bool on = true);
  void eval();
  bool is_training() const;
  void to(at::Device device, at::ScalarType dtype, bool non_blocking = false);
  void to(at::ScalarType dtype, bool non_blocking = false);
  void to(at::Device device, bool non_blocking = false);
  void save(std::ostream& out) const;
  void save(const std::string& filename) const;
  // parameter_list / named_parameter_list in 1.13.
  std::vector<at::Tensor> parameters(bool recurse = true) const;
  std::vector<std::pair<std::string, at::Tensor>> named_parameters(bool recurse = true) const;
  IValue attr(const std::string& name) const;
  bool hasattr(const std::string& name) const;
  void register_parameter(const std::string& name, at::Tensor v, bool is_buffer);
  template <typename... Types>
  IValue run_method(const std::string& method_name, Types&&... args);
};
namespace script {
using Module = ::torch::jit::Module;
} // namespace script
} // namespace jit

// torch/version.h
#define TORCH_VERSION_MAJOR 1
#define TORCH_VERSION_MINOR 13
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "1.13.0"
} // namespace torch
