#!/usr/bin/env bash
# Builds the real-data validity set: every file listed in eval/validity/sources.tsv (public
# sessions that real agents compacted), fetched at its commit into $COMPACTEVAL_VALIDITY_DIR
# and checked against its SHA-256. The files are others' transcripts and stay out of this
# repository; the test that reads them (go test ./eval -run ValidityReal) needs no network.
#
# Each file comes from raw.githubusercontent.com, or from a local clone when
# COMPACTEVAL_VALIDITY_GIT names a folder holding one per repository as OWNER+NAME (a git
# directory, or a folder with a repo/ git directory in it).
#
# Usage: COMPACTEVAL_VALIDITY_DIR=/tmp/validity scripts/validity-set.sh
#        COMPACTEVAL_VALIDITY_DIR=/tmp/validity go test ./eval -run ValidityReal -v
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${COMPACTEVAL_VALIDITY_DIR:?set COMPACTEVAL_VALIDITY_DIR to the folder to build the set in}
mkdir -p "$dir"
fetched=0
while IFS=$'\t' read -r name repo commit path sum agent; do
	case $name in '' | '#'*) continue ;; esac
	out="$dir/$name"
	if [ -f "$out" ] && echo "$sum  $out" | sha256sum -c --status; then
		continue
	fi
	tmp="$out.tmp"
	git_dir=""
	if [ -n "${COMPACTEVAL_VALIDITY_GIT:-}" ]; then
		for d in "$COMPACTEVAL_VALIDITY_GIT/${repo/\//+}/repo" "$COMPACTEVAL_VALIDITY_GIT/${repo/\//+}"; do
			if git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1 || git -C "$d" rev-parse --git-dir >/dev/null 2>&1; then
				git_dir=$d
				break
			fi
		done
	fi
	if [ -n "$git_dir" ]; then
		{ git --git-dir="$git_dir" show "$commit:$path" 2>/dev/null || git -C "$git_dir" show "$commit:$path"; } >"$tmp"
	else
		curl -fsSL --retry 3 "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$tmp"
	fi
	if ! echo "$sum  $tmp" | sha256sum -c --status; then
		echo "validity-set: $repo $commit $path: SHA-256 is $(sha256sum "$tmp" | cut -d' ' -f1), want $sum" >&2
		rm -f "$tmp"
		exit 1
	fi
	mv "$tmp" "$out"
	fetched=$((fetched + 1))
	echo "validity-set: $name ($agent) from $repo@${commit:0:7}"
done <eval/validity/sources.tsv
echo "validity-set: $fetched fetched; the set is in $dir"
