#include "analyzer/knowledge/data_loading.h"

#include <algorithm>
#include <array>

#include "analyzer/knowledge/name_set.h"
#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

namespace {

constexpr auto kMapDatasetBases =
    sorted_names("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset",
                 "torchvision.datasets.VisionDataset", "torchvision.datasets.vision.VisionDataset");
constexpr auto kDatasetWrappers = sorted_names("ConcatDataset", "Subset", "random_split");
constexpr auto kLengthKeepers =
    sorted_names("enumerate", "list", "reversed", "sorted", "tqdm.auto.tqdm", "tqdm.notebook.tqdm",
                 "tqdm.std.tqdm", "tqdm.tqdm", "tuple");

constexpr std::array<DataCallEntry, 53> kDataCalls = {{
    {"_pickle.load", DataCall::LoadsObjects},
    {"builtins.open", DataCall::OpensFile},
    {"bz2.open", DataCall::OpensFile},
    {"cPickle.load", DataCall::LoadsObjects},
    {"codecs.open", DataCall::OpensFile},
    {"collections.OrderedDict", DataCall::ToDict},
    {"copy.copy", DataCall::Copies},
    {"copy.deepcopy", DataCall::Copies},
    {"csv.DictReader", DataCall::Scans},
    {"csv.reader", DataCall::Scans},
    {"dict", DataCall::ToDict},
    {"dill.load", DataCall::LoadsObjects},
    {"enumerate", DataCall::Pairs},
    {"filter", DataCall::Passes},
    {"fnmatch.filter", DataCall::Lists},
    {"frozenset", DataCall::ToSet},
    {"glob.glob", DataCall::Lists},
    {"glob.iglob", DataCall::Scans},
    {"gzip.open", DataCall::OpensFile},
    {"h5py.File", DataCall::LoadsArray},
    {"io.open", DataCall::OpensFile},
    {"iter", DataCall::Passes},
    {"itertools.chain", DataCall::Passes},
    {"itertools.chain.from_iterable", DataCall::Passes},
    {"itertools.islice", DataCall::Passes},
    {"json.load", DataCall::LoadsObjects},
    {"json.loads", DataCall::LoadsObjects},
    {"list", DataCall::ToList},
    {"lzma.open", DataCall::OpensFile},
    {"map", DataCall::Maps},
    {"numpy.fromfile", DataCall::LoadsArray},
    {"numpy.genfromtxt", DataCall::LoadsArray},
    {"numpy.load", DataCall::LoadsArray},
    {"numpy.loadtxt", DataCall::LoadsArray},
    {"numpy.memmap", DataCall::LoadsArray},
    {"open", DataCall::OpensFile},
    {"orjson.loads", DataCall::LoadsObjects},
    {"os.listdir", DataCall::Lists},
    {"os.scandir", DataCall::Scans},
    {"os.walk", DataCall::Scans},
    {"pickle.load", DataCall::LoadsObjects},
    {"pickle.loads", DataCall::LoadsObjects},
    {"pycocotools.coco.COCO", DataCall::LoadsObjects},
    {"range", DataCall::Indices},
    {"reversed", DataCall::Passes},
    {"set", DataCall::ToSet},
    {"simplejson.load", DataCall::LoadsObjects},
    {"simplejson.loads", DataCall::LoadsObjects},
    {"sorted", DataCall::ToList},
    {"tuple", DataCall::ToTuple},
    {"ujson.load", DataCall::LoadsObjects},
    {"ujson.loads", DataCall::LoadsObjects},
    {"zip", DataCall::Pairs},
}};

constexpr std::array<DataMethodEntry, 42> kDataMethods = {{
    {"astype", DataMethod::Views},
    {"copy", DataMethod::Copies},
    {"decode", DataMethod::KeepsText},
    {"drop", DataMethod::Views},
    {"drop_duplicates", DataMethod::Views},
    {"dropna", DataMethod::Views},
    {"fillna", DataMethod::Views},
    {"get", DataMethod::Views},
    {"glob", DataMethod::Scans},
    {"groupby", DataMethod::Views},
    {"head", DataMethod::Views},
    {"items", DataMethod::Items},
    {"iterdir", DataMethod::Scans},
    {"iterrows", DataMethod::Scans},
    {"itertuples", DataMethod::Scans},
    {"keys", DataMethod::Views},
    {"lower", DataMethod::KeepsText},
    {"lstrip", DataMethod::KeepsText},
    {"merge", DataMethod::Views},
    {"query", DataMethod::Views},
    {"read", DataMethod::ReadsText},
    {"read_bytes", DataMethod::ReadsText},
    {"read_text", DataMethod::ReadsText},
    {"readlines", DataMethod::ReadsLines},
    {"reindex", DataMethod::Views},
    {"replace", DataMethod::KeepsText},
    {"reset_index", DataMethod::Views},
    {"rglob", DataMethod::Scans},
    {"rstrip", DataMethod::KeepsText},
    {"sample", DataMethod::Views},
    {"set_index", DataMethod::Views},
    {"sort_values", DataMethod::Views},
    {"split", DataMethod::SplitsText},
    {"splitlines", DataMethod::SplitsText},
    {"strip", DataMethod::KeepsText},
    {"tail", DataMethod::Views},
    {"to_dict", DataMethod::ToDict},
    {"to_list", DataMethod::ToList},
    {"to_numpy", DataMethod::Views},
    {"tolist", DataMethod::ToList},
    {"upper", DataMethod::KeepsText},
    {"values", DataMethod::Views},
}};

template <typename Entry>
constexpr bool sorted_and_unique(const Entry& table) {
  for (size_t i = 1; i < table.size(); ++i) {
    if (!(table[i - 1].name < table[i].name)) return false;
  }
  return true;
}
static_assert(sorted_and_unique(kDataCalls), "kDataCalls must be sorted by name and unique");
static_assert(sorted_and_unique(kDataMethods), "kDataMethods must be sorted by name and unique");

template <typename Table>
const auto* find_entry(const Table& table, std::string_view name) {
  const auto* it =
      std::lower_bound(table.begin(), table.end(), name,
                       [](const auto& entry, std::string_view key) { return entry.name < key; });
  return it != table.end() && it->name == name ? it : nullptr;
}

constexpr auto kSmallValueBuiltins =
    sorted_names("abs", "bool", "hash", "int", "len", "ord", "round");
constexpr auto kSmallValueMethods = sorted_names("count", "find", "index");

}  // namespace

bool is_map_dataset_base(std::string_view qualified) {
  return kMapDatasetBases.contains(qualified);
}

bool is_dataset_wrapper(std::string_view name) {
  return kDatasetWrappers.contains(name);
}

bool iterates_as_many_as_its_argument(std::string_view qualified) {
  return kLengthKeepers.contains(qualified);
}

DataCall data_call(std::string_view qualified) {
  if (const auto* entry = find_entry(kDataCalls, qualified)) return entry->call;
  // Every pandas reader (`read_csv`, `read_parquet`, `read_pickle`) makes a data frame.
  if (qualified.starts_with("pandas.read_")) return DataCall::LoadsArray;
  // `tqdm.tqdm`, `tqdm.auto.tqdm`, `from tqdm import tqdm`.
  if (last_component(qualified) == "tqdm") return DataCall::Passes;
  return DataCall::None;
}

DataMethod data_method(std::string_view method) {
  const auto* entry = find_entry(kDataMethods, method);
  return entry == nullptr ? DataMethod::None : entry->method;
}

bool returns_small_value(std::string_view builtin) {
  return kSmallValueBuiltins.contains(builtin);
}

bool method_returns_small_value(std::string_view method) {
  return kSmallValueMethods.contains(method);
}

std::span<const DataCallEntry> data_calls() {
  return kDataCalls;
}

std::span<const DataMethodEntry> data_methods() {
  return kDataMethods;
}

}  // namespace sealint::knowledge
