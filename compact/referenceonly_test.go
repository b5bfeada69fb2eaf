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
	if _, ok := ReferenceOnly("module:claude-code"); ok {
		t.Errorf("ReferenceOnly(module:claude-code) = true, want false")
	}
}
