# SEALINT_STATIC: a sealint binary that needs only the C library at run time (the wheel, `make
# wheel`). Debian's Clang CMake targets link every static Clang library against the shared libLLVM
# (LLVM_LINK_LLVM_DYLIB is ON in its build), so the archives are named here by path instead, with
# the LLVM components that llvm-config lists for them, in one group (Clang's libraries depend on
# each other in cycles). zlib and zstd come from their static archives (zlib1g-dev, libzstd-dev);
# LLVMSupport's Z3 solver and libxml2 are never reached from Clang's parser, and --as-needed keeps
# them off the binary's needed libraries. fmt and toml++ are used header-only.
set(SEALINT_STATIC_CLANG_LIBS
    clangTooling clangToolingCore clangToolingInclusions clangFormat clangRewrite
    clangFrontend clangDriver clangSerialization clangParse clangSema clangAnalysis
    clangAPINotes clangEdit clangASTMatchers clangAST clangSupport clangLex clangBasic)
# The components Clang's parser and driver use, with their dependencies, in link order.
set(SEALINT_STATIC_LLVM_COMPONENTS
    option frontendopenmp frontendhlsl frontendoffloading support core mc mcparser profiledata
    bitreader object targetparser windowsdriver binaryformat)
execute_process(
  COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-config --link-static --libs ${SEALINT_STATIC_LLVM_COMPONENTS}
  OUTPUT_VARIABLE SEALINT_STATIC_LLVM_FLAGS OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE SEALINT_STATIC_LLVM_RESULT)
if(NOT SEALINT_STATIC_LLVM_RESULT EQUAL 0)
  message(FATAL_ERROR "llvm-config --link-static --libs failed: is llvm-19-dev installed?")
endif()
separate_arguments(SEALINT_STATIC_LLVM_FLAGS UNIX_COMMAND "${SEALINT_STATIC_LLVM_FLAGS}")

set(SEALINT_STATIC_ARCHIVES)
foreach(name IN LISTS SEALINT_STATIC_CLANG_LIBS)
  list(APPEND SEALINT_STATIC_ARCHIVES ${LLVM_LIBRARY_DIR}/lib${name}.a)
endforeach()
foreach(flag IN LISTS SEALINT_STATIC_LLVM_FLAGS)
  string(REGEX REPLACE "^-l" "" name "${flag}")
  list(APPEND SEALINT_STATIC_ARCHIVES ${LLVM_LIBRARY_DIR}/lib${name}.a)
endforeach()
foreach(archive IN LISTS SEALINT_STATIC_ARCHIVES)
  if(NOT EXISTS ${archive})
    message(FATAL_ERROR "${archive} is missing: libclang-19-dev and llvm-19-dev hold the static "
                        "libraries")
  endif()
endforeach()
find_library(SEALINT_LIBZ_STATIC NAMES libz.a REQUIRED)
find_library(SEALINT_LIBZSTD_STATIC NAMES libzstd.a)
if(NOT SEALINT_LIBZSTD_STATIC)
  message(FATAL_ERROR "libzstd.a is missing: `make wheel` installs libzstd-dev")
endif()

target_link_libraries(sealint_clang INTERFACE
  "-Wl,--start-group" ${SEALINT_STATIC_ARCHIVES} "-Wl,--end-group"
  ${SEALINT_LIBZSTD_STATIC} ${SEALINT_LIBZ_STATIC} Threads::Threads rt dl m)

target_link_libraries(sealint_fmt INTERFACE fmt::fmt-header-only)
get_target_property(SEALINT_TOML_INCLUDES tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(sealint_toml SYSTEM INTERFACE ${SEALINT_TOML_INCLUDES})
target_compile_definitions(sealint_toml INTERFACE TOML_HEADER_ONLY=1)

# The C++ runtime in the binary too; libraries nothing calls are not recorded as needed.
add_link_options(-static-libstdc++ -static-libgcc -Wl,--as-needed)
