# Thin wrapper over CMake presets: every machine starts bare, so `demo` and `test`
# install what is missing first (`deps` is idempotent and quiet when all is there).
PRESET ?= release
BUILD_DIR := build/$(PRESET)
APT_PACKAGES := build-essential cmake pkg-config git clang-format time \
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev \
  libgtest-dev libgmock-dev python3 python3-torch python3-jsonschema libopenblas0-pthread hyperfine \
  pre-commit clang-19 libclang-rt-19-dev libclang-cpp19-dev llvm-19-dev libclang-19-dev libtorch-dev

.PHONY: deps build demo test sanitize fuzz bench format install clean
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
# How long `make fuzz` runs each fuzz target (ctest's smoke run is 30 s).
FUZZ_SECONDS ?= 600
.DEFAULT_GOAL := build

deps:
	@scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET) --parallel $(JOBS)

demo: build
	@scripts/demo.sh $(BUILD_DIR)/sealint

# The suite, then the same suite again under clang-19 with ASan and UBSan, with a smoke run of each
# fuzz target: a sanitizer report fails it.
test: build
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

install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

bench: build
	@bench/run.sh $(BUILD_DIR)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format-14 -i

clean:
	rm -rf build
