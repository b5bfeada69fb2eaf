package redact

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// The provider token rules are gitleaks' default rule set (config.DefaultConfig, embedded in
// the module github.com/zricethezav/gitleaks/v8, version in go.mod), read at first use:
// upgrading the module updates them. Only its config package is imported, not its scanner,
// which would bring archive readers and a CLI framework. The matching below follows what
// gitleaks' detector does with a rule: the keyword prefilter, the secret group (or the
// first non-empty group), the entropy floor, the global and the rule's allowlists (regexes
// on the secret, the match or the line; stop words on the secret). Rules that apply to a
// file path only, or only together with another rule, are left out: a conversation has no
// paths.

// glRule is one gitleaks rule as this package uses it.
type glRule struct {
	config.Rule
	keywords []string // lowercase
	ids      []int    // the keywords' numbers in glKeywords
	// mayMatch, when set, reports whether the rule may match in a window; where it says
	// no, the window is not searched.
	mayMatch func(s string, f *found, ids []int, w [2]int) bool
}

var (
	glOnce  sync.Once
	glRules []glRule
	// glKeywords finds the keywords of every rule at once.
	glKeywords *keywordSet
	glAllow    []*config.Allowlist
	glErr      error
)

// gitleaksRules returns the default rules, parsed once.
func gitleaksRules() ([]glRule, []*config.Allowlist, error) {
	glOnce.Do(func() {
		v := viper.New()
		v.SetConfigType("toml")
		if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
			glErr = fmt.Errorf("read gitleaks' default rules: %w", err)
			return
		}
		var vc config.ViperConfig
		if err := v.Unmarshal(&vc); err != nil {
			glErr = fmt.Errorf("read gitleaks' default rules: %w", err)
			return
		}
		cfg, err := vc.Translate()
		if err != nil {
			glErr = fmt.Errorf("read gitleaks' default rules: %w", err)
			return
		}
		for _, r := range cfg.GetOrderedRules() {
			if r.Regex == nil || r.Path != nil || r.SkipReport || len(r.RequiredRules) > 0 {
				continue
			}
			kw := make([]string, len(r.Keywords))
			for i, k := range r.Keywords {
				kw[i] = strings.ToLower(k)
			}
			g := glRule{Rule: r, keywords: kw}
			if r.RuleID == "generic-api-key" && r.Regex.String() == genericPattern {
				g.mayMatch = genericMayMatch
			}
			glRules = append(glRules, g)
		}
		kws := make([][]string, len(glRules))
		for i, r := range glRules {
			kws[i] = r.keywords
		}
		var ids [][]int
		glKeywords, ids = newKeywordSet(kws)
		for i := range glRules {
			glRules[i].ids = ids[i]
		}
		glAllow = cfg.Allowlists
	})
	return glRules, glAllow, glErr
}

// mustGitleaksRules is gitleaksRules for String, which has no error to return: the rules
// are part of the binary, so a failure to read them is a broken build.
func mustGitleaksRules() ([]glRule, []*config.Allowlist) {
	rules, allow, err := gitleaksRules()
	if err != nil {
		panic("redact: " + err.Error())
	}
	return rules, allow
}

// gitleaksSpans returns the secrets the gitleaks rules find in s; lower is s in lowercase.
func gitleaksSpans(s, lower string) []span {
	rules, global := mustGitleaksRules()
	f := glKeywords.find(lower)
	var out []span
	for i := range rules {
		r := &rules[i]
		for _, m := range findAll(r.Regex, s, f, r.ids, r.mayMatch) {
			start, end := m[0], m[1]
			match := strings.TrimRight(s[start:end], "\n")
			mstart, mend := start, start+len(match)
			if len(m) > 2 {
				if r.SecretGroup > 0 && 2*r.SecretGroup+1 < len(m) {
					start, end = m[2*r.SecretGroup], m[2*r.SecretGroup+1]
				} else {
					for g := 1; 2*g+1 < len(m); g++ {
						if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
							start, end = m[2*g], m[2*g+1]
							break
						}
					}
				}
			} else {
				end = mend
			}
			if start < 0 || end <= start {
				continue
			}
			secret := s[start:end]
			if r.Entropy != 0 && entropy(secret) <= r.Entropy {
				continue
			}
			line := lineAround(s, mstart, mend)
			if allowed(global, secret, s[mstart:mend], line) || allowed(r.Allowlists, secret, s[mstart:mend], line) {
				continue
			}
			out = append(out, span{start: start, end: end, kind: r.RuleID, rank: rankProvider})
			if r.RuleID == "generic-api-key" {
				out[len(out)-1].rank = rankGeneric
			}
		}
	}
	return out
}

// findAll returns the submatch indexes of re in s, looking only around the keywords ids
// that f found in s: the lines that hold one and windowLines on each side. Rules whose
// patterns begin with a bounded run of any word characters are slow on long texts in Go's
// regexp, and a conversation is long while its keywords are few. With no keywords, the
// whole text is searched; with keywords none of which s holds, nothing is. A window for
// which mayMatch (if not nil) says no is not searched.
func findAll(re *regexp.Regexp, s string, f *found, ids []int, mayMatch func(string, *found, []int, [2]int) bool) [][]int {
	if len(ids) == 0 {
		return re.FindAllStringSubmatchIndex(s, -1)
	}
	if !f.holds(ids) {
		return nil
	}
	var out [][]int
	for _, w := range f.windows(ids) {
		if mayMatch != nil && !mayMatch(s, f, ids, w) {
			continue
		}
		for _, m := range re.FindAllStringSubmatchIndex(s[w[0]:w[1]], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += w[0]
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// genericPattern is gitleaks' generic-api-key pattern as genericMayMatch reads it: a
// version of the rules with another pattern runs without the check.
const genericPattern = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`

// genericMayMatch reports whether genericPattern may match in s[w[0]:w[1]]. A match holds
// one of the rule's keywords (ids), then at most 20 of [ \t\w.-] and 3 of [\s'"], then an
// assignment, which begins with one of = > : | ? and the comma; where no keyword of the
// window is followed so, the pattern cannot match there. Prose names keys and tokens far
// more often than it assigns them: searching those windows was most of the rule's time,
// and the rule most of gitleaks'. (?i) also folds k and s with the Kelvin sign and the long
// s, which the lowercase keyword search does not see, so a window holding either is
// searched. TestGenericMayMatch holds it to the search.
func genericMayMatch(s string, f *found, ids []int, w [2]int) bool {
	win := s[w[0]:w[1]]
	if strings.Contains(win, "\u212a") || strings.Contains(win, "\u017f") {
		return true
	}
	for _, h := range f.hits {
		if h.pos < w[0] || h.pos >= w[1] || !slices.Contains(ids, h.word) {
			continue
		}
		for i, n := h.pos+len(f.set.words[h.word]), 0; i < w[1] && n <= 23; i, n = i+1, n+1 {
			c := s[i]
			if strings.IndexByte("=>:|?,", c) >= 0 {
				return true
			}
			if !genericGap(c) {
				break
			}
		}
	}
	return false
}

// genericGap reports whether c is one of [ \t\w.-] or [\s'"] (with \v, which \s is not:
// more is safe).
func genericGap(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte(" \t\n\v\f\r_.-'\"", c) >= 0
}

// windowLines is how many lines around a keyword a rule looks at: a match may begin a line
// before its keyword (a name on one line, its value on the next) and a curl command runs
// over several.
const windowLines = 6

// linesBack returns the start of the line n lines above the one holding s[i].
func linesBack(s string, i, n int) int {
	for ; n >= 0; n-- {
		j := strings.LastIndexByte(s[:i], '\n')
		if j < 0 {
			return 0
		}
		if n == 0 {
			return j + 1
		}
		i = j
	}
	return i
}

// linesForward returns the end of the line n lines below the one holding s[i-1].
func linesForward(s string, i, n int) int {
	for ; n >= 0; n-- {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return len(s)
		}
		i += j + 1
		if n == 0 {
			return i
		}
	}
	return i
}

// lowerASCII lowercases A to Z only, so that offsets into the result are offsets into s.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// allowed reports whether an allowlist lets a finding go, as gitleaks decides it with
// neither a commit nor a path: an AND list that needs one never matches.
func allowed(lists []*config.Allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regex := a.RegexAllowed(target)
		stop, _ := a.ContainsStopWord(secret)
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Commits) > 0 || len(a.Paths) > 0 {
				continue
			}
			ok := len(a.Regexes) > 0 || len(a.StopWords) > 0
			if len(a.Regexes) > 0 {
				ok = ok && regex
			}
			if len(a.StopWords) > 0 {
				ok = ok && stop
			}
			if ok {
				return true
			}
			continue
		}
		if regex || stop {
			return true
		}
	}
	return false
}

// lineAround returns the lines that hold s[start:end].
func lineAround(s string, start, end int) string {
	i := strings.LastIndexByte(s[:start], '\n') + 1
	j := strings.IndexByte(s[end:], '\n')
	if j < 0 {
		return s[i:]
	}
	return s[i : end+j]
}

// entropy is the Shannon entropy of s as gitleaks computes it: over its characters, with
// frequencies taken per byte of length.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, r := range s {
		counts[r]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		p := float64(c) / n
		h -= p * math.Log2(p)
	}
	return h
}
