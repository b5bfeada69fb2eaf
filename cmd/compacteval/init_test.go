package main

import (
	"os"
	"strings"
	"testing"

	"github.com/compacteval/compacteval/internal/buildinfo"
)

// TestUserWorkflowDoc: the workflow the docs point users to is what a development build of
// init writes for -extractor module:src/compaction.ts.
func TestUserWorkflowDoc(t *testing.T) {
	want, err := os.ReadFile("../../docs/github-actions/user-repo.yml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := workflowText(inputs{extractors: []string{"module:src/compaction.ts"}}, ".compacteval/baseline.json", "gate.yaml", buildinfo.Info{Module: "(devel)"})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("docs/github-actions/user-repo.yml differs from init's workflow; write it again with compacteval init -extractor module:src/compaction.ts (a development build)")
	}
}

// TestWorkflowPin: a release pins the action to itself; any other build writes the
// placeholder, which is no tag, and says so in the workflow.
func TestWorkflowPin(t *testing.T) {
	in := inputs{extractors: []string{"cmd:python3 tools/extract.py"}, corpora: []string{"embedded", "tests/cases"}}
	for _, tc := range []struct {
		reason      string
		version     buildinfo.Info
		want        string
		wantNote    bool
		wantPinNote bool
	}{
		{reason: "a release pins its commit, the tag in a comment", version: buildinfo.Info{Module: "v0.3.0", Revision: "0123456789abcdef0123456789abcdef01234567"}, want: "uses: compacteval/compacteval@0123456789abcdef0123456789abcdef01234567 # v0.3.0\n"},
		{reason: "a release that does not know its commit says how to pin it", version: buildinfo.Info{Module: "v0.3.0"}, want: "uses: compacteval/compacteval@v0.3.0\n", wantPinNote: true},
		{reason: "a build from a checkout", version: buildinfo.Info{Module: "(devel)", Revision: "0123456789abcdef"}, want: "uses: compacteval/compacteval@vX.Y.Z\n", wantNote: true},
		{reason: "a pseudo-version", version: buildinfo.Info{Module: "v0.3.1-0.20261202034142-0123456789ab"}, want: "uses: compacteval/compacteval@vX.Y.Z\n", wantNote: true},
	} {
		got, err := workflowText(in, ".compacteval/baseline.json", "ci/gate config.yaml", tc.version)
		if err != nil {
			t.Fatal(err)
		}
		flow := string(got)
		if !strings.Contains(flow, tc.want) {
			t.Errorf("%s: workflowText() has no %q:\n%s", tc.reason, tc.want, flow)
		}
		if note := strings.Contains(flow, "# NOTE: a development build"); note != tc.wantNote {
			t.Errorf("%s: workflowText() has the development note: %v, want %v", tc.reason, note, tc.wantNote)
		}
		if note := strings.Contains(flow, "does not know the commit of v0.3.0: pin the action"); note != tc.wantPinNote {
			t.Errorf("%s: workflowText() has the pinning note: %v, want %v", tc.reason, note, tc.wantPinNote)
		}
		if !strings.Contains(flow, "release "+map[bool]string{true: "v0.3.0", false: "vX.Y.Z"}[tc.version.IsRelease()]+": the action runs") {
			t.Errorf("%s: workflowText() does not name the release in its header:\n%s", tc.reason, flow)
		}
		for _, line := range []string{"            cmd:python3 tools/extract.py\n", "            embedded\n            tests/cases\n", "config: 'ci/gate config.yaml'\n"} {
			if !strings.Contains(flow, line) {
				t.Errorf("%s: workflowText() has no %q:\n%s", tc.reason, line, flow)
			}
		}
	}
	if _, err := workflowText(inputs{extractors: []string{"cmd:a\nb"}}, "b.json", "g.yaml", buildinfo.Info{Module: "v0.3.0"}); err == nil {
		t.Errorf("workflowText(an extractor with a line break) = nil error, want one")
	}
}
