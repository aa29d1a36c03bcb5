// Stress check for sealint's LibTorch model header: varied, realistic LibTorch 1.13
// training/evaluation code. compile_examples.sh parses it (-fsyntax-only, C++17)
// against the real headers AND against analyzer/cpp/torch_model; both must accept it.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <tuple>
#include <vector>

namespace F = torch::nn::functional;

struct ConvNetImpl : torch::nn::Module {
  explicit ConvNetImpl(int64_t classes)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3)
                                                             .stride(1).padding(1).bias(false)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, {3, 3})
                                                             .stride({2, 2})))),
        bn(register_module("bn", torch::nn::BatchNorm2d(32))),
        drop(register_module("drop", torch::nn::Dropout(0.25))),
        fc(register_module("fc", torch::nn::Linear(torch::nn::LinearOptions(32 * 6 * 6, classes)
                                                       .bias(true)))) {
    register_buffer("steps_seen", torch::zeros({1}, torch::kLong));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(F::relu(conv1(x)), 2);
    x = F::relu(bn->forward(conv2->forward(x)));
    x = drop(x).view({x.size(0), -1});
    return F::log_softmax(fc(x), F::LogSoftmaxFuncOptions(1));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ConvNet);

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t dim, int64_t tags)
      : embed(register_module("embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(vocab, dim)
                                                                .padding_idx(0)))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim, dim)
                                                         .num_layers(2).batch_first(true)))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(dim, dim)))),
        head(register_module("head", torch::nn::Sequential(torch::nn::Linear(dim, dim),
                                                           torch::nn::Functional(torch::relu),
                                                           torch::nn::Linear(dim, tags)))) {}
  std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>> forward(
      torch::Tensor tokens, std::tuple<torch::Tensor, torch::Tensor> state) {
    auto out = lstm->forward(embed(tokens), state);
    torch::Tensor hidden = std::get<0>(out);
    auto gru_out = gru(hidden);
    return std::make_tuple(head->forward(std::get<0>(gru_out)), std::get<1>(out));
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Sequential head{nullptr};
};
TORCH_MODULE(Tagger);

struct PairDataset : torch::data::datasets::Dataset<PairDataset> {
  torch::data::Example<> get(size_t index) override {
    return {torch::full({4}, static_cast<double>(index)), torch::tensor({1.0f})};
  }
  torch::optional<size_t> size() const override { return 128; }
};

double evaluate(ConvNet& model, const torch::Tensor& images, const torch::Tensor& labels) {
  torch::NoGradGuard no_grad;
  model->eval();
  torch::Tensor pred = model->forward(images).argmax(1);
  return pred.eq(labels).sum().item<double>() / static_cast<double>(labels.size(0));
}

int main() {
  torch::manual_seed(1);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  ConvNet model(10);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3).weight_decay(1e-4));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/5, /*gamma=*/0.5);

  auto dataset = torch::data::datasets::MNIST("./data")
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  auto data_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(64).workers(2));
  std::vector<torch::Tensor> batch_losses;
  std::vector<float> history;
  for (int epoch = 0; epoch < 3; ++epoch) {
    model->train();
    for (auto& batch : *data_loader) {
      auto data = batch.data.to(device), targets = batch.target.to(device);
      optimizer.zero_grad();
      torch::Tensor loss = F::nll_loss(model(data), targets);
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      optimizer.step();
      batch_losses.push_back(loss.detach().cpu());
      history.emplace_back(loss.item<float>());
    }
    scheduler.step();
    std::cout << "epoch " << epoch << " acc "
              << evaluate(model, torch::randn({8, 1, 28, 28}), torch::randint(10, {8})) << "\n";
  }

  Tagger tagger(100, 32, 5);
  torch::optim::SGD sgd(tagger->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  auto state = std::make_tuple(torch::zeros({2, 4, 32}), torch::zeros({2, 4, 32}));
  torch::nn::CrossEntropyLoss ce(torch::nn::CrossEntropyLossOptions().ignore_index(0));
  for (int step = 0; step < 10; ++step) {
    torch::Tensor tokens = torch::randint(1, 100, {4, 7}, torch::kLong);
    auto result = tagger->forward(tokens, state);
    state = std::make_tuple(std::get<0>(std::get<1>(result)).detach(),
                            std::get<1>(std::get<1>(result)).detach());
    torch::Tensor logits = std::get<0>(result).reshape({-1, 5});
    torch::Tensor loss = ce(logits, torch::randint(5, {28})) +
                         0.1 * F::mse_loss(logits, torch::zeros_like(logits),
                                           F::MSELossFuncOptions().reduction(torch::kSum));
    sgd.zero_grad();
    loss.backward({}, /*retain_graph=*/true);
    auto grads = torch::autograd::grad({loss}, {tagger->embed->weight}, {},
                                       /*retain_graph=*/false, /*create_graph=*/false);
    sgd.step();
  }

  {
    torch::AutoGradMode enable_grad(false);
    c10::InferenceMode guard;
    torch::InferenceMode guard2(true);
    auto probs = F::softmax(tagger->head->forward(torch::randn({3, 32})), 1);
    std::cout << probs.index({torch::indexing::Slice(), 0}) << probs.sizes() << "\n";
  }
  for (const auto& p : model->named_parameters()) {
    std::cout << p.key() << " " << p.value().numel() << " " << p->requires_grad() << "\n";
  }
  auto loader = torch::data::make_data_loader(
      PairDataset().map(torch::data::transforms::Stack<>()), 16);
  for (torch::data::Example<>& b : *loader) {
    torch::Tensor stacked = torch::cat({b.data, b.target.expand({b.data.size(0), 4})}, 1);
    batch_losses.emplace_back(torch::stack({stacked.mean(), stacked.std()}).sum().detach());
  }
  torch::save(model, "model.pt");
  torch::load(model, "model.pt");
  return 0;
}
