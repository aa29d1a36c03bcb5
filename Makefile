# Thin wrapper over CMake presets: every machine starts bare, so `demo` and `test`
# install what is missing first (`deps` is idempotent and quiet when all is there).
PRESET ?= release
BUILD_DIR := build/$(PRESET)
APT_PACKAGES := build-essential cmake pkg-config git clang-format time \
  libcli11-dev nlohmann-json3-dev libfmt-dev libtomlplusplus-dev \
  libgtest-dev libgmock-dev python3 python3-torch python3-jsonschema libopenblas0-pthread hyperfine \
  pre-commit clang-19 libclang-cpp19-dev llvm-19-dev libclang-19-dev libtorch-dev

.PHONY: deps build demo test bench format install clean
PREFIX ?= /usr/local
.DEFAULT_GOAL := build

deps:
	@scripts/install-deps.sh $(APT_PACKAGES)

build: deps
	@cmake --preset $(PRESET) >/dev/null
	@cmake --build --preset $(PRESET)

demo: build
	@scripts/demo.sh $(BUILD_DIR)/sealint

test: build
	@ctest --preset $(PRESET)

install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

bench: build
	@bench/run.sh $(BUILD_DIR)

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format-14 -i

clean:
	rm -rf build
