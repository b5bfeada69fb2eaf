#!/usr/bin/env bash
# Measures robust.ts (the npm package's robust.js, built as make npm-robust builds it) under
# Node beside the Go robust on the inputs of the Go benchmark table: every family of
# BenchmarkFamilies at 100 KB, 1 MB and 10 MB, and BenchmarkCorpusAnswers (every corpus
# response in turn), written to files by internal/cmd/benchinputs. Both are timed in CPU time
# of their process (internal/cmd/timerobust -beside, which starts scripts/time-robust-ts.mjs:
# on a shared machine wall time measures the scheduler), Go with GOMAXPROCS=1 (one
# extraction runs on one core, as robust.ts does under Node), input by input: Go, Node, Node,
# Go, each for BUDGET of CPU time, so that the two sides of a row are timed a second apart.
# Each of ROUNDS rounds is a new pair of processes; the table gives each side's median time
# and the median of the rounds' ratios (the ratio of a row's two sides in one round). Time
# at the three sizes shows whether robust.ts is linear.
# Usage: scripts/bench-robust-ts.sh [ROUNDS]   (default 5; BUDGET: CPU milliseconds per
# input and side, timed twice a round, default 100: with 50 a 1 MB input ran about three
# times under Node, and one garbage collection moved a row by 40%. Before it is timed, an
# input runs for twice BUDGET under Go and for a second under Node, where the JIT compiles
# on threads whose CPU time the process counts: the corpus settles after about 0.7 s.)
# Each time is taken over at least five runs (timerobust's minRuns says why). A round takes
# about four minutes of CPU time, the default five about twenty minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
budget=${BUDGET:-100}
command -v node > /dev/null || { echo "bench-robust-ts: node is not on PATH" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
go run ./scripts/npmrobust -out "$tmp/pkg" > /dev/null
go run ./internal/cmd/benchinputs -set families -out "$tmp/in" > "$tmp/names"
go run ./internal/cmd/benchinputs -set corpus -out "$tmp/in" >> "$tmp/names"
go build -o "$tmp/timerobust" ./internal/cmd/timerobust
for round in $(seq "$rounds"); do
	echo "bench-robust-ts: round $round of $rounds" >&2
	# Each prints "NAME GO-NS NODE-NS BYTES" for every input.
	xargs "$tmp/timerobust" -beside "$tmp/pkg/robust.js" "$tmp/in" "$budget" < "$tmp/names" >> "$tmp/pairs.txt"
done

echo "| input | bytes | Go robust ($(go env GOVERSION)) | robust.ts (Node $(node --version)) | robust.ts / Go (time, median of rounds) |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk -v names="$tmp/names" '
	function median(list,   a, n, i, j, t) {
		n = split(list, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	{ g[$1] = g[$1] " " $2; t[$1] = t[$1] " " $3; r[$1] = r[$1] " " $3 / $2; bytes[$1] = $4 }
	END {
		while ((getline name < names) > 0) {
			if (!(name in g)) { print "bench-robust-ts: no time for " name > "/dev/stderr"; exit 2 }
			ratio = median(r[name])
			printf "| %s | %d | %.0f MB/s | %.0f MB/s | %.1fx |\n", name, bytes[name], bytes[name] / median(g[name]) * 1e3, bytes[name] / median(t[name]) * 1e3, ratio
			if (ratio > worst) { worst = ratio; worstName = name }
		}
		printf "\nSpeeds in MB of input per second of CPU time (Go with GOMAXPROCS=1), medians of %d rounds; the ratio is the median of the rounds\x27 ratios, each of a row\x27s two sides timed a second apart (Go, Node, Node, Go); the largest is %.1fx (%s). Load average %s at the end.\n", rounds, worst, worstName, load
	}' rounds="$rounds" load="$(cut -d' ' -f1 /proc/loadavg 2> /dev/null || echo unknown)" "$tmp/pairs.txt"
