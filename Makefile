# Thin wrapper over CMake presets: every machine starts bare, so `demo` and `test`
# install what is missing first (`deps` is idempotent and quiet when all is there).
PRESET ?= release
BUILD_DIR := build/$(PRESET)
# What building sealint needs, and packaging it (dpkg-dev, from build-essential, has
# dpkg-shlibdeps; CPack's DEB generator wants `file`): `make install` and `make package` ask for
# these only. clang-19 holds ClangConfig.cmake; libclang-19-dev the static libraries that the
# Clang CMake targets check for; clang-19 also brings the builtin headers sealint reads at run time.
BUILD_APT_PACKAGES := build-essential cmake pkg-config file python3 \
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev \
  clang-19 libclang-cpp19-dev llvm-19-dev libclang-19-dev
# Everything for development and CI: the above, a compiler cache and LLD (a clean clone then
# mostly links, and fast), the test suite's tools and libraries, the sanitizer runtime, torch for
# confirm mode's tests, the benchmarks' tools, Neovim (its built-in LSP client drives `sealint
# server` in tests/editor/), and headless Chromium with Pillow (the confirm report's page is
# rendered and its screenshot read in tests/e2e/confirm_report_test.py).
APT_PACKAGES := $(BUILD_APT_PACKAGES) ccache lld git clang-format time \
  libgtest-dev libgmock-dev python3 python3-torch python3-jsonschema libopenblas0-pthread hyperfine \
  pre-commit libclang-rt-19-dev libtorch-dev neovim chromium python3-pil

.PHONY: deps deps-build build demo check test sanitize fuzz bench format install package wheel clean
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
# How long `make fuzz` runs each fuzz target (ctest's smoke run is 10 s after the seeds).
FUZZ_SECONDS ?= 600
.DEFAULT_GOAL := build

deps:
	@scripts/install-deps.sh $(APT_PACKAGES)

# Only what building and running sealint needs: no test libraries, no SARIF validator.
deps-build:
	@scripts/install-deps.sh --build-only $(BUILD_APT_PACKAGES)

build: deps
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET) --parallel $(JOBS)

# The first thing a new user runs: only what building sealint needs (no test tool-chain), only the
# `sealint` target (the `install` preset, without the test tree), its findings on examples/, then
# Debian's torch for confirm mode's part of the demo.
DEMO_CONFIRM_APT_PACKAGES := python3-torch libopenblas0-pthread
demo:
	@scripts/install-deps.sh --build-only $(BUILD_APT_PACKAGES)
	@cmake --preset install >/dev/null
	@cmake --build --preset install --parallel $(JOBS)
	@scripts/demo.sh build/install/sealint lint
	@scripts/install-deps.sh --build-only $(DEMO_CONFIRM_APT_PACKAGES)
	@scripts/demo.sh build/install/sealint confirm

# The inner loop: build, then the unit tests, the Python fixtures, the metamorphic suite and the
# rule-file lint (no C++ fixture, end-to-end, server or sanitizer run); `make test` is what CI runs.
CHECK_LABELS := unit|fixture|metamorphic|lint
# The C++ fixtures (`Fixtures/FixtureTest.Run/cpp_SL001`, `CppFixtures/RealHeadersTest.Run/cpp_SL001`)
# take 3–18 s each even with the model of LibTorch: about two minutes together.
CHECK_EXCLUDE := /cpp_
check: build
	@ctest --preset $(PRESET) -L '$(CHECK_LABELS)' -E '$(CHECK_EXCLUDE)'


# The suite, then the same suite again under clang-19 with ASan and UBSan, with a smoke run of each
# fuzz target: a sanitizer report fails it.
test: build wheel
	@ctest --preset $(PRESET)
	@$(MAKE) --no-print-directory sanitize

sanitize: deps
	@cmake --preset sanitize >/dev/null
	@cmake --build --preset sanitize --parallel $(JOBS)
	@ctest --preset sanitize

# Each libFuzzer target for FUZZ_SECONDS from its seeds (tests/fuzz/); a finding is kept under
# build/sanitize/tests/fuzz/fuzz-work/ and fails the run.
fuzz: deps
	@cmake --preset sanitize >/dev/null
	@cmake --build --preset sanitize --parallel $(JOBS)
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/python_fuzzer $(FUZZ_SECONDS) fixtures/python
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/confirm_result_fuzzer $(FUZZ_SECONDS) tests/fuzz/corpus/confirm
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/config_fuzzer $(FUZZ_SECONDS) tests/fuzz/corpus/config
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/notebook_fuzzer $(FUZZ_SECONDS) tests/fuzz/corpus/notebook
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/cache_entry_fuzzer $(FUZZ_SECONDS) tests/fuzz/corpus/cache_entry
	@tests/fuzz/run.sh build/sanitize/tests/fuzz/server_fuzzer $(FUZZ_SECONDS) tests/fuzz/corpus/server

# The `install` preset (build/install): release, without the test tree; builds the sealint target
# only, then installs bin/sealint and share/sealint/probe under PREFIX.
install: deps-build
	@cmake --preset install >/dev/null
	@cmake --build --preset install --parallel $(JOBS)
	@cmake --build build/install --target sealint_docs
	@cmake --install build/install --prefix $(PREFIX)

# build/install/sealint_<version>_<arch>.deb (cmake/package.cmake); `apt install ./build/install/sealint_*.deb`.
package: deps-build
	@cmake --preset install >/dev/null
	@cmake --build --preset install --parallel $(JOBS)
	@cmake --build build/install --target sealint_docs
	@cpack --preset install

# dist/sealint-<version>-py3-none-<platform>.whl: the binary with LLVM, Clang, fmt, toml++ and
# libstdc++ linked in (preset `wheel`, build/wheel; libzstd-dev has the static zstd LLVM wants),
# Clang's builtin headers and the confirm probe (cmake/wheel.cmake). About as long as `make
# install`'s build plus a minute of linking; `make test` builds it for the wheel's test.
WHEEL_APT_PACKAGES := libzstd-dev zlib1g-dev python3
wheel:
	@scripts/install-deps.sh --build-only $(BUILD_APT_PACKAGES) $(WHEEL_APT_PACKAGES)
	@cmake --preset wheel >/dev/null
	@cmake --build --preset wheel --parallel $(JOBS)
	@mkdir -p dist && rm -f dist/sealint-*.whl && cp build/wheel/dist/sealint-*.whl dist/

bench: build
	@bench/run.sh $(BUILD_DIR)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format-14 -i

clean:
	rm -rf build
