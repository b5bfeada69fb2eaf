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
# About a minute on a 2-core machine with the default ROUNDS. Times are read to the
# millisecond, but a 10 MB answer's system time (the pages its memory faults in, 70 to 140
# ms for the Go command on this VM) varies from run to run: the best of several runs is
# taken, and the rest, a difference of five figures, may still come out below zero.
#
#   scripts/module-cost.sh [INPUT...]   (ROUNDS: runs of each, the best taken; default 9)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node > /dev/null || { echo "module-cost: node is not on PATH" >&2; exit 2; }
rounds=${ROUNDS:-9}
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

# cpu CMD...: the CPU seconds (user + system, children included) of one run, read to the
# millisecond from bash's times in a subshell (its second line: the subshell's children;
# /usr/bin/time reads to 10 ms, a third of some net times here).
cpu() {
	("$@" > /dev/null 2>&1 || true; times) | tail -n 1 |
		awk '{ for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); s += p[1] * 60 + p[2] } printf "%.3f", s }'
}

# alternate NAME INPUT: ROUNDS lines "NAME GO MODULE", the command each way on INPUT, Go and
# module: alternately, so that a round's two runs share the machine's state.
alternate() {
	for _ in $(seq "$rounds"); do
		echo "$1 $(cpu "$tmp/compacteval" extract -extractor robust "$2") $(cpu "$tmp/compacteval" extract -extractor module:compact/robust.ts "$2")"
	done
}

load=$(cut -d' ' -f1 /proc/loadavg)
alternate tiny "$tmp/tiny.txt" > "$tmp/tiny.rounds"
go_tiny=$(awk 'NR == 1 || $2 < b { b = $2 } END { printf "%.3f", b }' "$tmp/tiny.rounds")
mod_tiny=$(awk 'NR == 1 || $3 < b { b = $3 } END { printf "%.3f", b }' "$tmp/tiny.rounds")
for input in "${inputs[@]}"; do alternate "$(basename "$input" .txt) $(wc -c < "$input")" "$input"; done > "$tmp/path.txt"
# A process for each answer, so that each first run is one of fresh code, as in module:.
for input in "${inputs[@]}"; do node scripts/module-cost.mjs "$tmp/pkg/robust.js" "$rounds" "$input"; done > "$tmp/steps.txt"
# The Go robust's extraction alone, warm, in CPU time per run (timerobust prints nanoseconds).
for input in "${inputs[@]}"; do "$tmp/timerobust" "$(dirname "$input")" 300 "$(basename "$input" .txt)"; done > "$tmp/go.txt"

echo "Load average $load at the start; CPU time; the start-up (a one-line answer, the best of $rounds runs) is $go_tiny s for compacteval extract -extractor robust, $mod_tiny s for -extractor module:compact/robust.ts, and each net time is net of it: the whole command on the answer, reading the file and writing the summary included, less the same command on a one-line answer. The nets are the best of $rounds runs each way, Go and module: alternately (the Go robust's most beside its best: its own reading and writing of the 10 MB moves most); module: / Go is the ratio of the two bests, and by round the median, least and most of each round's ratio (a round's two runs one after the other): on this VM a 10 MB answer's system time, the pages the command's memory faults in, moves from run to run, and most where the extraction itself is short. Go extract alone: timerobust's warm CPU time for the Go robust's extraction; the command's own reading and writing is the Go net less it. Node's steps (scripts/module-cost.mjs, in ms): JSON.parse of the request line and decoding the text's UTF-8, sent as bytes, extractSummary's first run in the process (as the module: path runs it, the JIT compiling) and its best, JSON.stringify of the answer; the rest is the module: net less Node's steps and the command's own reading and writing: the Go client's writing and reading, the pipe, Node's reads and collections."
echo
echo "| answer | bytes | Go robust, net: best (most) | Go extract alone | module:, net | module: / Go | by round: median (least-most) | Node: decode and parse | Node: extract, first run | Node: extract, best | Node: encode | rest | extract in process, best |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -v gt="$go_tiny" -v mt="$mod_tiny" '
	FILENAME ~ /steps.txt$/ { dec[$1] = $2 + $3; first[$1] = $4; ext[$1] = $5; enc[$1] = $6; inp[$1] = $7; next }
	FILENAME ~ /go.txt$/ { alone[$1] = $2 / 1e6; next }
	{
		if (!($1 in gb)) { order[++n] = $1; size[$1] = $2; gb[$1] = $3; mb[$1] = $4 }
		if ($3 < gb[$1]) gb[$1] = $3
		if ($3 > gw[$1]) gw[$1] = $3
		if ($4 < mb[$1]) mb[$1] = $4
		r[$1, ++k[$1]] = ($4 - mt) / ($3 - gt)
	}
	END {
		for (i = 1; i <= n; i++) {
			a = order[i]
			for (x = 2; x <= k[a]; x++) for (y = x; y > 1 && r[a, y - 1] > r[a, y]; y--) { t = r[a, y]; r[a, y] = r[a, y - 1]; r[a, y - 1] = t }
			g = (gb[a] - gt) * 1000; m = (mb[a] - mt) * 1000
			med = k[a] % 2 ? r[a, (k[a] + 1) / 2] : (r[a, k[a] / 2] + r[a, k[a] / 2 + 1]) / 2
			if (m / g > worst) { worst = m / g; worstName = a }
			if (med > worstMed) { worstMed = med; worstMedName = a }
			printf "| %s | %d | %.0f ms (%.0f ms) | %.0f ms | %.0f ms | %.1fx | %.1fx (%.1f-%.1fx) | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.0f ms |\n", a, size[a], g, (gw[a] - gt) * 1000, alone[a], m, m / g, med, r[a, 1], r[a, k[a]], dec[a], first[a], ext[a], enc[a], m - dec[a] - first[a] - enc[a] - (g - alone[a]), inp[a]
		}
		printf "\nThe largest median of the rounds\x27 ratios is %.1fx (%s); the largest ratio of the bests is %.1fx (%s).\n", worstMed, worstMedName, worst, worstName
	}' "$tmp/steps.txt" "$tmp/go.txt" "$tmp/path.txt"
echo
echo "Load average $(cut -d' ' -f1 /proc/loadavg) at the end."
