# A thin wrapper over what CI runs (.ci/run calls make test).
GO ?= go
N ?= 2000000
FUZZTIME ?= 30s
OUT ?= reports/latest
# Every go command here builds as make dist does (go build -trimpath, CGO_ENABLED=0), so
# that the release build some tests make (scripts/dist, docs, scripts/npm) and review's build
# of a worktree reuse what vet and the tests compiled: on an empty Go cache each package
# compiles once, not once per set of flags (docs/testing.md, "An empty Go cache").
export CGO_ENABLED := 0
export GOFLAGS := $(strip $(shell $(GO) env GOFLAGS) -trimpath)
# The release's version: the tag at HEAD (make dist VERSION=v0.3.0 to name another); with
# none, scripts/dist builds a snapshot, v0.0.0-<commit> (docs/releasing.md).
VERSION ?= $(shell git describe --tags --exact-match 2>/dev/null)

.PHONY: help test vet unit corpus-lint gate run bless bench diff fuzz golden drift peers dist npm npm-robust sdk-parity

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

test: vet unit corpus-lint gate ## vet, every test (the differential ones need Node and ../shared), corpus lint, the gate

vet: ## go vet and gofmt
	$(GO) vet ./...
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change: $$out"; exit 1; fi

# -vet=off: the vet step before has run every analyzer go test would (and more) on the same
# packages and their tests; go test's own vet would type-check the ~480 dependencies again.
# The tests that run a release archive (docs, scripts/dist, scripts/npm) share one, built
# here with make dist's program for this platform (internal/testhelp/testdist); outside a
# git checkout, where scripts/dist cannot name a commit, each test builds its own or skips.
TEST_DIST_VERSION := v0.0.0-maketest
unit: vet ## go test ./... after vet (no 10-minute alarm: a loaded machine is slow, not hung)
	@dist=$$(mktemp -d) && trap 'rm -rf "$$dist"' EXIT && \
	if git rev-parse -q --verify HEAD > /dev/null 2>&1; then \
		echo "$(GO) run ./scripts/dist -version $(TEST_DIST_VERSION) -out $$dist -target $$($(GO) env GOOS)/$$($(GO) env GOARCH) -allow-dirty" && \
		$(GO) run ./scripts/dist -version $(TEST_DIST_VERSION) -out "$$dist" -target "$$($(GO) env GOOS)/$$($(GO) env GOARCH)" -allow-dirty > /dev/null && \
		export COMPACTEVAL_TEST_DIST="$$dist" COMPACTEVAL_TEST_DIST_VERSION=$(TEST_DIST_VERSION); \
	fi && \
	echo "$(GO) test -vet=off -timeout 60m ./..." && \
	$(GO) test -vet=off -timeout 60m ./...

corpus-lint: ## check every corpus case and its known deviations, and that case files are canonical
	$(GO) run ./cmd/compacteval corpus lint
	$(GO) run ./cmd/compacteval corpus fmt -check

run: ## the whole job on the bundled corpus: reports in $(OUT)
	$(GO) run ./cmd/compacteval run -corpus corpus/cases -out $(OUT)

gate: ## run, then gate the run against reports/baseline.json with gate.yaml
	$(GO) run ./cmd/compacteval run -corpus corpus/cases -out $(OUT) > /dev/null || [ $$? -eq 1 ]
	$(GO) run ./cmd/compacteval gate -baseline reports/baseline.json -config gate.yaml $(OUT)/report.json

bless: ## run, then bless the run as reports/baseline.json (read the run first)
	$(GO) run ./cmd/compacteval run -corpus corpus/cases -out $(OUT)
	$(GO) run ./cmd/compacteval gate -bless -baseline reports/baseline.json $(OUT)/report.json

drift: ## the drift matrix of every extractor
	$(GO) run ./cmd/compacteval drift

bench: ## benchmarks of the extractors and of eval
	$(GO) test -run '^$$' -bench . -benchmem ./compact ./eval

diff: ## the differential test against the reference with N cases (make diff N=5000000)
	$(GO) test -count=1 -run 'Differential' ./compact -args -diff.n=$(N)

fuzz: ## every fuzz target in turn for FUZZTIME each, with what each found (scripts/fuzz-all.sh)
	FUZZTIME=$(FUZZTIME) GO=$(GO) sh scripts/fuzz-all.sh

golden: ## rewrite the corpus goldens (read the diff before committing)
	$(GO) test ./corpus -run Golden -update

sdk-parity: ## record what the model SDKs send, into internal/record/testdata/sdkparity (their own module; read the diff)
	cd internal/record/sdkparity && $(GO) run . -out ../testdata/sdkparity

peers: ## hold the claude-code profiles to the formatters Claude Code's npm packages ship, under Node (needs the npm registry)
	$(GO) run ./scripts/peers

dist: ## cross-build the release archives and SHA256SUMS into dist/ (VERSION=vX.Y.Z, default the tag at HEAD, else a v0.0.0-<commit> snapshot)
	$(GO) run ./scripts/dist -version "$(VERSION)" -out dist

npm: dist ## the npm packages of the CLI (a launcher and one per platform) from dist/ into dist/npm/
	$(GO) run ./scripts/npm -dist dist -out dist/npm

npm-robust: ## the npm package @compacteval/robust (robust.ts as an ES module) into dist/npm/robust/
	$(GO) run ./scripts/npmrobust -out dist/npm/robust
