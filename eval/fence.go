package eval

// fenceStep reads a trimmed line as a code fence delimiter, given the fence character
// open before it (0 for none): it returns the fence character open after it and whether
// the line is a delimiter. Three or more backticks or tildes open a fence; only three or
// more of the same character close it, so that a traceback's "~~~~~^^^^" inside a ```
// fence closes nothing (and a section moved past it does not fall into code).
func fenceStep(t string, open byte) (byte, bool) {
	run := func(c byte) bool { return len(t) >= 3 && t[0] == c && t[1] == c && t[2] == c }
	switch {
	case open != 0:
		if run(open) {
			return 0, true
		}
		return open, false
	case run('`'):
		return '`', true
	case run('~'):
		return '~', true
	}
	return 0, false
}
