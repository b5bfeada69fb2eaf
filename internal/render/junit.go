package render

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/textdiff"
	"github.com/compacteval/compacteval/report"
)

// JUnitSuites is a JUnit XML document, the form CI systems show as test results. It has
// the attributes that the common schemas require (Jenkins' junit plugin, the Ant-style
// JUnit.xsd): name, tests, failures, errors and time on every testsuite; name, classname
// and time on every testcase. compacteval times nothing that its reports record (they are
// the same bytes for the same run), so every time is 0.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one testsuite element.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one testcase; Failure is nil when it passed. SystemOut holds what it
// measured, for a reader.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitFailure `xml:"failure,omitempty"`
	SystemOut JUnitText     `xml:"system-out,omitempty"`
}

// JUnitText is the text of an element, written with its line breaks and tabs as they are
// (encoding/xml writes them as character references, which a reader of the file cannot
// read).
type JUnitText string

// MarshalXML writes t escaped, line breaks and tabs kept.
func (t JUnitText) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	return e.EncodeElement(struct {
		Text string `xml:",innerxml"`
	}{escapeText(string(t))}, start)
}

// escapeText escapes s for an element's content as xml.EscapeText does (invalid
// characters become U+FFFD), but keeps line breaks and tabs.
func escapeText(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return strings.NewReplacer("&#xA;", "\n", "&#x9;", "\t").Replace(b.String())
}

// JUnitFailure says why a testcase failed: Message in a line, Text (the element's body)
// in full, with the diff where there is one.
type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// MarshalXML writes the failure with its body's line breaks kept (JUnitText).
func (f JUnitFailure) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "message"}, Value: f.Message}, xml.Attr{Name: xml.Name{Local: "type"}, Value: f.Type})
	return e.EncodeElement(struct {
		Text string `xml:",innerxml"`
	}{escapeText(f.Text)}, start)
}

// junitTime is the time of every suite and testcase (see JUnitSuites).
const junitTime = "0"

// Add appends a testcase to the suite, failing it when failure is not "": its first line
// is the message, the whole the body.
func (s *JUnitSuite) Add(classname, name, failure string) {
	c := JUnitCase{Name: name, Classname: classname}
	if failure != "" {
		msg, _, _ := strings.Cut(failure, "\n")
		c.Failure = &JUnitFailure{Message: msg, Type: "failure", Text: failure}
	}
	s.AddCase(c)
}

// AddCase appends c to the suite and counts it.
func (s *JUnitSuite) AddCase(c JUnitCase) {
	c.Time = junitTime
	if c.Failure != nil {
		s.Failures++
	}
	s.Tests++
	s.Cases = append(s.Cases, c)
}

// MarshalJUnit renders suites as an XML document, counting tests and failures.
func MarshalJUnit(name string, suites ...JUnitSuite) ([]byte, error) {
	doc := JUnitSuites{Name: name, Suites: suites, Time: junitTime}
	for i := range doc.Suites {
		s := &doc.Suites[i]
		s.Time = junitTime
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), out...), '\n'), nil
}

// JUnit renders a run as JUnit XML: one testsuite per extractor with a testcase per corpus
// case, failing where the run found a problem (a golden mismatch or an unlisted or stale
// deviation; the body holds the line diff of the intended summary and the output where
// the report keeps both), a testsuite for the files that did not load, and when those
// stages ran a drift testsuite (a testcase per extractor, its recoveries in system-out)
// and an eval testsuite (a testcase per eval case, failing where no summary was found).
func JUnit(r *report.Report) ([]byte, error) {
	problems := map[string][]report.Problem{}
	for _, p := range r.Problems {
		problems[p.Case+"\x00"+p.Extractor] = append(problems[p.Case+"\x00"+p.Extractor], p)
	}
	var suites []JUnitSuite
	for x, e := range r.Extractors {
		s := JUnitSuite{Name: "corpus/" + e.Name}
		for c, err := range r.AllCases() { // an extractor at a time: the document is held, not the cases
			if err != nil {
				return nil, fmt.Errorf("render junit: %w", err)
			}
			ps := problems[c.ID+"\x00"+e.Name]
			if len(ps) == 0 {
				s.Add(e.Name, c.ID, "")
				continue
			}
			var kinds, details []string
			for _, p := range ps {
				kinds = append(kinds, p.Kind)
				details = append(details, fmt.Sprintf("%s: %s", p.Kind, p.Detail))
			}
			body := strings.Join(details, "\n")
			if d := caseDiff(*c, e.Name, x); d != "" {
				body += "\n\nintended (-) and returned (+) summary:\n" + d
			}
			s.AddCase(JUnitCase{Name: c.ID, Classname: e.Name, Failure: &JUnitFailure{
				Message: strings.Join(details, "; "), Type: strings.Join(kinds, " "), Text: body}})
		}
		suites = append(suites, s)
	}
	load := JUnitSuite{Name: "corpus/load"}
	for _, p := range r.Problems {
		if p.Kind == "load-error" {
			load.Add("load", p.Case, p.Detail)
		}
	}
	if !r.Complete {
		load.Add("run", "complete", "the run is partial: stages "+fmt.Sprint(r.Stages))
	}
	if load.Tests > 0 {
		suites = append(suites, load)
	}
	if slices.Contains(r.Stages, "drift") && len(r.Drift.Extractors) > 0 {
		suites = append(suites, driftSuite(r))
	}
	if slices.Contains(r.Stages, "eval") {
		s, err := evalSuite(r)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	return MarshalJUnit("compacteval run", suites...)
}

// caseDiff returns the line diff of the intended summary and extractor x's output on c,
// or "" where the report does not keep both.
func caseDiff(c report.Case, name string, x int) string {
	var res *report.Result
	if x < len(c.Results) && c.Results[x].Extractor == name {
		res = &c.Results[x]
	} else {
		for i := range c.Results {
			if c.Results[i].Extractor == name {
				res = &c.Results[i]
			}
		}
	}
	if res == nil || res.Summary == nil || (c.Intended == "" && c.IntendedFound) {
		return ""
	}
	intended, got := c.Intended, *res.Summary
	if !c.IntendedFound {
		intended = ""
	}
	if !res.OK {
		got = ""
	}
	return textdiff.Unified(intended, got, 2)
}

// driftSuite has a testcase per extractor with its outcomes over every drift sample. They
// pass: a run holds no threshold for drift (the gate compares it with the baseline).
func driftSuite(r *report.Report) JUnitSuite {
	s := JUnitSuite{Name: "drift"}
	total := r.Drift.Total
	n := total.Samples - total.Ambiguous
	for i, name := range r.Drift.Extractors {
		out := fmt.Sprintf("seed %d, %d samples per operator\n", r.Drift.Seed, r.Drift.N)
		if i < len(total.Cells) {
			c := total.Cells[i]
			out += fmt.Sprintf("exact %d of %d unambiguous samples (%s); analysis leaked %d; summary lost %d\n", c.Exact, n, junitPct(c.Exact, n), c.Leaked, c.Lost)
		}
		s.AddCase(JUnitCase{Name: name, Classname: "drift", SystemOut: JUnitText(out)})
	}
	return s
}

// evalSuite has a testcase per eval case, failing where the eval extractor found no
// summary: that compaction would lose the session.
func evalSuite(r *report.Report) (JUnitSuite, error) {
	e := &r.Eval
	s := JUnitSuite{Name: "eval"}
	for c, err := range r.AllEvalCases() {
		if err != nil {
			return s, err
		}
		score := "-"
		if c.Score != nil {
			score = fmt.Sprintf("%.4f", *c.Score)
		}
		out := fmt.Sprintf("score %s; coverage %s; boundary coverage %s; tail leakage %s\n", score, junitShare(c.Coverage), junitShare(c.BoundaryCoverage), junitShare(c.TailLeakage))
		tc := JUnitCase{Name: c.ID, Classname: "eval", SystemOut: JUnitText(out)}
		if !c.Found {
			msg := fmt.Sprintf("%s found no summary", e.Extractor)
			tc.Failure = &JUnitFailure{Message: msg, Type: "summary-lost", Text: msg}
		}
		s.AddCase(tc)
	}
	return s, nil
}

// junitPct prints n of d as a percentage with one decimal, "-" when d is 0.
func junitPct(n, d int) string {
	if d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

// junitShare prints a share as its value and its counts, "-" when it counts nothing.
func junitShare(s eval.Share) string {
	v, ok := s.Value()
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.4f (%d/%d)", v, s.Hit, s.Of)
}
