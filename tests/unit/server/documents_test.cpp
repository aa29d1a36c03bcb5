#include "analyzer/server/documents.h"

#include <gtest/gtest.h>

namespace sealint::server {
namespace {

TEST(DocumentsTest, ReadsAFileUriAsAPath) {
  EXPECT_EQ(file_uri_path("file:///home/me/my%20project/train.py"), "/home/me/my project/train.py");
  EXPECT_EQ(file_uri_path("file://localhost/x.py"), "/x.py");
  EXPECT_EQ(file_uri_path("file:///a/b%2"), "/a/b%2");
  EXPECT_EQ(file_uri_path("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(file_uri_path("file://server/share/x.py"), std::nullopt);
}

TEST(DocumentsTest, PicksTheLanguageByExtensionThenLanguageId) {
  EXPECT_EQ(document_language("/a/train.py", "plaintext"), DocumentLanguage::Python);
  EXPECT_EQ(document_language("/a/train.cu", "cuda-cpp"), DocumentLanguage::Cpp);
  EXPECT_EQ(document_language("/a/model.h", "cpp"), DocumentLanguage::None);
  EXPECT_EQ(document_language("/a/nb.ipynb", "python"), DocumentLanguage::None);
  EXPECT_EQ(document_language("/a/script", "python"), DocumentLanguage::Python);
  EXPECT_EQ(document_language("/a/script", "shellscript"), DocumentLanguage::None);
}

TEST(DocumentsTest, KeepsTheLatestTextOfOpenDocuments) {
  DocumentStore store;
  const Document& opened = store.open("file:///a/train.py", "python", 1, "x = 1\n");
  const auto first = opened.text;
  const Document* changed = store.change("file:///a/train.py", 2, "x = 2\n");
  ASSERT_NE(changed, nullptr);
  EXPECT_EQ(*changed->text, "x = 2\n");
  EXPECT_EQ(*first, "x = 1\n");  // an analysis holding the old text keeps it
  EXPECT_EQ(store.change("file:///a/other.py", 1, ""), nullptr);
  store.close("file:///a/train.py");
  EXPECT_EQ(store.find("file:///a/train.py"), nullptr);
}

TEST(DocumentsTest, NamesAnUnsavedBufferByItsLanguage) {
  DocumentStore store;
  const Document& document = store.open("untitled:Untitled-1", "python", 1, "");
  EXPECT_EQ(document.path, "Untitled-1.py");
  EXPECT_EQ(document.language, DocumentLanguage::Python);
}

}  // namespace
}  // namespace sealint::server
