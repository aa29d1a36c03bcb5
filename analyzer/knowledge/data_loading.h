#pragma once
// torch.utils.data and the calls a Dataset reads its data with: which classes are map-style
// datasets and DataLoaders, and what each file, listing, parser and conversion returns as far as
// copy-on-read is concerned (a Python container of objects that every DataLoader worker process
// ends up copying, or bulk data that is not one).
#include <cstdint>
#include <span>
#include <string_view>

namespace sealint::knowledge {

// A base that makes a class a map-style dataset (`torch.utils.data.Dataset`, torchvision's
// `VisionDataset`); qualified through the file's imports.
[[nodiscard]] bool is_map_dataset_base(std::string_view qualified);

// `Subset(ds, idx)`, `random_split(ds, ...)`, `ConcatDataset([...])`: a dataset made of the
// datasets it is given (the last component of the callee's name).
[[nodiscard]] bool is_dataset_wrapper(std::string_view name);

// DataLoader's positional parameters: `DataLoader(dataset, batch_size, shuffle, sampler,
// batch_sampler, num_workers, ...)`.
inline constexpr size_t kDataLoaderWorkersArg = 5;

// What a function call makes of the data, by the callee's qualified name.
enum class DataCall : uint8_t {
  None,
  ToList,        // `list(xs)`, `sorted(xs)`: a list of the argument's items
  ToTuple,       // `tuple(xs)`
  ToSet,         // `set(xs)`, `frozenset(xs)`
  ToDict,        // `dict(xs)`, `OrderedDict(xs)`
  Pairs,         // `enumerate(xs)`, `zip(xs, ys)`: iterates new tuples
  Passes,        // `reversed(xs)`, `filter(f, xs)`, `tqdm(xs)`: iterates the argument's items
  Maps,          // `map(f, xs)`: iterates what `f` makes of them
  Indices,       // `range(len(xs))`: one int per item
  Copies,        // `copy.deepcopy(xs)`: the argument
  OpensFile,     // `open(path)`: iterates the file's lines
  Lists,         // `glob.glob(pattern)`, `os.listdir(root)`: a list of path strings
  Scans,         // `os.walk(root)`, `csv.reader(f)`: iterates new objects
  LoadsArray,    // `numpy.load(path)`, `pandas.read_csv(path)`: bulk data, not Python objects
  LoadsObjects,  // `json.load(f)`, `pickle.load(f)`: Python objects
};
[[nodiscard]] DataCall data_call(std::string_view qualified);

// What a method call makes of its receiver (or, for the first three, of whatever it is called
// on: a file or a path).
enum class DataMethod : uint8_t {
  None,
  ReadsLines,  // `f.readlines()`: a list of strings
  ReadsText,   // `f.read()`, `path.read_text()`: one string
  Scans,       // `path.glob("*.png")`, `df.iterrows()`: iterates new objects
  SplitsText,  // `text.split()`, `text.splitlines()`: a list of strings (on a string)
  KeepsText,   // `text.strip()`, `data.decode()`: a string (on a string)
  ToList,      // `arr.tolist()`, `series.to_list()`: a list (on data)
  ToDict,      // `df.to_dict()`: a dict (on data)
  Copies,      // `xs.copy()`: the same (on data)
  Items,       // `d.items()`: iterates new tuples (on data)
  Views,       // `d.keys()`, `df.sort_values(...)`: a view of the data, not a new container
};
[[nodiscard]] DataMethod data_method(std::string_view method);

// Calls that iterate exactly as many items as their first argument has (`enumerate(loader)`,
// `tqdm(loader)`, `sorted(xs)`), by the callee's qualified name: a loop over one runs once per
// item of the argument.
[[nodiscard]] bool iterates_as_many_as_its_argument(std::string_view qualified);

// Builtins (`len`, `int`, `ord`) and methods (`xs.index(x)`) whose result is a small int or a
// bool: an object the interpreter shares, that no worker copies.
[[nodiscard]] bool returns_small_value(std::string_view builtin);
[[nodiscard]] bool method_returns_small_value(std::string_view method);

// The tables, sorted by name (for tests and docs). `pandas.read_*` is a prefix the lookup
// matches besides.
struct DataCallEntry {
  std::string_view name;
  DataCall call;
};
struct DataMethodEntry {
  std::string_view name;
  DataMethod method;
};
[[nodiscard]] std::span<const DataCallEntry> data_calls();
[[nodiscard]] std::span<const DataMethodEntry> data_methods();

}  // namespace sealint::knowledge
