# A thin wrapper over what CI runs (.ci/run calls make test).
GO ?= go
N ?= 2000000
FUZZTIME ?= 30s

.PHONY: help test vet unit run bench diff fuzz corpus-lint golden

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

test: vet unit corpus-lint ## vet, every test (the differential ones need Node and ../shared), corpus lint

vet: ## go vet and gofmt
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

unit: ## go test ./...
	$(GO) test ./...

corpus-lint: ## check every corpus case and its known deviations, and that case files are canonical
	$(GO) run ./cmd/compacteval corpus lint
	$(GO) run ./cmd/compacteval corpus fmt -check

run: ## extract every bundled corpus case with every extractor and print the summary table
	$(GO) run ./cmd/compacteval corpus stats

bench: ## benchmarks of the port
	$(GO) test -run '^$$' -bench . -benchmem ./compact

diff: ## the differential test against the reference with N cases (make diff N=5000000)
	$(GO) test -count=1 -run 'Differential' ./compact -args -diff.n=$(N)

fuzz: ## every fuzz target in turn for FUZZTIME each, with what each found (scripts/fuzz-all.sh)
	FUZZTIME=$(FUZZTIME) GO=$(GO) sh scripts/fuzz-all.sh

golden: ## rewrite the corpus goldens (read the diff before committing)
	$(GO) test ./corpus -run Golden -update
