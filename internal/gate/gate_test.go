package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/fuzz/drift"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// baseline is a small complete report: two extractors, three cases, two eval cases.
func baseline() *report.Report {
	m := func(x float64) *float64 { return &x }
	return &report.Report{
		SchemaVersion: report.SchemaVersion, Complete: true, Stages: []string{"extract", "golden", "drift", "eval"},
		Corpus: report.Corpus{Dir: "embedded", SHA256: "c0ffee", Cases: 3},
		Drift:  drift.MatrixResult{Seed: 1, N: 100},
		Extractors: []report.Extractor{
			{Name: "seed", Cases: 3, Intended: 2, Rate: 0.6667, DriftExact: 0.6},
			{Name: "robust", Cases: 3, Intended: 3, Rate: 1, DriftExact: 0.95},
		},
		Problems: []report.Problem{},
		Cases: []report.Case{
			{ID: "a/one", Results: []report.Result{{Extractor: "seed", MatchesIntended: true}, {Extractor: "robust", MatchesIntended: true}}},
			{ID: "a/two", Results: []report.Result{{Extractor: "seed", MatchesIntended: false}, {Extractor: "robust", MatchesIntended: true}}},
			{ID: "b/three", Results: []report.Result{{Extractor: "seed", MatchesIntended: true}, {Extractor: "robust", MatchesIntended: true}}},
		},
		Eval: eval.Report{
			Cases: []eval.Result{
				{ID: "eval/x", Coverage: eval.Share{Hit: 8, Of: 10}, BoundaryCoverage: eval.Share{Hit: 4, Of: 4}},
				{ID: "eval/y", Coverage: eval.Share{Hit: 5, Of: 10}, BoundaryCoverage: eval.Share{Hit: 1, Of: 2}},
			},
			Totals: eval.Totals{
				Coverage:         eval.Aggregate{Cases: 2, Mean: m(0.65)},
				BoundaryCoverage: eval.Aggregate{Cases: 2, Mean: m(0.75)},
				TailLeakage:      eval.Aggregate{Cases: 2, Mean: m(0.1)},
				Score:            eval.Mean{Cases: 2, Mean: m(0.6)},
			},
		},
	}
}

// clone deep-copies a report through JSON, as the gate sees files.
func clone(t *testing.T, r *report.Report) *report.Report {
	t.Helper()
	data, err := report.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	out, err := report.Parse("clone.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(r *report.Report)
		cfg    func(c *Config)
		want   []string // regressions, as printed
		reason string
	}{
		{name: "unchanged", change: func(*report.Report) {}, reason: "a run equal to its baseline passes"},
		{
			name: "case lost",
			change: func(r *report.Report) {
				r.Cases[2].Results[0].MatchesIntended = false
			},
			want: []string{"(all): seed intended_rate (common cases) 0.6667 -> 0.3333 (allowed drop 0.0000)",
				"b/three: seed intended pass -> fail (allowed 0 of 1 lost cases)"},
			reason: "a case seed handled is lost, and its rate falls with it",
		},
		{
			name:   "case lost within allowance",
			change: func(r *report.Report) { r.Cases[2].Results[0].MatchesIntended = false },
			cfg:    func(c *Config) { c.AllowedDrop.IntendedCases, c.AllowedDrop.IntendedRate = 1, 0.5 },
			reason: "intended_cases allows one, intended_rate the drop it makes",
		},
		{
			name:   "case gained",
			change: func(r *report.Report) { r.Cases[1].Results[0].MatchesIntended = true },
			reason: "an improvement is a note, not a regression",
		},
		{
			name:   "rate falls",
			change: func(r *report.Report) { r.Cases[0].Results[1].MatchesIntended = false },
			cfg:    func(c *Config) { c.AllowedDrop.IntendedCases = 5 },
			want:   []string{"(all): robust intended_rate (common cases) 1.0000 -> 0.6667 (allowed drop 0.0000)"},
			reason: "the rate may not fall with a zero allowance, even where lost cases are allowed",
		},
		{
			name: "harder new case",
			change: func(r *report.Report) {
				r.Cases = append(r.Cases, report.Case{ID: "c/hard", Results: []report.Result{{Extractor: "seed"}, {Extractor: "robust"}}})
				r.Extractors[0].Rate = 0.5
			},
			reason: "a new case the extractors fail lowers the overall rate but not the common-case rate",
		},
		{
			name:   "drift falls within allowance",
			change: func(r *report.Report) { r.Extractors[1].DriftExact = 0.94 },
			cfg:    func(c *Config) { c.AllowedDrop.DriftExact = 0.02 },
			reason: "allowed drop",
		},
		{
			name:   "per-extractor override",
			change: func(r *report.Report) { r.Cases[0].Results[0].MatchesIntended = false },
			cfg: func(c *Config) {
				one := 1.0
				lost := 1
				c.Extractors = map[string]ExtractorDrops{"seed": {IntendedRate: &one, IntendedCases: &lost}}
			},
			reason: "extractors.seed.intended_rate overrides the default",
		},
		{
			name:   "case removed",
			change: func(r *report.Report) { r.Cases = r.Cases[:2] },
			want:   []string{"b/three: case present -> removed (removed_case: fail)"},
			reason: "removed_case: fail",
		},
		{
			name: "new case, fail",
			change: func(r *report.Report) {
				r.Cases = append(r.Cases, report.Case{ID: "c/new"})
			},
			cfg:    func(c *Config) { c.NewCase = "fail" },
			want:   []string{"c/new: case absent -> new (new_case: fail (bless the baseline))"},
			reason: "new_case: fail",
		},
		{
			name:   "must pass",
			change: func(*report.Report) {},
			cfg:    func(c *Config) { c.MustPass = []MustPass{{Extractor: "seed", Cases: []string{"a/*"}}} },
			want:   []string{"a/two: seed intended must pass -> fail (must_pass)"},
			reason: "must_pass holds whatever the baseline says",
		},
		{
			name:   "must pass everything",
			change: func(r *report.Report) { r.Cases[2].Results[1].MatchesIntended = false },
			cfg:    func(c *Config) { c.MustPass = []MustPass{{Extractor: "robust", Cases: []string{"*"}}} },
			want: []string{"(all): robust intended_rate (common cases) 1.0000 -> 0.6667 (allowed drop 0.0000)",
				"b/three: robust intended pass -> fail (allowed 0 of 1 lost cases)",
				"b/three: robust intended must pass -> fail (must_pass)"},
			reason: "a lone * matches ids with a slash",
		},
		{
			name:   "must pass matches nothing",
			change: func(*report.Report) {},
			cfg:    func(c *Config) { c.MustPass = []MustPass{{Extractor: "seed", Cases: []string{"zzz/*"}}} },
			want:   []string{"zzz/*: seed must_pass cases -> none matched (a must_pass entry must match a case)"},
			reason: "a pattern that matches nothing is a mistake",
		},
		{
			name: "run problem",
			change: func(r *report.Report) {
				r.Problems = []report.Problem{{Kind: "golden-mismatch", Case: "a/one", Extractor: "seed", Detail: "differs"}}
			},
			want:   []string{"a/one: seed golden-mismatch none -> differs (problems: fail)"},
			reason: "problems: fail",
		},
		{
			name: "run problem in the path alone",
			change: func(r *report.Report) {
				r.Problems = []report.Problem{{Kind: "golden-mismatch", Case: "a/one", Extractor: "robust", Detail: "differs"}}
				r.Cases[0].Results[1].PathOnly = true
			},
			want:   []string{"a/one: robust golden-mismatch none -> differs in the path alone: the summary is the golden's byte for byte (problems: fail)"},
			reason: "a stale golden, still a failure, but not a change of behaviour: said so",
		},
		{
			name:   "eval case falls",
			change: func(r *report.Report) { r.Eval.Cases[0].BoundaryCoverage = eval.Share{Hit: 1, Of: 4} },
			cfg:    func(c *Config) { c.AllowedDrop.CaseBoundaryCoverage = 0.1 },
			want:   []string{"eval/x: boundary_coverage 1.0000 -> 0.2500 (allowed drop 0.1000)"},
			reason: "a case's boundary coverage fell past the allowance",
		},
		{
			name: "leakage rises",
			change: func(r *report.Report) {
				x := 0.3
				r.Eval.Totals.TailLeakage.Mean = &x
			},
			want:   []string{"(eval): tail_leakage 0.1000 -> 0.3000 (allowed rise 0.0000)"},
			reason: "leakage is lower-is-better",
		},
		{
			name:   "headline score falls",
			change: func(r *report.Report) { x := 0.58; r.Eval.Totals.Score.Mean = &x },
			cfg:    func(c *Config) { c.AllowedDrop.Coverage = 0.01 },
			want:   []string{"(eval): score 0.6000 -> 0.5800 (allowed drop 0.0100)"},
			reason: "the headline score is held to the coverage allowance",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := baseline()
			run := clone(t, base)
			tc.change(run)
			cfg := DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			res, err := Check(clone(t, base), run, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Regressions {
				got = append(got, r.String())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: Check regressions mismatch (-want +got):\n%s", tc.reason, diff)
			}
			if res.Passed() != (len(tc.want) == 0) {
				t.Errorf("Passed() = %v with %d regressions", res.Passed(), len(got))
			}
		})
	}
}

func TestCheckPartial(t *testing.T) {
	run := baseline()
	run.Complete = false
	if _, err := Check(baseline(), run, DefaultConfig()); !errors.Is(err, ErrIncomparable) {
		t.Errorf("Check(partial run) error = %v, want ErrIncomparable", err)
	}
	if _, err := Check(run, baseline(), DefaultConfig()); !errors.Is(err, ErrIncomparable) {
		t.Errorf("Check(partial baseline) error = %v, want ErrIncomparable", err)
	}
}

func TestParseConfig(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"version: 1\n", ""},
		{"version: 2\n", "gate.yaml:1: version is 2"},
		{"version: 1\nallowed_drop:\n  coverag: 0.1\n", "gate.yaml:3: unknown key coverag (did you mean coverage?)"},
		{"version: 1\nallowed_drop:\n  coverage: 2\n", "gate.yaml:3: allowed_drop.coverage is 2"},
		{"version: 1\nnew_case: maybe\n", "gate.yaml:2: new_case is \"maybe\""},
		{"version: 1\nmust_pass:\n  - extractor: robust\n", "must_pass entry needs an extractor and cases"},
		{"version: 1\nmust_pass:\n  - {extractor: robust, cases: ['[']}\n", "bad case pattern"},
		// Every comparison with NaN is false: a NaN allowance would pass any run.
		{"version: 1\nallowed_drop:\n  drift_exact: .nan\n", "gate.yaml:3: allowed_drop.drift_exact is NaN, want a share from 0 to 1"},
		{"version: 1\nallowed_drop:\n  coverage: .inf\n", "gate.yaml:3: allowed_drop.coverage is +Inf"},
		{"version: 1\nallowed_drop:\n  tail_leakage: -.inf\n", "gate.yaml:3: allowed_drop.tail_leakage is -Inf"},
		{"version: 1\nallowed_drop:\n  case_coverage: -0.01\n", "gate.yaml:3: allowed_drop.case_coverage is -0.01"},
		{"version: 1\nallowed_drop:\n  intended_cases: -1\n", "gate.yaml:3: allowed_drop.intended_cases is -1, want 0 or more"},
		{"version: 1\nextractors:\n  plain: {drift_exact: 1}\n  seed:\n    intended_rate: .nan\n", "gate.yaml:5: extractors.seed.intended_rate is NaN"},
		{"version: 1\nextractors:\n  seed: {drift_exact: 1.5}\n", "gate.yaml:3: extractors.seed.drift_exact is 1.5"},
		{"version: 1\nextractors:\n  seed: {intended_cases: -2}\n", "gate.yaml:3: extractors.seed.intended_cases is -2"},
		{"version: 1\nextractors:\n  seed: {drift_exact: 1, intended_rate: 0}\n", ""},
	} {
		_, err := ParseConfig("gate.yaml", []byte(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("ParseConfig(%q) = %v, want no error", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrConfig)):
			t.Errorf("ParseConfig(%q) = %v, want an ErrConfig containing %q", tc.in, err, tc.want)
		}
	}
}

// TestParseConfigFirstProblem gives configs with two bad values: the one named is always
// the first in the file, however often it is parsed (a map's order changes from run to run).
func TestParseConfigFirstProblem(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"allowed_drop", "version: 1\nallowed_drop:\n  tail_leakage: 2\n  coverage: .nan\n", "gate.yaml:3: allowed_drop.tail_leakage is 2"},
		{"allowed_drop, other order", "version: 1\nallowed_drop:\n  coverage: .nan\n  tail_leakage: 2\n", "gate.yaml:3: allowed_drop.coverage is NaN"},
		{"extractors", "version: 1\nextractors:\n  zeta: {drift_exact: 3}\n  alpha: {drift_exact: .nan}\n", "gate.yaml:3: extractors.zeta.drift_exact is 3"},
		{"one extractor", "version: 1\nextractors:\n  seed: {drift_exact: 3, intended_rate: -1}\n", "gate.yaml:3: extractors.seed.drift_exact is 3"},
		{"pass or fail", "version: 1\nproblems: maybe\nnew_case: maybe\n", "gate.yaml:3: new_case is \"maybe\""},
	} {
		for range 50 {
			_, err := ParseConfig("gate.yaml", []byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s: ParseConfig(%q) = %v, want an error containing %q", tc.name, tc.in, err, tc.want)
			}
		}
	}
}

// TestCheckMustPassUnknownExtractor: a must_pass entry naming an extractor the run does not
// have is a config error with gate.yaml's line (exit 2), not a regression (exit 1).
func TestCheckMustPassUnknownExtractor(t *testing.T) {
	cfg, err := ParseConfig("gate.yaml", []byte("version: 1\nmust_pass:\n  - {extractor: robust, cases: ['*']}\n  - extractor: robustt\n    cases: ['*']\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(baseline(), baseline(), cfg)
	var ce *ConfigError
	if !errors.Is(err, ErrConfig) || !errors.As(err, &ce) {
		t.Fatalf("Check(must_pass robustt) = %+v, %v; want a *ConfigError", res, err)
	}
	const want = `bad gate config: gate.yaml:4: must_pass names extractor "robustt", which the run does not have (it has seed, robust)`
	if err.Error() != want {
		t.Errorf("Check(must_pass robustt) error = %q, want %q", err, want)
	}
}

func TestSlim(t *testing.T) {
	r := baseline()
	s := "summary text"
	r.Cases[0].Response, r.Cases[0].Intended = "resp", "intended"
	r.Cases[0].Results[0].Summary = &s
	r.Eval.Cases[0].Missed = []eval.Fact{{Text: "x"}}
	slim := Slim(r)
	if slim.Cases[0].Response != "" || slim.Cases[0].Results[0].Summary != nil || len(slim.Eval.Cases[0].Missed) != 0 {
		t.Errorf("Slim kept texts: %+v", slim.Cases[0])
	}
	if r.Cases[0].Response != "resp" || r.Cases[0].Results[0].Summary == nil || len(r.Eval.Cases[0].Missed) != 1 {
		t.Errorf("Slim changed its argument")
	}
	res, err := Check(slim, r, DefaultConfig())
	if err != nil || !res.Passed() {
		t.Errorf("Check(Slim(r), r) = %+v, %v; want a pass", res, err)
	}
}

// TestCheckRefusesOtherInputs: a baseline made on another corpus, or with other drift
// parameters, is never compared silently: Check refuses it unless told to compare.
func TestCheckRefusesOtherInputs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(r *report.Report)
		want   string
	}{
		{"another corpus", func(r *report.Report) { r.Corpus.SHA256, r.Corpus.Dir = "beef", "my-cases" }, "corpus embedded (sha256 c0ffee, 3 cases) in the baseline, my-cases (sha256 beef"},
		{"another drift seed", func(r *report.Report) { r.Drift.Seed = 7 }, "drift seed 1, n 100 in the baseline, seed 7, n 100 in the run"},
		{"other drift samples", func(r *report.Report) { r.Drift.N = 3 }, "seed 1, n 3 in the run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := baseline()
			tc.change(run)
			_, err := Check(baseline(), run, DefaultConfig())
			if !errors.Is(err, ErrCorpusChanged) || !errors.Is(err, ErrIncomparable) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check() error = %v, want ErrCorpusChanged naming %q", err, tc.want)
			}
			cfg := DefaultConfig()
			cfg.AllowCorpusChange = true
			if _, err := Check(baseline(), run, cfg); err != nil {
				t.Errorf("Check() with AllowCorpusChange: %v", err)
			}
		})
	}
	old := baseline()
	old.Corpus.SHA256 = ""
	if _, err := Check(old, baseline(), DefaultConfig()); !errors.Is(err, ErrCorpusChanged) || !strings.Contains(err.Error(), "bless it again") {
		t.Errorf("Check(baseline without a corpus digest) error = %v, want a refusal asking to bless again", err)
	}
}

// TestCheckVersionedNames: an extractors entry under an agent's bare name covers each of its
// versions, and a must_pass entry naming the alias holds its newest version.
func TestCheckVersionedNames(t *testing.T) {
	base := baseline()
	base.Extractors = append(base.Extractors, report.Extractor{Name: "claude-code@2.1.332", Cases: 3, Intended: 3, Rate: 1})
	for i := range base.Cases {
		base.Cases[i].Results = append(base.Cases[i].Results, report.Result{Extractor: "claude-code@2.1.332", MatchesIntended: true})
	}
	run := clone(t, base)
	run.Cases[0].Results[2].MatchesIntended = false
	run.Extractors[2].Intended, run.Extractors[2].Rate = 2, 0.6667
	cfg, err := ParseConfig("gate.yaml", []byte("version: 1\nextractors:\n  claude-code: {intended_rate: 1, intended_cases: 1000, drift_exact: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(base, run, cfg)
	if err != nil || !res.Passed() {
		t.Errorf("Check(claude-code@2.1.332 loses a case, extractors.claude-code allows it) = %+v, %v; want passed", res.Regressions, err)
	}
	cfg, err = ParseConfig("gate.yaml", []byte("version: 1\nmust_pass:\n  - {extractor: claude-code, cases: ['a/*']}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = Check(base, run, cfg)
	found := false
	for _, r := range res.Regressions {
		found = found || r.String() == "a/one: claude-code@2.1.332 intended must pass -> fail (must_pass)"
	}
	if err != nil || !found {
		t.Errorf("Check(must_pass claude-code, a/one fails) = %+v, %v; want the must_pass regression of claude-code@2.1.332", res.Regressions, err)
	}
}

// TestParseConfigSpeaksYAML: a misspelled key or a value of the wrong kind is named in the
// terms of gate.yaml (the key, the keys beside it, the closest one), never by the Go type
// that decodes it ("field intended_rat not found in type gate.ExtractorDrops" before).
func TestParseConfigSpeaksYAML(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"version: 1\nextractors:\n  seed:\n    intended_rat: 0.1\n",
			"g.yaml:4: unknown key intended_rat (did you mean intended_rate?); the keys there are intended_rate, intended_cases, drift_exact"},
		{"version: 1\nalowed_drop: {}\n", "g.yaml:2: unknown key alowed_drop (did you mean allowed_drop?)"},
		{"version: 1\nallowed_drop:\n  zzz: 1\n", "g.yaml:3: unknown key zzz; the keys there are intended_rate,"},
		{"version: 1\nallowed_drop:\n  coverage: lots\n", "g.yaml:3: `lots` is not a number"},
		{"version: one\n", "g.yaml:1: `one` is not a whole number"},
	} {
		_, err := ParseConfig("g.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "gate.") {
			t.Errorf("ParseConfig(%q) = %v, want an error with %q and no Go type", tc.doc, err, tc.want)
		}
		if !errors.Is(err, ErrConfig) {
			t.Errorf("ParseConfig(%q): %v is not ErrConfig", tc.doc, err)
		}
	}
}
