// Package redact removes credentials from text before it is stored or sent.
//
// Two rule sets find them. The tokens of the providers (GitHub, GitLab, AWS, Slack, npm,
// Hugging Face, SendGrid, Azure AD, DigitalOcean, Databricks and some two hundred more) are
// gitleaks' default rules, used as a library (gitleaks.go). The shapes a secret takes in a
// coding conversation without a provider prefix are this package's own rules (local.go):
// passwords in prose ("my password is ..."), command-line flags (--password=..., mysql's
// -pPASS), docker's config auth, Azure storage keys and SAS signatures, passwords in URLs,
// Authorization headers, PEM private key bodies, KEY=value settings whose name says secret.
//
// Each secret is replaced by a marker that names its kind, such as [REDACTED:github-pat]
// (the gitleaks rule id) or [REDACTED:password-prose], so that a reader of a stored
// conversation sees that something was there. Redaction is idempotent: redacting redacted
// text changes nothing. testdata/labelled.txt measures it (eval_test.go); a bare
// password with nothing around it that says so is not found.
package redact

import (
	"regexp"
	"slices"
	"strings"
)

// Marker is how every replacement begins.
const Marker = "[REDACTED"

// span is a secret at s[start:end] and the kind of rule that found it; where spans
// overlap, their union is replaced and named by the lowest rank.
type span struct {
	start, end int
	kind       string
	rank       int
}

// Ranks: a provider's own token shape names a secret better than a context rule, and a
// context rule better than gitleaks' generic-api-key.
const (
	rankProvider = iota
	rankLocal
	rankGeneric
)

// String returns s with every secret replaced, and how many were replaced.
func String(s string) (string, int) {
	return redact(s, true, true)
}

// redact is String with either rule set left out, for measuring each on its own.
func redact(s string, local, gitleaks bool) (string, int) {
	n := 0
	var spans []span
	lower := lowerASCII(s)
	if local {
		s, n = privateKeys(s)
		lower = lowerASCII(s)
		spans = localSpans(s, lower)
	}
	if gitleaks {
		gl := gitleaksSpans(s, lower)
		if local {
			gl = slices.DeleteFunc(gl, func(sp span) bool {
				return sp.kind == "generic-api-key" && wordsIdentifier.MatchString(s[sp.start:sp.end])
			})
		}
		spans = append(spans, gl...)
	}
	if len(spans) == 0 {
		return s, n
	}
	markers := markerSpans(s)
	spans = slices.DeleteFunc(spans, func(sp span) bool { return overlapsAny(sp, markers) })
	merged := merge(spans)
	var b strings.Builder
	last := 0
	for _, sp := range merged {
		b.WriteString(s[last:sp.start])
		b.WriteString(Marker + ":" + sp.kind + "]")
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String(), n + len(merged)
}

// merge sorts spans and joins the overlapping ones.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var out []span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start < out[n-1].end {
			last := &out[n-1]
			last.end = max(last.end, sp.end)
			if sp.rank < last.rank {
				last.kind, last.rank = sp.kind, sp.rank
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

var markerRe = regexp.MustCompile(`\[REDACTED(?::[a-z0-9-]+)?\]`)

func markerSpans(s string) []span {
	if !strings.Contains(s, Marker) {
		return nil
	}
	var out []span
	for _, m := range markerRe.FindAllStringIndex(s, -1) {
		out = append(out, span{start: m[0], end: m[1]})
	}
	return out
}

func overlapsAny(sp span, others []span) bool {
	for _, o := range others {
		if sp.start < o.end && o.start < sp.end {
			return true
		}
	}
	return false
}

// Literals returns s with every occurrence of each literal replaced (a key the caller
// holds, such as the one it sends to a provider), and how many were replaced. Literals
// shorter than 8 bytes are ignored: replacing them would shred the text.
func Literals(s string, literals ...string) (string, int) {
	n := 0
	for _, lit := range literals {
		if len(lit) < 8 {
			continue
		}
		n += strings.Count(s, lit)
		s = strings.ReplaceAll(s, lit, Marker+":literal]")
	}
	return s, n
}

const (
	pemBegin = "-----BEGIN "
	pemKey   = "PRIVATE KEY"
	pemEnd   = "-----END "
)

// privateKeys replaces the body of each PEM private key block, keeping its BEGIN and END
// lines. A block without an END line (a cut-off paste) loses every line after BEGIN that
// looks like PEM content.
func privateKeys(s string) (string, int) {
	var b strings.Builder
	n := 0
	for {
		i := strings.Index(s, pemBegin)
		if i < 0 {
			break
		}
		head := s[i:]
		eol := strings.IndexByte(head, '\n')
		if eol < 0 {
			break
		}
		label := head[:eol]
		if !strings.Contains(label, pemKey) || !strings.HasSuffix(strings.TrimRight(label, "\r"), "-----") {
			b.WriteString(s[:i+len(pemBegin)])
			s = s[i+len(pemBegin):]
			continue
		}
		body := head[eol+1:]
		end := 0
		if j := strings.Index(body, pemEnd); j >= 0 && strings.Contains(firstLine(body[j:]), pemKey) {
			end = j
		} else {
			for end < len(body) {
				line := firstLine(body[end:])
				if !pemContent(line) {
					break
				}
				end += len(line)
				if end < len(body) {
					end++ // the newline
				}
			}
		}
		b.WriteString(s[:i+eol+1])
		if strings.TrimSpace(body[:end]) != "" && !strings.Contains(body[:end], Marker) {
			b.WriteString(Marker + ":private-key]\n")
			n++
		} else {
			b.WriteString(body[:end])
		}
		s = body[end:]
	}
	return b.String() + s, n
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// pemContent reports whether line can be part of a PEM body: base64, or a header such
// as Proc-Type: 4,ENCRYPTED.
func pemContent(line string) bool {
	return pemLine.MatchString(strings.TrimRight(line, "\r"))
}

var pemLine = regexp.MustCompile(`^(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: \S.*)$`)
