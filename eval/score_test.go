package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/corpus"
	"github.com/google/go-cmp/cmp"
)

func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		msg    corpus.Message
		want   int
		reason string
	}{
		{corpus.Message{Text: "abcd"}, 1, "four characters"},
		{corpus.Message{Text: "abcde"}, 2, "rounded up"},
		{corpus.Message{Text: "日本語"}, 1, "characters, not bytes"},
		{corpus.Message{Text: "😀😀"}, 1, "UTF-16 code units: two per emoji"},
		{corpus.Message{ToolCalls: []corpus.ToolCall{{Name: "bash", Input: `{"command":"ls"}`}}}, 5, "name and input: 4 + 16 characters"},
		{corpus.Message{}, 0, "empty"},
	} {
		if got := EstimateTokens(tc.msg); got != tc.want {
			t.Errorf("EstimateTokens(%+v) = %d, want %d (%s)", tc.msg, got, tc.want, tc.reason)
		}
	}
}

func TestBoundary(t *testing.T) {
	text := func(n int) string { return strings.Repeat("x", 4*n) } // n tokens
	user := func(n int) corpus.Message { return corpus.Message{Role: "user", Text: text(n)} }
	asst := func(n int) corpus.Message { return corpus.Message{Role: "assistant", Text: text(n)} }
	tool := func(n int) corpus.Message { return corpus.Message{Role: "tool", Text: text(n)} }
	for _, tc := range []struct {
		name   string
		msgs   []corpus.Message
		keep   int
		want   int
		reason string
	}{
		{"fits", []corpus.Message{user(10), asst(10)}, 100, 0, "everything fits: nothing is summarized"},
		{"at user", []corpus.Message{user(50), asst(50), user(50), asst(50)}, 100, 2, "the budget is reached at message 2, a user message"},
		{"at assistant", []corpus.Message{user(50), asst(60), asst(50)}, 100, 1, "an assistant message is a cut point too"},
		{"never a tool result", []corpus.Message{user(10), asst(10), tool(100), asst(10)}, 100, 3, "reached inside the tool result: cut at the next assistant message"},
		{"tool results stay with their call", []corpus.Message{user(10), asst(10), tool(40), tool(40), asst(40)}, 100, 4, "reached at a result: the next cut point after it"},
		{"trailing tool results", []corpus.Message{user(10), asst(10), tool(200)}, 100, 0, "pi keeps everything when no cut point follows"},
		{"tools only", []corpus.Message{tool(200)}, 100, 0, "no cut point at all"},
		{"default keep", []corpus.Message{user(DefaultKeepTokens), user(DefaultKeepTokens)}, 0, 1, "keepTokens <= 0 is pi's default"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Boundary(tc.msgs, tc.keep)
			if got != tc.want {
				t.Fatalf("Boundary(%s, %d) = %d, want %d: %s", tc.name, tc.keep, got, tc.want, tc.reason)
			}
			if got < len(tc.msgs) && got > 0 && tc.msgs[got].Role == "tool" {
				t.Errorf("Boundary(%s) = %d cuts at a tool result", tc.name, got)
			}
		})
	}
}

func TestSections(t *testing.T) {
	for _, tc := range []struct {
		name    string
		summary string
		present []int
		inOrder bool
		reason  string
	}{
		{"numbered", "1. Primary Request and Intent:\nx\n8. Current Work:\ny\n9. Optional Next Step:\nz", []int{1, 8, 9}, true, "numbered headings"},
		{"markdown", "## 1. Primary Request and Intent\n**2. Key Technical Concepts:**\n### Current Work\n## Next Steps", []int{1, 2, 8, 9}, true, "headings and bold, with or without numbers"},
		{"out of order", "8. Current Work:\nx\n1. Primary Request and Intent:\ny", []int{1, 8}, false, "section 8 before 1"},
		{"not headings", "- current work is done\n1. Fix the bug\n```\n6. All user messages:\n```", []int{}, true, "a bullet, a numbered item that names no section, a heading inside a fence"},
		{"renumbered", "3. Current Work:\nx", []int{8}, true, "the name decides, not the number written"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sectionsOf(parseLayout(tc.summary).headings)
			if diff := cmp.Diff(tc.present, got.Present); diff != "" || got.InOrder != tc.inOrder {
				t.Errorf("sections(%q) = %v in order %v; want %v, %v (%s) %s", tc.summary, got.Present, got.InOrder, tc.present, tc.inOrder, tc.reason, diff)
			}
			if len(got.Present)+len(got.Missing) != 9 {
				t.Errorf("present %v and missing %v do not make nine sections", got.Present, got.Missing)
			}
		})
	}
}

func TestWithoutSection(t *testing.T) {
	s := "7. Pending Tasks:\n- a\n\n8. Current Work:\nwiring `x`\n\n9. Optional Next Step:\nrun it"
	got, ok := WithoutSection(s, 8)
	want := "7. Pending Tasks:\n- a\n\n9. Optional Next Step:\nrun it"
	if !ok || got != want {
		t.Errorf("WithoutSection(8) = %q, %v; want %q, true", got, ok, want)
	}
	if _, ok := WithoutSection("no sections", 8); ok {
		t.Errorf("WithoutSection of a summary without section 8 reported one")
	}
}

func TestConstraints(t *testing.T) {
	msgs := []corpus.Message{
		{Role: "user", Text: "Fix the export. Never commit the .env file! I don't know why it fails.\n- Please do not run migrations against prod"},
		{Role: "assistant", Text: "Never mind, I will not touch secrets."},
		{Role: "user", Text: "The API key lives in vault. You don't need to worry about it. Avoid force pushes."},
		{Role: "user", Text: "The login returns the JWT. Hard rule for this task: never log tokens."},
	}
	var got []string
	for _, f := range constraints(msgs, len(msgs)) {
		got = append(got, f.key)
	}
	want := []string{
		"never commit the .env file",
		"please do not run migrations against prod",
		"the api key lives in vault",
		"avoid force pushes",
		"hard rule for this task: never log tokens",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("constraints mismatch (-want +got): user prohibitions (also after a colon) and sentences about secrets count; remarks (don't know, don't need), a token mentioned without a prohibition and assistant text do not:\n%s", diff)
	}
}

func TestFakeUserTurns(t *testing.T) {
	msgs := []corpus.Message{
		{Role: "user", Text: "Please look at the cache."},
		{Role: "assistant", Text: strings.Join([]string{
			"Example exchange:",
			"User: rotate the signing key daily",
			"**Human:** ship it to production now",
			"If that's fine, reply with something like:",
			"",
			"> yes, go ahead and drop the old path",
			`Or just reply "ok, flash it" and I'll run both.`,
			"Some context.",
			"> a quote not under a reply line",
			"User: please look at the cache",
			"user_id: 5",
		}, "\n")},
	}
	var got []string
	for _, f := range fakeUserTurns(msgs, len(msgs)) {
		got = append(got, f.key)
	}
	want := []string{
		"rotate the signing key daily",
		"ship it to production now",
		"yes, go ahead and drop the old path",
		"ok, flash it",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fakeUserTurns mismatch (-want +got): speaker labels and suggested replies count; a plain quote, the user's own words and user_id do not:\n%s", diff)
	}
}

// scoreInput is a small conversation with one fact of each kind in known places.
func scoreInput(summary string) Input {
	return Input{
		ID: "t",
		Conversation: []corpus.Message{
			/* 0 */ {Role: "user", Text: "The nightly export in jobs/export.py times out. Never print the DATABASE_URL secret."},
			/* 1 */ {Role: "assistant", Text: "Reading `run_export`.", ToolCalls: []corpus.ToolCall{{ID: "1", Name: "read", Input: `{"path": "jobs/export.py"}`}}},
			/* 2 */ {Role: "tool", ToolCallID: "1", Text: "def run_export(tenant_id): ..."},
			/* 3 */ {Role: "assistant", Text: "Example:\nUser: also delete the old backups\nI will not do that unless asked."},
			/* 4 */ {Role: "assistant", Text: "Streaming with `yield_per` in jobs/export.py.", ToolCalls: []corpus.ToolCall{{ID: "2", Name: "bash", Input: `{"command": "pytest tests/test_export.py"}`}}},
			/* 5 */ {Role: "tool", ToolCallID: "2", Text: "FAILED tests/test_export.py::test_sorted - AssertionError: rows not sorted by created_at"},
			/* 6 kept */ {Role: "assistant", Text: "Adding `order_by` in jobs/export.py and rerunning tests/test_metrics.py."},
			/* 7 kept */ {Role: "tool", Text: "3 passed"},
		},
		Cut:     6,
		Summary: &summary,
	}
}

func TestScore(t *testing.T) {
	good := `1. Primary Request and Intent:
   The nightly export (jobs/export.py) times out. Constraint: "Never print the DATABASE_URL secret."
6. All user messages:
   - The nightly export in jobs/export.py times out. Never print the DATABASE_URL secret.
8. Current Work:
   Streaming with ` + "`yield_per`" + ` in ` + "`run_export`" + `; pytest tests/test_export.py fails: AssertionError: rows not sorted by created_at.`
	r := Score(scoreInput(good), Options{})
	want := Result{
		ID: "t", Messages: 8, Cut: 6, Window: 3, Found: true, Path: "given",
		Coverage:            Share{8, 8}, // database_url, jobs/export.py, the request, run_export, yield_per, the command, its path, the error
		BoundaryCoverage:    Share{4, 5}, // section 8 does not name jobs/export.py, said in message 4
		TailLeakage:         Share{0, 2},
		UserMessages:        Share{1, 1},
		ConstraintsVerbatim: Share{1, 1},
		FakeUserTurns:       1,
		Misattributed:       []Fact{},
		Sections:            Sections{Present: []int{1, 6, 8}, Missing: []int{2, 3, 4, 5, 7, 9}, InOrder: true},
		Missed:              []Fact{},
		Leaked:              []Fact{},
		// Messages 0, 1, 4 and 5 hold facts: jobs/export.py, said in three of them, weighs
		// 1 + ln(4/3) = 1.2877; every other fact, said in one, 1 + ln 4 = 2.3863.
		WeightedCoverage:         Weighted{6*2.3863 + 1.2877 + 2.3863, 6*2.3863 + 1.2877 + 2.3863},
		WeightedBoundaryCoverage: Weighted{4 * 2.3863, 4*2.3863 + 1.2877},
		Score:                    ptr(0.9525), // (2*1 + 2*9.5452/10.8329 + 1*1/1) / 5, no leak
		Format:                   FormatClaudeFull,
		Copied:                   Share{0, 51},
	}
	var window []string
	for _, f := range r.BoundaryFacts {
		window = append(window, fmt.Sprintf("%s %s @%d w=%.4f held=%v", f.Kind, f.key, f.Message, f.Weight, f.Held))
	}
	wantWindow := []string{
		"path jobs/export.py @4 w=1.2877 held=false", // in the order of Facts: first said in message 0
		"command pytest tests/test_export.py @4 w=2.3863 held=true",
		"identifier yield_per @4 w=2.3863 held=true",
		"path tests/test_export.py @4 w=2.3863 held=true",
		"error failed tests/test_export.py::test_sorted - assertionerror: rows not sorted by created_at @5 w=2.3863 held=true",
	}
	if diff := cmp.Diff(wantWindow, window); diff != "" {
		t.Errorf("Score(good).BoundaryFacts mismatch (-want +got): each window fact, where it was last said, its weight, whether section 8 holds it:\n%s", diff)
	}
	r.CoverageCurve, r.SummaryTokens, r.SummarizedTokens, r.CompressionRatio, r.BoundaryFacts = [10]Share{}, 0, 0, nil, nil
	opt := cmp.Comparer(func(a, b Weighted) bool { return math.Abs(a.Hit-b.Hit) < 1e-9 && math.Abs(a.Of-b.Of) < 1e-9 })
	if diff := cmp.Diff(want, r, cmp.AllowUnexported(Fact{}), opt); diff != "" {
		t.Errorf("Score(good) mismatch (-want +got):\n%s", diff)
	}

	bad := "8. Current Work:\nThe user asked to also delete the old backups. Re-ran tests/test_metrics.py."
	r = Score(scoreInput(bad), Options{})
	if r.Coverage.Hit != 0 || r.BoundaryCoverage.Hit != 0 {
		t.Errorf("Score(bad) coverage %+v, boundary %+v; want no hits", r.Coverage, r.BoundaryCoverage)
	}
	if r.TailLeakage != (Share{1, 2}) || len(r.Leaked) != 1 || r.Leaked[0].Text != "tests/test_metrics.py" || r.Leaked[0].Message != 6 {
		t.Errorf("Score(bad) leakage %+v %+v; want tests/test_metrics.py from message 6", r.TailLeakage, r.Leaked)
	}
	if len(r.Misattributed) != 1 || r.Misattributed[0].Message != 3 {
		t.Errorf("Score(bad) misattributed %+v; want the fake user turn of message 3", r.Misattributed)
	}
	if r.ConstraintsVerbatim != (Share{0, 1}) || r.Missed[len(r.Missed)-1].Kind != KindConstraint {
		t.Errorf("Score(bad) constraints %+v, missed %+v; want the constraint listed last", r.ConstraintsVerbatim, r.Missed)
	}
}

// TestScoreCopiedUserLine: a user's message copied whole into a section that does not list
// the user's messages earns no coverage (copying is no summary), but it still keeps the
// user's constraint word for word: the constraints are judged on the summary with only
// the copies of assistant and tool messages masked.
func TestScoreCopiedUserLine(t *testing.T) {
	copied := "8. Current Work:\n   The nightly export in jobs/export.py times out. Never print the DATABASE_URL secret."
	r := Score(scoreInput(copied), Options{})
	if r.ConstraintsVerbatim != (Share{1, 1}) {
		t.Errorf("Score(copied) constraints %+v, want 1/1: the constraint is in the summary word for word", r.ConstraintsVerbatim)
	}
	if r.Coverage.Hit != 0 || r.Copied.Hit == 0 {
		t.Errorf("Score(copied) coverage %+v, copied %+v; want no coverage from a copied line, and the copy counted", r.Coverage, r.Copied)
	}
}

func TestScoreEmpty(t *testing.T) {
	// Nothing to count is not a perfect score: every share says so.
	r := Score(Input{ID: "empty", Response: "<analysis>only</analysis>"}, Options{})
	if r.Found || r.Path != "whole" || r.Extractor != "seed" {
		t.Errorf("Score(no summary) = found %v path %q extractor %q; want false, whole, seed", r.Found, r.Path, r.Extractor)
	}
	for name, s := range map[string]Share{"coverage": r.Coverage, "boundary": r.BoundaryCoverage, "leak": r.TailLeakage, "users": r.UserMessages, "constraints": r.ConstraintsVerbatim} {
		if _, ok := s.Value(); ok {
			t.Errorf("Score(empty).%s = %+v has a value; want none", name, s)
		}
	}
	if r.CompressionRatio != nil || r.PreviousSummarySurvival != nil {
		t.Errorf("Score(empty) ratio %v, survival %v; want nil", r.CompressionRatio, r.PreviousSummarySurvival)
	}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"coverage":{"hit":0,"of":0,"value":null}`) || !strings.Contains(string(b), `"missed":[]`) {
		t.Errorf("JSON of an empty result = %s, %v; want null values and [] lists", b, err)
	}
}

func TestScorePreviousSummary(t *testing.T) {
	in := scoreInput("Kept jobs/export.py and `run_export`.")
	in.PreviousSummary = "Earlier: jobs/export.py, `run_export`, and internal/old/legacy.go."
	r := Score(in, Options{})
	if r.PreviousSummarySurvival == nil || *r.PreviousSummarySurvival != (Share{2, 3}) || len(r.PreviousSummaryLost) != 1 || r.PreviousSummaryLost[0].Text != "internal/old/legacy.go" {
		t.Errorf("survival %+v, lost %+v; want 2 of 3, internal/old/legacy.go lost", r.PreviousSummarySurvival, r.PreviousSummaryLost)
	}
	if r.SummarizedTokens <= r.SummaryTokens || r.CompressionRatio == nil {
		t.Errorf("summarized %d, summary %d, ratio %v; the previous summary counts in the summarized part", r.SummarizedTokens, r.SummaryTokens, r.CompressionRatio)
	}
}

func TestScoreDeterministic(t *testing.T) {
	in := scoreInput("8. Current Work:\njobs/export.py")
	a, _ := json.Marshal(Score(in, Options{}))
	b, _ := json.Marshal(Score(in, Options{}))
	if string(a) != string(b) {
		t.Errorf("Score is not deterministic:\n%s\n%s", a, b)
	}
	if in.Conversation[0].Text != scoreInput("").Conversation[0].Text {
		t.Errorf("Score changed its input")
	}
}

func TestShareJSON(t *testing.T) {
	for _, tc := range []struct {
		s    Share
		want string
	}{
		{Share{1, 3}, `{"hit":1,"of":3,"value":0.3333}`},
		{Share{0, 0}, `{"hit":0,"of":0,"value":null}`},
		{Share{2, 2}, `{"hit":2,"of":2,"value":1}`},
	} {
		b, err := json.Marshal(tc.s)
		if err != nil || string(b) != tc.want {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", tc.s, b, err, tc.want)
		}
		var back Share
		if err := json.Unmarshal(b, &back); err != nil || back != tc.s {
			t.Errorf("round trip of %s = %+v, %v; want %+v", b, back, err, tc.s)
		}
	}
}

func TestTotal(t *testing.T) {
	results := []Result{
		{Found: true, Coverage: Share{1, 2}, Sections: Sections{Present: []int{1, 2, 3, 4, 5, 6, 7, 8, 9}, InOrder: true}},
		{Found: true, Coverage: Share{3, 3}},
		{Coverage: Share{0, 0}},
	}
	got := Total(results)
	if got.Cases != 3 || got.SummaryFound != 2 || got.SectionsComplete != 1 {
		t.Errorf("Total counts = %+v", got)
	}
	if got.Coverage.Cases != 2 || *got.Coverage.Mean != 0.75 || got.Coverage.Pooled != (Share{4, 5}) {
		t.Errorf("Total coverage = %d cases, mean %v, pooled %+v; want 2, 0.75, 4/5 (the case without facts has no value)", got.Coverage.Cases, *got.Coverage.Mean, got.Coverage.Pooled)
	}
	if got.TailLeakage.Mean != nil {
		t.Errorf("Total leakage mean = %v, want nil: no case has a value", *got.TailLeakage.Mean)
	}
	rep := NewReport(nil, Options{})
	b, _ := json.Marshal(rep)
	if rep.SchemaVersion != SchemaVersion || !strings.Contains(string(b), `"cases":[]`) || !strings.Contains(string(b), `"extractor":"seed"`) {
		t.Errorf("NewReport(nil) = %s", b)
	}
}

func ptr[T any](v T) *T { return &v }

// TestScoreSummaries: each result of ScoreSummaries is Score's for the input with that
// summary, whatever the summaries before it (the conversation is prepared once).
func TestScoreSummaries(t *testing.T) {
	cases := loadEvalCases(t, "testdata/cases")
	if len(cases) < 2 {
		t.Fatalf("testdata/cases holds %d eval cases, want at least 2", len(cases))
	}
	for _, c := range cases[:2] {
		in, _ := FromCase(c)
		full := c.Intended.Summary
		summaries := []string{full, "", full[:len(full)/2], "  " + full + "\n", "nothing of the conversation"}
		got := ScoreSummaries(in, summaries, Options{})
		if len(got) != len(summaries) {
			t.Fatalf("ScoreSummaries(%s) = %d results for %d summaries", in.ID, len(got), len(summaries))
		}
		for i, s := range summaries {
			one := in
			one.Summary = &s
			if diff := cmp.Diff(Score(one, Options{}), got[i], cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
				t.Errorf("ScoreSummaries(%s)[%d] mismatch (-Score +ScoreSummaries):\n%s", in.ID, i, diff)
			}
		}
	}
}

// TestScoreInput: a scorer's ScoreInput is Score for an input of the scorer's conversation
// (another summary, id and flaws; the response extracted) and for one that is not (another
// cut, a probe more, another conversation), which SameConversation tells apart.
func TestScoreInput(t *testing.T) {
	cases := loadEvalCases(t, "testdata/cases")
	in, _ := FromCase(cases[0])
	var other Input
	for _, c := range cases[1:] {
		if other, _ = FromCase(c); len(other.Conversation) != len(in.Conversation) {
			break
		}
	}
	half := in.Response[:len(in.Response)/2]
	sibling := in
	sibling.ID, sibling.Response, sibling.Flaws = "sibling", half, []string{"drops-recent-work"}
	copied := in
	copied.Conversation = append([]corpus.Message(nil), in.Conversation...)
	copied.Conversation[0].Text = strings.Clone(in.Conversation[0].Text)
	cut := in
	cut.Cut--
	probe := in
	probe.Probes = append(append([]corpus.Probe(nil), in.Probes...), corpus.Probe{Fact: "a probe more", Message: 0})
	opt := Options{}
	sc := NewScorer(in, opt)
	for _, tc := range []struct {
		name string
		in   Input
		same bool
	}{
		{name: "the input itself", in: in, same: true},
		{name: "another summary of the conversation", in: sibling, same: true},
		{name: "an equal copy of the conversation", in: copied, same: true},
		{name: "another cut", in: cut, same: false},
		{name: "a probe more", in: probe, same: false},
		{name: "another conversation", in: other, same: false},
	} {
		if got := SameConversation(in, tc.in); got != tc.same {
			t.Errorf("%s: SameConversation = %v, want %v", tc.name, got, tc.same)
		}
		if diff := cmp.Diff(Score(tc.in, opt), sc.ScoreInput(tc.in), cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
			t.Errorf("%s: ScoreInput mismatch (-Score +ScoreInput):\n%s", tc.name, diff)
		}
	}
}
