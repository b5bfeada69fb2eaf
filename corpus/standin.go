package corpus

import (
	"strings"

	"github.com/compacteval/compacteval/compact"
)

// StandIn is the extractor whose output stands in for intended in a case nobody has judged
// yet (a recording, a failure found by compacteval fuzz): such a case carries Unreviewed in
// its notes until a person has.
const StandIn = "robust"

// Slug returns a model name as an id part: lowercase, each run of other characters one
// dash (qwen2.5:0.5b gives qwen2-5-0-5b), at most 48 bytes.
func Slug(model string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(model) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	s := strings.TrimRight(b.String()[:min(b.Len(), 48)], "-")
	if s == "" {
		return "model"
	}
	return s
}

// SetIntended takes the stand-in extractor's result as intended and lists every extractor
// that differs from it.
func SetIntended(c *Case) {
	ex, ok := compact.Lookup(StandIn)
	if !ok {
		panic("corpus: the " + StandIn + " extractor is not registered")
	}
	got := ex.Extract(c.Response)
	summary := compact.TrimJS(got.Summary)
	c.Intended = Intended{Found: got.OK && summary != "", Summary: summary}
	if !c.Intended.Found {
		c.Intended.Summary = ""
	}
	c.KnownDeviations = map[string]string{}
	for _, e := range compact.Extractors() {
		if c.Matches(e.Extract(c.Response)) {
			continue
		}
		if e.Name == StandIn {
			c.KnownDeviations[e.Name] = "unreviewed recording: intended is the result of this extractor, trimmed"
			continue
		}
		c.KnownDeviations[e.Name] = "unreviewed recording: differs from the " + StandIn + " extraction that stands in for intended"
	}
	if len(c.KnownDeviations) == 0 {
		c.KnownDeviations = nil
	}
}
