package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// rule is one of this package's own kinds of secret. The secret is the whole match, or
// only the submatch named "secret" when the pattern has one (the name of a setting or the
// user of a URL stays); quotes around it stay too. skip, when set, rejects a match that
// only looks like a secret; m is the submatch index of the match in s.
type rule struct {
	kind string
	re   *regexp.Regexp
	// keywords, lowercase, of which the text must hold one for the rule to run; none
	// means always.
	keywords []string
	skip     func(s string, m []int, re *regexp.Regexp) bool
	// trimRight is punctuation of the sentence that a secret in prose does not end in.
	trimRight string
}

// These rules cover what gitleaks' default rules leave to context: secrets without a
// provider prefix, as coding sessions show them. The length bounds keep short identifiers
// that share a prefix (sk-learn) out.
var localRules = []rule{
	// The keys this tool itself handles, in every variant of their prefixes: gitleaks'
	// rules want the exact lengths and markers of one generation of them.
	{kind: "anthropic-key", re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`), keywords: []string{"sk-ant-"}},
	{kind: "openai-key", re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,}`), keywords: []string{"sk-"}},
	// Google API keys in a URL's query: gitleaks' rule wants a quote, a blank or the end
	// of the line after the key, not the & of the next parameter.
	{kind: "gcp-api-key", re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), keywords: []string{"aiza"}},
	// Authorization headers: the scheme stays. "Basic" only in a header, since "basic"
	// followed by a long word is common prose.
	{kind: "bearer-token", re: regexp.MustCompile(`\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/-]{16,}=*)`), keywords: []string{"bearer"}},
	{kind: "basic-auth", re: regexp.MustCompile(`(?i:authorization)["']?\s*[:=]\s*["']?Basic\s+(?P<secret>[A-Za-z0-9+/]{8,}=*)`), keywords: []string{"basic"}},
	// user:password@host in any URL: the user and host stay.
	{kind: "url-password", re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[^\s/:@"'<>]*):(?P<secret>[^\s/@"'<>]+)@`), keywords: []string{"://"}, skip: skipURLPassword},
	// NAME=value, NAME: value, "name": "value" where the name ends in a word that says
	// secret (GITHUB_TOKEN, PGPASSWORD, db_password, but not TOKEN_URL or max_tokens).
	// Uppercase names (environment variables) match anywhere; lowercase ones only as
	// whole setting names at the start of a line or after a quote, brace, comma or blank.
	// Each name holds one of the keywords (TestKeywordsInEveryMatch).
	{kind: "secret-setting", re: regexp.MustCompile(`\b(?P<name>(?:[A-Z0-9]+_)*[A-Z0-9]*(?:SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY|SECRET_KEY|SIGNING_KEY|CREDENTIALS?)|(?:[A-Z0-9]+_)+PASS)["']?[ \t]*[:=][ \t]*(?P<secret>"[^"\n]*"|'[^'\n]*'|[^\s"'\x60,;()\[\]{}]+)`), skip: skipSetting,
		keywords: []string{"secret", "token", "pass", "api_key", "apikey", "access_key", "private_key", "signing_key", "credential"}},
	{kind: "secret-setting", re: regexp.MustCompile(`(?m)(?:^|[\s{,"'])(?P<name>(?:[a-z0-9]+[_-])*(?:secret|token|password|passwd|passphrase|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|signing[_-]?key))["']?[ \t]*[:=][ \t]*(?P<secret>"[^"\n]+"|'[^'\n]+'|[^\s"'\x60,;()\[\]{}]+)`), skip: skipSetting,
		keywords: []string{"secret", "token", "pass", "api_key", "api-key", "apikey", "access_key", "access-key", "accesskey",
			"private_key", "private-key", "privatekey", "signing_key", "signing-key", "signingkey"}},
	// A password said in prose: "my password is hunter2-...", "the root password was
	// ...", "the password for admin is ...", "set the password to ...". The value must look made, not a word of the sentence
	// ("the password is wrong"): a digit or a symbol inside it.
	{kind: "password-prose", re: regexp.MustCompile(`(?i)\b(?:password|passwd|passphrase|passcode)(?:\s+for\s+[\w@.-]+)?\s+(?:is|was|to)\s+(?:now\s+|still\s+)?["'\x60]?(?P<secret>[^\s"'\x60]{6,})`), keywords: []string{"pass"}, skip: skipProse, trimRight: ".,;)"},
	// Command-line flags: --password=..., --db-password ..., --token ..., --api-key ...
	{kind: "password-flag", re: regexp.MustCompile(`(?:^|\s)--?(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|secret|api-key|apikey|access-key|secret-key|auth-token)(?:=|[ \t]+)(?P<secret>"[^"\n]*"|'[^'\n]*'|[^\s"'\x60]+)`), keywords: []string{"pass", "token", "secret", "key"}, skip: skipFlag},
	// mysql's -pPASSWORD, the password glued to the flag, after a client of that family on
	// the same line (-p alone prompts; mkdir -p, ssh -p 22 are not passwords).
	{kind: "password-flag", re: regexp.MustCompile(`\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mysqlcheck|mariadb|mariadb-dump|mariadb-admin)\b[^\n|;&]*?\s-p(?P<secret>"[^"\n]+"|'[^'\n]+'|[^\s"'\x60-][^\s"'\x60]*)`), keywords: []string{"mysql", "mariadb"}, skip: skipGlued},
	// sshpass -p PASSWORD.
	{kind: "password-flag", re: regexp.MustCompile(`\bsshpass\s+-p\s*(?P<secret>"[^"\n]+"|'[^'\n]+'|[^\s"'\x60]+)`), keywords: []string{"sshpass"}, skip: skipFlag},
	// Docker's config.json: "auth" is base64 of user:password; identity and registry tokens.
	{kind: "docker-auth", re: regexp.MustCompile(`"(?P<name>auth|identitytoken|registrytoken)"\s*:\s*"(?P<secret>[A-Za-z0-9+/=_.-]{8,})"`), keywords: []string{`"auth"`, "identitytoken", "registrytoken"}, skip: skipDockerAuth},
	// Azure storage and service bus connection strings, and SAS signatures in URLs.
	{kind: "azure-key", re: regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})`), keywords: []string{"accountkey", "sharedaccesskey"}},
	{kind: "azure-sas", re: regexp.MustCompile(`[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,}(?:%3[Dd]|=){0,2})`), keywords: []string{"sig="}},
}

// localKeywords finds the keywords of localRules at once; ids[i] are rule i's.
var localKeywords = sync.OnceValues(func() (*keywordSet, [][]int) {
	kws := make([][]string, len(localRules))
	for i, r := range localRules {
		kws[i] = r.keywords
	}
	return newKeywordSet(kws)
})

// wordsIdentifier is a name made of lowercase words, dashes or underscores and short
// numbers (test-recommendation-1, order_items_v2): this package's one exception to
// gitleaks' generic-api-key, which the entropy of long words lets through, and which
// test data and ids in coding sessions are full of.
var wordsIdentifier = regexp.MustCompile(`^[a-z]+(?:[-_](?:[a-z]+|[0-9]{1,4}))+$`)

// localSpans returns the secrets the local rules find in s; lower is s in lowercase.
func localSpans(s, lower string) []span {
	set, ids := localKeywords()
	return localSpansAround(s, set.find(lower), ids)
}

// localSpansAround is localSpans with rule i searched around its keywords ids[i] that f
// found; a rule with none is searched in the whole text.
func localSpansAround(s string, f *found, ids [][]int) []span {
	var out []span
	for i := range localRules {
		r := &localRules[i]
		secret := r.re.SubexpIndex("secret")
		for _, m := range findAll(r.re, s, f, ids[i], nil) {
			start, end := m[0], m[1]
			if secret >= 0 {
				start, end = m[2*secret], m[2*secret+1]
			}
			if start < 0 || end <= start {
				continue
			}
			if r.skip != nil && r.skip(s, m, r.re) {
				continue
			}
			if end-start >= 2 && (s[start] == '"' || s[start] == '\'') && s[end-1] == s[start] {
				start, end = start+1, end-1
			}
			for r.trimRight != "" && end > start && strings.IndexByte(r.trimRight, s[end-1]) >= 0 {
				end--
			}
			if end > start {
				out = append(out, span{start: start, end: end, kind: r.kind, rank: rankLocal})
			}
		}
	}
	return out
}

// group returns submatch name of m in s, or "".
func group(s string, m []int, re *regexp.Regexp, name string) string {
	i := re.SubexpIndex(name)
	if i < 0 || m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

func skipURLPassword(s string, m []int, re *regexp.Regexp) bool {
	value := group(s, m, re, "secret")
	// postgres:postgres@localhost: a well-known default, not a secret.
	return value == group(s, m, re, "user") || notSecretValue(value)
}

func skipSetting(s string, m []int, re *regexp.Regexp) bool {
	if i := m[2*re.SubexpIndex("name")]; i > 0 && s[i-1] == '{' {
		return true // ${DB_PASSWORD:?unset}: a shell expansion that names the variable
	}
	return notSecretSetting(group(s, m, re, "name"), group(s, m, re, "secret"), s[m[1]:])
}

func skipFlag(s string, m []int, re *regexp.Regexp) bool {
	return notSecretValue(group(s, m, re, "secret"))
}

func skipGlued(s string, m []int, re *regexp.Regexp) bool {
	v := strings.Trim(group(s, m, re, "secret"), `"'`)
	return v == "" || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{")
}

// skipProse keeps words of the sentence: a value with neither a digit nor a symbol
// inside it (trailing punctuation aside), and references and placeholders.
func skipProse(s string, m []int, re *regexp.Regexp) bool {
	v := strings.TrimRight(group(s, m, re, "secret"), ".,;:!?)")
	if len(v) < 6 || notSecretValue(v) || strings.ContainsAny(v, "()[]{}") {
		return true // short, a reference, or code: System.getenv("..."), request.form[...]
	}
	for _, r := range v {
		if unicode.IsDigit(r) || !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// skipDockerAuth keeps an "auth" value that is not base64 of user:password ("auth":
// "required"); identity tokens need only be long.
func skipDockerAuth(s string, m []int, re *regexp.Regexp) bool {
	v := group(s, m, re, "secret")
	if group(s, m, re, "name") != "auth" {
		return len(v) < 16
	}
	raw, err := base64.StdEncoding.DecodeString(v)
	return err != nil || !strings.Contains(string(raw), ":")
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
