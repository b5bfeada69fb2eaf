#!/usr/bin/env bash
# module-cost.sh: what robust.ts costs through -extractor module: against the Go robust on
# one large answer (default: a 10 MB line of "</analysis><summary>", the closer-chains
# family), and where the protocol path spends (issue 39: 8.9x Go where in process it is
# 2x). It prints, in CPU time (user + system, children included; a shared machine's wall
# time measures its scheduler):
#   1. compacteval extract with the Go robust, on the answer and on a one-line answer;
#   2. the same through -extractor module:compact/robust.ts (esbuild, Node, the runner);
#      the one-line answer's time is the start-up, which the rest is net of;
#   3. scripts/module-cost.mjs: the steps inside Node (decode, parse, extract, encode).
# The Go client's share (encoding the request, reading the answer) is what 2 spends
# beyond Node's steps and start-up.
#
#   scripts/module-cost.sh [INPUT]   (ROUNDS: runs of each, the best taken; default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node > /dev/null || { echo "module-cost: node is not on PATH" >&2; exit 2; }
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/compacteval" ./cmd/compacteval
go run ./scripts/npmrobust -out "$tmp/pkg" > /dev/null
input=${1:-}
if [ -z "$input" ]; then
	input=$tmp/closer-chains-10MB.txt
	{ yes '</analysis><summary>' | tr -d '\n' | head -c $((10 << 20)) || true; echo; } > "$input"
fi
printf 'Done: the tests pass.\n' > "$tmp/tiny.txt"

# cpu CMD...: the best CPU seconds (user + system, children included) of ROUNDS runs.
cpu() {
	local best="" t
	for _ in $(seq "$rounds"); do
		/usr/bin/time -f '%U %S' -o "$tmp/t" "$@" > /dev/null 2>&1 || true
		t=$(tail -n 1 "$tmp/t" | awk '{ printf "%.3f", $1 + $2 }')  # after any "Command exited" line
		if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best"
}

bytes=$(wc -c < "$input")
go_big=$(cpu "$tmp/compacteval" extract -extractor robust "$input")
go_tiny=$(cpu "$tmp/compacteval" extract -extractor robust "$tmp/tiny.txt")
mod_big=$(cpu "$tmp/compacteval" extract -extractor module:compact/robust.ts "$input")
mod_tiny=$(cpu "$tmp/compacteval" extract -extractor module:compact/robust.ts "$tmp/tiny.txt")
echo "Load average $(cut -d' ' -f1 /proc/loadavg) at the start; $bytes bytes; CPU seconds, best of $rounds:"
echo
echo "| path | answer | one-line answer (start-up) | net | net / Go |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk -v b="$go_big" -v t="$go_tiny" 'BEGIN { printf "| compacteval extract -extractor robust | %.3f s | %.3f s | %.3f s | 1.0x |\n", b, t, b - t }'
awk -v b="$mod_big" -v t="$mod_tiny" -v gb="$go_big" -v gt="$go_tiny" 'BEGIN { printf "| compacteval extract -extractor module:compact/robust.ts | %.3f s | %.3f s | %.3f s | %.1fx |\n", b, t, b - t, (b - t) / (gb - gt) }'
echo
node scripts/module-cost.mjs "$tmp/pkg/robust.js" "$input" "$rounds"
echo
echo "Load average $(cut -d' ' -f1 /proc/loadavg) at the end."
