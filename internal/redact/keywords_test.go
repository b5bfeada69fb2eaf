package redact

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
)

// windowsOf is the plain definition of found.windows: each keyword searched in turn, each
// occurrence after the end of the one before.
func windowsOf(lower string, keywords []string) [][2]int {
	var ws [][2]int
	for _, k := range keywords {
		for from := 0; ; {
			i := strings.Index(lower[from:], k)
			if i < 0 {
				break
			}
			i += from
			ws = append(ws, [2]int{linesBack(lower, i, windowLines), linesForward(lower, i+len(k), windowLines)})
			from = i + len(k)
		}
	}
	return mergeWindows(ws)
}

// windowTexts returns texts made of the rules' keywords, pieces of them, overlapping runs
// ("aaa" for "aa"), words and line ends, in lowercase, from a fixed seed.
func windowTexts(words []string, n int) []string {
	r := rand.New(rand.NewPCG(26, 12))
	bits := []string{"\n", "\n", " ", "x", "=", "\r\n", "the ", "é"}
	var out []string
	for range n {
		var b strings.Builder
		for m := r.IntN(60); m > 0; m-- {
			switch w := words[r.IntN(len(words))]; r.IntN(4) {
			case 0:
				b.WriteString(w)
			case 1:
				b.WriteString(w[:r.IntN(len(w)+1)])
			case 2:
				b.WriteString(w + w[len(w)/2:]) // overlapping occurrences of w
			default:
				b.WriteString(bits[r.IntN(len(bits))])
			}
		}
		out = append(out, b.String())
	}
	return out
}

// TestWindowsAgree holds the one-pass keyword search to the plain one: for every rule of
// both sets, on texts built of their keywords, the same rule runs (some keyword is there)
// over the same windows.
func TestWindowsAgree(t *testing.T) {
	rules, _ := mustGitleaksRules()
	local, localIDs := localKeywords()
	type set struct {
		name string
		ks   *keywordSet
		kws  [][]string
		ids  [][]int
	}
	var sets []set
	gl := set{name: "gitleaks", ks: glKeywords}
	for _, r := range rules {
		gl.kws, gl.ids = append(gl.kws, r.keywords), append(gl.ids, r.ids)
	}
	lc := set{name: "local", ks: local, ids: localIDs}
	for _, r := range localRules {
		lc.kws = append(lc.kws, r.keywords)
	}
	sets = append(sets, gl, lc)
	for _, s := range sets {
		texts := windowTexts(s.ks.words, 3000)
		ran := 0
		for _, text := range texts {
			f := s.ks.find(text)
			for i, kws := range s.kws {
				if len(kws) == 0 {
					continue
				}
				want := windowsOf(text, kws)
				if got := f.holds(s.ids[i]); got != (want != nil) {
					t.Fatalf("%s rule %d (%q) on %q: holds = %v, want %v", s.name, i, kws, text, got, want != nil)
				}
				if want == nil {
					continue
				}
				ran++
				if got := f.windows(s.ids[i]); !slices.Equal(got, want) {
					t.Fatalf("%s rule %d (%q) on %q: windows = %v, want %v", s.name, i, kws, text, got, want)
				}
			}
		}
		if ran < len(texts) {
			t.Errorf("%s: %d rules ran on %d texts: the texts hold too few keywords to test", s.name, ran, len(texts))
		}
	}
}

// TestKeywordsInEveryMatch holds the local rules' keywords to their patterns: searching each
// rule only around its keywords finds the same secrets as searching the whole text, on the
// labelled set, every text of the corpus's eval cases and settings, flags and URLs generated around the
// keywords. A pattern that could match without one (a new name in secret-setting, say)
// fails here.
func TestKeywordsInEveryMatch(t *testing.T) {
	texts := labelledAndCorpusTexts(t)
	set, _ := localKeywords()
	r := rand.New(rand.NewPCG(26, 13))
	names := []string{"GITHUB_TOKEN", "DB_PASS", "PGPASSWORD", "AWS_SECRET_ACCESS_KEY", "STRIPE_APIKEY", "GOOGLE_APPLICATION_CREDENTIALS",
		"JWT_SIGNING_KEY", "db_password", "api-key", "client_secret", "accessKey", "private_key", "passphrase", "signing-key", "token"}
	values := []string{`"hunter2hunter2"`, "'s3cr3t-v4lue'", "abcd1234efgh5678", "$DB_PASS", "x", "https://u:pa55word99@db.internal/x"}
	for range 1500 {
		var b strings.Builder
		for m := 1 + r.IntN(6); m > 0; m-- {
			switch r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, "%s=%s\n", names[r.IntN(len(names))], values[r.IntN(len(values))])
			case 1:
				fmt.Fprintf(&b, "  \"%s\": %s,\n", names[r.IntN(len(names))], values[r.IntN(len(values))])
			case 2:
				fmt.Fprintf(&b, "run --%s %s; mysql -u root -p%s\n", names[r.IntN(len(names))], values[r.IntN(len(values))], values[r.IntN(len(values))])
			default:
				b.WriteString(values[r.IntN(len(values))] + "\n")
			}
		}
		texts = append(texts, b.String())
	}
	whole := make([][]int, len(localRules))
	found := 0
	for _, s := range texts {
		lower := lowerASCII(s)
		want := localSpansAround(s, set.find(lower), whole)
		if got := localSpans(s, lower); !slices.Equal(got, want) {
			t.Fatalf("on %q: around the keywords %v, in the whole text %v", s, got, want)
		}
		found += len(want)
	}
	if found < 1000 {
		t.Errorf("the texts hold %d secrets of the local rules: too few to test", found)
	}
	t.Logf("%d texts, %d secrets found the same way", len(texts), found)
}

// TestGenericMayMatch holds genericMayMatch to the search it spares: generic-api-key finds
// the same secrets with the check as without it, on the labelled set, every text of the
// corpus's eval cases and texts generated around the rule's keywords (gaps of every length
// about the limit, each assignment, the characters that fold to k and s). It also fails when
// gitleaks' pattern is no longer the one the check reads.
func TestGenericMayMatch(t *testing.T) {
	rules, _ := mustGitleaksRules()
	i := slices.IndexFunc(rules, func(r glRule) bool { return r.RuleID == "generic-api-key" })
	if i < 0 {
		t.Fatal("gitleaks has no generic-api-key rule")
	}
	r := rules[i]
	if r.mayMatch == nil {
		t.Fatalf("generic-api-key's pattern is no longer genericPattern: read the new one in genericMayMatch, then set it\n%s", r.Regex)
	}
	texts := labelledAndCorpusTexts(t)
	rng := rand.New(rand.NewPCG(26, 14))
	keys := []string{"api", "API", "Api", "aPi", "key", "KEY", "\u212aey", "secret", "\u017fecret", "token", "passwd", "password", "creds", "credential", "access", "auth"}
	gaps := []string{" ", "\t", "_", ".", "-", "x", "9", "\n", "'", "\"", "\r\n", "\v", "é", "(", "`"}
	assigns := []string{"=", ">", ":", ":=", "::=", "||", "=>", "?=", ",", "?", "|", ";"}
	values := []string{"hunter2hunter2", "'s3cr3t-v4lue-x9Q'", "abcd1234efgh5678", "Zm9vYmFyYmF6cXV4cXV1eA==", "x", "$TOKEN"}
	for range 4000 {
		var b strings.Builder
		for m := 1 + rng.IntN(5); m > 0; m-- {
			if rng.IntN(3) == 0 {
				b.WriteString("some prose about the key, ")
			}
			b.WriteString(strings.Repeat("a", rng.IntN(3)) + keys[rng.IntN(len(keys))])
			for n := rng.IntN(26); n > 0; n-- {
				b.WriteString(gaps[rng.IntN(len(gaps))])
			}
			b.WriteString(assigns[rng.IntN(len(assigns))])
			b.WriteString(values[rng.IntN(len(values))])
			b.WriteString([]string{"\n", " ", ";", "", "\n\n"}[rng.IntN(5)])
		}
		texts = append(texts, b.String())
	}
	found, skipped := 0, 0
	for _, s := range texts {
		f := glKeywords.find(lowerASCII(s))
		if !f.holds(r.ids) {
			continue
		}
		want := findAll(r.Regex, s, f, r.ids, nil)
		got := findAll(r.Regex, s, f, r.ids, genericMayMatch)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("on %q: with the check %v, without %v", s, got, want)
		}
		found += len(want)
		for _, w := range f.windows(r.ids) {
			if !genericMayMatch(s, f, r.ids, w) {
				skipped++
			}
		}
	}
	if found < 500 || skipped < 500 {
		t.Errorf("%d matches found, %d windows skipped: too few to test", found, skipped)
	}
	t.Logf("%d texts, %d matches found the same way, %d windows skipped", len(texts), found, skipped)
}

// labelledAndCorpusTexts returns the labelled set's texts and every text of the corpus's eval
// cases: responses, messages and tool inputs.
func labelledAndCorpusTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	for _, ex := range readLabelled(t, "testdata/labelled.txt") {
		texts = append(texts, ex.text)
	}
	cases, err := corpus.Load("../../corpus/cases/eval")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		texts = append(texts, c.Response)
		for _, m := range c.Conversation {
			texts = append(texts, m.Text)
			for _, tc := range m.ToolCalls {
				texts = append(texts, tc.Input)
			}
		}
	}
	return texts
}
