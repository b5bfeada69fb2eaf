package compact

// TerminatorLen returns the length in bytes of the line terminator at s[i] ("\n", "\r\n",
// a lone "\r", U+0085, U+2028, U+2029), or 0 where none starts. It is the one line-terminator
// scanner of compacteval: robust, the drift mutators and the text diffs all split lines with it.
func TerminatorLen(s string, i int) int {
	switch s[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xc2:
		if i+1 < len(s) && s[i+1] == 0x85 {
			return 2
		}
	case 0xe2:
		if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9) {
			return 3
		}
	}
	return 0
}
