package compact

import "testing"

// A renamed profile would silently lose its mark: every reference name must be registered.
func TestReferenceOnlyNamesProfiles(t *testing.T) {
	for name := range referenceOnly {
		if _, ok := Lookup(name); !ok {
			t.Errorf("referenceOnly names %q, which is not a built-in profile (%v)", name, ExtractorNames())
		}
	}
	if _, ok := ReferenceOnly("seed"); ok {
		t.Errorf("ReferenceOnly(seed) = true, want false: seed is the port the gate holds")
	}
	for _, name := range []string{"claude-code@2.1.88", "claude-code@2.1.332", "claude-code"} {
		if _, ok := ReferenceOnly(name); !ok {
			t.Errorf("ReferenceOnly(%s) = false, want true: every version of a reference agent is one", name)
		}
	}
	if _, ok := ReferenceOnly("claude-code@9.9.9"); ok {
		t.Errorf("ReferenceOnly(claude-code@9.9.9) = true, want false: no such profile")
	}
	if _, ok := ReferenceOnly("module:claude-code"); ok {
		t.Errorf("ReferenceOnly(module:claude-code) = true, want false")
	}
}
