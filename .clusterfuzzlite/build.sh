#!/bin/bash -eu
# Builds every native Go fuzz target of compacteval as a libFuzzer binary.
# fuzz/clusterfuzzlite_test.go fails when a FuzzXxx target in the repository is missing here.
#
# The targets seed themselves from corpus/cases when it exists; in a ClusterFuzzLite run
# the fuzzing engine keeps its own corpus instead.
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzExtractSummary fuzz_extract_summary
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzBuildInstruction fuzz_build_instruction
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzExtractors fuzz_extractors
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustNoLeak fuzz_robust_no_leak
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustWellFormed fuzz_robust_well_formed
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustKeepsBlock fuzz_robust_keeps_block
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustUntagged fuzz_robust_untagged
compile_native_go_fuzzer github.com/compacteval/compacteval/compact FuzzRobustFastAgrees fuzz_robust_fast_agrees
compile_native_go_fuzzer github.com/compacteval/compacteval/corpus FuzzParseCase fuzz_parse_case
compile_native_go_fuzzer github.com/compacteval/compacteval/fuzz/drift FuzzDrift fuzz_drift
compile_native_go_fuzzer github.com/compacteval/compacteval/eval FuzzScore fuzz_score
compile_native_go_fuzzer github.com/compacteval/compacteval/eval FuzzReadSession fuzz_read_session
compile_native_go_fuzzer github.com/compacteval/compacteval/internal/report FuzzLineDiff fuzz_line_diff
