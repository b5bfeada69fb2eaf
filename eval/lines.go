package eval

import "strings"

// lines extracts the line-shaped facts: error messages, and commands on "$ " lines or in
// shell code fences.
func (s *factSet) lines(i int, text string, strong bool) {
	shell, fence := false, byte(0)
	for len(text) > 0 {
		line := text
		if j := strings.IndexByte(text, '\n'); j >= 0 {
			line, text = text[:j], text[j+1:]
		} else {
			text = ""
		}
		t := strings.TrimSpace(line)
		if open, delim := fenceStep(t, fence); delim {
			fence, shell = open, open != 0 && shellLang[strings.ToLower(strings.Trim(t[3:], "`~ \t"))]
			continue
		}
		switch {
		case shell:
			s.command(i, strings.TrimPrefix(t, "$ "), strong)
		case strings.HasPrefix(t, "$ "):
			s.command(i, t[2:], strong)
		}
		if s.errors < maxErrorsPerMessage {
			if keys, shown, ok := errorKeys(t); ok {
				f := s.add(KindError, keys[0], shown, i, !s.readOutput)
				f.alts = keys[1:]
				s.errors++
			}
		}
	}
}

var shellLang = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true, "zsh": true, "terminal": true, "shell-session": true, "fish": true, "powershell": true}

// command adds the command on one line: its first segment that does more than look around
// (cd, ls, cat, grep, ...), keyed by its program and up to two more words.
func (s *factSet) command(i int, line string, strong bool) {
	if s.commands >= maxCommandsPerMessage {
		return
	}
	for _, seg := range splitShell(line) {
		if id, ok := ghRef(strings.TrimSpace(seg)); ok {
			s.add(KindToolID, id, id, i, strong)
		}
	}
	for _, seg := range splitShell(line) {
		key, ok := commandKey(seg)
		if !ok {
			continue
		}
		s.add(KindCommand, key, opening(seg, 120), i, strong)
		s.commands++
		break
	}
	scanChunks(line, func(c string, call bool) { s.chunk(i, c, call, strong) })
}

// splitShell splits a command line at ;, |, ||, && and & outside quotes and $( ).
func splitShell(line string) []string {
	var segs []string
	start, depth := 0, 0
	var quote byte
	for j := 0; j < len(line); j++ {
		var quoting bool
		if j, quote, quoting = quoteStep(line, j, quote); quoting {
			continue
		}
		switch c := line[j]; {
		case c == '(':
			depth++
		case c == ')':
			depth = max(depth-1, 0)
		case c == '&' && (j > 0 && line[j-1] == '>' || j+1 < len(line) && line[j+1] == '>'):
			// 2>&1, >&2, &> file: a redirection, not a background job
		case depth == 0 && (c == ';' || c == '|' || c == '&'):
			segs = append(segs, line[start:j])
			for j+1 < len(line) && (line[j+1] == '|' || line[j+1] == '&') {
				j++
			}
			start = j + 1
		}
	}
	return append(segs, line[start:])
}

var wrappers = set("sudo", "time", "exec", "nohup", "env", "command", "builtin", "nice", "caffeinate")

var quietPrograms = map[string]bool{
	"cd": true, "ls": true, "cat": true, "pwd": true, "echo": true, "head": true, "tail": true,
	"wc": true, "clear": true, "true": true, "false": true, "sleep": true, "which": true,
	"sort": true, "uniq": true, "less": true, "more": true, "tee": true, "printf": true,
	"export": true, "source": true, "set": true, "grep": true, "rg": true, "find": true,
	"sed": true, "awk": true, "tr": true, "cut": true, "xargs": true, "env": true, "exit": true,
	"mkdir": true, "touch": true, "nl": true, "stat": true, "file": true, "tree": true,
}

// commandKey returns a command's program and up to two more words, stopping at the first
// flag after the second word; it skips variable assignments and wrappers (sudo, timeout
// 60, nohup, ...). Commands of one word and those of quietPrograms have none.
func commandKey(seg string) (string, bool) {
	fields := strings.Fields(strings.TrimLeft(strings.TrimSpace(seg), "("))
skip:
	for len(fields) > 0 {
		switch f := fields[0]; {
		case strings.Contains(f, "=") || wrappers[f] || f == "$":
			fields = fields[1:]
		case f == "timeout" && len(fields) > 1:
			fields = fields[2:]
		default:
			break skip
		}
	}
	if len(fields) < 2 || quietPrograms[fields[0]] || !startsLetterOrDot(fields[0]) || strings.HasSuffix(fields[0], ":") {
		return "", false // "Note: ...", "Co-Authored-By: ..." are text
	}
	words := fields[:1]
	for _, f := range fields[1:] {
		if len(words) == 3 || len(words) >= 2 && strings.HasPrefix(f, "-") || fragment(f) {
			break
		}
		words = append(words, strings.Trim(f, `'"`))
	}
	for len(words) > 1 && strings.HasPrefix(words[len(words)-1], "-") {
		words = words[:len(words)-1] // python3 -c, bun -e: the script is what it runs
	}
	if len(words) < 2 {
		return "", false
	}
	key := normText(strings.Join(words, " "))
	return key, len(key) >= 5
}

// fragment reports whether a word of a command line ends what a summary can name of it: a
// redirection (2>, >>, <, 2>&1, a here-document's <<), a command substitution or a quote
// it opens and does not close (-m "$(cat, 'EOF).
func fragment(w string) bool {
	t := strings.TrimLeft(w, "0123456789&")
	if strings.HasPrefix(t, ">") || strings.HasPrefix(t, "<") || strings.Contains(w, "$(") || strings.Contains(w, "`") {
		return true
	}
	return strings.Count(w, "'")%2 == 1 || strings.Count(w, `"`)%2 == 1
}

func startsLetterOrDot(s string) bool {
	c := s[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '/' || c == '~'
}

// errorMarkers make a line an error message.
var errorMarkers = []string{
	"Error:", "error:", "ERROR:", "ERROR ", "error TS", "error[", "Exception:", "Exception in",
	"panic:", "fatal:", "FATAL", "FAILED", "--- FAIL:", "npm ERR!", "undefined:",
	"cannot find", "Cannot find", "No such file or directory", "no such file or directory",
	"Permission denied", "permission denied", "command not found", "Segmentation fault",
	"is not defined", "is not a function", "failed to ", "Failed to ", "Traceback",
}

// messageMarkers start the message proper in a line that has several markers
// ("FAILED test_x - AssertionError: rows not sorted").
var messageMarkers = []string{"Error:", "error:", "Exception:", "error TS", "error["}

// errorKeys returns the normalized forms of the error message in a line, at most 12 words
// each and without trailing punctuation: from the word that holds its first marker to the
// end of the line, then from the word that holds its last Error:-like marker, then the
// text after its last colon when that has three words or more. A leading file:line:
// location and a trailing test duration are removed first.
func errorKeys(line string) (keys []string, shown string, ok bool) {
	t := strings.TrimLeft(line, "-*> \t")
	if strings.HasPrefix(line, "--- FAIL") {
		t = line
	}
	if len(t) < 8 || strings.HasPrefix(t, "Traceback (most recent call last)") || looksLikeCode(t) {
		return nil, "", false
	}
	t = stripDuration(stripLocation(t))
	first, last := -1, -1
	for _, m := range errorMarkers {
		if j := strings.Index(t, m); j >= 0 && (first < 0 || j < first) {
			first = j
		}
	}
	if first < 0 {
		return nil, "", false
	}
	for _, m := range messageMarkers {
		if j := strings.LastIndex(t, m); j > last {
			last = j
		}
	}
	add := func(from, minWords int) {
		for from > 0 && !strings.ContainsRune(" \t([", rune(t[from-1])) {
			from--
		}
		words := strings.Fields(normText(t[from:]))
		if len(words) > 12 {
			words = words[:12]
		}
		key := strings.TrimRight(strings.Join(words, " "), ".,;:!")
		if len(words) < minWords || len(key) < 12 {
			return
		}
		for _, k := range keys {
			if k == key {
				return
			}
		}
		keys = append(keys, key)
	}
	add(first, 2)
	if len(keys) == 0 {
		return nil, "", false
	}
	if last > first {
		add(last, 2)
	}
	if j := strings.LastIndex(t, ": "); j > first {
		add(j+2, 3)
	}
	return keys, opening(strings.TrimSpace(t[first:]), 160), true
}

// looksLikeCode reports whether a line is code that mentions an error (return
// json({ error: reason })) rather than an error message.
func looksLikeCode(t string) bool {
	if strings.ContainsAny(t, "{}") || strings.Contains(t, "=>") || strings.Contains(t, " = ") || strings.HasPrefix(t, "return ") {
		return true
	}
	return strings.HasSuffix(t, ";") || strings.HasSuffix(t, ",") || strings.HasSuffix(t, "(")
}

// stripLocation removes a leading "path:12:" or "path:12:3:" location.
func stripLocation(t string) string {
	sp := strings.IndexAny(t, " \t")
	if sp < 0 {
		return t
	}
	head := t[:sp]
	if !strings.HasSuffix(head, ":") {
		return t
	}
	parts := strings.Split(strings.TrimSuffix(head, ":"), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return t
	}
	for _, p := range parts[1:] {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return t
		}
	}
	return strings.TrimSpace(t[sp:])
}

// stripDuration removes a trailing "(0.01s)", "(12ms)" or "[20.047 seconds]" that differs
// between runs.
func stripDuration(t string) string {
	open := strings.LastIndexAny(t, "([")
	if open < 0 || !strings.HasSuffix(t, ")") && !strings.HasSuffix(t, "]") {
		return t
	}
	d := strings.TrimSpace(t[open+1 : len(t)-1])
	for _, unit := range []string{" seconds", "ms", "s", "m"} {
		d = strings.TrimSuffix(d, unit)
	}
	if d != "" && strings.Trim(d, "0123456789.") == "" {
		return strings.TrimSpace(t[:open])
	}
	return t
}
