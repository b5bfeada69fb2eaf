#!/bin/sh
# sdk-build.sh [BASE [HEAD]]: what the model SDKs cost a build, at two commits side by side.
#
# BASE defaults to 7696421, the last commit whose providers used anthropic-sdk-go and
# openai-go; HEAD to HEAD. Clones this repository twice under a temporary folder (with
# ../shared linked beside them) and, one commit after the other, each with its own empty
# GOCACHE (the module cache is shared) and make's CGO_ENABLED=0 GOFLAGS=-trimpath:
#   - /usr/bin/time -v go test -run '^$' ./cmd/compacteval ./internal/...   (cold CPU)
#   - go run ./scripts/dist -target linux/amd64, for the release binary and archive sizes
#   - go list -deps ./cmd/compacteval, the packages the CLI compiles
# and prints a Markdown table, with the load average before and after each cold build: on a
# shared machine only the two columns of one run compare. scripts/doc-tables.sh sdkbuild
# puts it in docs/testing.md.
set -eu
base=${1:-7696421}
head=${2:-HEAD}
repo=$(git rev-parse --show-toplevel)
shared=$(cd "$repo/../shared" && pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$shared" "$tmp/shared"
export CGO_ENABLED=0 GOFLAGS=-trimpath
load() { cut -d' ' -f1 /proc/loadavg; }
one() { # one NAME COMMIT
	git clone -q "$repo" "$tmp/$1"
	git -C "$tmp/$1" checkout -q "$2"
	mkdir "$tmp/$1.gocache" "$tmp/$1.dist"
	(
		cd "$tmp/$1"
		export GOCACHE="$tmp/$1.gocache"
		load > "$tmp/$1.load"
		/usr/bin/time -v -o "$tmp/$1.time" go test -run '^$' ./cmd/compacteval ./internal/... > "$tmp/$1.log" 2>&1
		load >> "$tmp/$1.load"
		go run ./scripts/dist -version v0.0.0-test -out "$tmp/$1.dist" -target linux/amd64 -allow-dirty > /dev/null
		tar -xzf "$tmp/$1.dist/compacteval_v0.0.0-test_linux_amd64.tar.gz" -C "$tmp/$1.dist" compacteval
		go list -deps ./cmd/compacteval | wc -l > "$tmp/$1.deps"
	)
}
one base "$(git rev-parse "$base")"
one head "$(git rev-parse "$head")"
cpu() { awk '/User time/ { u = $NF } /System time/ { s = $NF } END { printf "%.0f s", u + s }' "$1"; }
wall() { awk '/Elapsed/ { print $NF }' "$1"; }
mb() { awk -v n="$(wc -c < "$1")" 'BEGIN { printf "%.1f MB", n / 1e6 }'; }
echo "| | before ($(git rev-parse --short "$base")) | after ($(git rev-parse --short "$head")) |"
echo "|---|---:|---:|"
echo "| CPU (user + sys) of \`go test -run '^\$' ./cmd/compacteval ./internal/...\`, empty GOCACHE | $(cpu "$tmp/base.time") | $(cpu "$tmp/head.time") |"
echo "| its wall time | $(wall "$tmp/base.time") | $(wall "$tmp/head.time") |"
echo "| load average at its start, end | $(paste -sd, "$tmp/base.load" | sed 's/,/, /') | $(paste -sd, "$tmp/head.load" | sed 's/,/, /') |"
echo "| packages the CLI compiles (\`go list -deps ./cmd/compacteval\`) | $(cat "$tmp/base.deps") | $(cat "$tmp/head.deps") |"
echo "| release binary, linux/amd64 | $(mb "$tmp/base.dist/compacteval") | $(mb "$tmp/head.dist/compacteval") |"
echo "| release archive, linux/amd64 | $(mb "$tmp/base.dist/compacteval_v0.0.0-test_linux_amd64.tar.gz") | $(mb "$tmp/head.dist/compacteval_v0.0.0-test_linux_amd64.tar.gz") |"
