package eval

import "strings"

// KindState is a state of work and what is in it: "the export job is running", "PR #42
// merged", "tests failed", "waiting for approval". Whether the job still runs, the build
// failed or the branch is merged is what the next context must know to go on.
const KindState = "state"

// maxStatesPerMessage caps the states of one message.
const maxStatesPerMessage = 6

// stateWords maps the words of a state to its class, the key's second part.
var stateWords = map[string]string{
	"running": "running", "started": "running", "ongoing": "running",
	"failed": "failed", "failing": "failed", "fails": "failed", "broken": "failed",
	"errored": "failed", "crashed": "failed", "crashing": "failed", "crashes": "failed",
	"passed": "passed", "passing": "passed", "passes": "passed", "succeeded": "passed",
	"merged":  "merged",
	"waiting": "waiting", "pending": "waiting", "queued": "waiting", "blocked": "waiting",
	"finished": "finished", "completed": "finished", "complete": "finished",
	"deployed": "deployed",
	"stopped":  "stopped", "killed": "stopped", "cancelled": "stopped", "canceled": "stopped",
	"aborted":  "stopped",
	"reverted": "reverted",
}

// stateLinks stand between a subject and its state: "the job is still running".
var stateLinks = set("is", "are", "was", "were", "be", "been", "being", "has", "have", "had",
	"still", "now", "already", "all", "both", "also", "currently", "just", "then",
	"successfully", "finally", "got", "gets", "get", "keeps", "keep", "now", "again", "as")

// stateNegations before a state word drop it: "tests are not passing" is no state a
// summary is checked for.
var stateNegations = set("not", "never", "no", "isn't", "aren't", "wasn't", "weren't",
	"hasn't", "haven't", "didn't", "doesn't", "don't", "nothing", "none")

// stateSubjects that name nothing: pronouns and determiners.
var stateSubjectStops = set("it", "this", "that", "which", "they", "what", "he", "she", "we",
	"i", "you", "one", "everything", "something", "anything", "nothing", "all", "each",
	"and", "or", "but", "the", "a", "an", "to", "of", "in", "on", "at", "for", "with", "by",
	"if", "so", "who", "there", "here", "its", "their", "our", "my", "your")

// states adds the states of work said in the prose lines of text. The package
// documentation gives the rules.
func (s *factSet) states(i int, text string, strong bool) {
	s.wordFacts(i, text, strong, KindState, stateAt, &s.statesN, maxStatesPerMessage)
}

// stateAt returns the state whose state word is words[k], keyed by its subject and its
// class ("b2f8b9 running", "build failed", "approval waiting"). The subject is the word
// before the state word in the same clause, past linking words (is, still, ...); for
// "waiting for X", X. A state without a subject that names something ("it failed",
// "Running the tests"), or negated ("not passing"), is none.
func stateAt(words []string, k int) (key, shown string, ok bool) {
	w := strings.ToLower(trimWord(words[k]))
	class, isState := stateWords[w]
	if !isState {
		return "", "", false
	}
	if class == "waiting" && w == "waiting" {
		// "waiting for X": X is what the work waits for.
		if k+1 < len(words) && strings.ToLower(words[k+1]) == "for" && !endsClause(words[k]) {
			for j := k + 2; j < len(words) && j <= k+4; j++ {
				sw := strings.ToLower(trimWord(words[j]))
				if stateSubjectStops[sw] {
					if endsClause(words[j]) {
						break
					}
					continue
				}
				if subj, ok := stateSubject(words[j]); ok {
					return subj + " " + class, strings.Join(words[k:j+1], " "), true
				}
				break
			}
		}
	}
	for j := k - 1; j >= 0 && j >= k-4; j-- {
		if endsClause(words[j]) {
			return "", "", false
		}
		sw := strings.ToLower(trimWord(words[j]))
		if stateNegations[sw] || strings.HasSuffix(sw, "n't") {
			return "", "", false
		}
		if stateLinks[sw] {
			continue
		}
		subj, ok := stateSubject(words[j])
		if !ok {
			return "", "", false
		}
		return subj + " " + class, trimWord(strings.Join(words[j:k+1], " ")), true
	}
	return "", "", false
}

// endsClause reports whether a word ends a clause: a comma, period, colon, semicolon or
// dash after it, or a heading's or list's marker alone.
func endsClause(w string) bool {
	return strings.HasSuffix(w, ",") || strings.HasSuffix(w, ".") || strings.HasSuffix(w, ":") ||
		strings.HasSuffix(w, ";") || w == "-" || w == "—" || w == "–" || strings.HasSuffix(w, "!") || strings.HasSuffix(w, "?")
}

// stateSubject returns the key of a state's subject: an issue or pull request number or
// a commit hash as they are keyed, a name or path lowercased, a word of two or more
// letters stemmed. A number alone, a stop word or a pronoun is no subject.
func stateSubject(w string) (string, bool) {
	t := trimWord(w)
	if key, ok := issueRef(t); ok {
		return key, true
	}
	if key, ok := commitHash(t); ok {
		return key, true
	}
	lower := strings.ToLower(t)
	if len(lower) < 2 || stateSubjectStops[lower] || stopwords[lower] || stateWords[lower] != "" {
		return "", false
	}
	letter := false
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		switch {
		case isLower(c):
			letter = true
		case isDigit(c) || c == '_' || c == '-' || c == '.' || c == '/':
		default:
			return "", false
		}
	}
	if !letter {
		return "", false
	}
	if allLetters(lower) {
		return stem(lower), true
	}
	return lower, true
}

// stateIndex holds, per line of a summary, its words (lowercased and stemmed, and the
// keys of ids) and the state classes it says.
type stateIndex []stateLine

type stateLine struct {
	words, classes map[string]bool
}

// addLine indexes the words of a line (strings.Fields of it).
func (x *stateIndex) addLine(fields []string) {
	var classes map[string]bool
	for _, w := range fields {
		t := strings.ToLower(trimWord(w))
		if c := stateWords[t]; c != "" {
			classes = set1(classes, c)
		}
		if t == "waiting" || t == "waits" || t == "wait" {
			classes = set1(classes, "waiting")
		}
	}
	if classes == nil {
		return // most lines say no state: their words are not kept
	}
	words := map[string]bool{}
	for _, w := range fields {
		if subj, ok := stateSubject(w); ok {
			words[subj] = true
		}
		words[strings.ToLower(trimWord(w))] = true
	}
	*x = append(*x, stateLine{words: words, classes: classes})
}

// set1 adds k to m, making m when it is nil.
func set1(m map[string]bool, k string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[k] = true
	return m
}

// holds reports whether one line of the summary names the state's subject and its class.
func (x stateIndex) holds(f *Fact) bool {
	if f.words != nil {
		return false // a to-do item: summaryIndex.holdsLineWords
	}
	j := strings.LastIndexByte(f.key, ' ')
	if j < 0 {
		return false
	}
	subj, class := f.key[:j], f.key[j+1:]
	for _, l := range x {
		if l.classes[class] && l.words[subj] {
			return true
		}
	}
	return false
}

// todo adds the to-do item a tool call's arguments v may be (a TodoWrite item: content
// and status; a TaskCreate: subject, pending) as a state fact keyed by its content
// words, when it is new or its status changed: marking an item done or in progress is
// the work's state changing. A summary holds it with half its content words on one line.
func (s *factSet) todo(i int, tool string, v map[string]any) {
	text, _ := v["content"].(string)
	status, _ := v["status"].(string)
	if subject, ok := v["subject"].(string); ok && strings.EqualFold(tool, "TaskCreate") {
		text, status = subject, "pending"
	}
	if text == "" || status == "" {
		return
	}
	words := contentWords(text, maxRequestWords)
	if len(words) == 0 {
		return
	}
	key := "todo " + strings.Join(words, " ")
	if s.todos == nil {
		s.todos = map[string]string{}
	}
	if s.todos[key] == status {
		return
	}
	s.todos[key] = status
	s.add(KindState, key, opening(text, 100)+" ("+status+")", i, true).words = words
}
