#!/usr/bin/env bash
# Measures the CPU of `compacteval run` per case and where it goes, for a base build and the
# working tree, and prints them as Markdown tables; scripts/doc-tables.sh runprofile puts
# them in docs/speed.md.
#
# The corpus is N copies of the bundled cases under new ids (internal/cmd/bigcorpus), too
# large to be held, so that the cases are read as on a large corpus. Each run is the whole
# command with every built-in extractor under /usr/bin/time -v, its CPU profile written by
# the build itself (COMPACTEVAL_CPUPROFILE, in a build with -tags cpuprofile; a build from
# before the variable gets cmd/compacteval/cpuprofile.go and its two calls in mainExit,
# nothing else). The builds run
# in turn, base then head, PROFILE_RUNS times, so that a change in the machine's load
# touches both; the tables give the median CPU and the profiles of every run merged.
#
# Usage: scripts/run-profile.sh
#   PROFILE_BASE=REV   the base build (default 5580c7c, the build before the CPU cuts)
#   PROFILE_CASES=N    the corpus's size (default 21500)
#   PROFILE_RUNS=K     runs of each build (default 1)
#   PROFILE_TOP=T      functions in the flat table (default 12)
#   PROFILE_DIR=DIR    keeps the corpus, the builds, the profiles and the reports there
#                      (default: a temporary folder removed at the end)
# A run of 21,500 cases takes about two minutes of CPU before the cuts.
set -euo pipefail
cd "$(dirname "$0")/.."

base=$(git rev-parse --short "${PROFILE_BASE:-5580c7c}")
n=${PROFILE_CASES:-21500}
runs=${PROFILE_RUNS:-1}
top=${PROFILE_TOP:-12}
[ -x /usr/bin/time ] || { echo "run-profile: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

dir=${PROFILE_DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# The head build is named as memory-table.sh names it: the last commit that changed more
# than the docs and the scripts, "+changes" when the tree differs from it.
head=$(git log -1 --format=%h -- . ':!docs' ':!scripts')
[ -z "$(git status --porcelain --untracked-files=no -- . ':!docs' ':!scripts')" ] || head="$head+changes"

go build -tags cpuprofile -o "$dir/compacteval-head" ./cmd/compacteval
rm -rf "$dir/base-src"
mkdir "$dir/base-src"
git archive "$base" | tar -x -C "$dir/base-src"
if [ ! -e "$dir/base-src/cmd/compacteval/cpuprofile.go" ]; then
	cp cmd/compacteval/cpuprofile.go "$dir/base-src/cmd/compacteval/"
	main="$dir/base-src/cmd/compacteval/main.go"
	sed -i -e 's/^\treap\.Init()$/&\n\tstopProfile := startCPUProfile()/' -e 's/^\tos\.Exit(code)$/\tstopProfile()\n&/' "$main"
	if [ "$(grep -c 'stopProfile' "$main")" != 2 ]; then
		echo "run-profile: cannot add the profile to $base's mainExit" >&2
		exit 2
	fi
fi
(cd "$dir/base-src" && go build -tags cpuprofile -o "$dir/compacteval-base" ./cmd/compacteval)

if [ ! -d "$dir/cases-$n" ]; then
	go run ./internal/cmd/bigcorpus -n "$n" -out "$dir/cases-$n.tmp" > /dev/null
	mv "$dir/cases-$n.tmp" "$dir/cases-$n"
fi

# measure BUILD K: run K of BUILD; its CPU seconds and peak in cpu-BUILD-K.txt.
measure() {
	local b=$1 k=$2 out="$dir/out-$1-$2"
	echo "run-profile: $b ($(eval echo "\$$b")) run $k at $n cases, load average $(cut -d' ' -f1 /proc/loadavg)" >&2
	rm -rf "$out"
	local code=0
	COMPACTEVAL_CPUPROFILE="$dir/profile-$b-$k.pprof" /usr/bin/time -v -o "$dir/time-$b-$k.txt" \
		"$dir/compacteval-$b" run -corpus "$dir/cases-$n" -out "$out" > /dev/null 2> "$dir/err-$b-$k.txt" || code=$?
	# Exit 1 is a run that ended and found problems (an older build on today's corpus: cases
	# its robust did not yet handle); it measures as well as a clean one.
	if [ "$code" -ne 0 ] && { [ "$code" -ne 1 ] || [ ! -s "$out/report.json" ]; }; then
		echo "run-profile: $b run $k exited $code:" >&2
		tail -5 "$dir/err-$b-$k.txt" >&2
		exit 2
	fi
	awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 } END { print u, s, m }' "$dir/time-$b-$k.txt" > "$dir/cpu-$b-$k.txt"
}
for k in $(seq "$runs"); do
	measure base "$k"
	measure head "$k"
done
for k in $(seq "$runs"); do
	for f in report.json report.md report.html; do
		cmp -s "$dir/out-base-$k/$f" "$dir/out-head-$k/$f" || echo "run-profile: $f differs between the builds (run $k)" >&2
	done
done

# median BUILD: user, sys and peak of the run with the median CPU (of an even number of
# runs, the lower of the middle two).
median() {
	for f in "$dir"/cpu-"$1"-*.txt; do
		awk '{ print $1 + $2, $1, $2, $3 }' "$f"
	done | sort -n | awk '{ r[NR] = $0 } END { print r[int((NR + 1) / 2)] }'
}

echo "| build | cases | runs | CPU (user + sys), median | per case | peak memory (max RSS) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for b in base head; do
	read -r cpu user sys rss <<< "$(median $b)"
	label=$base
	[ $b = base ] || label=$head
	awk -v l="$label" -v n="$n" -v runs="$runs" -v cpu="$cpu" -v user="$user" -v sys="$sys" -v rss="$rss" '
	function thousands(n,   s) { s = ""; while (n >= 1000) { s = sprintf(",%03d", n % 1000) s; n = int(n / 1000) } return n s }
	BEGIN { printf "| `%s` | %s | %d | %.1f s (%.1f + %.1f) | %.2f ms | %.0f MB |\n", l, thousands(n), runs, cpu, user, sys, 1000 * cpu / n, rss / 1024 }'
done

# The profiles: the samples that land in runtime.asyncPreempt (a goroutine stopped for the
# collector) belong to the function it stopped, so that frame is hidden.
pprof() { go tool pprof -hide='runtime\.asyncPreempt$' "$@" 2> /dev/null; }
profiles() { ls "$dir"/profile-"$1"-*.pprof; }

# Stages: the share of the samples whose stack holds a function matching the pattern (a
# sample counts in every stage on its stack: the eval stage's redaction and collection are
# in both rows).
echo
echo "| stage (functions on the stack) | $base | $head |"
echo "| --- | ---: | ---: |"
while IFS='|' read -r name re; do
	row="| $name"
	for b in base head; do
		# "Showing nodes accounting for 37.96s, 32.87% of 115.48s total": the share, and
		# the time per case of one run.
		share=$(pprof -top -nodecount=100000 -nodefraction=0 -edgefraction=0 -focus="$re" $(profiles $b) |
			awk -v n="$n" -v runs="$runs" '/^Showing nodes accounting for/ {
				t = $5; sub(/,$/, "", t); pct = $6; sub(/,$/, "", pct)
				f = t ~ /ms$/ ? 1e-3 : t ~ /min$/ ? 60 : t ~ /h$/ ? 3600 : 1; sub(/[a-z]+$/, "", t)
				printf "%s (%.2f ms a case)", pct, 1000 * t * f / runs / n
			}')
		row="$row | ${share:-0%}"
	done
	echo "$row |"
done << 'EOF'
reading case files (`corpus.Parse`)|corpus\.Parse$
scoring eval cases (`eval.Score`, `eval.Scorer`)|eval\.Score$|eval\.NewScorer$|eval\.\(\*Scorer\)\.ScoreInput$
of which redaction (`redact.String`)|internal/redact\.String$
drift matrix (`fuzz/drift`)|fuzz/drift\.
writing the reports (`render`, `report.Write`)|internal/render\.|report\.Write$|report\.encode$|casefile\..*\.All
garbage collection (`runtime.gcBgMarkWorker`, `gcAssistAlloc`)|runtime\.gcBgMarkWorker$|runtime\.gcAssistAlloc$
EOF

# Functions: the largest flat shares of either build.
for b in base head; do
	pprof -top -nodecount=200 $(profiles $b) |
		awk 'NF >= 6 && $2 ~ /%$/ { name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print $2 "\t" name }' > "$dir/flat-$b.txt"
done
echo
echo "| function (flat) | $base | $head |"
echo "| --- | ---: | ---: |"
{ head -n "$top" "$dir/flat-base.txt"; head -n "$top" "$dir/flat-head.txt"; } | cut -f2 | awk '!seen[$0]++' |
	while IFS= read -r fn; do
		b=$(awk -F'\t' -v f="$fn" '$2 == f { print $1; exit }' "$dir/flat-base.txt")
		h=$(awk -F'\t' -v f="$fn" '$2 == f { print $1; exit }' "$dir/flat-head.txt")
		echo "| \`${fn#github.com/compacteval/compacteval/}\` | ${b:--} | ${h:--} |"
	done
