#!/usr/bin/env bash
# module-cost.sh: what robust.ts costs through -extractor module: against the Go robust on
# 10 MB answers (issue 39: within 3x of the Go robust's time once Node's start-up is taken
# off), and where the protocol path spends. The answers (internal/cmd/benchinputs -set
# module): a typical well-formed answer and the families where robust.ts is slowest against
# Go or the protocol's share is largest, a closer chain, openers with long attributes and
# mixed fences; or the files given. In CPU time (user + system, children included; a shared
# machine's wall time measures its scheduler), it prints for each answer:
#   - compacteval extract with the Go robust, net of its run on a one-line answer: the whole
#     command, reading the 10 MB file and writing the summary included, and
#     internal/cmd/timerobust's time for the extraction alone (warm, in process), so that the
#     difference, the command's own reading and writing, shows;
#   - the same command through -extractor module:compact/robust.ts (esbuild, Node, the
#     runner), net of its run on the one-line answer (Node's start-up), and the ratio of the
#     two nets: both are the command as a user runs it, measured alike;
#   - scripts/module-cost.mjs: Node's steps (parsing the request line and decoding the
#     text, sent as bytes after it (docs/protocol.md, "Texts as bytes"), the
#     extraction's first run, which the module: path pays as V8 compiles the extractor's
#     code while it runs, and its best, encoding the answer), and the rest of the module:
#     net once those steps and the command's own reading and writing (which the Go robust
#     pays too) are taken off: the Go client's writing of the request and decoding of the
#     answer, the pipe both ways, Node's reads of stdin and its garbage collection.
# About twenty-five seconds on a 2-core machine with the default ROUNDS. /usr/bin/time counts
# in hundredths of a second: a net time of tens of ms is read to within a third, and the
# rest, a difference of five such figures, may come out below zero.
#
#   scripts/module-cost.sh [INPUT...]   (ROUNDS: runs of each, the best taken; default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node > /dev/null || { echo "module-cost: node is not on PATH" >&2; exit 2; }
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/compacteval" ./cmd/compacteval
go run ./scripts/npmrobust -out "$tmp/pkg" > /dev/null
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
	mkdir "$tmp/in"
	for name in $(go run ./internal/cmd/benchinputs -set module -out "$tmp/in"); do inputs+=("$tmp/in/$name.txt"); done
fi
go build -o "$tmp/timerobust" ./internal/cmd/timerobust
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

load=$(cut -d' ' -f1 /proc/loadavg)
go_tiny=$(cpu "$tmp/compacteval" extract -extractor robust "$tmp/tiny.txt")
mod_tiny=$(cpu "$tmp/compacteval" extract -extractor module:compact/robust.ts "$tmp/tiny.txt")
for input in "${inputs[@]}"; do
	echo "$(basename "$input" .txt) $(wc -c < "$input") $(cpu "$tmp/compacteval" extract -extractor robust "$input") $(cpu "$tmp/compacteval" extract -extractor module:compact/robust.ts "$input")"
done > "$tmp/path.txt"
# A process for each answer, so that each first run is one of fresh code, as in module:.
for input in "${inputs[@]}"; do node scripts/module-cost.mjs "$tmp/pkg/robust.js" "$rounds" "$input"; done > "$tmp/steps.txt"
# The Go robust's extraction alone, warm, in CPU time per run (timerobust prints nanoseconds).
for input in "${inputs[@]}"; do "$tmp/timerobust" "$(dirname "$input")" 300 "$(basename "$input" .txt)"; done > "$tmp/go.txt"

echo "Load average $load at the start; CPU time, best of $rounds runs; the start-up (a one-line answer) is $go_tiny s for compacteval extract -extractor robust, $mod_tiny s for -extractor module:compact/robust.ts, and each net time is net of it. The ratio is of the two nets: the whole command on the answer, reading the file and writing the summary included, less the same command on a one-line answer. Go extract alone: timerobust's warm CPU time for the Go robust's extraction; the command's own reading and writing is the Go net less it. Node's steps (scripts/module-cost.mjs, in ms): JSON.parse of the request line and decoding the text's UTF-8, sent as bytes, extractSummary's first run in the process (as the module: path runs it, the JIT compiling) and its best, JSON.stringify of the answer; the rest is the module: net less Node's steps and the command's own reading and writing: the Go client's writing and reading, the pipe, Node's reads and collections."
echo
echo "| answer | bytes | Go robust, net | Go extract alone | module:, net | module: / Go | Node: decode and parse | Node: extract, first run | Node: extract, best | Node: encode | rest | extract in process, best |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -v gt="$go_tiny" -v mt="$mod_tiny" '
	FILENAME ~ /steps.txt$/ { dec[$1] = $2 + $3; first[$1] = $4; ext[$1] = $5; enc[$1] = $6; inp[$1] = $7; next }
	FILENAME ~ /go.txt$/ { alone[$1] = $2 / 1e6; next }
	{
		g = ($3 - gt) * 1000; m = ($4 - mt) * 1000
		printf "| %s | %d | %.0f ms | %.0f ms | %.0f ms | %.1fx | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms |\n", $1, $2, g, alone[$1], m, m / g, dec[$1], first[$1], ext[$1], enc[$1], m - dec[$1] - first[$1] - enc[$1] - (g - alone[$1]), inp[$1]
	}' "$tmp/steps.txt" "$tmp/go.txt" "$tmp/path.txt"
echo
echo "Load average $(cut -d' ' -f1 /proc/loadavg) at the end."
