package report

import (
	"encoding/xml"
	"fmt"
)

// JUnitSuites is a JUnit XML document, the form CI systems show as test results.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one testsuite element.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one testcase; Failure is nil when it passed.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *JUnitFailure `xml:"failure,omitempty"`
}

// JUnitFailure says why a testcase failed.
type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// Add appends a testcase to the suite, failing it when failure is not "".
func (s *JUnitSuite) Add(classname, name, failure string) {
	c := JUnitCase{Name: name, Classname: classname}
	if failure != "" {
		c.Failure = &JUnitFailure{Message: failure, Text: failure}
		s.Failures++
	}
	s.Tests++
	s.Cases = append(s.Cases, c)
}

// MarshalJUnit renders suites as an XML document, counting tests and failures.
func MarshalJUnit(name string, suites ...JUnitSuite) ([]byte, error) {
	doc := JUnitSuites{Name: name, Suites: suites}
	for _, s := range suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), out...), '\n'), nil
}

// JUnit renders a run as JUnit XML: one testsuite per extractor with a testcase per corpus
// case, failing where the run found a problem (a golden mismatch or an unlisted or stale
// deviation), and a testsuite for the files that did not load.
func JUnit(r *Report) ([]byte, error) {
	problems := map[string][]Problem{}
	for _, p := range r.Problems {
		problems[p.Case+"\x00"+p.Extractor] = append(problems[p.Case+"\x00"+p.Extractor], p)
	}
	var suites []JUnitSuite
	for _, e := range r.Extractors {
		s := JUnitSuite{Name: "corpus/" + e.Name}
		for _, c := range r.Cases {
			msg := ""
			for _, p := range problems[c.ID+"\x00"+e.Name] {
				if msg != "" {
					msg += "; "
				}
				msg += fmt.Sprintf("%s: %s", p.Kind, p.Detail)
			}
			s.Add(e.Name, c.ID, msg)
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
	return MarshalJUnit("compacteval run", suites...)
}
