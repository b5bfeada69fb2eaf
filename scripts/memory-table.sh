#!/usr/bin/env bash
# Measures the time and peak memory of `compacteval run` on large corpora and prints them as
# a Markdown table; scripts/doc-tables.sh memory puts the table in docs/speed.md.
#
# Each corpus is N copies of the bundled cases under new ids (internal/cmd/bigcorpus: no
# goldens, so no golden stage). Each run is the whole command with every built-in
# extractor, under /usr/bin/time -v: the load average as it starts ("-" for a result kept
# from before the script recorded it), wall time and Maximum resident set size (the peak),
# the eval stage's time and cases from the progress lines, and the size of report.json.
#
# Usage: scripts/memory-table.sh [N...]     (default: 2150 21500 100000)
#   MEMORY_BASE=REV   also measures the build of REV (git archive REV, built in MEMORY_DIR), for
#                     the sizes in MEMORY_BASE_SIZES (default: 2150 21500)
#   MEMORY_DIR=DIR    keeps the corpora, the builds and the results there (default: a
#                     temporary folder removed at the end); with MEMORY_REUSE=1 a result
#                     already in DIR for the same build and N is not measured again, so the
#                     runs of a long table can be made one at a time
#   MEMORY_TABLE_ONLY=1  measures nothing: prints the table of every result in MEMORY_DIR
#                     (the base first, then the builds in the order they were measured), for
#                     a table whose runs were made one at a time
#   MEMORY_MAX_MB=M   after the table, exits 1 naming every run of the working tree's build
#                     whose peak (max RSS, in MB of 1,048,576 bytes as the table gives it)
#                     passed M: the release's check is MEMORY_MAX_MB=500 scripts/memory-table.sh
#                     100000 (docs/releasing.md)
# A 100,000-case corpus takes 2.8 GB of disk; its run takes about an hour on two busy cores.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(2150 21500 100000)
read -r -a base_sizes <<< "${MEMORY_BASE_SIZES:-2150 21500}"
[ -x /usr/bin/time ] || { echo "memory-table: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
max_mb=${MEMORY_MAX_MB:-}
[[ "$max_mb" =~ ^[0-9]*$ ]] || { echo "memory-table: MEMORY_MAX_MB=$max_mb is not a whole number of MB" >&2; exit 2; }

dir=${MEMORY_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# build REV OUT: the compacteval of REV ("" for the working tree) at OUT.
build() {
	local rev=$1 out=$2
	if [ -z "$rev" ]; then
		go build -o "$out.$$" ./cmd/compacteval # then renamed: another call may be running $out
		mv -f "$out.$$" "$out"
		return
	fi
	rm -rf "$dir/base-src"
	mkdir "$dir/base-src"
	git archive "$rev" | tar -x -C "$dir/base-src"
	(cd "$dir/base-src" && go build -o "$out.$$" ./cmd/compacteval)
	mv -f "$out.$$" "$out"
}

# measure LABEL BIN N: one line "label n bytes wall_s rss_kb eval_s json_bytes" in the results.
measure() {
	local label=$1 bin=$2 n=$3 cases="$dir/cases-$3" res="$dir/result-$1-$3.txt"
	if [ "${MEMORY_REUSE:-}" = 1 ] && [ -s "$res" ]; then
		echo "memory-table: $label at $n cases: kept from $res" >&2
		return
	fi
	if [ ! -d "$cases" ]; then
		go run ./internal/cmd/bigcorpus -n "$n" -out "$cases.tmp" > /dev/null
		mv "$cases.tmp" "$cases"
	fi
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	echo "memory-table: $label at $n cases, load average $load" >&2
	rm -rf "$dir/out-$label-$n"
	local code=0
	/usr/bin/time -v -o "$dir/time-$label-$n.txt" "$bin" run -corpus "$cases" -out "$dir/out-$label-$n" > /dev/null 2> "$dir/err-$label-$n.txt" || code=$?
	# Exit 1 is a run that ended and found problems (an older build on today's corpus: cases
	# its robust did not yet handle); it measures as well as a clean one.
	if [ "$code" -ne 0 ] && { [ "$code" -ne 1 ] || [ ! -s "$dir/out-$label-$n/report.json" ]; }; then
		echo "memory-table: $label at $n cases exited $code:" >&2
		tail -5 "$dir/err-$label-$n.txt" >&2
		exit 2
	fi
	local wall rss evals bytes json
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$dir/time-$label-$n.txt")
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$dir/time-$label-$n.txt")
	evals=$(sed -n 's/^compacteval run: eval: \([0-9]*\)\/\1 cases, \([0-9.]*\)s$/\2/p' "$dir/err-$label-$n.txt" | tail -1)
	bytes=$(du -sb "$cases/" | cut -f1)
	json=$(stat -c %s "$dir/out-$label-$n/report.json")
	echo "$label $n $bytes $wall $rss ${evals:--} $json $load" > "$res"
	rm -rf "$dir/out-$label-$n"
}

# A build is named by the last commit that changed more than the docs and the scripts.
# A build is named by the last commit that changed more than the docs and the scripts.
rev=$(git log -1 --format=%h -- . ':!docs' ':!scripts')
state=$rev
[ -z "$(git status --porcelain --untracked-files=no -- . ':!docs' ':!scripts')" ] || state="$rev+changes"
base=
[ -z "${MEMORY_BASE:-}" ] || base=$(git rev-parse --short "$MEMORY_BASE")
if [ "${MEMORY_TABLE_ONLY:-}" = 1 ]; then
	# Every build measured in MEMORY_DIR, the base first, then in the order they were
	# measured (the results' modification times).
	labels=()
	[ -z "$base" ] || labels+=("$base")
	results=$(ls -tr "$dir"/result-*.txt 2> /dev/null) || { echo "memory-table: no results in $dir" >&2; exit 2; }
	for f in $results; do
		l=$(cut -d' ' -f1 "$f")
		[[ " ${labels[*]} " == *" $l "* ]] || labels+=("$l")
	done
else
	build "" "$dir/compacteval-head"
	for n in "${sizes[@]}"; do
		measure "$state" "$dir/compacteval-head" "$n"
	done
	labels=()
	if [ -n "$base" ]; then
		build "$MEMORY_BASE" "$dir/compacteval-base"
		for n in "${base_sizes[@]}"; do
			measure "$base" "$dir/compacteval-base" "$n"
		done
		labels+=("$base")
	fi
	labels+=("$state")
fi

echo "| build | cases | case files | load at start | wall time | of which eval | peak memory (max RSS) | per case | report.json |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for label in "${labels[@]}"; do
	for f in "$dir"/result-"$label"-*.txt; do
		[ -e "$f" ] || continue
		read -r l n bytes wall rss evals json load < "$f"
		if [ -d "$dir/cases-$n/" ]; then # the corpus as it is: its size is not part of a run
			bytes=$(du -sb "$dir/cases-$n/" | cut -f1)
		fi
		scored=$(sed -n 's/^compacteval run: eval: \([0-9]*\)\/\1 cases, .*/\1/p' "$dir/err-$l-$n.txt" 2> /dev/null | tail -1)
		echo "$l $n $bytes $wall $rss $evals $json ${load:--} ${scored:-0}"
	done | sort -k2,2n | awk '
	function thousands(n,   s) { s = ""; while (n >= 1000) { s = sprintf(",%03d", n % 1000) s; n = int(n / 1000) } return n s }
	{
		evals = ($6 == "-" || $9 == 0) ? "-" : sprintf("%.0f s (%s cases, %.0f ms each)", $6, thousands($9), 1000 * $6 / $9)
		printf "| `%s` | %s | %.0f MB | %s | %.0f s | %s | %.0f MB | %.1f KB | %.0f MB |\n", $1, thousands($2), $3 / 1e6, $8, $4, evals, $5 / 1024, $5 / $2, $7 / 1e6
	}'
done

# The bound: every run of the working tree's build (the base's are what they were).
if [ -n "$max_mb" ]; then
	over=0 checked=0
	for f in "$dir"/result-"$state"-*.txt; do
		[ -e "$f" ] || continue
		read -r _ n _ _ rss _ < "$f"
		checked=$((checked + 1))
		if [ "$rss" -gt $((max_mb * 1024)) ]; then
			echo "memory-table: FAIL: $state at $n cases peaked at $((rss / 1024)) MB, over the bound of $max_mb MB" >&2
			over=1
		fi
	done
	if [ "$checked" -eq 0 ]; then
		echo "memory-table: FAIL: no run of $state to hold to $max_mb MB" >&2
		exit 1
	fi
	[ "$over" -eq 0 ] || exit 1
	echo "memory-table: every run of $state ($checked) peaked under $max_mb MB" >&2
fi
