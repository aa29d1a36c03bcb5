#pragma once
// The documents the client has open, with the text of their latest version: the server analyses
// the buffer as the user sees it, not the file on disk. Owned and touched by the main thread
// only; an analysis gets its own shared copy of the text.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sealint::server {

enum class DocumentLanguage {
  Python,
  Cpp,
  None,  // not analysed: a header, a notebook, a TOML file, another language
};

struct Document {
  std::string uri;  // as the client wrote it, echoed back in every message about the document
  // Where the analysis says the file is (its configuration, its imports, compile_commands.json
  // are looked up from there).
  std::string path;
  DocumentLanguage language = DocumentLanguage::None;
  int64_t version = 0;
  std::shared_ptr<const std::string> text;
};

// The file system path of a `file:` URI (percent-decoded), or nullopt for another scheme.
[[nodiscard]] std::optional<std::string> file_uri_path(std::string_view uri);

// What the analysis reads a document as, from its path's extension, else the client's language
// id (an extensionless script, an unsaved buffer).
[[nodiscard]] DocumentLanguage document_language(std::string_view path,
                                                 std::string_view language_id);

class DocumentStore {
 public:
  const Document& open(const std::string& uri, const std::string& language_id, int64_t version,
                       std::string text);
  // nullptr when the document is not open.
  const Document* change(const std::string& uri, int64_t version, std::string text);
  void close(const std::string& uri);
  [[nodiscard]] const Document* find(const std::string& uri) const;
  [[nodiscard]] std::vector<const Document*> all() const;

 private:
  std::map<std::string, Document> documents_;
};

}  // namespace sealint::server
