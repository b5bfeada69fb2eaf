package compact

import "strings"

// Text helpers that robust's rules share: folding, lines, repeats.

// equalFold reports whether a and b are equal, ASCII letters in any case.
func equalFold(a, b string) bool { return len(a) == len(b) && asciiEqualFold(a, b) }

// hasPrefixFold reports whether s begins with prefix, ASCII letters in any case.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && asciiEqualFold(s[:len(prefix)], prefix)
}

// eachLine calls f with the lines of s split at every line terminator (\n, \r\n, \r,
// U+2028, U+2029, U+0085), terminators dropped, until f returns false. A text with none but
// "\n" is split with IndexByte.
func eachLine(s string, f func(string) bool) {
	if onlyNewlines(s) {
		for {
			line, rest, ok := strings.Cut(s, "\n")
			if !f(line) || !ok {
				return
			}
			s = rest
		}
	}
	start := 0
	for i := 0; i < len(s); {
		n := TerminatorLen(s, i)
		if n == 0 {
			i++
			continue
		}
		if !f(s[start:i]) {
			return
		}
		i += n
		start = i
	}
	f(s[start:])
}

// onlyNewlines reports whether "\n" is the only line terminator of s, so that eachLine
// splits it at "\n" alone.
func onlyNewlines(s string) bool {
	return strings.IndexByte(s, '\r') < 0 && !hasLineSeparator(s) && !containsByLast(s, "\u0085")
}

// indexByteNear is strings.IndexByte for a search that often ends within a few bytes (the
// next '<' of a line of them, the end of a short line): it reads up to 16 bytes itself
// before it calls the vectorised search, whose setup costs more than they do.
func indexByteNear(s string, c byte) int {
	n := min(len(s), 16)
	for i := 0; i < n; i++ {
		if s[i] == c {
			return i
		}
	}
	if n == len(s) {
		return -1
	}
	if k := strings.IndexByte(s[n:], c); k >= 0 {
		return n + k
	}
	return -1
}
