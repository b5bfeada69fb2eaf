package compact

import (
	"strings"
	"unicode/utf8"
)

// Rule "Truncation" of docs/robust.md, as it states it: an unclosed block runs to the end of the
// text, minus a partial closing tag (`</summ`). A block with no content besides section headings
// and tags (tags separated by any blanks, Unicode spaces included, and after invisible characters
// such as a BOM; a line of invisible characters alone is blank) is no summary.
//
// This file holds that rule; docs/robust.md and compact/robust.ts state and implement it too.

// trimPartialCloser removes a closing tag cut short at the end of an unclosed block (rule
// "Truncation"): a prefix of "</summary" or "<summary", in any case, that ends the body.
func trimPartialCloser(body string) string {
	i := strings.LastIndexByte(body[max(0, len(body)-len("</summary")):], '<')
	if i < 0 {
		return body
	}
	i += max(0, len(body)-len("</summary"))
	if frag := body[i:]; hasPrefixFold("</summary", frag) || hasPrefixFold("<summary", frag) {
		return body[:i]
	}
	return body
}

// hasContent reports whether a body says anything besides headings, tags and blanks (rule
// "Truncation").
func hasContent(body string) bool { return hasContentIn(body, false) }

// hasContentIn is hasContent for a body known to end its lines with "\n" alone where simple
// is set (a part of a scan.onlyLF text), whose lines need no search for other terminators.
func hasContentIn(body string, simple bool) bool {
	// Line by line, as eachLine splits them, but without first looking for every kind of
	// terminator in the whole body: the first lines decide most bodies.
	nl := -1 // the next '\n' at or after start, or len(body)
	// The last lines found to say nothing (isContentLine is a function of the line alone): a
	// body that loops over a few tag lines, which runs to the end of the text, asks about each
	// line of the loop once.
	var said [4]string
	k := 0 // lines found to say nothing; said holds them from the third on (a blank line is "")
	for start := 0; ; {
		if nl < start {
			nl = len(body)
			if k := strings.IndexByte(body[start:], '\n'); k >= 0 {
				nl = start + k
			}
		}
		end, n := nl, 0
		if nl < len(body) {
			n = 1
		}
		for i := start; i < nl && !simple; i++ {
			if c := body[i]; c == '\r' || c == 0xc2 || c == 0xe2 {
				if m := TerminatorLen(body, i); m > 0 {
					end, n = i, m
					break
				}
			}
		}
		if line := body[start:end]; k < 2 || line != said[0] && line != said[1] && line != said[2] && line != said[3] {
			if isContentLine(line) {
				return true
			}
			if k >= 2 {
				said[k%len(said)] = line
			}
			k++
		}
		if n == 0 {
			return false
		}
		start = end + n
	}
}

// isContentLine reports a line that says something: not blank, not only tags, not a bare
// section heading.
func isContentLine(line string) bool {
	l := strings.TrimSpace(line)
	// l is trimmed: tagShapedOnly is false unless it opens with '<' or an invisible
	// character (asked here, as the call is not inlined).
	return l != "" && !((l[0] == '<' || l[0] >= utf8.RuneSelf) && tagShapedOnly(l)) && !isHeadingOnly(l)
}

// tagShapedOnly reports whether l is made of <...> tokens and blanks alone: tags, known or
// broken (<summ\xb3ry>), are not content. After the first token a blank is any invisible
// character, a Unicode space between two tags as much as an ASCII one; before the first, a
// run of invisible characters (a BOM) is one where a '<' or nothing follows it.
func tagShapedOnly(l string) bool {
	for i, n := 0, 0; ; n++ {
		for i < len(l) {
			c := l[i]
			if c == ' ' || c == '\t' {
				i++
				continue
			}
			if n == 0 {
				break
			}
			if c < utf8.RuneSelf {
				if !asciiSpace(c) {
					break // the invisible ASCII characters are the spaces (the next '<' of a line of tags)
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(l[i:])
			if !invisible(r) {
				break
			}
			i += size
		}
		if n == 0 && i < len(l) && l[i] != '<' {
			// A BOM or zero-width character before the first tag is invisible, as it is
			// before a tag at a line start (rule "Tags").
			j := i
			for j < len(l) {
				r, size := utf8.DecodeRuneInString(l[j:])
				if !invisible(r) {
					break
				}
				j += size
			}
			if j == len(l) || l[j] == '<' {
				i = j // a line of invisible characters alone is blank
			}
		}
		if i == len(l) {
			return true
		}
		if l[i] != '<' {
			return false
		}
		j := i + 1 // the first '<' or '>' after it, which must be '>'
		for j < len(l) && l[j] != '<' && l[j] != '>' {
			j++
		}
		if j == len(l) || l[j] != '>' {
			return false
		}
		i = j + 1
	}
}

// isHeadingOnly reports a section heading with nothing after it: "3. Files and Code Sections:".
func isHeadingOnly(l string) bool {
	l = strings.TrimLeft(l, "#* ")
	if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(l, "* "), ":") && utf8.RuneCountInString(l) < 60
}
