// Package redact removes credentials from text before it is stored: API keys and tokens of
// the common providers, bearer tokens, JWTs, PEM private keys, passwords in URLs and the
// values of KEY=value settings whose name says they are secret.
//
// Each secret is replaced by a marker that names its kind, such as [REDACTED:github-token],
// so that a reader of a stored conversation sees that something was there. Redaction is
// idempotent: redacting redacted text changes nothing. It aims at the shapes secrets have in
// coding sessions (shell output, config files, .env files, HTTP headers); a secret with no
// recognisable shape, such as a bare password in prose, is not found.
package redact

import (
	"regexp"
	"strings"
)

// Marker is how every replacement begins.
const Marker = "[REDACTED"

// pattern is one kind of secret. The secret is the whole match, or only the submatch named
// "secret" when the pattern has one (the name of a setting or the user of a URL stays).
type pattern struct {
	kind string
	re   *regexp.Regexp
}

// The token patterns come from the formats the providers document; the length bounds keep
// short identifiers that share a prefix (sk-learn, ghp_ in a sentence) out.
var patterns = []pattern{
	{"anthropic-key", regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"openai-key", regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}`)},
	{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{"aws-access-key", regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b`)},
	{"slack-token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{10,}`)},
	{"slack-webhook", regexp.MustCompile(`https://hooks\.slack\.com/services/(?P<secret>[A-Za-z0-9/_-]{20,})`)},
	{"google-api-key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"stripe-key", regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`)},
	{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`)},
	// Authorization headers: the scheme stays. "Basic" only in a header, since "basic"
	// followed by a long word is common prose.
	{"bearer-token", regexp.MustCompile(`\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)`)},
	{"basic-auth", regexp.MustCompile(`(?i:authorization)["']?\s*[:=]\s*["']?Basic\s+(?P<secret>[A-Za-z0-9+/]{8,}=*)`)},
	// user:password@host in any URL: the user and host stay.
	{"url-password", regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[^\s/:@"'<>]+):(?P<secret>[^\s/@"'<>]+)@`)},
	// NAME=value, NAME: value, "name": "value" where the name ends in a word that says
	// secret (GITHUB_TOKEN, db_password, but not TOKEN_URL or max_tokens). Uppercase names
	// (environment variables) match anywhere; lowercase ones only as whole setting names
	// at the start of a line or after a quote, brace, comma or blank.
	{"secret-setting", regexp.MustCompile(`\b(?P<name>(?:[A-Z0-9]+_)*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|SECRET_KEY|SIGNING_KEY|CREDENTIALS?)|(?:[A-Z0-9]+_)+PASS)["']?[ \t]*[:=][ \t]*(?P<secret>"[^"\n]*"|'[^'\n]*'|[^\s"'\x60,;()\[\]{}]+)`)},
	{"secret-setting", regexp.MustCompile(`(?m)(?:^|[\s{,"'])(?P<name>(?:[a-z0-9]+[_-])*(?:secret|token|password|passwd|passphrase|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|signing[_-]?key))["']?[ \t]*[:=][ \t]*(?P<secret>"[^"\n]+"|'[^'\n]+'|[^\s"'\x60,;()\[\]{}]+)`)},
}

// String returns s with every secret replaced, and how many were replaced.
func String(s string) (string, int) {
	s, n := privateKeys(s)
	for _, p := range patterns {
		var k int
		s, k = p.replace(s)
		n += k
	}
	return s, n
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

func (p pattern) replace(s string) (string, int) {
	secret := p.re.SubexpIndex("secret")
	name := p.re.SubexpIndex("name")
	user := p.re.SubexpIndex("user")
	marker := Marker + ":" + p.kind + "]"
	var b strings.Builder
	last, n := 0, 0
	for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[0], m[1]
		if secret >= 0 {
			start, end = m[2*secret], m[2*secret+1]
		}
		if start < 0 || start < last {
			continue
		}
		value := s[start:end]
		switch {
		case p.kind == "url-password" && value == s[m[2*user]:m[2*user+1]]:
			continue // postgres:postgres@localhost: a well-known default, not a secret
		case p.kind == "secret-setting" && notSecretSetting(s[m[2*name]:m[2*name+1]], value, s[end:]):
			continue
		case p.kind == "url-password" && notSecretValue(value):
			continue
		}
		if strings.Contains(s[start:end], Marker) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(quoteLike(s[start:end], marker))
		last = end
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// notSecretSetting reports whether a setting only looks secret: its value is a
// placeholder or a reference, a lowercase name holds a code identifier (voter_token:
// voter_token), or the value is a type annotation or the start of an expression (rest is
// the text after the value).
func notSecretSetting(name, value, rest string) bool {
	if notSecretValue(value) {
		return true
	}
	if rest != "" && strings.IndexByte("([.", rest[0]) >= 0 {
		return true // get_token(...), os.environ[...]
	}
	if strings.HasPrefix(strings.TrimLeft(rest, " \t"), "=") {
		return true // ACCESS_KEY: str = ..., a typed declaration
	}
	quoted := value[0] == '"' || value[0] == '\''
	switch {
	case !quoted && name == strings.ToLower(name) && identifier.MatchString(value):
		return true
	case !quoted && typeName.MatchString(value):
		return true // JWT_SIGNING_KEY: SecretStr
	}
	return false
}

// identifier is a lowercase name or dotted path as code writes it, and typeName a type in
// an annotation (SecretStr, Optional, str); a password can look like either, which is the
// price of not shredding code.
var (
	identifier = regexp.MustCompile(`^[a-z_]+(?:\.[a-z_]+)*$`)
	typeName   = regexp.MustCompile(`^(?:[A-Z][a-z]+){2,}$|^(?:str|string|bytes|int|bool|Optional|String)$`)
)

// notSecretValue reports whether a setting's value is a placeholder or a reference rather
// than a credential: a variable, a template, a masked or empty value, a short word.
func notSecretValue(value string) bool {
	v := strings.Trim(value, `"'`)
	switch {
	case len(v) < 6:
		return true
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.HasPrefix(v, "<"), strings.HasPrefix(v, "`"),
		strings.HasPrefix(v, "{{"), strings.HasPrefix(v, "process.env"), strings.HasPrefix(v, "os."),
		strings.HasPrefix(v, "env("), strings.HasPrefix(v, "secrets."):
		return true
	case strings.Trim(v, "*xX.•") == "":
		return true
	}
	switch strings.ToLower(v) {
	case "required", "optional", "string", "redacted", "changeme", "undefined", "missing", "invalid", "expired":
		return true
	}
	return false
}

// quoteLike keeps the quotes around a quoted value.
func quoteLike(value, marker string) string {
	if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
		return value[:1] + marker + value[:1]
	}
	return marker
}
