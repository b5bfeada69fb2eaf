package redact

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// Test secrets are generated (fixed seed) so that secret scanners do not flag this file.
var (
	gen          = &tokenGen{r: rand.New(rand.NewPCG(1, 2))}
	anthropicKey = "sk-ant-" + "api03-" + gen.chars(charsets["b64url"], 80)
	openaiKey    = "sk-" + "proj-" + gen.chars(charsets["b64url"], 54)
	githubToken  = "ghp" + "_" + gen.chars(charsets["alnum"], 36)
	githubPAT    = "github_pat_" + gen.chars(charsets["alnum"], 22) + "_" + gen.chars(charsets["alnum"], 59)
	awsKeyID     = "AKIA" + gen.chars(charsets["aws"], 16)
	slackToken   = "xoxb-" + gen.chars(charsets["digits"], 12) + "-" + gen.chars(charsets["digits"], 13) + "-" + gen.chars(charsets["alnum"], 24)
	googleKey    = "AIza" + gen.chars(charsets["b64url"], 35)
	jwt          = "eyJ" + gen.chars(charsets["alnum"], 30) + "." + "eyJ" + gen.chars(charsets["alnum"], 40) + "." + gen.chars(charsets["b64url"], 43)
	pemBody      = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictG\n"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
		n              int
	}{
		{name: "anthropic key", in: "export KEY_VALUE " + anthropicKey + " done", want: "export KEY_VALUE [REDACTED:anthropic-key] done", n: 1},
		{name: "openai project key", in: "using " + openaiKey + "\n", want: "using [REDACTED:openai-key]\n", n: 1},
		{name: "github token and PAT", in: githubToken + " and " + githubPAT, want: "[REDACTED:github-pat] and [REDACTED:github-fine-grained-pat]", n: 2},
		{name: "aws access key id", in: "aws_access_key_id " + awsKeyID, want: "aws_access_key_id [REDACTED:aws-access-token]", n: 1},
		{name: "slack bot token", in: "token " + slackToken + ".", want: "token [REDACTED:slack-bot-token].", n: 1},
		{name: "google api key", in: "?key=" + googleKey + "&q=1", want: "?key=[REDACTED:gcp-api-key]&q=1", n: 1},
		{name: "jwt", in: "cookie session=" + jwt + ";", want: "cookie session=[REDACTED:jwt];", n: 1},
		{name: "bearer header keeps its scheme", in: "Authorization: Bearer abcdef0123456789ABCDEF.xyz", want: "Authorization: Bearer [REDACTED:bearer-token]", n: 1},
		{name: "basic auth header", in: `-H "Authorization: Basic dXNlcjpodW50ZXIy"`, want: `-H "Authorization: Basic [REDACTED:basic-auth]"`, n: 1},
		{name: "password in a url keeps user and host", in: "DATABASE=postgres://app:s3cr3t-pw@db.internal:5432/shop", want: "DATABASE=postgres://app:[REDACTED:url-password]@db.internal:5432/shop", n: 1},
		{name: "env line", in: "STRIPE_SECRET=whsec_abcdef123\nPORT=8080\n", want: "STRIPE_SECRET=[REDACTED:secret-setting]\nPORT=8080\n", n: 1},
		{name: "export with quotes", in: `export GITHUB_TOKEN="not-a-real-token-1234"`, want: `export GITHUB_TOKEN="[REDACTED:secret-setting]"`, n: 1},
		{name: "api key setting", in: "OPENAI_API_KEY=abc123def456", want: "OPENAI_API_KEY=[REDACTED:secret-setting]", n: 1},
		{name: "yaml password", in: "db:\n  password: hunter2hunter\n  user: app\n", want: "db:\n  password: [REDACTED:secret-setting]\n  user: app\n", n: 1},
		{name: "aws secret in credentials file", in: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", want: "aws_secret_access_key = [REDACTED:secret-setting]", n: 1},
		{name: "short pass name", in: "SMTP_PASS=mailpass99", want: "SMTP_PASS=[REDACTED:secret-setting]", n: 1},
		{name: "json client secret", in: `{"client_secret": "a8f5f167f44f4964e6c998dee827110c"}`, want: `{"client_secret": "[REDACTED:secret-setting]"}`, n: 1},
		{
			name: "pem private key keeps its frame",
			in:   "key:\n-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----\nnext",
			want: "key:\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----\nnext",
			n:    1,
		},
		{
			name: "pem private key cut off before its END line",
			in:   "-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody + "and then the paste ended",
			want: "-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED:private-key]\nand then the paste ended",
			n:    1,
		},
		{name: "public key stays", in: "-----BEGIN PUBLIC KEY-----\n" + pemBody + "-----END PUBLIC KEY-----", want: "-----BEGIN PUBLIC KEY-----\n" + pemBody + "-----END PUBLIC KEY-----", n: 0},
		{name: "password in prose", in: "my password is hunter2-Qx7v, use it once", want: "my password is [REDACTED:password-prose], use it once", n: 1},
		{name: "mysql glued -p", in: "mysql -u root -phunter2Qx7 shop", want: "mysql -u root -p[REDACTED:password-flag] shop", n: 1},
		{name: "password flag", in: "migrate --password=hunter2Qx7 --host db", want: "migrate --password=[REDACTED:password-flag] --host db", n: 1},
		{name: "docker config auth", in: `{"auth": "Y2k6aHVudGVyMlF4Nw=="}`, want: `{"auth": "[REDACTED:docker-auth]"}`, n: 1},
		{name: "shell expansion stays", in: "DB_PASSWORD=${DB_PASSWORD:?unset}", want: "DB_PASSWORD=${DB_PASSWORD:?unset}", n: 0},
		// What must not change.
		{name: "token counts are not tokens", in: "max_tokens: 32000\nMAX_TOKENS=32000\nOPENAI_MAX_TOKENS=4096", want: "max_tokens: 32000\nMAX_TOKENS=32000\nOPENAI_MAX_TOKENS=4096", n: 0},
		{name: "variable references stay", in: "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}\nDB_PASSWORD=$DB_PASSWORD\nurl: postgres://app:${PGPASS}@db/x", want: "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}\nDB_PASSWORD=$DB_PASSWORD\nurl: postgres://app:${PGPASS}@db/x", n: 0},
		{name: "code that reads a token stays", in: "token = get_token(user)\nSECRET_KEY = os.environ[\"SECRET_KEY\"]\npassword = request.form['pw']", want: "token = get_token(user)\nSECRET_KEY = os.environ[\"SECRET_KEY\"]\npassword = request.form['pw']", n: 0},
		{name: "prose stays", in: "The bearer token expired; use a basic functionality test. sk-learn is a library.", want: "The bearer token expired; use a basic functionality test. sk-learn is a library.", n: 0},
		{name: "masked values stay", in: "API_KEY=********\npassword: xxxxxxxx", want: "API_KEY=********\npassword: xxxxxxxx", n: 0},
		{name: "type annotations stay", in: "JWT_SIGNING_KEY: SecretStr\nACCESS_TOKEN: str = load()", want: "JWT_SIGNING_KEY: SecretStr\nACCESS_TOKEN: str = load()", n: 0},
		{name: "user equal to password is a default", in: "postgres://postgres:postgres@localhost:5433/app", want: "postgres://postgres:postgres@localhost:5433/app", n: 0},
		{name: "test output stays", in: "--- PASS: TestTokenRefresh (0.01s)\nok", want: "--- PASS: TestTokenRefresh (0.01s)\nok", n: 0},
		{name: "plain url stays", in: "see https://example.com/a:b@c and git@github.com:org/repo.git", want: "see https://example.com/a:b@c and git@github.com:org/repo.git", n: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := String(tt.in)
			if got != tt.want || n != tt.n {
				t.Errorf("String(%q) = %q, %d; want %q, %d", tt.in, got, n, tt.want, tt.n)
			}
			again, n2 := String(got)
			if again != got || n2 != 0 {
				t.Errorf("String(String(%q)) = %q, %d; redaction must be idempotent", tt.in, again, n2)
			}
		})
	}
}

func TestLiterals(t *testing.T) {
	got, n := Literals("key is my-local-key-123 twice my-local-key-123", "my-local-key-123", "", "short")
	if want := "key is [REDACTED:literal] twice [REDACTED:literal]"; got != want || n != 2 {
		t.Errorf("Literals() = %q, %d; want %q, 2", got, n, want)
	}
}

// TestCorpusUnchanged runs the redactor over every conversation and response of the corpus,
// which holds no real secret: anything it replaces there is a false positive.
func TestCorpusUnchanged(t *testing.T) {
	cases, err := corpus.Load("../../corpus/cases")
	var ps corpus.Problems
	if err != nil && !errors.As(err, &ps) {
		if errors.Is(err, fs.ErrNotExist) {
			t.Skip("no corpus")
		}
		t.Fatal(err)
	}
	texts, glChanged := 0, 0
	for _, c := range cases {
		check := func(where, s string) {
			texts++
			if _, n := redact(s, false, true); n > 0 {
				glChanged++ // for the README: gitleaks' rules without this package's own
			}
			if got, n := String(s); n > 0 {
				t.Errorf("%s %s: %d replacements in text with no secret:\n%s", filepath.ToSlash(c.File), where, n, firstDiff(s, got))
			}
		}
		check("response", c.Response)
		for i, m := range c.Conversation {
			check("conversation", m.Text)
			for _, tc := range m.ToolCalls {
				check(fmt.Sprintf("tool call of message %d", i), tc.Input)
			}
		}
	}
	if texts == 0 {
		t.Fatal("the corpus has no text to check")
	}
	t.Logf("%d texts of %d cases checked; gitleaks' rules alone change %d", texts, len(cases), glChanged)
}

// firstDiff shows the first line that redaction changed.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "  " + la[i] + "\n→ " + lb[i]
		}
	}
	return ""
}

// go test -run='^$' -bench=CorpusCase ./internal/redact
func BenchmarkCorpusCase(b *testing.B) {
	c, err := corpus.ReadFile("../../corpus/cases/eval/sqlmig-postgres-events-partitioning-complete.yaml", "eval/sqlmig-postgres-events-partitioning-complete")
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for _, m := range c.Conversation {
		sb.WriteString(m.Text + "\n")
	}
	text := sb.String()
	String(text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}

// TestGitleaksRules guards the dependency: an upgrade of gitleaks that drops or renames a
// rule this package counts on fails here, not silently in a recording.
func TestGitleaksRules(t *testing.T) {
	rules, _, err := gitleaksRules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 200 {
		t.Errorf("gitleaks gives %d usable rules, want at least 200", len(rules))
	}
	have := map[string]bool{}
	for _, r := range rules {
		have[r.RuleID] = true
	}
	for _, id := range []string{"gitlab-pat", "npm-access-token", "huggingface-access-token", "sendgrid-api-token",
		"azure-ad-client-secret", "digitalocean-pat", "databricks-api-token", "github-pat", "aws-access-token",
		"slack-bot-token", "jwt", "generic-api-key"} {
		if !have[id] {
			t.Errorf("gitleaks has no rule %s", id)
		}
	}
}
