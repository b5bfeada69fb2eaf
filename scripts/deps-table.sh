#!/bin/sh
# deps-table.sh [-print]: how many packages (go list -deps, the standard library's included)
# each part of compacteval compiles, as the Markdown table between the deps-table markers of
# docs/architecture.md; -print writes the table to stdout instead (docs TestDepsTable
# compares the two). Run it from the module root after moving packages or changing
# imports; do not edit the table by hand. The counts are linux/amd64's with CGO_ENABLED=0,
# the release build of CI's platform, wherever the script runs.
set -eu
doc=docs/architecture.md

table() {
	echo "| part | package | packages |"
	echo "|---|---|---:|"
	while IFS='|' read -r part pkg; do
		n=$(GOOS=linux GOARCH=amd64 CGO_ENABLED=0 go list -deps "./$pkg" | wc -l | tr -d ' ')
		echo "| $part | \`$pkg\` | $n |"
	done <<'ROWS'
the report document|report
its renderers|internal/render
the gate|internal/gate
scoring|eval
fuzzing|fuzz
the drift mutators|fuzz/drift
the corpus|corpus
the extractors|compact
what review -base REV builds|cmd/compacteval-pipe
the whole tool|cmd/compacteval
ROWS
}

if [ "${1:-}" = -print ]; then
	table
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
table > "$tmp/table"
awk -v table="$tmp/table" '
	/<!-- deps-table -->/ { print; while ((getline line < table) > 0) print line; skip = 1; found++; next }
	/<!-- end deps-table -->/ { skip = 0 }
	!skip { print }
	END { exit found != 1 }
' "$doc" > "$tmp/doc" || { echo "deps-table: $doc has no one deps-table block" >&2; exit 2; }
cat "$tmp/doc" > "$doc"
