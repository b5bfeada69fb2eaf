package eval

import "strings"

// KindToolID is an identifier a tool handed out: a background job's or a shell's id, a
// run, task or process id passed back to a tool, a commit hash, an issue or pull request
// number. Such ids are what a summary's Current Work must name for the next context to
// pick the work up (the job still running, the commit under review).
const KindToolID = "tool-id"

// Shortest commit hash prefix a tool-id fact keys on: git's default abbreviation.
const hashPrefix = 7

// toolIDArg reports whether a tool call argument named key holds an id a tool handed out:
// key is id, ends in _id (bash_id, shell_id, task_id, run_id, ...) or is one of idFields
// (shellId, lowercased), and the value is one
// token of 4 to 64 letters, digits, '-', '_' or '.', with a digit. Short list indexes
// ("id": "1" in a to-do list) and names without a digit are not ids.
func toolIDArg(key, val string) (string, bool) {
	if key != "id" && !strings.HasSuffix(key, "_id") && !idFields[key] {
		return "", false
	}
	v := strings.TrimSpace(val)
	if len(v) < 4 || len(v) > 64 {
		return "", false
	}
	digit := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isDigit(c):
			digit = true
		case isLetter(c) || c == '-' || c == '_' || c == '.':
		default:
			return "", false
		}
	}
	if !digit {
		return "", false
	}
	return strings.ToLower(v), true
}

// idFields are the camelCase id arguments, lowercased (shellId, taskId, ...).
var idFields = set("bashid", "shellid", "taskid", "jobid", "runid", "processid", "pid")

// commitHash reports whether chunk c is a commit hash: 7 to 40 hexadecimal digits with
// both a digit and a letter (1234567 is a number, deadbeef a word); its key is the
// first 7, so that a summary naming the abbreviated hash holds the full one and the
// reverse.
func commitHash(c string) (string, bool) {
	if len(c) < hashPrefix || len(c) > 40 {
		return "", false
	}
	digit, letter := false, false
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case isDigit(b):
			digit = true
		case b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F':
			letter = true
		default:
			return "", false
		}
	}
	if !digit || !letter {
		return "", false
	}
	return strings.ToLower(c[:hashPrefix]), true
}

// issueRef reports whether chunk c is an issue or pull request number: # and 2 to 6
// digits (#42, #1234). "#1" (the first of a list) and a heading's # are not.
func issueRef(c string) (string, bool) {
	if len(c) < 3 || len(c) > 7 || c[0] != '#' {
		return "", false
	}
	for i := 1; i < len(c); i++ {
		if !isDigit(c[i]) {
			return "", false
		}
	}
	return c, true
}

// holdsToolID reports whether normalized summary text norm names tool id f: its key at
// the start of a word, and, but for a commit hash's prefix, ending one.
func holdsToolID(norm string, f *Fact) bool {
	for from := 0; ; {
		j := strings.Index(norm[from:], f.key)
		if j < 0 {
			return false
		}
		j += from
		k := j + len(f.key)
		before := j == 0 || !isWordByte(norm[j-1])
		after := f.prefix || k == len(norm) || !isWordByte(norm[k])
		if before && after {
			return true
		}
		from = j + 1
	}
}

func isWordByte(b byte) bool { return isLetter(b) || isDigit(b) || b == '_' || b == '-' }
