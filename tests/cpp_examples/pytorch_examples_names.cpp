// Every public LibTorch name that pytorch/examples' cpp/ folder uses (autograd, custom-dataset,
// dcgan, distributed, mnist, regression, transfer-learning), used as those programs use it, in code
// written for this check. compile_examples.sh parses it with the real headers and with sealint's
// model: a name the model lacks fails here first, before it costs a slower fallback in the field.
#include <torch/script.h>
#include <torch/torch.h>

#include <cassert>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

struct ImageFolder : torch::data::Dataset<ImageFolder> {  // torch::data::Dataset (transfer-learning)
  std::vector<torch::Tensor> images, labels;
  torch::data::Example<> get(size_t index) override {
    assert(index < images.size());
    return {images.at(index).clone(), labels.at(index).clone()};
  }
  torch::optional<size_t> size() const override { return images.size(); }
};

struct Folder2 : torch::data::datasets::Dataset<Folder2> {
  torch::data::Example<> get(size_t) override { return {torch::empty({1}), torch::full({1}, 0)}; }
  torch::optional<size_t> size() const override { return 1; }
};

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl()
      : conv(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5).stride(1).padding(0).bias(false)),
        drop(0.5),
        fc(torch::nn::Linear(320, 10)) {
    register_module("conv", conv);
    register_module("drop", drop);
    register_module("fc", fc);
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv->forward(x), 2));
    x = drop->forward(x).view({-1, 320});
    x = torch::dropout(x, /*p=*/0.5, /*train=*/is_training());
    return torch::log_softmax(fc->forward(x), /*dim=*/1);
  }
  torch::nn::Conv2d conv;
  torch::nn::Dropout2d drop;
  torch::nn::Linear fc;
};
TORCH_MODULE(Generator);

torch::nn::Sequential sequential() {
  torch::nn::Sequential seq(torch::nn::Linear(4, 1));
  torch::nn::SequentialImpl* impl = seq.get();
  (void)impl;
  return seq;
}

template <typename Loader>
void train(Generator& model, Loader& loader, torch::optim::Optimizer& optimizer,
           torch::Device device) {
  model->train();
  for (auto& batch : *loader) {
    auto data = batch.data.to(device), targets = batch.target.to(device);
    optimizer.zero_grad();
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, targets);
    assert(!std::isnan(loss.template item<float>()));
    loss.backward();
    optimizer.step();
  }
}

int main() {
  torch::manual_seed(1);
  torch::DeviceType device_type = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::Device device(device_type);
  Generator model;
  model->to(device);

  auto dataset = torch::data::datasets::MNIST("./data")
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  auto test_set = torch::data::datasets::MNIST("./data", torch::data::datasets::MNIST::Mode::kTest);
  (void)test_set;
  const size_t size = dataset.size().value();
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), 64);
  auto sampler = torch::data::samplers::DistributedRandomSampler(size, 2, 0, false);
  (void)sampler;
  torch::data::samplers::RandomSampler random(4);
  (void)random;
  auto folder = ImageFolder().map(torch::data::transforms::Stack<>());
  auto folder_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(folder), torch::data::DataLoaderOptions().batch_size(4).workers(2));
  (void)folder_loader;

  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.5}));
  train(model, loader, sgd, device);
  (void)adam;

  {
    torch::NoGradGuard no_grad;
    model->eval();
    torch::Tensor x = torch::randn({2, 1, 28, 28});
    torch::Tensor pred = model->forward(x).argmax(1);
    torch::Tensor correct = pred.eq(torch::ones({2}, torch::kLong));
    torch::Tensor same = pred.clone().eq_(pred);
    std::cout << correct.sum().item<int64_t>() << same.sizes() << "\n";
  }

  // autograd.cpp and regression.cpp
  torch::Tensor a = torch::ones({2, 2}, torch::requires_grad());
  torch::Tensor b = torch::randn({2, 2});
  torch::Tensor c = (a + b).pow(2).sum();
  auto grads = torch::autograd::grad({c}, {a}, {}, true, true);
  torch::Tensor d = torch::tensor({1.0, 2.0}, torch::kFloat).reshape({2, 1});
  torch::Tensor e = torch::cat({d, d}, 1).unsqueeze(0).squeeze().permute({1, 0});
  torch::Tensor f = torch::tanh(torch::zeros({2})) + torch::ones_like(e).mean();
  torch::Tensor g = torch::smooth_l1_loss(f, torch::zeros({2}));
  torch::Tensor h = torch::binary_cross_entropy(torch::sigmoid(f), torch::full({2}, 1.0));
  torch::Tensor k = torch::sum(g + h).detach().to(torch::kF32).cpu();
  torch::Tensor m = torch::reshape(k, {1});
  torch::nn::MSELoss mse(torch::nn::MSELossOptions().reduction(torch::kSum));
  torch::Tensor n = mse(m, torch::zeros({1}));
  torch::ExpandingArray<2> kernel(3);
  std::cout << torch::str(grads.size(), " ", n.dim(), " ", (*kernel)[0]) << "\n";
  std::cout << torch::Reduction::Sum << "\n";

  // transfer-learning: TorchScript and raw images.
  torch::jit::script::Module net = torch::jit::load("resnet.pt");
  std::vector<torch::jit::IValue> input;
  unsigned char pixels[12] = {};
  input.push_back(torch::from_blob(pixels, {1, 2, 2, 3}, torch::kByte).to(torch::kF32));
  torch::Tensor out = net.forward(input).toTensor();
  torch::Tensor labels = torch::zeros({1}, torch::kUInt8).to(torch::kInt64);
  std::cout << out.size(0) << labels.numel() << "\n";

  torch::save(model, "model.pt");
  torch::load(model, "model.pt");
  return 0;
}
