#!/bin/sh
# deps-table.sh [BASE]: how many packages (go list -deps, the standard library's included)
# each part of compacteval compiles, at BASE (default main) and in the working tree, as the
# Markdown table between the deps-table markers of docs/architecture.md. Run it from the
# module root after moving packages; do not edit the table by hand.
set -eu
base=${1:-main}
doc=docs/architecture.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base"
git archive "$base" | tar -x -C "$tmp/base"

# count DIR PKG prints the number of packages PKG compiles in the module at DIR, or "-"
# where there is no such package.
count() {
	if [ -d "$1/$2" ]; then
		(cd "$1" && GOFLAGS=-mod=mod GOPROXY=off go list -deps "./$2" | wc -l | tr -d ' ')
	else
		echo -
	fi
}

rev=$(git rev-parse --short "$base")
{
	echo "| part | package at $base ($rev) | packages | package now | packages |"
	echo "|---|---|---:|---|---:|"
	while IFS='|' read -r part old new; do
		echo "| $part | \`$old\` | $(count "$tmp/base" "$old") | \`$new\` | $(count . "$new") |"
	done <<'ROWS'
the report document|internal/report|report
its renderers|internal/report|internal/render
the gate|internal/gate|internal/gate
scoring|eval|eval
fuzzing|fuzz|fuzz
the corpus|corpus|corpus
the extractors|compact|compact
what review -base REV builds|cmd/compacteval|cmd/compacteval-pipe
the whole tool|cmd/compacteval|cmd/compacteval
ROWS
} > "$tmp/table"

awk -v table="$tmp/table" '
	/<!-- deps-table -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
	/<!-- end deps-table -->/ { skip = 0 }
	!skip { print }
' "$doc" > "$tmp/doc"
cat "$tmp/doc" > "$doc"
