# Writes OUTPUT: a C++ source holding every file under MODEL_DIR as a string, served to Clang from
# memory by the C++ frontend. Usage: cmake -DOUTPUT=... -DMODEL_DIR=... -P embed_torch_model.cmake
file(GLOB_RECURSE files RELATIVE "${MODEL_DIR}" "${MODEL_DIR}/*.h")
list(SORT files)
set(body "")
foreach(relative IN LISTS files)
  file(READ "${MODEL_DIR}/${relative}" text)
  string(APPEND body "      {\"${relative}\", R\"sealintmodel(${text})sealintmodel\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp" "// Generated from analyzer/cpp/torch_model/ by cmake/embed_torch_model.cmake. Do not edit.
#include \"analyzer/cpp/torch_model.h\"

namespace sealint::cpp {

const std::vector<std::pair<std::string_view, std::string_view>>& torch_model_files() {
  static const std::vector<std::pair<std::string_view, std::string_view>> kFiles = {
${body}  };
  return kFiles;
}

}  // namespace sealint::cpp
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
