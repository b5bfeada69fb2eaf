#!/usr/bin/env bash
# Measures robust.ts (the npm package's robust.js, built as make npm-robust builds it) under
# Node beside the Go robust on the inputs of the Go benchmark table: every family of
# BenchmarkFamilies at 100 KB, 1 MB and 10 MB, and BenchmarkCorpusAnswers (every corpus
# response in turn), written to files by internal/cmd/benchinputs. Both are timed in CPU time
# of their process (internal/cmd/timerobust, scripts/time-robust-ts.mjs: on a shared machine
# wall time measures the scheduler), Go with GOMAXPROCS=1 (one extraction runs on one core,
# as robust.ts does under Node), alternately, ROUNDS times, and the table gives the median of
# each and their ratio. Time at the three sizes shows whether robust.ts is linear.
# Usage: scripts/bench-robust-ts.sh [ROUNDS]   (default 3; BUDGET: CPU milliseconds per
# input and round, after a warm-up of twenty runs (no longer than twice that) and twice that,
# default 200: at 50 a 1 MB input ran about three times under Node, and one garbage
# collection moved a row by 40%)
# A round takes about three minutes of CPU time (a 10 MB input runs three times or more on
# each side), so the default three about ten minutes on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
budget=${BUDGET:-200}
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
	# Each prints "NAME ns bytes" for every input.
	xargs "$tmp/timerobust" "$tmp/in" "$budget" < "$tmp/names" >> "$tmp/go.txt"
	xargs node scripts/time-robust-ts.mjs "$tmp/pkg/robust.js" "$tmp/in" "$budget" < "$tmp/names" >> "$tmp/ts.txt"
done

echo "| input | bytes | Go robust ($(go env GOVERSION)) | robust.ts (Node $(node --version)) | robust.ts / Go (time) |"
echo "| --- | ---: | ---: | ---: | ---: |"
awk -v names="$tmp/names" '
	function median(list,   a, n, i, j, t) {
		n = split(list, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FILENAME ~ /go.txt$/ { g[$1] = g[$1] " " $2; next }
	{ t[$1] = t[$1] " " $2; bytes[$1] = $3 }
	END {
		while ((getline name < names) > 0) {
			if (!(name in g) || !(name in t)) { print "bench-robust-ts: no time for " name > "/dev/stderr"; exit 2 }
			gm = median(g[name]); tm = median(t[name])
			printf "| %s | %d | %.0f MB/s | %.0f MB/s | %.1fx |\n", name, bytes[name], bytes[name] / gm * 1e3, bytes[name] / tm * 1e3, tm / gm
			if (tm / gm > worst) { worst = tm / gm; worstName = name }
		}
		printf "\nSpeeds in MB of input per second of CPU time (Go with GOMAXPROCS=1), medians of %d alternating rounds; the largest ratio is %.1fx (%s). Load average %s at the end.\n", rounds, worst, worstName, load
	}' rounds="$rounds" load="$(cut -d' ' -f1 /proc/loadavg 2> /dev/null || echo unknown)" "$tmp/go.txt" "$tmp/ts.txt"
