package eval

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/compacteval/compacteval/internal/redact"
)

// Each kind of noise that real sessions turned into facts, one case per kind; every case
// failed before its fix.
func TestFactsNoise(t *testing.T) {
	for _, tc := range []struct {
		name   string
		msg    corpus.Message
		bad    []string // facts that must not be found
		good   []string // facts that must still be found
		reason string
	}{
		{
			name:   "closing tags",
			msg:    corpus.Message{Role: "assistant", Text: "Wrap it: <div class=\"row\"><span>{n}</span><button>Go</button></div> in src/ui/Row.tsx"},
			bad:    []string{"path /div", "path /span", "path /button"},
			good:   []string{"path src/ui/row.tsx"},
			reason: "</div> gave the path /div",
		},
		{
			name:   "slash commands",
			msg:    corpus.Message{Role: "user", Text: "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n/review the diff in /etc/app/config.yaml"},
			bad:    []string{"path /compact", "path /command-name", "path /review", "path /command-message"},
			good:   []string{"path /etc/app/config.yaml"},
			reason: "a slash command at a line start or inside its tag, and the closing tag, gave paths",
		},
		{
			name:   "slash-separated words",
			msg:    corpus.Message{Role: "user", Text: "Add save/load/delete buttons; the modes are Develop/Explore/Synthesize. Tests go in internal/store/store_test.go."},
			bad:    []string{"path save/load/delete", "path develop/explore/synthesize"},
			good:   []string{"path internal/store/store_test.go"},
			reason: "three words joined by slashes are alternatives, not a path",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := factKeys(Facts([]corpus.Message{tc.msg}, nil))
			for _, b := range tc.bad {
				if slices.Contains(got, b) {
					t.Errorf("Facts(%q) has %q (%s); all: %v", tc.msg.Text, b, tc.reason, got)
				}
			}
			for _, g := range tc.good {
				if !slices.Contains(got, g) {
					t.Errorf("Facts(%q) lacks %q; all: %v", tc.msg.Text, g, got)
				}
			}
		})
	}
}

func TestConstraintsNoise(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
		reason     string
	}{
		{"log line", "It fails with:\nls: cannot access '/srv/data/in.csv': No such file or directory", nil,
			"a pasted log line ending in no such file or directory is no prohibition"},
		{"interjection", "no, that's horrible. Make the table denser.", nil, `"no," answers, it does not forbid`},
		{"question", "Shouldn't it be ignored? The cache is stale anyway.", nil, "a question is no rule"},
		{"key in a URL", "Use https://api.example.com/v1/quotes?api_key=Zx81kLmn04PqRstu77 for the quotes.", nil,
			"a URL that holds an API key is no constraint to keep word for word"},
		{"still a rule", "no, never push to main. Do not log the token.", []string{"no, never push to main", "do not log the token"},
			"a prohibition after the interjection is still one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range constraints([]corpus.Message{{Role: "user", Text: tc.text}}, 1) {
				got = append(got, f.key)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("constraints(%q) = %q, want %q (%s)", tc.text, got, tc.want, tc.reason)
			}
		})
	}
}

func TestSecretsAreNoCoverage(t *testing.T) {
	// A secret said in the conversation is found after redaction: no fact holds it, a
	// constraint that names it keeps the words around it, and a summary that carries it
	// is flagged secrets_leaked.
	key := "sk-ant-api03-Zq8vN2xLk4PqRt7uWy1zAb3cDe5fGh9iJk"
	conv := []corpus.Message{
		{Role: "user", Text: "Never commit the key " + key + " to the repo. The quotes come from https://api.example.com/v1/quotes?api_key=Zx81kLmn04PqRstu77 daily."},
		{Role: "assistant", Text: "Understood; I will read it from ANTHROPIC_API_KEY in internal/llm/client.go."},
	}
	for _, f := range Facts(redacted(conv), nil) {
		if strings.Contains(f.key, "zq8vn2x") || strings.Contains(f.key, "zx81klmn") {
			t.Errorf("fact %s %q holds a secret", f.Kind, f.key)
		}
	}
	leaky := "1. Primary Request and Intent:\n   Never commit the key " + key + " to the repo; quotes from https://api.example.com/v1/quotes?api_key=Zx81kLmn04PqRstu77.\n8. Current Work:\n   Reading ANTHROPIC_API_KEY in internal/llm/client.go."
	clean := "1. Primary Request and Intent:\n   Never commit the key to the repo; quotes from https://api.example.com/v1/quotes.\n8. Current Work:\n   Reading ANTHROPIC_API_KEY in internal/llm/client.go."
	score := func(s string) Result {
		return Score(Input{ID: "t", Conversation: conv, Cut: 2, Summary: &s}, Options{Redact: redact.String})
	}
	l, c := score(leaky), score(clean)
	// Without a Redactor only the credential in a URL query parameter is found.
	if bare := Score(Input{ID: "t", Conversation: conv, Cut: 2, Summary: &leaky}, Options{}); bare.SecretsLeaked != 1 {
		t.Errorf("leaky summary without Options.Redact: secrets_leaked %d, want 1 (the api_key query parameter)", bare.SecretsLeaked)
	}
	if l.SecretsLeaked != 2 || !slices.Contains(l.Flaws, FlawSecretsLeaked) {
		t.Errorf("leaky summary: secrets_leaked %d, flaws %v; want 2 and %s", l.SecretsLeaked, l.Flaws, FlawSecretsLeaked)
	}
	if c.SecretsLeaked != 0 || len(c.Flaws) != 0 {
		t.Errorf("clean summary: secrets_leaked %d, flaws %v; want none", c.SecretsLeaked, c.Flaws)
	}
	if l.Coverage.Hit > c.Coverage.Hit || l.ConstraintsVerbatim.Hit > c.ConstraintsVerbatim.Hit {
		t.Errorf("the secret earned credit: coverage %v vs %v, constraints %v vs %v", l.Coverage, c.Coverage, l.ConstraintsVerbatim, c.ConstraintsVerbatim)
	}
	if c.ConstraintsVerbatim != (Share{1, 1}) {
		t.Errorf("clean summary keeps the constraint around the secret: constraints %v, want 1/1", c.ConstraintsVerbatim)
	}
}

func redacted(msgs []corpus.Message) []corpus.Message {
	out, _ := redactMessages(msgs, redact.String)
	return out
}

func TestCopiedTextEarnsNothing(t *testing.T) {
	// A summary that is the assistant's messages copied holds their facts, but copied
	// words earn no coverage; the same facts in the summary's own words do.
	conv := []corpus.Message{
		{Role: "user", Text: "The export job in jobs/export.py times out on big tenants."},
		{Role: "assistant", Text: "I switched the query in jobs/export.py to stream rows with yield_per so that memory stays flat for the largest tenants."},
		{Role: "assistant", Text: "Next I will add a test that exports ten thousand rows through run_export and checks the order."},
	}
	copied := conv[1].Text + "\n" + conv[2].Text
	own := "Streaming rows via yield_per in jobs/export.py; next: a 10k-row test of run_export."
	score := func(s string) Result {
		return Score(Input{ID: "t", Conversation: conv, Cut: 3, Summary: &s}, Options{})
	}
	cp, ow := score(copied), score(own)
	if v, _ := cp.Copied.Value(); v < 0.9 {
		t.Errorf("copied summary: copied share %v, want nearly all", cp.Copied)
	}
	if cp.Coverage.Hit >= ow.Coverage.Hit || cp.BoundaryCoverage.Hit >= ow.BoundaryCoverage.Hit {
		t.Errorf("copied summary coverage %v, boundary %v; own words %v, %v: copying must earn less", cp.Coverage, cp.BoundaryCoverage, ow.Coverage, ow.BoundaryCoverage)
	}
}

func TestRedactLinesFindsSecretsInToolOutput(t *testing.T) {
	// Tool output is redacted line by line where a line may hold a secret; the secrets
	// of a .env file read and of a curl command are still found.
	gh := "ghp_" + strings.Repeat("aB3", 12)
	out := "APP_ENV=dev\nGITHUB_TOKEN=" + gh + "\nfunc loadToken(ctx context.Context) error {\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\n"
	red, secrets := redactLines(out, redact.String)
	if strings.Contains(red, gh) || strings.Contains(red, "MIIEowIBAAKCAQEA7") {
		t.Errorf("redactLines left a secret:\n%s", red)
	}
	if !strings.Contains(red, "func loadToken(ctx context.Context) error {") || !strings.Contains(red, "APP_ENV=dev") {
		t.Errorf("redactLines changed text that holds no secret:\n%s", red)
	}
	if leakedSecrets("the token is "+gh, secrets) != 1 {
		t.Errorf("leakedSecrets does not find the token among %d secrets", len(secrets))
	}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"Authorization: Bearer abcdefgh12345678", true},
		{"export API_KEY=x1y2", true},
		{"https://admin:hunter2@db.internal/app", true},
		{"\tif err := s.loadToken(ctx, id); err != nil {", false},
		{"the key idea is to keep it small", false},
	} {
		if got := mayHoldSecret(tc.line); got != tc.want {
			t.Errorf("mayHoldSecret(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestFactsNoiseInScripts(t *testing.T) {
	// Found on real Claude Code sessions: the lines of a commit message written through a
	// here-document or a quoted string that spans lines became commands ("Note: ...",
	// "Co-Authored-By: ..."), and an anonymizer's REDACTED_EMAIL an identifier.
	script := "git add -A && git commit -m \"$(cat <<'EOF'\nfeat: trace the hooks\n\nNote: dialyzer false positive kept in .dialyzerignore\nCo-Authored-By: Bot <REDACTED_EMAIL>\nEOF\n)\"\ngo test ./internal/trace/...\ngit commit -m \"subject\n\nbody line here explained\"\nmake lint"
	msg := corpus.Message{Role: "assistant", ToolCalls: []corpus.ToolCall{{ID: "1", Name: "Bash", Input: `{"command":` + strconvQuote(script) + `}`}}}
	got := factKeys(Facts([]corpus.Message{msg}, nil))
	for _, bad := range []string{"command note: dialyzer false", "command co-authored-by: bot <redacted_email>", "identifier redacted_email", "command body line here", "command feat: trace the"} {
		if slices.Contains(got, bad) {
			t.Errorf("Facts(commit script) has %q; all: %v", bad, got)
		}
	}
	for _, good := range []string{"command git add", "command go test ./internal/trace/...", "command make lint"} {
		if !slices.Contains(got, good) {
			t.Errorf("Facts(commit script) lacks %q; all: %v", good, got)
		}
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestDotfileInSummary(t *testing.T) {
	// A summary that names .dialyzerignore names /repo/.dialyzerignore; the file name was
	// not in the list of known ones, so the summary's mention was not read as a path.
	f := Facts([]corpus.Message{{Role: "user", Text: "see /srv/app/.dialyzerignore"}}, nil)
	x := newSummaryIndex("Created `.dialyzerignore` (new).")
	for i := range f {
		if f[i].Kind == KindPath && !x.holds(&f[i]) {
			t.Errorf("summary naming .dialyzerignore does not hold %q", f[i].key)
		}
	}
}
