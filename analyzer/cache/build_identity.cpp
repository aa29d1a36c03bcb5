#include "analyzer/cache/build_identity.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstring>

#include <fmt/format.h>

namespace sealint::cache {

namespace {

// The NT_GNU_BUILD_ID note among the main program's PT_NOTE segments (the first object
// dl_iterate_phdr reports is the executable).
int find_build_id(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* out = static_cast<std::string*>(data);
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + segment.p_vaddr);
    const unsigned char* end = at + segment.p_memsz;
    auto aligned = [](size_t n) { return (n + 3U) & ~size_t{3}; };
    while (static_cast<size_t>(end - at) >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) note{};
      std::memcpy(&note, at, sizeof note);
      const unsigned char* name = at + sizeof note;
      const unsigned char* desc = name + aligned(note.n_namesz);
      const unsigned char* next = desc + aligned(note.n_descsz);
      if (next > end || next < at) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        for (ElfW(Word) b = 0; b < note.n_descsz; ++b) *out += fmt::format("{:02x}", desc[b]);
        return 1;
      }
      at = next;
    }
  }
  return 1;  // only the executable is looked at
}

}  // namespace

std::string build_identity() {
  std::string id;
  dl_iterate_phdr(find_build_id, &id);
  if (!id.empty()) return "gnu:" + id;
  struct stat info {};
  if (::stat("/proc/self/exe", &info) != 0) return "unknown";
  return fmt::format("exe:{}:{}:{}.{}", info.st_size, info.st_ino, info.st_mtim.tv_sec,
                     info.st_mtim.tv_nsec);
}

}  // namespace sealint::cache
