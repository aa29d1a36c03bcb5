#pragma once
// Writes a fixed file back as an editor would: the same file changes, whatever points at it.
#include <string>

#include "analyzer/core/result.h"

namespace sealint::cli {

// Replaces the content of `path` with `bytes`. The new content is written beside the file, synced
// and renamed over it, so that a reader or a crash never sees half a file, with the original's
// mode, owner, group and extended attributes (ACLs are one). Where the rename would lose
// something, the file is rewritten in place instead: a file with several hard links (the others
// would keep the old text), or an owner or attribute this process cannot give a new file. A
// symbolic link is followed and stays a link. A file that nobody may write (`chmod a-w`) is
// refused, even for root: its owner asked for it not to change.
[[nodiscard]] Result<bool> rewrite_file(const std::string& path, const std::string& bytes);

}  // namespace sealint::cli
