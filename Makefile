# agentenkit — the whole test suite is `make test`; CI runs exactly that (.ci/run).
GO ?= go

.PHONY: test vet unit images bench fuzz

test: vet unit

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

# WASI images for the wasm adapter: CPython fetched with npm and checked
# against its pinned sha512 (cached in images/cache or $$AGENTENKIT_IMAGES).
images:
	$(GO) run ./images/cmd/fetch

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/...

# Each fuzz target for a while; FUZZTIME=5m make fuzz for longer.
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./vfs/ -run '^$$' -fuzz FuzzPaths -fuzztime $(FUZZTIME)
	$(GO) test ./shell/ -run '^$$' -fuzz FuzzRun -fuzztime $(FUZZTIME)
