# The two set-up commands (README.md): `make demo` and `make test`.
# Each installs what is missing (scripts/install-deps), builds what it needs
# (release preset, build/release), then runs.
.PHONY: deps configure build demo test serve bench lint clean

deps:
	@scripts/install-deps

configure: deps
	@cmake --preset release >/dev/null

build: configure
	@cmake --build --preset release

demo: configure
	@cmake --build --preset release --target kgroups_cli
	@build/release/tools/cli/kgroups demo

test: deps
	@scripts/run-tests

serve: configure
	@cmake --build --preset release --target kgroupsd
	@build/release/tools/kgroupsd/kgroupsd --listen 127.0.0.1:9092 --http 127.0.0.1:8080

bench: deps
	@scripts/run-benchmarks

lint: deps
	@scripts/lint

clean:
	rm -rf build
