#!/bin/sh
# robust-instructions.sh: instructions robust and seed execute on each benchmark input, counted
# by valgrind's callgrind (deterministic for a binary and input, whatever else the machine
# runs), at 100 KB and 1 MB for the families, as a Markdown table, with robust's instructions
# and bytes allocated per input byte at 1 MB (the floor of issue 26: at most 150 instructions
# and 8 bytes a byte). Needs valgrind. scripts/doc-tables.sh robust writes it into
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
echo "| input | seed 100 KB | robust 100 KB | seed 1 MB | robust 1 MB | robust instructions / byte | robust bytes allocated / byte | robust / seed at 1 MB | robust 1 MB / 100 KB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for in in $inputs; do
	case $in in
	corpus | typical-*)
		set -- $(count "$in" 0 seed)
		s=$1
		set -- $(count "$in" 0 robust)
		echo "| $in | | | $(million "$s") | $(million "$1") | $(perbyte "$1" "$2") | $(perbyte "$3" "$2") | $(ratio "$1" "$s") | |"
		;;
	*)
		set -- $(count "$in" 102400 seed)
		s1=$1
		set -- $(count "$in" 102400 robust)
		r1=$1
		set -- $(count "$in" 1048576 seed)
		s2=$1
		set -- $(count "$in" 1048576 robust)
		# robust reads every family: ten times the input is never less than twice the work.
		[ "$1" -ge $((2 * r1)) ] || { echo "robust-instructions.sh: $in: robust counted $r1 at 100 KB and only $1 at 1 MB" >&2; exit 1; }
		echo "| $in | $(million "$s1") | $(million "$r1") | $(million "$s2") | $(million "$1") | $(perbyte "$1" "$2") | $(perbyte "$3" "$2") | $(ratio "$1" "$s2") | $(ratio "$1" "$r1") |"
		;;
	esac
done
