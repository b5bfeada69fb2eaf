package compact

import (
	"strings"
	"unicode/utf8"
)

// Rule "Echoed templates" of docs/robust.md, as it states it: a block whose lines are mostly the
// prompt's placeholders (three or more lines that are a bracketed phrase with a word of three
// letters, `[Detailed description]`, `[Task 1]`, or `[...]`, outnumbering the other lines) is the
// template echoed, not a summary. A bracketed letter or an empty pair (`[x]`, `[ ]`) is content.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// isTemplate reports a body made of the prompt's placeholders ("[Detailed description]"),
// rule "Echoed templates". Fewer than three ']' at line ends cannot make one.
func isTemplate(body string) bool {
	if strings.Count(body, "]") < 3 {
		return false
	}
	brackets := lineEndBrackets(body) // at least one for each placeholder line
	if brackets < 3 {
		return false
	}
	placeholders, content := 0, 0
	eachLine(body, func(line string) bool {
		l := strings.TrimSpace(line)
		i := 0 // strings.TrimLeft(l, "-*"), without building its set for every line
		for i < len(l) && (l[i] == '-' || l[i] == '*') {
			i++
		}
		l = strings.TrimSpace(l[i:])
		switch {
		case l == "" || isHeadingOnly(l):
		case isPlaceholder(l):
			placeholders++
		default:
			content++
		}
		return content < brackets // past that, placeholders can no longer outnumber content
	})
	return placeholders >= 3 && placeholders > content
}

// isPlaceholder reports a line that is one of the prompt's placeholders: a bracketed phrase
// with a word of three letters or more ("[Detailed description]", "[Task 1]"), or "[...]".
// A bracketed letter ("[C]") or an empty pair ("[]") is written content, however short.
func isPlaceholder(l string) bool {
	if len(l) < 2 || l[0] != '[' || l[len(l)-1] != ']' {
		return false
	}
	inner, run := l[1:len(l)-1], 0
	if inner == "..." {
		return true
	}
	for i := 0; i < len(inner) && run < 3; i++ {
		if isASCIILetter(inner[i]) {
			run++
		} else {
			run = 0
		}
	}
	return run >= 3
}

// lineEndBrackets counts the ']' of s that only blanks follow on their line: each
// placeholder line (isPlaceholder, of the line trimmed by strings.TrimSpace) holds one. A
// ']' before a non-ASCII character counts too, as that may be a space or a line end.
func lineEndBrackets(s string) int {
	n := 0
	for at := 0; ; {
		k := strings.IndexByte(s[at:], ']')
		if k < 0 {
			return n
		}
		at += k + 1
		i := at
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\v' || s[i] == '\f') {
			i++
		}
		if i == len(s) || s[i] == '\n' || s[i] == '\r' || s[i] >= utf8.RuneSelf {
			n++
		}
	}
}
