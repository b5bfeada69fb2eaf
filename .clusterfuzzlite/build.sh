#!/bin/bash -eu
# Builds every native Go fuzz target of compacteval as a libFuzzer binary.
# fuzz/clusterfuzzlite_test.go fails when a FuzzXxx target in the repository is missing here.
# It runs in $SRC/compacteval (the Dockerfile's WORKDIR).
#
# Seed corpora first: compile_native_go_fuzzer links each target with libFuzzer through
# go-118-fuzz-build, whose testing.F ignores f.Add and splits libFuzzer's raw bytes into the
# f.Fuzz arguments with go-fuzz-headers. So the seeds the targets add from corpus/cases
# under go test are lost there, and a "go test fuzz v1" file is no seed either: seedcorpus
# encodes the corpus the way go-fuzz-headers reads it, one <binary>_seed_corpus.zip per
# target (internal/cflite; fuzz/clusterfuzzlite_test.go runs this part and checks the zips).
go run ./internal/cmd/seedcorpus -out "$OUT"

compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzExtractSummary fuzz_extract_summary
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzBuildInstruction fuzz_build_instruction
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzExtractors fuzz_extractors
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustNoLeak fuzz_robust_no_leak
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustWellFormed fuzz_robust_well_formed
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustKeepsBlock fuzz_robust_keeps_block
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustUntagged fuzz_robust_untagged
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustFastAgrees fuzz_robust_fast_agrees
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustShortcutsAgree fuzz_robust_shortcuts_agree
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzLinePolicyAgrees fuzz_line_policy_agrees
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustLinear fuzz_robust_linear
compile_native_go_fuzzer github.com/compacteval/compacteval/corpus FuzzParseCase fuzz_parse_case
compile_native_go_fuzzer github.com/compacteval/compacteval/corpus FuzzSpoolForm fuzz_spool_form
compile_native_go_fuzzer github.com/compacteval/compacteval/fuzz/drift FuzzDrift fuzz_drift
compile_native_go_fuzzer github.com/compacteval/compacteval/eval FuzzScore fuzz_score
compile_native_go_fuzzer github.com/compacteval/compacteval/eval FuzzReadSession fuzz_read_session
compile_native_go_fuzzer github.com/compacteval/compacteval/eval FuzzFastPaths fuzz_fast_paths
compile_native_go_fuzzer github.com/compacteval/compacteval/internal/render FuzzLineDiff fuzz_line_diff
compile_native_go_fuzzer github.com/compacteval/compacteval/internal/protocol FuzzWriteString fuzz_write_string
