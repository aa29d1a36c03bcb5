// Fixed: only plain numbers (and detached CPU copies) outlive each step, so its
// autograd graph is freed as soon as `loss` goes out of scope.
// Build (Debian libtorch-dev): clang++-19 -std=c++17 -I/usr/include/torch/csrc/api/include
//   fixed_train.cpp -o fixed_train -ltorch -ltorch_cpu -lc10
// Run:     ./fixed_train [steps]   (default 50)
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in_features, int64_t hidden, int64_t out_features)
      : fc1(register_module("fc1", torch::nn::Linear(in_features, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, out_features))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return fc2->forward(x);
  }

  torch::nn::Linear fc1{nullptr};
  torch::nn::Linear fc2{nullptr};
};
TORCH_MODULE(Net);

int main(int argc, char* argv[]) {
  const int64_t steps = argc > 1 ? std::atoll(argv[1]) : 50;
  const int64_t batch_size = 32;

  torch::manual_seed(0);
  Net model(16, 64, 1);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  torch::nn::MSELoss criterion;

  float total_loss = 0.0f;
  std::vector<torch::Tensor> losses;
  for (int64_t step = 0; step < steps; ++step) {
    torch::Tensor inputs = torch::randn({batch_size, 16});
    torch::Tensor targets = torch::randn({batch_size, 1});

    optimizer.zero_grad();
    torch::Tensor loss = criterion(model(inputs), targets);
    loss.backward();
    optimizer.step();

    total_loss += loss.item<float>();       // a float: no graph kept
    losses.push_back(loss.detach().cpu());  // detached copy: no graph kept
  }

  const float mean = total_loss / static_cast<float>(steps > 0 ? steps : 1);
  std::cout << "mean loss over " << steps << " steps: " << mean << " ("
            << losses.size() << " losses kept)" << std::endl;
  return 0;
}
