package compact

// Hooks for the external tests of robust's fast path.
var (
	// FastBlock is robust's fast path (robust_fast.go).
	FastBlock = fastBlock
	// ExtractRobustFull is robust's full scan, past the well-formed check and the fast path.
	ExtractRobustFull = func(text string) Extraction {
		e, _ := extractRobust(text, true)
		return e
	}
	// ExtractRobustGeneral is ExtractRobust without any shortcut: no well-formed check, no
	// fast path, and none of the scan's paths for common cases.
	ExtractRobustGeneral = func(text string) Extraction {
		e, _ := extractRobust(text, false)
		return e
	}
)
