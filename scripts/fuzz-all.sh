#!/bin/sh
# Runs every native Go fuzz target of the module in turn for FUZZTIME each (default 30s)
# and prints what each did: executions, executions per second, new interesting inputs, and
# whether it found a failure (the failing input is then in the package's
# testdata/fuzz/<target>/; commit it so plain go test replays it).
#
# Minimization is cut to one execution per input (-fuzzminimizetime=1x): minimizing the
# large corpus seeds would otherwise stall the run for minutes.
set -u
FUZZTIME=${FUZZTIME:-30s}
GO=${GO:-go}
status=0
summary=""
for pkg in $($GO list ./...); do
	if ! listed=$($GO test -list '^Fuzz' "$pkg" 2>&1); then
		echo "== $pkg: cannot list its fuzz targets:"
		printf '%s\n' "$listed" | tail -5
		status=1
		continue
	fi
	targets=$(printf '%s\n' "$listed" | grep '^Fuzz' || true)
	for t in $targets; do
		echo "== $pkg $t ($FUZZTIME)"
		out=$($GO test -run '^$' -fuzz "^$t\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 1x "$pkg" 2>&1)
		rc=$?
		last=$(printf '%s\n' "$out" | grep 'execs:' | tail -1)
		execs=$(printf '%s\n' "$last" | sed -n 's/.*execs: \([0-9]*\).*/\1/p')
		newi=$(printf '%s\n' "$last" | sed -n 's/.*new interesting: \([0-9]*\).*/\1/p')
		secs=$(printf '%s\n' "$last" | sed -n 's/.*elapsed: \([0-9]*\)s.*/\1/p')
		rate="?"
		if [ -n "$execs" ] && [ -n "$secs" ] && [ "$secs" -gt 0 ]; then rate=$((execs / secs)); fi
		if [ $rc -eq 0 ]; then
			result="no failure"
		else
			result="FAILED"
			status=1
			printf '%s\n' "$out" | grep -v '^fuzz: elapsed' | tail -20
		fi
		line=$(printf '%-28s %-48s execs %-9s %6s/s  new interesting %-5s %s' "$t" "$pkg" "${execs:-0}" "$rate" "${newi:-0}" "$result")
		echo "$line"
		summary="$summary$line
"
	done
done
echo
echo "== summary (FUZZTIME=$FUZZTIME, $(nproc) cores)"
printf '%s' "$summary"
exit $status
