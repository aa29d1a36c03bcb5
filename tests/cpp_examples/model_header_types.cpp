// Type-level check that sealint's LibTorch model header declares what LibTorch 1.13
// declares: the types sealint reads from Clang (a variable's type, a call's return
// type, a class's bases) must be the same under both header sets. compile_examples.sh
// parses this file against the real headers AND against analyzer/cpp/torch_model.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#define SAME(expr, type) static_assert(std::is_same<decltype(expr), type>::value, #expr)
#define TRUE(expr) static_assert(expr, #expr)

using torch::Tensor;
using Tuple2 = std::tuple<Tensor, Tensor>;
using LstmOut = std::tuple<Tensor, Tuple2>;
using ParamDict = torch::OrderedDict<std::string, Tensor>;
extern Tensor& t;

// Aliases resolve to the same canonical types.
TRUE((std::is_same<torch::Tensor, at::Tensor>::value));
TRUE((std::is_same<torch::NoGradGuard, c10::NoGradGuard>::value));
TRUE((std::is_same<torch::AutoGradMode, c10::AutoGradMode>::value));
TRUE((std::is_same<torch::InferenceMode, c10::InferenceMode>::value));
TRUE((std::is_same<torch::autograd::Variable, at::Tensor>::value));
TRUE((std::is_same<torch::optional<int>, c10::optional<int>>::value));
TRUE((std::is_same<torch::Dtype, c10::ScalarType>::value));
TRUE((std::is_same<torch::IntArrayRef, c10::ArrayRef<int64_t>>::value));
TRUE((std::is_base_of<c10::AutoGradMode, c10::NoGradGuard>::value));
TRUE((std::is_base_of<at::TensorBase, at::Tensor>::value));
TRUE((std::is_convertible<bool, torch::AutoGradMode>::value)); // not explicit in 1.13
TRUE((!std::is_constructible<torch::Tensor, int>::value));
TRUE((!std::is_convertible<torch::Tensor, bool>::value));
SAME(torch::kFloat32, const c10::ScalarType);
SAME(torch::kCUDA, const c10::DeviceType);

// Tensor methods.
SAME(t.item<float>(), float);
SAME(t.item(), c10::Scalar);
SAME(t.detach(), at::Tensor);
SAME(t.detach_(), at::Tensor&);
SAME(t.backward(), void);
SAME(t.backward({}, true), void);
SAME(t.grad(), const at::Tensor&);
SAME(t.data(), at::Tensor);
SAME(t.cpu(), at::Tensor);
SAME(t.to(torch::kCUDA), at::Tensor);
SAME(t.sum(), at::Tensor);
SAME(t.size(0), int64_t);
SAME(t.sizes(), c10::IntArrayRef);
SAME(t.max(1), Tuple2);
SAME(t.requires_grad_(), const at::Tensor&);
SAME(t += t, at::Tensor&);
SAME(t + 1, at::Tensor);
SAME(t[0], at::Tensor);
SAME(torch::randn({2, 3}), at::Tensor);
SAME(torch::tensor({1.0, 2.0}), at::Tensor);

// Modules, holders and their forward.
torch::nn::Linear linear(2, 3);
torch::nn::LSTM lstm(2, 3);
torch::nn::GRU gru(2, 3);
torch::nn::LSTMCell lstm_cell(2, 3);
torch::nn::GRUCell gru_cell(2, 3);
torch::nn::MSELoss mse;
TRUE((std::is_base_of<torch::nn::ModuleHolder<torch::nn::LinearImpl>, torch::nn::Linear>::value));
TRUE((std::is_base_of<torch::nn::Module, torch::nn::LinearImpl>::value));
TRUE((std::is_base_of<torch::nn::Cloneable<torch::nn::LSTMImpl>, torch::nn::LSTMImpl>::value));
SAME(linear(t), Tensor);
SAME(linear->forward(t), Tensor);
SAME(linear->weight, Tensor);
SAME(lstm->forward(t), LstmOut);
SAME(lstm(t, std::make_tuple(t, t)), LstmOut);
SAME(gru(t, t), Tuple2);
SAME(lstm_cell(t), Tuple2);
SAME(gru_cell(t), Tensor);
SAME(mse(t, t), Tensor);
SAME(linear->parameters(), std::vector<Tensor>);
SAME(linear->named_parameters(), ParamDict);
SAME(torch::nn::functional::mse_loss(t, t), Tensor);
SAME(torch::nn::functional::cross_entropy(t, t), Tensor);

// Optimizers.
TRUE((std::is_base_of<torch::optim::Optimizer, torch::optim::SGD>::value));
TRUE((std::is_base_of<torch::optim::Optimizer, torch::optim::Adam>::value));
TRUE((std::is_constructible<torch::optim::SGD, std::vector<Tensor>, double>::value));
TRUE((!std::is_constructible<torch::optim::SGD, std::vector<Tensor>>::value));
SAME(std::declval<torch::optim::SGD&>().step(), Tensor);
SAME(std::declval<torch::optim::Optimizer&>().zero_grad(), void);

// Data loading: the batch type of the MNIST example.
using MnistStacked = torch::data::datasets::MapDataset<
    torch::data::datasets::MapDataset<torch::data::datasets::MNIST,
                                      torch::data::transforms::Normalize<>>,
    torch::data::transforms::Stack<>>;
using Loader = torch::data::StatelessDataLoader<MnistStacked,
                                                torch::data::samplers::SequentialSampler>;
SAME(torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
         std::declval<MnistStacked>(), 64),
     std::unique_ptr<Loader>);
SAME(*std::declval<Loader&>().begin(), torch::data::Example<>&);
SAME(std::declval<torch::data::Example<>&>().data, Tensor);

int main() { return 0; }
