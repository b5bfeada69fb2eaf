package junittest

import (
	"errors"
	"strings"
	"testing"
)

// TestSchema: the schema takes a file with what the common consumers require, and refuses
// one without a testsuite's errors or time or a testcase's time, as compacteval wrote
// them before (issue 15).
func TestSchema(t *testing.T) {
	const good = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="x" tests="2" failures="1" errors="0" time="0">
  <testsuite name="s" tests="2" failures="1" errors="0" skipped="0" time="0.5">
    <testcase name="a" classname="c" time="0"></testcase>
    <testcase name="b" classname="c" time="0.25">
      <failure message="m" type="regression">body</failure>
      <system-out>out</system-out>
    </testcase>
  </testsuite>
</testsuites>
`
	for _, tc := range []struct {
		name, xml string
		valid     bool
		want      string // in xmllint's complaint
	}{
		{"complete", good, true, ""},
		{"no errors on testsuite", strings.Replace(good, `failures="1" errors="0" skipped`, `failures="1" skipped`, 1), false, "'errors' is required"},
		{"no time on testsuite", strings.Replace(good, ` time="0.5"`, "", 1), false, "'time' is required"},
		{"no time on testcase", strings.Replace(good, `classname="c" time="0"`, `classname="c"`, 1), false, "'time' is required"},
		{"no classname", strings.Replace(good, ` classname="c" time="0.25"`, ` time="0.25"`, 1), false, "'classname' is required"},
		{"failure without type", strings.Replace(good, ` type="regression"`, "", 1), false, "'type' is required"},
		{"negative count", strings.Replace(good, `tests="2" failures="1" errors="0" skipped`, `tests="-2" failures="1" errors="0" skipped`, 1), false, "tests"},
	} {
		out, valid, err := Check([]byte(tc.xml))
		if errors.Is(err, ErrNoXmllint) {
			t.Skip("SKIP: xmllint not installed; apt-get install libxml2-utils to check the JUnit schema")
		}
		if err != nil {
			t.Fatal(err)
		}
		if valid != tc.valid || !strings.Contains(out, tc.want) {
			t.Errorf("%s: Check() = valid %v, %q; want valid %v, a complaint holding %q", tc.name, valid, out, tc.valid, tc.want)
		}
	}
	suites := Parse(t, []byte(good))
	if got := Totals(suites); got.Tests != 2 || got.Failed != 1 || got.Passed != 1 {
		t.Errorf("go-junit totals = %+v, want 2 tests, 1 failed, 1 passed", got)
	}
}
