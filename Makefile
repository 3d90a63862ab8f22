# agentenkit — the whole test suite is `make test`; CI runs exactly that (.ci/run).
GO ?= go

.PHONY: test vet unit images python-image test-python-npm bench bench-peers fuzz install-test

test: vet unit

vet:
	$(GO) vet ./...

# -timeout 20m: runtime/lifecycle's TestTools runs the tools on every
# adapter, which passes 10 minutes on a loaded machine.
unit:
	$(GO) test -count=1 -timeout 20m ./...

# The CLI as a user gets it: the checkout served as a module version from a
# file GOPROXY, go install ...@version with a fresh HOME, GOPATH, GOCACHE and
# state folder, then agentenkit run from an empty folder (echo, python3).
# Build-tagged: make test does not run it (it compiles everything afresh).
install-test:
	$(GO) test -count=1 -timeout 45m -tags installtest -run '^TestInstall$$' -v ./cmd/agentenkit/

# WASI images for the wasm adapter: CPython fetched with npm and checked
# against its pinned sha512 (cached in images/cache or $$AGENTENKIT_IMAGES),
# and busybox.wasm built from ./images/busybox (GOOS=wasip1, incremental).
images:
	$(GO) run ./images/cmd/fetch

# The project's own python image, the wasm adapter's python wherever it is
# built: CPython 3.11.2 for WASI, -O2, built from Debian's source packages
# with Debian's clang 14, lld and wasi-libc by images/pybuild/build.sh,
# cached in the images folder under a key of the script's sha256 (about 2
# minutes of 2 idle cores, more with the toolchain to install; needs root
# for apt-get when the toolchain is missing). Without it the fetched
# CPython 3.12 (-O0) serves.
python-image:
	$(GO) run ./images/cmd/fetch -build-python

# The whole suite (make test) on the fetched python image, the fallback,
# where the built one would be the default (AGENTENKIT_PYTHON_IMAGE=npm).
# The wasm adapter's shell follows the image's CPython version (python3.12,
# pip's python3.12 user site).
test-python-npm:
	AGENTENKIT_PYTHON_IMAGE=npm $(MAKE) test

# Every adapter available here on the same workloads, in one run: the table
# of ratios goes to bench/out/results.md and their chart to
# bench/out/results.png (the README shows both).
# With the host's own bash and python3 as the native reference, and the
# peers when make bench-peers fetched them (node needed to run them).
bench:
	$(GO) run ./bench/cmd/report -o bench/out/results.md -png bench/out/results.png

# The peers make bench sets beside the adapters: just-bash (bash in
# TypeScript) and Pyodide (CPython on wasm), fetched with npm ci at the
# versions and integrity bench/peers/package-lock.json pins into the images
# folder's peers/ (or $$AGENTENKIT_PEERS). Optional: make test never needs them.
bench-peers:
	$(GO) run ./bench/cmd/peers

# Each fuzz target for a while; FUZZTIME=5m make fuzz for longer.
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./vfs/ -run '^$$' -fuzz FuzzPaths -fuzztime $(FUZZTIME)
	$(GO) test ./shell/ -run '^$$' -fuzz FuzzRun -fuzztime $(FUZZTIME)
	$(GO) test ./shell/posixfs/ -run '^$$' -fuzz FuzzSystemPaths -fuzztime $(FUZZTIME)
	$(GO) test ./providers/memory/ -run '^$$' -fuzz FuzzRunCommand -fuzztime $(FUZZTIME)
