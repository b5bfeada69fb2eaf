#!/usr/bin/env bash
# Measures the Go port, a naive Go regexp port, and the reference under Node on the same
# inputs, in one run, and prints the README's Markdown table. The reference gets CAP seconds
# per input (default 20); where it is cut off the table says so.
# Usage: scripts/bench-reference.sh [CAP_SECONDS]   (COMPACT_REFERENCE_DIR: default ../shared/reference)
set -euo pipefail
cd "$(dirname "$0")/.."
cap=${1:-20}
ref=${COMPACT_REFERENCE_DIR:-../shared/reference}   # the reference module's folder
[ -f "$ref/compaction.mjs" ] || { echo "bench-reference: $ref/compaction.mjs not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run ./internal/cmd/benchinputs -out "$tmp" > "$tmp/names"
go test -run '^$' -bench 'Extract$|NaiveRegexp$' -benchtime 1s ./compact > "$tmp/go.txt"

# ns/op of a benchmark line, as milliseconds with 3 decimals
ms() { awk -v ns="$1" 'BEGIN { printf "%.3f ms", ns / 1e6 }'; }
goNs() { awk -v name="$1/$2-" 'index($1, name) == 11 || index($1, "Benchmark" name) == 1 { print $3 }' "$tmp/go.txt"; }

echo "| input | bytes | Go port | Go regexp + TrimSpace (naive) | reference (Node $(node --version)) |"
echo "| --- | ---: | ---: | ---: | ---: |"
while read -r name; do
	bytes=$(wc -c < "$tmp/$name.txt")
	port=$(goNs Extract "$name")
	naive=$(goNs NaiveRegexp "$name")
	if refNs=$(timeout "$cap" node scripts/time-reference.mjs "$ref" "$tmp/$name.txt" 2>/dev/null); then
		refCell=$(ms "$refNs")
	else
		refCell="> ${cap} s (cut off)"
	fi
	echo "| $name | $bytes | $(ms "$port") | $(ms "$naive") | $refCell |"
done < "$tmp/names"
