package eval

import "strings"

// KindQuantity is a number with its unit or noun: "12 files", "4,096 rows", "3 failing
// tests", "42%", "1.5 GB". How far a job got and how many tests fail are what a summary's
// Current Work must say for the next context to go on.
const KindQuantity = "quantity"

// maxQuantitiesPerMessage caps the quantities of one message, so that a pasted table of
// figures cannot outweigh the rest of the conversation.
const maxQuantitiesPerMessage = 8

// quantities adds the quantities of the prose lines of text (not the lines of a code
// fence). The package documentation gives the rules.
func (s *factSet) quantities(i int, text string, strong bool) {
	s.wordFacts(i, text, strong, KindQuantity, quantityAt, &s.quants, maxQuantitiesPerMessage)
}

// wordFacts adds the facts of kind that at finds starting at a word of text's prose lines,
// until *n (the message's count of them so far) reaches limit.
func (s *factSet) wordFacts(i int, text string, strong bool, kind string, at func(words []string, k int) (key, shown string, ok bool), n *int, limit int) {
	eachProseLine(text, func(line string) {
		words := strings.Fields(line)
		for k := range words {
			if *n >= limit {
				return
			}
			if key, shown, ok := at(words, k); ok {
				s.add(kind, key, shown, i, strong)
				*n++
			}
		}
	})
}

// eachProseLine calls fn with each line of text outside code fences.
func eachProseLine(text string, fn func(line string)) {
	var open byte
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		var delim bool
		if open, delim = fenceStep(t, open); delim {
			continue
		}
		if open == 0 && t != "" {
			fn(t)
		}
	}
}

// quantityAt returns the quantity that starts at words[k]: a number (thousands separated
// by commas, a decimal part) followed by % or "percent", by a size unit written with it
// or after it (1.5GB, 12 MB), or by the noun it counts: the next word, or the one after a
// filler such as "more" ("3 more tests"). The key is the number without separators and
// the noun's stem ("4096 row", "3 fail" for "3 failing tests"); a summary holds it with
// the number followed, within three words, by a word of that stem.
//
// Not quantities: a number ending a clause ("12," "1."), ranges, dates and times
// (2024-05-06, 10:11, a year from 1900 to 2100), versions (1.2.3, v2, "Go 1.22", "Node
// 20"), line numbers and ranks ("line 42", "step 3", "#1", "exit code 1"), numbers inside
// other tokens (main.go:123, x86), durations ("200ms", "5 minutes": they change between
// runs) and the nouns that count nothing ("2 ways", "3 things", "1 of").
func quantityAt(words []string, k int) (key, shown string, ok bool) {
	raw := strings.TrimLeft(words[k], "(~≈")
	num, rest := leadingNumber(raw)
	if num == "" {
		return "", "", false
	}
	if k > 0 && positionWords[strings.ToLower(strings.Trim(words[k-1], "(),.:;*`"))] {
		return "", "", false
	}
	plain := strings.ReplaceAll(num, ",", "")
	if !strings.Contains(num, ",") && !strings.Contains(num, ".") && len(plain) == 4 && plain >= "1900" && plain <= "2100" {
		return "", "", false // a year
	}
	switch r := strings.TrimRight(rest, ".,;:)!?"); {
	case r == "%":
		return plain + "%", num + "%", true
	case r != "":
		u := strings.ToLower(r)
		if sizeUnits[u] && r == rest { // 1.5GB, 12k; not "200ms", "3x86"
			return plain + " " + u, num + r, true
		}
		return "", "", false
	case rest != "":
		return "", "", false // the number ends a clause: "12," "1."
	}
	if strings.Count(num, ".") > 0 && k+1 < len(words) && !sizeUnits[strings.ToLower(trimWord(words[k+1]))] {
		return "", "", false // "Go 1.22 toolchain": a decimal counts only with a unit
	}
	for j := k + 1; j < len(words) && j <= k+2; j++ {
		w := strings.ToLower(trimWord(words[j]))
		if w == "percent" || w == "%" {
			return plain + "%", num + "%", true
		}
		if sizeUnits[w] {
			return plain + " " + w, num + " " + trimWord(words[j]), true
		}
		if j == k+1 && quantityFillers[w] {
			continue
		}
		if len(w) < 3 || !allLetters(w) || stopwords[w] || nounStops[w] || timeWords[w] || monthNames[w] {
			return "", "", false
		}
		return plain + " " + stem(w), num + " " + strings.Join(words[k+1:j+1], " "), true
	}
	return "", "", false
}

// leadingNumber splits s into a leading number (digits, thousands groups of three after
// commas, one decimal part) and the rest. It returns "" when s does not start with a
// digit, or the number is glued to a letter, dot, colon, slash or hash before its end.
func leadingNumber(s string) (num, rest string) {
	j := 0
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == 0 {
		return "", s
	}
	for j+4 <= len(s) && s[j] == ',' && allDigits(s[j+1:j+4]) && (j+4 == len(s) || !isDigit(s[j+4])) {
		j += 4
	}
	if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	rest = s[j:]
	if rest != "" {
		switch c := rest[0]; {
		case c == '%' || c == ',' || c == ';' || c == ')' || c == '!' || c == '?':
		case c == '.' || c == ':':
			if len(rest) > 1 { // 1.2.3, 10:11, main.go:12
				return "", s
			}
		case isLetter(c):
			// a unit written with the number; quantityAt decides
		default: // 10/12, 2024-05-06, 12_000, 3#
			return "", s
		}
	}
	return s[:j], rest
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !(s[i] == '-' && i > 0 && i < len(s)-1) {
			return false
		}
	}
	return s != ""
}

// trimWord removes the punctuation around a word of prose.
func trimWord(w string) string {
	for len(w) > 0 && wordPunct[w[0]] {
		w = w[1:]
	}
	for len(w) > 0 && wordPunct[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	return w
}

// wordPunct is the punctuation trimWord removes: strings.Trim with this cutset, without
// building the cutset's set at every call (scoring trims every word of a summary).
var wordPunct = func() (set [256]bool) {
	for _, c := range []byte("()[],.;:!?*`'\"") {
		set[c] = true
	}
	return set
}()

// sizeUnits are units written after a number that make it a quantity whatever follows.
var sizeUnits = set("kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "k", "x", "loc", "tokens")

// quantityFillers may stand between a number and its noun: "3 more tests".
var quantityFillers = set("more", "new", "other", "additional", "extra", "remaining", "total", "failing", "passing", "open", "unique", "distinct", "separate", "different", "modified", "changed", "skipped", "broken")

// positionWords before a number make it a position, a rank or a version, not a count.
var positionWords = set(
	"line", "lines", "l", "step", "phase", "stage", "version", "v", "page", "item", "task",
	"issue", "pr", "port", "column", "col", "chapter", "section", "part", "round", "attempt",
	"iteration", "day", "week", "month", "year", "option", "number", "no", "node", "python",
	"go", "java", "ruby", "rust", "release", "ubuntu", "debian", "macos", "ios", "android",
	"windows", "es", "api", "sdk", "model", "gpt", "claude", "level", "tier", "priority",
	"epic", "story", "sprint", "milestone", "pid", "id", "code", "status", "http", "case",
	"figure", "fig", "table", "rule", "point", "question", "comment", "message", "session",
	"compaction", "top", "row", "commit", "test", "exit", "errno",
	"python3", "node.js", "nodejs", "postgres", "postgresql", "react", "next.js", "vue", "angular",
)

// nounStops are words after a number that count nothing a summary must keep.
var nounStops = set("times", "ways", "way", "options", "ideas", "points", "parts", "questions",
	"reasons", "examples", "approaches", "choices", "cases", "kinds", "types", "sorts", "levels",
	"steps", "phases", "stages", "places", "spaces", "characters", "chars", "per", "out",
	"the", "and", "for", "but", "not", "are", "was", "its", "has", "had", "can", "may", "our",
	"you", "his", "her", "one", "two", "three", "four", "five")

// timeWords are durations and clock words: they change between runs of the same work.
var timeWords = set("ms", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes",
	"hr", "hrs", "hour", "hours", "day", "days", "week", "weeks", "month", "months", "year",
	"years", "am", "pm", "utc", "gmt", "millisecond", "milliseconds", "ns", "us", "µs", "s", "m", "h")

var monthNames = set("jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
	"dec", "january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december")

// quantityIndex holds, per line of a summary, each number followed by the stems of the
// words up to three after it ("%" for a percentage).
type quantityIndex map[string]bool

// addLine indexes the words of a line (strings.Fields of it).
func (q quantityIndex) addLine(words []string) {
	for k, w := range words {
		num, rest := leadingNumber(strings.TrimLeft(w, "(~≈"))
		if num == "" {
			continue
		}
		plain := strings.ReplaceAll(num, ",", "")
		r := strings.ToLower(strings.TrimRight(rest, ".,;:)!?"))
		switch {
		case r == "%":
			q[plain+"%"] = true
			continue
		case sizeUnits[r]:
			q[plain+" "+r] = true
			continue
		}
		for j := k + 1; j < len(words) && j <= k+3; j++ {
			n := strings.ToLower(trimWord(words[j]))
			if n == "percent" || n == "%" {
				q[plain+"%"] = true
			}
			q[plain+" "+stem(n)] = true
			q[plain+" "+n] = true
		}
	}
}
