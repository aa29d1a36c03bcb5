#include "analyzer/server/documents.h"

#include <filesystem>

#include "analyzer/cpp/frontend.h"
#include "analyzer/notebook/notebook.h"

namespace sealint::server {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_digit(text[i + 1]) >= 0 &&
        hex_digit(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// A name for a buffer that is no file (`untitled:Untitled-1`): its last segment, so that messages
// name it as the editor does.
std::string buffer_name(std::string_view uri) {
  const size_t colon = uri.find(':');
  std::string_view rest = colon == std::string_view::npos ? uri : uri.substr(colon + 1);
  if (const size_t slash = rest.rfind('/'); slash != std::string_view::npos)
    rest = rest.substr(slash + 1);
  return rest.empty() ? std::string("untitled") : percent_decoded(rest);
}

}  // namespace

std::optional<std::string> file_uri_path(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!uri.starts_with(kScheme)) return std::nullopt;
  std::string_view rest = uri.substr(kScheme.size());
  // `file://localhost/x` names the same file as `file:///x`; another host is not ours to read.
  if (rest.starts_with("localhost/")) rest.remove_prefix(9);
  if (!rest.starts_with('/')) return std::nullopt;
  // A query or fragment is no part of a path.
  rest = rest.substr(0, rest.find_first_of("?#"));
  return percent_decoded(rest);
}

DocumentLanguage document_language(std::string_view path, std::string_view language_id) {
  if (notebook::is_notebook_path(path)) return DocumentLanguage::None;
  if (cpp::is_cpp_source(path)) return DocumentLanguage::Cpp;
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".py" || extension == ".pyi") return DocumentLanguage::Python;
  if (!extension.empty()) return DocumentLanguage::None;  // a header, a TOML file
  if (language_id == "python") return DocumentLanguage::Python;
  return DocumentLanguage::None;
}

const Document& DocumentStore::open(const std::string& uri, const std::string& language_id,
                                    int64_t version, std::string text) {
  Document document;
  document.uri = uri;
  if (auto path = file_uri_path(uri)) {
    document.path = std::move(*path);
    document.language = document_language(document.path, language_id);
  } else {
    // An unsaved buffer: the analysis needs an extension to pick a frontend.
    document.path = buffer_name(uri);
    if (language_id == "python") document.path += ".py";
    if (language_id == "cpp") document.path += ".cpp";
    if (language_id == "cuda-cpp" || language_id == "cuda") document.path += ".cu";
    document.language = document_language(document.path, language_id);
  }
  document.version = version;
  document.text = std::make_shared<const std::string>(std::move(text));
  return documents_[uri] = std::move(document);
}

const Document* DocumentStore::change(const std::string& uri, int64_t version, std::string text) {
  const auto it = documents_.find(uri);
  if (it == documents_.end()) return nullptr;
  it->second.version = version;
  it->second.text = std::make_shared<const std::string>(std::move(text));
  return &it->second;
}

void DocumentStore::close(const std::string& uri) {
  documents_.erase(uri);
}

const Document* DocumentStore::find(const std::string& uri) const {
  const auto it = documents_.find(uri);
  return it == documents_.end() ? nullptr : &it->second;
}

std::vector<const Document*> DocumentStore::all() const {
  std::vector<const Document*> out;
  for (const auto& [uri, document] : documents_) out.push_back(&document);
  return out;
}

}  // namespace sealint::server
