# `make wheel` (preset `wheel`, SEALINT_STATIC): build/wheel/dist/sealint-<version>-py3-none-<platform>.whl
# with the statically linked binary, the confirm probe and Clang's builtin headers
# (scripts/build_wheel.py). The version is the project's, set once in CMakeLists.txt.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_custom_target(wheel
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/build_wheel.py
          --binary $<TARGET_FILE:sealint> --version ${PROJECT_VERSION} --source ${PROJECT_SOURCE_DIR}
          --clang-resource ${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}
          --out ${PROJECT_BINARY_DIR}/dist
          --extra-data ${SEALINT_MAN_PAGE}=share/man/man1/sealint.1
          --extra-data ${SEALINT_BASH_COMPLETION}=share/bash-completion/completions/sealint
  DEPENDS sealint sealint_docs ${PROJECT_SOURCE_DIR}/scripts/build_wheel.py
          ${PROJECT_SOURCE_DIR}/COPYRIGHT
  COMMENT "Packing the wheel"
  VERBATIM)
