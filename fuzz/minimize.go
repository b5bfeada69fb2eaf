package fuzz

import (
	"strings"
	"unicode/utf8"

	"github.com/compacteval/compacteval/compact"
)

// extractFunc extracts from many texts at once (a Target's ExtractAll).
type extractFunc func(texts []string) ([]compact.Extraction, error)

// minimize shrinks text while it still fails with the given kind by stillFails: it removes runs of lines
// (halves, quarters, ... single lines), then runs of bytes at rune boundaries, keeping
// the first removal that still fails, until none does or budget extractions are spent.
// Candidates of one round are extracted in one batch. It returns the smallest failing text
// found (text itself when nothing smaller fails) and the extractions spent.
func minimize(kind, text string, extract extractFunc, budget int) (string, int, error) {
	spent := 0
	for _, unit := range []func(string) []string{splitKeepLines, splitRunes} {
		for spent < budget {
			parts := unit(text)
			next, n, err := shrinkOnce(kind, parts, extract, budget-spent)
			spent += n
			if err != nil {
				return text, spent, err
			}
			if next == "" || next == text {
				break
			}
			text = next
		}
	}
	return text, spent, nil
}

// shrinkOnce tries removing chunks of parts, largest first, and returns the first shorter
// text that still fails ("" when none does).
func shrinkOnce(kind string, parts []string, extract extractFunc, budget int) (string, int, error) {
	spent := 0
	for size := len(parts) / 2; size >= 1 && spent < budget; size /= 2 {
		var cands []string
		for start := 0; start < len(parts) && len(cands) < budget-spent; start += size {
			end := min(start+size, len(parts))
			cands = append(cands, strings.Join(parts[:start], "")+strings.Join(parts[end:], ""))
		}
		got, err := extract(cands)
		spent += len(cands)
		if err != nil {
			return "", spent, err
		}
		for i, c := range cands {
			if stillFails(kind, c, got[i]) {
				return c, spent, nil
			}
		}
	}
	return "", spent, nil
}

// splitKeepLines splits s after every "\n", keeping it.
func splitKeepLines(s string) []string {
	return strings.SplitAfter(s, "\n")
}

// splitRunes splits s into runes (for a text already short, a rune at a time is fine).
func splitRunes(s string) []string {
	if len(s) > 4096 {
		return splitKeepLines(s)
	}
	out := make([]string, 0, len(s))
	for i := 0; i < len(s); {
		_, n := utf8.DecodeRuneInString(s[i:])
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}
