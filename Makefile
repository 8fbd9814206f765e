# The two set-up commands (README.md): `make demo` and `make test`.
# Both install what is missing (scripts/install-deps), build, then run.
.PHONY: deps build demo test serve bench clean

deps:
	@scripts/install-deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release

demo: build
	@build/release/tools/cli/kgroups demo

test: deps
	@scripts/run-tests

serve: build
	@build/release/tools/kgroupsd/kgroupsd --listen 127.0.0.1:9092

bench: build
	@scripts/run-benchmarks

clean:
	rm -rf build
