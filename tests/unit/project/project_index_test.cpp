#include "analyzer/project/project_index.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "analyzer/core/source_file.h"
#include "analyzer/project/module_locator.h"
#include "analyzer/python/frontend.h"

namespace sealint::project {
namespace {

namespace fs = std::filesystem;

// A scratch project tree, removed at the end of the test.
class ProjectTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("sealint-project-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path write(const std::string& relative, const std::string& text) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  fs::path root_;
};

TEST_F(ProjectTree, LocatesFromTheScriptsFolderThePackageRootAndSrc) {
  const fs::path script = write("train.py", "");
  write("utils/meters.py", "");
  write("pyproject.toml", "");
  write("src/lib/steps.py", "");
  const fs::path inner = write("pkg/sub/mod.py", "");
  write("pkg/__init__.py", "");
  write("pkg/sub/__init__.py", "");
  write("pkg/sub/sibling.py", "");

  auto found = locate_module(script, import_roots(script), "utils.meters.AverageMeter");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "utils/meters.py");
  EXPECT_EQ(found->member, "AverageMeter");

  found = locate_module(script, import_roots(script), "lib.steps.train_step");
  ASSERT_TRUE(found.has_value());  // through the project root's src/
  EXPECT_EQ(found->file, root_ / "src/lib/steps.py");

  // Inside a package, absolute imports start above the outermost package.
  found = locate_module(inner, import_roots(inner), "pkg.sub.sibling.f");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "pkg/sub/sibling.py");

  found = locate_module(script, import_roots(script), "utils.meters");
  ASSERT_TRUE(found.has_value());  // the module itself: no member
  EXPECT_TRUE(found->member.empty());

  EXPECT_FALSE(locate_module(script, import_roots(script), "torch.nn.Linear").has_value());
  EXPECT_FALSE(locate_module(script, import_roots(script), "utils.meters.A.b").has_value());
  EXPECT_FALSE(locate_module(script, import_roots(script), "utils/../x.y").has_value());
}

TEST_F(ProjectTree, LocatesRelativeImportsFromTheImportersPackage) {
  const fs::path inner = write("pkg/sub/mod.py", "");
  write("pkg/__init__.py", "");
  write("pkg/sub/__init__.py", "from .mod import f\n");
  write("pkg/sub/sibling.py", "");
  write("pkg/top.py", "");

  auto found = locate_module(inner, import_roots(inner), ".sibling.f");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "pkg/sub/sibling.py");
  found = locate_module(inner, import_roots(inner), "..top.g");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "pkg/top.py");
  found = locate_module(inner, import_roots(inner), ".f");  // the package's __init__.py
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "pkg/sub/__init__.py");
  EXPECT_EQ(found->member, "f");
  // More dots than folders above: nothing, not a crash.
  EXPECT_FALSE(
      locate_module(inner, import_roots(inner), std::string(200, '.') + "x.y").has_value());
}

TEST_F(ProjectTree, LocatesANamespacePackageTheImporterSitsIn) {
  // runners/ has no __init__.py; the project runs its scripts from the folder above it.
  const fs::path runner = write("runners/gan_runner.py", "");
  write("runners/misc.py", "");
  write("other/misc.py", "");

  auto found = locate_module(runner, import_roots(runner), "runners.misc.AverageMeter");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->file, root_ / "runners/misc.py");
  EXPECT_EQ(found->member, "AverageMeter");
  // Only a folder that holds the importer: `other` is no namespace package of this file.
  EXPECT_FALSE(locate_module(runner, import_roots(runner), "other.misc.X").has_value());
  EXPECT_FALSE(locate_module(runner, import_roots(runner), "runners.absent.X").has_value());
}

class IndexTest : public ProjectTree {
 protected:
  void SetUp() override {
    ProjectTree::SetUp();
    auto grammar = python::PythonGrammar::load();
    ASSERT_TRUE(grammar.has_value());
    grammar_.emplace(std::move(*grammar));
  }
  std::optional<python::PythonGrammar> grammar_;
};

TEST_F(IndexTest, SummarisesFunctionsClassesAndFollowsReexportsAndImportedBases) {
  const fs::path script = write("train.py", "");
  write("utils/__init__.py", "from .steps import compute_loss\n");
  write("utils/steps.py",
        "import torch\n"
        "def compute_loss(model, criterion, batch):\n"
        "    x, y = batch\n"
        "    return criterion(model(x), y)\n");
  write("meters.py",
        "class Base:\n"
        "    def reset(self):\n        self.sum = 0\n"
        "class AverageMeter(Base):\n"
        "    def update(self, val):\n        self.sum += val\n");
  write("models/__init__.py", "");
  write("models/base.py", "import torch.nn as nn\nclass BaseNet(nn.Module):\n    pass\n");
  write("models/head.py", "from .base import BaseNet\nclass Head(BaseNet):\n    pass\n");
  const ProjectIndex index(*grammar_);

  const ir::ForeignFunction* loss = index.function(script, "utils.compute_loss");
  ASSERT_NE(loss, nullptr);  // through utils/__init__.py's re-export
  EXPECT_EQ(loss->name, "compute_loss");
  EXPECT_EQ(loss->params.size(), 3U);
  EXPECT_EQ(loss->summary.returns.grad, ir::Grad::Yes);
  EXPECT_EQ(loss->summary.returns.kind, ir::ValueKind::Tensor);

  const ir::ForeignClass* meter = index.class_named(script, "meters.AverageMeter");
  ASSERT_NE(meter, nullptr);
  const ir::ForeignFunction* update = index.method(*meter, "update");
  ASSERT_NE(update, nullptr);
  ASSERT_EQ(update->summary.self_effects.size(), 1U);
  EXPECT_EQ(update->summary.self_effects[0].attr, "sum");
  EXPECT_EQ(update->summary.self_effects[0].stmt, nullptr);          // no pointer into freed IR
  const ir::ForeignFunction* reset = index.method(*meter, "reset");  // a same-file base's
  ASSERT_NE(reset, nullptr);
  EXPECT_EQ(reset->summary.resets, std::vector<std::string>{"sum"});
  EXPECT_FALSE(index.is_module(*meter));

  const ir::ForeignClass* head = index.class_named(script, "models.head.Head");
  ASSERT_NE(head, nullptr);
  EXPECT_FALSE(head->is_module);        // its own file cannot tell
  EXPECT_TRUE(index.is_module(*head));  // its imported base can

  EXPECT_EQ(index.function(script, "meters.missing"), nullptr);
  EXPECT_EQ(index.class_named(script, "utils.compute_loss"), nullptr);
}

TEST_F(IndexTest, SaysWhichBaseMethodCallsAMethodInItsLoop) {
  const fs::path script = write("runner.py", "");
  write("base.py",
        "import torch\n"
        "class Root:\n"
        "    def train(self):\n"
        "        for batch in self.loader:\n"
        "            self.train_step(batch)\n"
        "    def evaluate(self):\n"
        "        with torch.no_grad():\n"
        "            for batch in self.loader:\n"
        "                self.eval_step(batch)\n"
        "    def sweep(self):\n"
        "        for lr in [0.1, 0.01]:\n"
        "            self.try_lr(lr)\n"
        "    def once(self):\n"
        "        self.setup()\n");
  write("middle.py", "from base import Root\nclass Middle(Root):\n    pass\n");
  const ProjectIndex index(*grammar_);

  const ir::ForeignClass* middle = index.class_named(script, "middle.Middle");
  ASSERT_NE(middle, nullptr);
  const ir::ForeignMethod caller = index.loop_caller(*middle, "train_step");  // up the bases
  ASSERT_TRUE(caller);
  EXPECT_EQ(caller.cls->name, "Root");
  EXPECT_EQ(caller.function->name, "train");
  EXPECT_FALSE(index.loop_caller(*middle, "eval_step"));  // its loop runs under no_grad
  EXPECT_FALSE(index.loop_caller(*middle, "try_lr"));     // a written-out handful
  EXPECT_FALSE(index.loop_caller(*middle, "setup"));      // no loop
}

TEST_F(IndexTest, CyclesOfReexportsAndBasesEnd) {
  const fs::path script = write("train.py", "");
  write("a.py", "from b import Thing\nfrom b import Other\nclass Loop(Other):\n    pass\n");
  write("b.py", "from a import Thing\nfrom a import Loop as Other\n");
  const ProjectIndex index(*grammar_);
  EXPECT_EQ(index.class_named(script, "a.Thing"), nullptr);
  const ir::ForeignClass* loop = index.class_named(script, "a.Loop");
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(index.method(*loop, "missing"), nullptr);
  EXPECT_FALSE(index.is_module(*loop));
}

TEST_F(IndexTest, AnUnreadableOrBrokenFileGivesNothingAndNoError) {
  const fs::path script = write("train.py", "");
  write("broken.py", std::string("def f(:\n") + std::string(3, '\0') + "\x80\xff");
  fs::create_directories(root_ / "folder.py");  // a folder named like a module
  const ProjectIndex index(*grammar_);
  EXPECT_EQ(index.function(script, "broken.f"), nullptr);
  EXPECT_EQ(index.function(script, "folder.f"), nullptr);
}

TEST_F(IndexTest, ManyWorkersShareOneSummaryPerFile) {
  const fs::path script = write("train.py", "");
  write("meters.py", "class Meter:\n    def update(self, v):\n        self.total += v\n");
  const ProjectIndex index(*grammar_);
  std::vector<const ir::ForeignClass*> seen(8, nullptr);
  {
    std::vector<std::jthread> workers;
    for (size_t i = 0; i < seen.size(); ++i)
      workers.emplace_back([&, i] { seen[i] = index.class_named(script, "meters.Meter"); });
  }
  ASSERT_NE(seen[0], nullptr);
  for (const ir::ForeignClass* cls : seen) EXPECT_EQ(cls, seen[0]);
  EXPECT_EQ(index.files_indexed(), 1U);
}

// What an answer came from (dependencies.h): the result cache replays it on a later run.
TEST_F(IndexTest, RecordsTheLookupsAndFilesEachAnswerCameFrom) {
  const fs::path script = write("train.py", "");
  const fs::path init = write("utils/__init__.py", "from .steps import compute_loss\n");
  const fs::path steps = write("utils/steps.py", "def compute_loss(m, x):\n    return m(x)\n");
  const fs::path base =
      write("base.py", "import torch.nn as nn\nclass Net(nn.Module):\n    pass\n");
  write("head.py", "from base import Net\nclass Head(Net):\n    pass\n");
  const ProjectIndex index(*grammar_);

  ProjectDependencies recorded;
  ASSERT_NE(index.function(script, "utils.compute_loss", &recorded), nullptr);
  const std::set<ImportLookup> lookups = {
      {script.string(), "utils.compute_loss", init.string(), "compute_loss"},
      {init.string(), ".steps.compute_loss", steps.string(), "compute_loss"}};
  EXPECT_EQ(recorded.lookups, lookups);
  const std::map<std::string, IndexedDigest> files = {{init.string(), indexed_digest(init)},
                                                      {steps.string(), indexed_digest(steps)}};
  EXPECT_EQ(recorded.files, files);

  // A second asker gets the answer from the index's memory, and the same record.
  ProjectDependencies again;
  ASSERT_NE(index.function(write("other.py", ""), "utils.compute_loss", &again), nullptr);
  EXPECT_EQ(again.files, files);

  // Through an imported base, and a name no project file defines.
  ProjectDependencies through_bases;
  const ir::ForeignClass* head = index.class_named(script, "head.Head", &through_bases);
  ASSERT_NE(head, nullptr);
  EXPECT_TRUE(index.is_module(*head, &through_bases));
  EXPECT_TRUE(through_bases.files.contains(base.string()));
  EXPECT_EQ(index.function(script, "helpers.f", &through_bases), nullptr);
  EXPECT_TRUE(through_bases.lookups.contains({script.string(), "helpers.f", "", ""}));
  EXPECT_TRUE(DependencyCheck().holds(through_bases));
}

TEST_F(IndexTest, RecordedDependenciesFailWhenTheProjectChanges) {
  const fs::path script = write("train.py", "");
  const fs::path meters = write("meters.py", "class Meter:\n    pass\n");
  const ProjectIndex index(*grammar_);
  ProjectDependencies recorded;
  ASSERT_NE(index.class_named(script, "meters.Meter", &recorded), nullptr);
  EXPECT_EQ(index.function(script, "helpers.f", &recorded), nullptr);
  EXPECT_TRUE(DependencyCheck().holds(recorded));

  write("meters.py", "class Meter:\n    def update(self, v):\n        self.sum += v\n");
  EXPECT_FALSE(DependencyCheck().holds(recorded));  // an imported file's content
  write("meters.py", "class Meter:\n    pass\n");
  EXPECT_TRUE(DependencyCheck().holds(recorded));
  write("helpers.py", "def f(x):\n    return x\n");
  EXPECT_FALSE(DependencyCheck().holds(recorded));  // a name that now resolves
  fs::remove(root_ / "helpers.py");
  write("meters/__init__.py", "");  // a package now shadows nothing, but the import roots...
  EXPECT_TRUE(DependencyCheck().holds(recorded));
  fs::remove(meters);
  EXPECT_FALSE(DependencyCheck().holds(recorded));  // now the package's __init__.py
}

TEST_F(IndexTest, AnOfferedFileRecordsTheDigestOfItsBytes) {
  const fs::path script = write("train.py", "");
  const fs::path meters = write("meters.py", "class Meter:\n    pass\n");
  const ProjectIndex index(*grammar_);
  auto source = SourceFile::from_bytes(meters.string(), "class Meter:\n    pass\n");
  ASSERT_TRUE(source.has_value());
  auto frontend = python::PythonFrontend::create(*grammar_);
  ASSERT_TRUE(frontend.has_value());
  auto lowered = frontend->lower(std::make_shared<const SourceFile>(std::move(*source)));
  ASSERT_TRUE(lowered.has_value());
  const ir::FileAnalysis analysis(*lowered->module);
  index.offer(meters, analysis, 1234);
  ProjectDependencies recorded;
  ASSERT_NE(index.class_named(script, "meters.Meter", &recorded), nullptr);
  EXPECT_EQ(recorded.files.at(meters.string()), IndexedDigest(1234));
  EXPECT_EQ(index.files_indexed(), 1U);  // not loaded again
}

}  // namespace
}  // namespace sealint::project
