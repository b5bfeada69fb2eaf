#!/bin/sh
# cold-test.sh BASE [HEAD]: make test on an empty Go cache at two commits, side by side.
#
# Clones this repository twice under a temporary folder (with ../shared linked beside them,
# for the differential tests), checks out BASE and HEAD (default HEAD), and starts make test
# in both at the same moment, each with its own empty GOCACHE (the module cache is shared),
# under /usr/bin/time -v. Prints, for each, the wall time, the CPU time (user + sys), the
# exit status and the load average at the start and at the end; the logs stay in the folder
# it names. On a shared machine only the two figures of one run compare (docs/testing.md,
# "An empty Go cache").
set -eu
base=${1:?usage: scripts/cold-test.sh BASE [HEAD]}
head=${2:-HEAD}
repo=$(git rev-parse --show-toplevel)
shared=$(cd "$repo/../shared" && pwd -P)
tmp=$(mktemp -d)
ln -s "$shared" "$tmp/shared"
one() { # one NAME COMMIT
	git clone -q "$repo" "$tmp/$1"
	git -C "$tmp/$1" checkout -q "$2"
	mkdir "$tmp/$1.gocache"
	(
		cd "$tmp/$1"
		uptime > "$tmp/$1.load"
		status=0
		GOCACHE="$tmp/$1.gocache" /usr/bin/time -v -o "$tmp/$1.time" make test > "$tmp/$1.log" 2>&1 || status=$?
		echo "exit $status" >> "$tmp/$1.time"
		uptime >> "$tmp/$1.load"
		rm -rf "$tmp/$1.gocache"
	) &
}
one base "$(git rev-parse "$base")"
one head "$(git rev-parse "$head")"
wait
for name in base head; do
	awk -v name="$name" '
		/User time/ { u = $NF } /System time/ { s = $NF } /Elapsed/ { w = $NF } /^exit/ { e = $2 }
		END { printf "%s: %s wall, %.0f s CPU (user+sys), exit %s\n", name, w, u + s, e }' "$tmp/$name.time"
	sed -e 's/.*load average/load average/' -e '1s/^/  start: /' -e '2s/^/  end:   /' "$tmp/$name.load"
done
echo "logs: $tmp/base.log $tmp/head.log"
