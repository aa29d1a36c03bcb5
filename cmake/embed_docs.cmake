# Writes OUTPUT: a C++ source with each docs/rules/<ID>.md as a string, so that
# `sealint explain` and SARIF help print the one page that is also the docs.
# Usage: cmake -DOUTPUT=... -DDOCS_DIR=... -P embed_docs.cmake
file(GLOB pages "${DOCS_DIR}/SL*.md")
list(SORT pages)
set(body "")
foreach(page IN LISTS pages)
  get_filename_component(id "${page}" NAME_WE)
  file(READ "${page}" text)
  string(APPEND body "    {\"${id}\", R\"sealintdoc(${text})sealintdoc\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from docs/rules/*.md by cmake/embed_docs.cmake. Do not edit.
#include \"rules/rule_docs.h\"

#include <array>
#include <utility>

namespace sealint::rules {

namespace {
const std::pair<std::string_view, std::string_view> kDocs[] = {
${body}};
}  // namespace

std::string_view rule_doc(std::string_view id) {
  for (const auto& [doc_id, text] : kDocs) {
    if (doc_id == id) return text;
  }
  return {};
}

}  // namespace sealint::rules
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
