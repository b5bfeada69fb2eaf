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
	if body == "" {
		return false // one line, blank: the text before each orphan closer of a loop of them
	}
	// Line by line, as eachLine splits them, but without first looking for every kind of
	// terminator in the whole body: the first lines decide most bodies.
	// lineIn written out, a call less for each line of the short bodies most blocks have.
	nl := -1 // the next '\n' at or after start, or len(body)
	for start, quiet := 0, 0; ; quiet++ {
		if quiet == 2 {
			return hasContentLoop(body, start, simple) // a body that goes on saying nothing
		}
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
		if isContentLine(body[start:end]) {
			return true
		}
		if n == 0 {
			return false
		}
		start = end + n
	}
}

// lineIn returns the end of the line of body that starts at start and the length of its
// terminator (0 at the end of body); nl is the next '\n' at or after start, or len(body),
// kept from one line to the next (-1 before the first).
func lineIn(body string, start int, nl *int, simple bool) (end, n int) {
	if *nl < start {
		*nl = len(body)
		if k := strings.IndexByte(body[start:], '\n'); k >= 0 {
			*nl = start + k
		}
	}
	end = *nl
	if end < len(body) {
		n = 1
	}
	for i := start; i < *nl && !simple; i++ {
		if c := body[i]; c == '\r' || c == 0xc2 || c == 0xe2 {
			if m := TerminatorLen(body, i); m > 0 {
				return i, m
			}
		}
	}
	return end, n
}

// hasContentLoop is hasContentIn from the line at start on, where the lines before it say
// nothing. It keeps the last lines found to say nothing (isContentLine is a function of the
// line alone) and where each starts: a body that loops over a few tag lines, which runs to
// the end of the text, asks about each line of the loop once, and where a "\n"-only body
// repeats from a line equal to one of them on, the repeat is passed (repeatsFrom).
func hasContentLoop(body string, start int, simple bool) bool {
	var said [4]string
	var at [4]int
	k := 0 // lines found to say nothing; the last four are in said (an entry not yet set is no line)
	for nl := -1; ; {
		end, n := lineIn(body, start, &nl, simple)
		line, hit := body[start:end], -1
		for x := range min(k, len(said)) {
			if line == said[x] {
				hit = x
				break
			}
		}
		switch {
		case hit < 0:
			if isContentLine(line) {
				return true
			}
			said[k%len(said)], at[k%len(said)] = line, start
			k++
		case simple && n == 1 && at[hit] < start:
			// Every line before start says nothing. From start on, the body repeats itself
			// period bytes back up to p: each line that ends before p is a line period bytes
			// earlier (its start follows a "\n" there too), which says nothing.
			p := repeatsFrom(body, start, start-at[hit], end+1-start)
			end = start + strings.LastIndexByte(body[start:p], '\n') // the line at start ends before p
		}
		if n == 0 {
			return false
		}
		start = end + n
	}
}

// repeatsFrom returns the end of the run from position from on where s[x] == s[x-period],
// known for the first known bytes. The run is compared in chunks that double (a vectorised
// compare), as repeatLineTag compares a loop of tag lines.
func repeatsFrom(s string, from, period, known int) int {
	p := from + known
	for chunk := max(known, 1); p < len(s); chunk = min(2*chunk, 1<<12) {
		m := min(chunk, len(s)-p)
		if s[p:p+m] != s[p-period:p-period+m] {
			for s[p] == s[p-period] {
				p++ // fewer than m bytes, and m is at most twice what matched before
			}
			break
		}
		p += m
	}
	return p
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
//
// A line that loops over one token or two (a looping model's "<summary> <summary> ...") is
// read one loop at a time where it repeats itself (tokensRepeat); tagShapedOnlyRef in
// robust_lines_test.go is the token-by-token definition.
func tagShapedOnly(l string) bool {
	var starts [2]int // where the last two tokens start, for tokensRepeat
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
		if n >= 2 && n&(n-1) == 0 { // at the 2nd, 4th, 8th ... token: a few times a line
			if k := tokensRepeat(l, i, starts); k > i {
				starts[0], starts[1], i = starts[0]+k-i, starts[1]+k-i, k
			}
		}
		starts[0], starts[1] = starts[1], i
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
// tokensRepeat returns where tagShapedOnly's loop may go on from the token at l[i], the
// tokens that start at starts[1] and starts[0] read before it: where l repeats itself from
// i on, one or two tokens back (l[x] == l[x-period] from x = i on, period the length of
// those tokens and their blanks), each copy of them before the last '<' of the repeat is
// read as they were (a token, then blanks up to the next '<'), and the loop goes on at
// the last copy. It returns i where l does not repeat.
func tokensRepeat(l string, i int, starts [2]int) int {
	for _, from := range starts[:] {
		period := i - from
		if period <= 0 || i+period > len(l) || l[i:i+period] != l[from:i] {
			continue
		}
		p := repeatsFrom(l, i, period, period)
		return i + (p-1-i)/period*period
	}
	return i
}

func isHeadingOnly(l string) bool {
	for len(l) > 0 && (l[0] == '#' || l[0] == '*' || l[0] == ' ') {
		l = l[1:] // strings.TrimLeft(l, "#* ") without building its set for each line
	}
	if len(l) < 3 || l[0] < '1' || l[0] > '9' || l[1] != '.' {
		return false
	}
	return strings.HasSuffix(strings.TrimRight(l, "* "), ":") && utf8.RuneCountInString(l) < 60
}
