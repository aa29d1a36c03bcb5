#pragma once
// The file system Clang reads the user's includes through: the real one, where only regular
// files (and folders) exist. `#include "/dev/stdin"` would otherwise block the run on a read
// that never ends, and `/dev/zero` or a FIFO would be read without bound; such an include is
// "not found" instead, as any missing header (include_recovery.h).
#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace sealint::cpp {

[[nodiscard]] llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base);

}  // namespace sealint::cpp
