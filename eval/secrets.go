package eval

import (
	"regexp"
	"strings"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/redact"
)

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

// redactText removes the credentials of text as internal/redact does, then the credential
// query parameters of URLs, and returns the secrets removed.
func redactText(text string) (string, []secret) {
	var out []secret
	text = replaceSubmatch(queryKey, text, func(v string) string {
		out = append(out, secret{"url-query", v})
		return redact.Marker + ":url-query]"
	})
	red, n := redact.String(text)
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
func redactMessages(msgs []corpus.Message) ([]corpus.Message, []secret) {
	var all []secret
	out := make([]corpus.Message, len(msgs))
	for i, m := range msgs {
		var s []secret
		m.Text, s = redactText(m.Text)
		all = append(all, s...)
		if len(m.ToolCalls) > 0 {
			calls := make([]corpus.ToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				tc.Input, s = redactText(tc.Input)
				all = append(all, s...)
				calls[j] = tc
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return out, all
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
