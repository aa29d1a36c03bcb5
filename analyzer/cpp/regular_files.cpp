#include "analyzer/cpp/regular_files.h"

#include <system_error>

namespace sealint::cpp {

namespace {

bool readable_kind(const llvm::vfs::Status& status) {
  const auto type = status.getType();
  return type == llvm::sys::fs::file_type::regular_file ||
         type == llvm::sys::fs::file_type::directory_file;
}

// `status` and `openFileForRead` both follow symbolic links, so a link to a device is refused as
// the device is. Opening checks the opened file's own status too: the path may have been swapped
// for a FIFO between the two calls.
class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
 public:
  explicit RegularFilesOnly(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base)
      : ProxyFileSystem(std::move(base)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override {
    auto status = ProxyFileSystem::status(path);
    if (status && !readable_kind(*status))
      return std::make_error_code(std::errc::no_such_file_or_directory);
    return status;
  }

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    auto status = ProxyFileSystem::status(path);
    if (status && !readable_kind(*status))
      return std::make_error_code(std::errc::no_such_file_or_directory);
    auto file = ProxyFileSystem::openFileForRead(path);
    if (!file) return file;
    auto opened = (*file)->status();
    if (opened && opened->getType() != llvm::sys::fs::file_type::regular_file)
      return std::make_error_code(std::errc::no_such_file_or_directory);
    return file;
  }
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base) {
  return llvm::makeIntrusiveRefCnt<RegularFilesOnly>(std::move(base));
}

}  // namespace sealint::cpp
