package redact

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// example is one line of testdata/labelled.txt, its tokens generated.
type example struct {
	where   string // file:line
	secret  bool
	kind    string
	text    string
	secrets []string // the parts between ⟦ and ⟧
}

// The generated tokens use a fixed seed, so the set and its numbers are the same on every
// run.
const labelledSeed = 16

func readLabelled(t *testing.T, path string) []example {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &tokenGen{r: rand.New(rand.NewPCG(labelledSeed, labelledSeed))}
	var out []example
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", path, n)
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 || (fields[0] != "secret" && fields[0] != "clean") || fields[1] == "" {
			t.Fatalf("%s: want secret or clean, a kind and the text, separated by tabs", where)
		}
		text, err := g.expand(strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(fields[2]))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		ex := example{where: where, secret: fields[0] == "secret", kind: fields[1]}
		ex.text, ex.secrets, err = marked(text)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if ex.secret != (len(ex.secrets) > 0) {
			t.Fatalf("%s: a secret example marks its secrets with ⟦ ⟧, a clean one has none", where)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// marked removes the ⟦ ⟧ marks and returns what they held.
func marked(s string) (string, []string, error) {
	var b strings.Builder
	var secrets []string
	for {
		i := strings.Index(s, "⟦")
		if i < 0 {
			if strings.Contains(s, "⟧") {
				return "", nil, fmt.Errorf("⟧ without ⟦")
			}
			b.WriteString(s)
			return b.String(), secrets, nil
		}
		j := strings.Index(s[i:], "⟧")
		if j < 0 {
			return "", nil, fmt.Errorf("⟦ without ⟧")
		}
		b.WriteString(s[:i])
		secret := s[i+len("⟦") : i+j]
		secrets = append(secrets, secret)
		b.WriteString(secret)
		s = s[i+j+len("⟧"):]
	}
}

// tokenGen expands the {{...}} placeholders with random characters.
type tokenGen struct{ r *rand.Rand }

var placeholder = regexp.MustCompile(`\{\{(\w+)(?: (\d+))?\}\}`)

var charsets = map[string]string{
	"alnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	"lower":  "abcdefghijklmnopqrstuvwxyz",
	"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
	"alpha":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"hex":    "0123456789abcdef",
	"digits": "0123456789",
	"b64":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
	"b64url": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
	"aws":    "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
}

func (g *tokenGen) expand(s string) (string, error) {
	var err error
	out := placeholder.ReplaceAllStringFunc(s, func(m string) string {
		p := placeholder.FindStringSubmatch(m)
		switch p[1] {
		case "pass":
			return g.password()
		case "dockerauth":
			return base64.StdEncoding.EncodeToString([]byte("ci-bot:" + g.password()))
		}
		set, ok := charsets[p[1]]
		n, convErr := strconv.Atoi(p[2])
		if !ok || convErr != nil || n <= 0 {
			err = fmt.Errorf("unknown placeholder %s", m)
			return m
		}
		return g.chars(set, n)
	})
	return out, err
}

func (g *tokenGen) chars(set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[g.r.IntN(len(set))]
	}
	return string(b)
}

// password returns one a person might choose: a word, digits, a symbol and a few more
// characters, 10 to 14 in all.
func (g *tokenGen) password() string {
	words := []string{"river", "Orchid", "tango", "Velvet", "maple", "Comet", "quartz", "Harbor"}
	return words[g.r.IntN(len(words))] + g.chars(charsets["digits"], 2+g.r.IntN(2)) +
		string("!#%*-_.+"[g.r.IntN(8)]) + g.chars(charsets["alnum"], 2+g.r.IntN(3))
}

// score is how a redactor did on the labelled set.
type score struct {
	secrets, caught int // secret values, and those removed whole
	clean, changed  int // near misses, and those redaction changed
	missed          []string
}

func (s score) recall() float64 { return float64(s.caught) / float64(s.secrets) }
func (s score) fpRate() float64 { return float64(s.changed) / float64(s.clean) }

func measure(examples []example, redactor func(string) (string, int)) (total score, byKind map[string]*score) {
	byKind = map[string]*score{}
	for _, ex := range examples {
		k := byKind[ex.kind]
		if k == nil {
			k = &score{}
			byKind[ex.kind] = k
		}
		got, _ := redactor(ex.text)
		if !ex.secret {
			total.clean++
			k.clean++
			if got != ex.text {
				total.changed++
				k.changed++
				total.missed = append(total.missed, fmt.Sprintf("%s: %s changed a near miss:\n  %q\n→ %q", ex.where, ex.kind, ex.text, got))
			}
			continue
		}
		for _, secret := range ex.secrets {
			total.secrets++
			k.secrets++
			if leftWhole(got, secret) {
				total.missed = append(total.missed, fmt.Sprintf("%s: %s secret %q left in:\n  %q", ex.where, ex.kind, secret, got))
				continue
			}
			total.caught++
			k.caught++
		}
	}
	return total, byKind
}

// leftWhole reports whether the secret, or any of its lines of 8 bytes or more, is still
// in the redacted text.
func leftWhole(redacted, secret string) bool {
	if strings.Contains(redacted, secret) {
		return true
	}
	for _, line := range strings.Split(secret, "\n") {
		if len(line) >= 8 && strings.Contains(redacted, line) {
			return true
		}
	}
	return false
}

// TestLabelledSet measures recall and false positives on testdata/labelled.txt, and
// holds them to lower bounds. go test -v -run TestLabelledSet ./internal/redact prints
// the table in the README.
func TestLabelledSet(t *testing.T) {
	examples := readLabelled(t, "testdata/labelled.txt")
	total, byKind := measure(examples, String)
	glTotal, _ := measure(examples, func(s string) (string, int) { return redact(s, false, true) })
	for _, m := range total.missed {
		t.Log(m)
	}
	t.Logf("| rules | secrets caught | recall | near misses changed | false positives |")
	t.Logf("| --- | ---: | ---: | ---: | ---: |")
	t.Logf("| gitleaks' rules alone | %d/%d | %.1f%% | %d/%d | %.1f%% |", glTotal.caught, glTotal.secrets, 100*glTotal.recall(), glTotal.changed, glTotal.clean, 100*glTotal.fpRate())
	t.Logf("| redact.String | %d/%d | %.1f%% | %d/%d | %.1f%% |", total.caught, total.secrets, 100*total.recall(), total.changed, total.clean, 100*total.fpRate())
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		s := byKind[k]
		t.Logf("  %-16s secrets %d/%d  near misses changed %d/%d", k, s.caught, s.secrets, s.changed, s.clean)
	}

	if total.secrets < 60 || total.clean < 40 {
		t.Fatalf("the labelled set has %d secrets and %d near misses; want at least 60 and 40", total.secrets, total.clean)
	}
	const minRecall, maxFP = 0.97, 0.03
	if r := total.recall(); r < minRecall {
		t.Errorf("recall = %.3f (%d of %d secrets), want at least %.2f", r, total.caught, total.secrets, minRecall)
	}
	if fp := total.fpRate(); fp > maxFP {
		t.Errorf("false positives = %.3f (%d of %d near misses changed), want at most %.2f", fp, total.changed, total.clean, maxFP)
	}
	// What issue 16 names must be caught every time.
	for _, k := range []string{"gitlab", "npm", "huggingface", "sendgrid", "azure", "digitalocean", "databricks",
		"docker-auth", "password-flag", "mysql-p", "prose-password"} {
		s := byKind[k]
		if s == nil || s.secrets == 0 {
			t.Errorf("the labelled set has no %s secret", k)
			continue
		}
		if s.caught != s.secrets {
			t.Errorf("%s: %d of %d secrets caught, want all", k, s.caught, s.secrets)
		}
	}
}

func TestLabelledSetIsIdempotent(t *testing.T) {
	for _, ex := range readLabelled(t, "testdata/labelled.txt") {
		once, _ := String(ex.text)
		if twice, n := String(once); twice != once || n != 0 {
			t.Errorf("%s: String(String(x)) changed %d more:\n  %q\n→ %q", ex.where, n, once, twice)
		}
	}
}
