#include "analyzer/driver/import_order.h"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

namespace sealint {
namespace {

namespace fs = std::filesystem;

// Each test gets a fresh folder under the system temp dir, removed afterwards.
class ImportOrderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "sealint-order-XXXXXX").string();
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << "mkdtemp failed for " << templ;
    root_ = fs::path(templ).lexically_normal();
  }

  void TearDown() override {
    std::error_code error;
    fs::remove_all(root_, error);
  }

  // Writes the file and names it as an input of the run.
  void input(const std::string& relative, const std::string& content) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
    inputs_.push_back({path.string(), std::nullopt, nullptr, nullptr});
  }

  // Where input `i` stands in the order.
  static size_t place(const ImportOrder& order, size_t i) {
    return static_cast<size_t>(std::find(order.order.begin(), order.order.end(), i) -
                               order.order.begin());
  }

  fs::path root_;
  std::vector<FileInput> inputs_;
};

TEST_F(ImportOrderTest, PutsAnImportedFileBeforeItsImporters) {
  input("a_train.py", "from models import Net\nimport helpers\n");
  input("helpers.py", "x = 1\n");
  input("models.py", "from helpers import step\n");
  input("unrelated.py", "import os\n");
  const ImportOrder order = import_order(inputs_);
  ASSERT_EQ(order.order.size(), inputs_.size());
  EXPECT_LT(place(order, 2), place(order, 0));  // models before a_train
  EXPECT_LT(place(order, 1), place(order, 2));  // helpers before models
  EXPECT_EQ(order.imported, (std::vector<bool>{false, true, true, false}));
}

TEST_F(ImportOrderTest, FollowsRelativeImportsOfAPackage) {
  input("pkg/__init__.py", "");
  input("pkg/run.py", "from . import meters\nfrom .data import load\n");
  input("pkg/meters.py", "");
  input("pkg/data.py", "");
  const ImportOrder order = import_order(inputs_);
  EXPECT_LT(place(order, 2), place(order, 1));
  EXPECT_LT(place(order, 3), place(order, 1));
  EXPECT_EQ(order.imported, (std::vector<bool>{false, false, true, true}));
}

TEST_F(ImportOrderTest, EndsOnAnImportCycleWithEveryFileOnce) {
  input("a.py", "import b\n");
  input("b.py", "import a\n");
  const ImportOrder order = import_order(inputs_);
  std::vector<size_t> sorted = order.order;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(order.imported, (std::vector<bool>{true, true}));
}

}  // namespace
}  // namespace sealint
