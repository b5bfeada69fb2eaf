#!/bin/sh
# robust-instructions.sh: instructions robust and seed execute on each benchmark input, counted
# by valgrind's callgrind (deterministic for a binary and input, whatever else the machine
# runs), as a Markdown table: for the families, robust's instructions per input byte at 100 KB,
# 1 MB and 10 MB, how much that grows per 10x of input, and the most bytes it allocates per
# input byte at any of the three; seed's instructions per byte at 1 MB beside them (seed is
# not counted at 10 MB: it is quadratic on some families). Issue 39's floor is at most 100
# instructions and 8 bytes a byte at every size; the last line names the worst row. Needs
# valgrind; about ten minutes on a quiet core. scripts/doc-tables.sh robust writes it into
# docs/robust.md.
#
#   scripts/robust-instructions.sh [INPUT...]     (default: the corpus, the benchmark inputs, every family)
set -eu
command -v valgrind >/dev/null || { echo "robust-instructions.sh: valgrind is not on PATH" >&2; exit 2; }
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/icount
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./internal/cmd/icount

# count INPUT SIZE EXTRACTOR: "instructions bytes allocated" inside icount's measured function.
count() {
	out=$(dirname "$bin")/cg.out
	# Go's signals and goroutines upset callgrind: one thread, no preemption, no collector;
	# no RDTSCP, which valgrind 3.19 does not know (SIGILL about one run in eleven).
	line=$(GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind --callgrind-out-file="$out" \
		--toggle-collect='main.measured' "$bin" -input "$1" -size "$2" -extractor "$3" 2>"$out.err") ||
		{ cat "$out.err" >&2; exit 1; }
	n=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out.err")
	[ -n "$n" ] && [ "$n" -gt 0 ] || { echo "robust-instructions.sh: callgrind counted nothing for $1 $2 $3" >&2; cat "$out.err" >&2; exit 1; }
	echo "$n $(echo "$line" | sed -n 's/.* texts \([0-9]*\) bytes,.*allocated \([0-9]*\) bytes$/\1 \2/p')"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else if (a / b >= 100) printf "%.0fx", a / b; else printf "%.1fx", a / b }'; }
million() { awk -v a="$1" 'BEGIN { if (a >= 1e6) printf "%.1f M", a / 1e6; else if (a >= 1e3) printf "%.1f K", a / 1e3; else printf "%d", a }'; }
perbyte() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

inputs=${*:-"corpus typical-20KB typical-200KB $("$bin" -list)"}
echo "| input | seed instructions / byte at 1 MB | robust at 100 KB | robust at 1 MB | robust at 10 MB | robust's growth per 10x | robust bytes allocated / byte (most) | robust / seed at 1 MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
worst=0
worstName=
# note IN PERBYTE: keeps the worst instructions per byte seen.
note() {
	if awk -v a="$2" -v b="$worst" 'BEGIN { exit !(a > b) }'; then worst=$2; worstName=$1; fi
}
most() { awk 'BEGIN { m = 0; for (i = 1; i < ARGC; i++) if (ARGV[i] + 0 > m) m = ARGV[i] + 0; printf "%.1f", m }' "$@"; }
for in in $inputs; do
	case $in in
	corpus | typical-*)
		set -- $(count "$in" 0 seed)
		s=$1
		set -- $(count "$in" 0 robust)
		pb=$(perbyte "$1" "$2")
		note "$in" "$pb"
		echo "| $in | $(perbyte "$s" "$2") | | $pb | | | $(perbyte "$3" "$2") | $(ratio "$1" "$s") |"
		;;
	*)
		set -- $(count "$in" 1048576 seed)
		s2=$1
		set -- $(count "$in" 102400 robust)
		r1=$(perbyte "$1" "$2") a1=$(perbyte "$3" "$2") n1=$1
		set -- $(count "$in" 1048576 robust)
		r2=$(perbyte "$1" "$2") a2=$(perbyte "$3" "$2") n2=$1 b2=$2
		set -- $(count "$in" 10485760 robust)
		r3=$(perbyte "$1" "$2") a3=$(perbyte "$3" "$2")
		# robust reads every family: ten times the input is never less than twice the work.
		[ "$n2" -ge $((2 * n1)) ] || { echo "robust-instructions.sh: $in: robust counted $n1 at 100 KB and only $n2 at 1 MB" >&2; exit 1; }
		growth=$(awk -v a="$r1" -v b="$r2" -v c="$r3" 'BEGIN { g = b / a; if (c / b > g) g = c / b; printf "%+.1f%%", (g - 1) * 100 }')
		for r in "$r1" "$r2" "$r3"; do note "$in" "$r"; done
		echo "| $in | $(perbyte "$s2" "$b2") | $r1 | $r2 | $r3 | $growth | $(most "$a1" "$a2" "$a3") | $(ratio "$n2" "$s2") |"
		;;
	esac
done
echo
echo "Instructions per input byte, counted by callgrind; growth is the larger of 100 KB to 1 MB and 1 MB to 10 MB. The most a row costs is $worst instructions a byte ($worstName)."
