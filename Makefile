# agentenkit — the whole test suite is `make test`; CI runs exactly that (.ci/run).
GO ?= go

.PHONY: test vet unit images bench fuzz

test: vet unit

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

# WASI images for the wasm adapter (busybox from ./shell, python from npm).
# They land with the wasm adapter; until then there is nothing to build.
images:
	@echo "images: nothing to build yet (the wasm adapter adds busybox.wasm and python.wasm)"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./bench/...

# Each fuzz target for a while; FUZZTIME=5m make fuzz for longer.
FUZZTIME ?= 30s
fuzz:
	$(GO) test ./vfs/ -run '^$$' -fuzz FuzzPaths -fuzztime $(FUZZTIME)
	$(GO) test ./shell/ -run '^$$' -fuzz FuzzRun -fuzztime $(FUZZTIME)
