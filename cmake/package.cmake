# The Debian package (`make package`, `cpack --preset install`): what the install rules install,
# the binary in /usr/bin and the confirm probe in /usr/share/sealint/probe (where the binary looks
# for it, beside itself), nothing of the test tree. tests/package/package_test.sh checks it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sealint)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "finds GPU-memory leaks in deep-learning training code")
set(CPACK_PACKAGE_DESCRIPTION
    "sealint reads PyTorch training scripts (through tree-sitter) and LibTorch C++ (through Clang)
and reports the patterns that keep GPU memory alive across iterations: a loss summed with its
autograd graph, tensors kept in a list, evaluation without no_grad, and others. `sealint confirm`
runs a script for a few iterations under a Python probe and confirms each finding with
measurements (it needs python3 with torch).")
set(CPACK_PACKAGE_CONTACT "sealint maintainers <https://github.com/sealint/sealint/issues>")
set(CPACK_STRIP_FILES ON)
# The package lands in the build tree that made it (build/install for `make package`), whatever
# folder cpack runs in.
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR})
# No source package: `package_source` would pack the whole tree, node_modules and build included.
set(CPACK_SOURCE_GENERATOR "")

# sealint_<version>_<arch>.deb, Debian's own naming.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/sealint/sealint")
# The shared libraries the binary links (libclang-cpp19, libllvm19, libfmt9, libtomlplusplus3,
# libstdc++6, libc6, ...) come from dpkg-shlibdeps, with the versions Debian's symbols files give.
# The tree-sitter runtime and grammar are linked statically. Two packages are data, not libraries:
# Clang's builtin headers (stddef.h, ..., under /usr/lib/llvm-19/lib/clang/19, compiled in as the
# resource directory) and the C++ standard library headers that LibTorch code includes; without
# them Clang cannot parse a C++ file.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libclang-common-${LLVM_VERSION_MAJOR}-dev, libstdc++-12-dev | libstdc++-dev")
# `sealint confirm` runs the probe under the user's python3; it needs torch (Debian's python3-torch
# or the user's own); --torch-headers=system reads LibTorch's real headers (libtorch-dev).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch, libtorch-dev")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# cpack (and a build tree's own `install` and `package` targets) install what is built, without
# building `all` first through the `preinstall` target: `make install` and `make package` build
# just before, and the package test must pack the binary the rest of the suite tests, never
# rebuild the tree under the other tests.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

include(CPack)
