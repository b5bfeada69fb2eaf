package compact

// referenceOnly are the profiles that reproduce another agent's formatter whose contract is
// not the intended summary: Claude Code's keeps the text around the block and puts
// "Summary:" in front of it, plain parses no tags. Their low intended rates are by design,
// so reports show them for comparison, not as failures.
var referenceOnly = map[string]string{
	"claude-code": "another agent's formatter: keeps the text around the block and puts Summary: in front",
	"plain":       "parses no tags: the whole answer, trimmed",
}

// ReferenceOnly reports whether the built-in profile name is a reference behaviour, and
// why: reported beside the others, not held to the intended summary. Every version of an
// agent is (claude-code@2.1.88 and claude-code@2.1.332 as claude-code). It is false for any
// name that is not a built-in profile.
func ReferenceOnly(name string) (why string, ok bool) {
	if _, known := Lookup(name); !known {
		return "", false
	}
	why, ok = referenceOnly[Family(name)]
	return why, ok
}
