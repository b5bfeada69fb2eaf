#!/usr/bin/env bash
# Fuzzes robust (the Go extractor) and compact/robust.ts (through module:) at the same time,
# each for FUZZTIME (default 600s), and prints what each found as a Markdown table: the
# failures by property, the inputs left ambiguous, and the kinds found. The findings
# themselves (minimized inputs) are in $FUZZ_OUT/{go,ts}.json and the cases written to
# $FUZZ_OUT/{go,ts}/ (default: a temporary folder, removed).
# Used by scripts/doc-tables.sh fuzz (docs/robust.md); needs node and jq.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-600s}
command -v jq > /dev/null || { echo "fuzz-table: needs jq" >&2; exit 2; }
out=${FUZZ_OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
# What was built: the commit, and whether the code differed from it then.
built="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- '*.go' '*.ts' || echo ' with changes to the code')"
go build -o "$out/compacteval" ./cmd/compacteval
run() { # run NAME EXTRACTOR: exit 1 (a new kind found) is a result, not an error
	local rc=0
	"$out/compacteval" fuzz -extractor "$2" -time "$FUZZTIME" -json -out "$out/$1" > "$out/$1.json" 2> "$out/$1.err" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "fuzz-table: $2 failed (exit $rc):" >&2
		cat "$out/$1.err" >&2
		return 2
	fi
}
run go robust &
go_pid=$!
run ts module:compact/robust.ts &
ts_pid=$!
wait "$go_pid"
wait "$ts_pid"
echo "Each for \`-time $FUZZTIME\`, both at once, built at commit $built:"
echo
props='["analysis-leak","bare-tag","tag-kept","summary-lost","nondeterministic","superlinear-time"]'
echo "| extractor | executions | $(jq -rn "$props | join(\" | \")") | ambiguous (not failures) | kinds found |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
for f in go ts; do
	jq -r --argjson props "$props" '.fuzz[0] as $r |
		"| `\($r.extractor)` | \($r.execs) | " +
		([$props[] | ($r.failures[.] // 0 | tostring)] | join(" | ")) +
		" | \([$r.ambiguous[]?] | add // 0) | " +
		([$r.kinds[]? | select(.count > 0) | "\(.kind) \(.count)"] | if length == 0 then "none" else join(", ") end) + " |"' "$out/$f.json"
done
