#include "analyzer/knowledge/exceptions.h"

#include <cctype>
#include <string>

#include "analyzer/knowledge/naming.h"

namespace sealint::knowledge {

MemoryCatch memory_catch(std::string_view class_name) {
  if (class_name == "OutOfMemoryError") return MemoryCatch::OutOfMemory;
  if (class_name == "RuntimeError") return MemoryCatch::Runtime;
  if (class_name == "Exception" || class_name == "BaseException") return MemoryCatch::Broad;
  return MemoryCatch::Other;
}

MemoryCatch cpp_memory_catch(std::string_view qualified) {
  if (qualified == "torch.OutOfMemoryError") return MemoryCatch::OutOfMemory;
  if (qualified == "torch.Error") return MemoryCatch::Runtime;
  if (qualified == "std.exception") return MemoryCatch::Broad;
  return MemoryCatch::Other;
}

bool empties_device_cache(std::string_view qualified) {
  return qualified.ends_with("cuda.empty_cache") ||
         qualified.ends_with("cuda.CUDACachingAllocator.emptyCache");
}

bool is_lookup_error(std::string_view class_name) {
  return class_name == "IndexError" || class_name == "KeyError" || class_name == "LookupError";
}

bool mentions_out_of_memory(std::string_view text) {
  const std::string lower = lowercase(text);
  if (lower.find("out of memory") != std::string::npos ||
      lower.find("outofmemory") != std::string::npos) {
    return true;
  }
  // The word "oom" on its own ("OOM, skipping"), not inside "room" or "zoom".
  for (size_t i = lower.find("oom"); i != std::string::npos; i = lower.find("oom", i + 1)) {
    const bool starts = i == 0 || std::isalpha(static_cast<unsigned char>(lower[i - 1])) == 0;
    const bool ends =
        i + 3 >= lower.size() || std::isalpha(static_cast<unsigned char>(lower[i + 3])) == 0;
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace sealint::knowledge
