package compact

// Hooks for the external tests of robust's fast path.
var (
	// FastBlock is robust's fast path (robust_fast.go).
	FastBlock = fastBlock
	// ExtractRobustFull is robust's full scan, past the well-formed check and the fast path.
	ExtractRobustFull = func(text string) Extraction { return extractRobust(text, true) }
	// ExtractRobustGeneral is ExtractRobust without any shortcut: the well-formed rule (a
	// rule of the policy, not a shortcut), then neither the fast path nor the scan's paths
	// for common cases.
	ExtractRobustGeneral = func(text string) Extraction {
		if seed, ok := wellFormed(text); ok {
			return seed
		}
		return extractRobust(text, false)
	}
)
