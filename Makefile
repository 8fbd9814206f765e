# The two set-up commands (README.md): `make demo` and `make test`.
# Each installs what is missing (scripts/install-deps), builds what it needs, then runs:
# demo and serve install only the build tier (a compiler, CMake, Ninja, ccache and
# kgroupsd's libraries) and build only the program they run, in the install preset
# (build/install: Release, what `cmake --install` installs); build installs the same tier and
# builds the release preset (build/release: optimized with debug info, the benchmarks and
# bindings whose dependencies are found); test, check, bench and lint install the test tier
# too (docs/TESTING.md).
.PHONY: deps build-deps configure configure-install build demo test check serve bench lint clean

deps:
	@scripts/install-deps test

build-deps:
	@scripts/install-deps build

configure: build-deps
	@cmake --preset release >/dev/null

build: configure
	@cmake --build --preset release

configure-install: build-deps
	@cmake --preset install >/dev/null

demo: configure-install
	@cmake --build --preset install --target kgroups_cli
	@build/install/tools/cli/kgroups demo

test: deps
	@scripts/run-tests

# The inner loop: builds the dev preset and runs the C++ tests of what changed since main.
check: deps
	@scripts/check

serve: configure-install
	@cmake --build --preset install --target kgroupsd
	@build/install/tools/kgroupsd/kgroupsd --listen 127.0.0.1:9092 --http 127.0.0.1:8080

bench: deps
	@scripts/run-benchmarks

lint: deps
	@scripts/lint

clean:
	rm -rf build
