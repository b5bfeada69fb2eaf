package eval

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/corpus"
)

// Redactor removes the credentials of a text, writing "[REDACTED]" or "[REDACTED:kind]" in
// place of each, and returns the text and how many it removed. It must be safe to call
// from several goroutines at once. compacteval passes its internal/redact (gitleaks' rules
// and a few of its own); Options.Redact.
type Redactor func(text string) (redacted string, n int)

// redactedMarker is how every replacement of a Redactor begins.
const redactedMarker = "[REDACTED"

// secret is one credential of a conversation: its kind and its value.
type secret struct {
	kind, value string
}

// minSecret is the shortest value looked for in a summary: shorter ones match by chance.
const minSecret = 8

// queryKey is a URL query parameter whose name says its value is a credential
// (?api_key=..., &access_token=...), which internal/redact does not look for.
var queryKey = regexp.MustCompile(`(?i)[?&](?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|token|secret|client[_-]?secret|password|passwd|sig|signature)=(?P<secret>[^\s&#"'<>)\]]{8,})`)

var marker = regexp.MustCompile(`\[REDACTED(?::([a-z0-9-]+))?\]`)

// redactText removes the credential query parameters of URLs of text, then what redact
// removes (nothing more when redact is nil), and returns the secrets removed.
func redactText(text string, redact Redactor) (string, []secret) {
	var out []secret
	text = replaceSubmatch(queryKey, text, func(v string) string {
		out = append(out, secret{"url-query", v})
		return redactedMarker + ":url-query]"
	})
	if redact == nil {
		return text, out
	}
	red, n := redact(text)
	if n == 0 {
		return text, out
	}
	return red, append(out, secretsRemoved(text, red)...)
}

// replaceSubmatch replaces the "secret" submatch of each match of re in s by repl(value).
func replaceSubmatch(re *regexp.Regexp, s string, repl func(string) string) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	k := re.SubexpIndex("secret")
	var b strings.Builder
	last := 0
	for _, m := range idx {
		b.WriteString(s[last:m[2*k]])
		b.WriteString(repl(s[m[2*k]:m[2*k+1]]))
		last = m[2*k+1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// secretsRemoved aligns text with its redacted form and returns what each marker replaced.
func secretsRemoved(text, red string) []secret {
	var out []secret
	ms := marker.FindAllStringSubmatchIndex(red, -1)
	pos, prev := 0, 0 // pos in text, prev in red
	for i, m := range ms {
		lead := red[prev:m[0]]
		j := strings.Index(text[pos:], lead)
		if j < 0 {
			return out
		}
		pos += j + len(lead)
		next := len(red)
		if i+1 < len(ms) {
			next = ms[i+1][0]
		}
		follow := red[m[1]:next]
		end := len(text)
		if follow != "" {
			k := strings.Index(text[pos:], follow)
			if k < 0 {
				return out
			}
			end = pos + k
		} else if i+1 < len(ms) {
			return out // two markers side by side: cannot tell them apart
		}
		kind := "secret"
		if m[2] >= 0 {
			kind = red[m[2]:m[3]]
		}
		if v := text[pos:end]; len(v) >= minSecret {
			out = append(out, secret{kind, v})
		}
		pos, prev = end, m[1]
	}
	return out
}

// redactMessages returns msgs with their credentials removed, and the secrets removed.
func redactMessages(msgs []corpus.Message, redact Redactor) ([]corpus.Message, []secret) {
	var all []secret
	out := make([]corpus.Message, len(msgs))
	for i, m := range msgs {
		var s []secret
		if m.Role == corpus.RoleTool {
			m.Text, s = redactLines(m.Text, redact)
		} else {
			m.Text, s = redactText(m.Text, redact)
		}
		all = append(all, s...)
		if len(m.ToolCalls) > 0 {
			calls := make([]corpus.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				tc.Input, s = redactLines(tc.Input, redact)
				all = append(all, s...)
				calls[j] = tc
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return out, all
}

// redactLines is redactText for long tool output: only the lines that may hold a secret
// (a long token of letters and digits, a word that names a secret next to a value, a URL
// with a user) go through the redactor, which is too slow to read megabytes of file
// contents and logs in full. A text with a PEM private key is redacted whole.
func redactLines(text string, redact Redactor) (string, []secret) {
	if strings.Contains(text, "PRIVATE KEY") {
		return redactText(text, redact)
	}
	var out []secret
	var b strings.Builder
	changed := false
	for off := 0; off < len(text); {
		end := len(text)
		if j := strings.IndexByte(text[off:], '\n'); j >= 0 {
			end = off + j + 1
		}
		line := text[off:end]
		if mayHoldSecret(line) {
			red, s := redactText(line, redact)
			if red != line {
				changed = true
			}
			out = append(out, s...)
			line = red
		}
		b.WriteString(line)
		off = end
	}
	if !changed {
		return text, out
	}
	return b.String(), out
}

// secretWords are the words next to which secrets are written.
var secretWords = []string{"key", "token", "secret", "pass", "auth", "bearer", "private", "credential", "pwd", "xox"}

// mayHoldSecret reports whether a line may hold a secret: a token of 20 or more letters,
// digits, "_" and "-" with both a letter and a digit, a word that names a secret with a
// "=" or ":" after it (bearer: any value), or a URL with a user.
func mayHoldSecret(line string) bool {
	run, letter, digit := 0, false, false
	for i := 0; i <= len(line); i++ {
		if i < len(line) {
			if c := line[i]; isLetter(c) || isDigit(c) || c == '_' || c == '-' {
				run++
				letter = letter || isLetter(c)
				digit = digit || isDigit(c)
				continue
			}
		}
		if run >= 20 && letter && digit {
			return true
		}
		run, letter, digit = 0, false, false
	}
	if strings.Contains(line, "://") && strings.Contains(line, "@") {
		return true
	}
	lower := strings.ToLower(line)
	for _, w := range secretWords {
		for from := 0; ; {
			j := strings.Index(lower[from:], w)
			if j < 0 {
				break
			}
			k := from + j + len(w)
			for k < len(lower) && (isLetter(lower[k]) || isDigit(lower[k]) || strings.IndexByte(`_-"'`, lower[k]) >= 0) {
				k++
			}
			for k < len(lower) && lower[k] == ' ' {
				k++
			}
			if k < len(lower) && (lower[k] == '=' || lower[k] == ':' || w == "bearer" && k > from+j+len(w)) {
				return true
			}
			from = k
			if from >= len(lower) {
				break
			}
		}
	}
	return false
}

// leakedSecrets counts the distinct secrets that summary carries.
func leakedSecrets(summary string, secrets []secret) int {
	n := 0
	seen := map[string]bool{}
	for _, s := range secrets {
		if !seen[s.value] && strings.Contains(summary, s.value) {
			n++
		}
		seen[s.value] = true
	}
	return n
}
