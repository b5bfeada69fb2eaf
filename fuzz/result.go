package fuzz

// Result is a fuzz run of one extractor.
type Result struct {
	Extractor string `json:"extractor"`
	Seed      int64  `json:"seed"`
	// Execs counts the extractions, generated inputs, corpus responses, time checks and
	// minimization all together; ExecsPerSecond divides them by Seconds, the run's time.
	Execs          int     `json:"execs"`
	Seconds        float64 `json:"seconds"`
	ExecsPerSecond float64 `json:"execs_per_second"`
	// Inputs counts the inputs checked, by generator (corpus, drift, structured, marker,
	// soup).
	Inputs map[string]int `json:"inputs"`
	// Counts counts the failing inputs of every property, Examples the distinct ones kept
	// (the first few of each kind, minimized).
	Counts   map[string]int `json:"failures"`
	Examples []Failure      `json:"examples"`
	// Ambiguous counts, by property, the inputs that the property would have failed where
	// the text alone does not decide it (see the properties): not failures.
	Ambiguous map[string]int `json:"ambiguous"`
	// Reference names the extractor run on the same inputs (Options.Reference), if any.
	Reference string `json:"reference,omitempty"`
	// Kinds counts the failures by kind, in the order of Kinds; each says whether the
	// reference shows it too and whether it is accepted.
	Kinds []KindCount `json:"kinds"`
	// Timings is the time check of every input family.
	Timings []Timing `json:"timings"`
	// Notes say what the run could not do.
	Notes []string `json:"notes,omitempty"`
}

// Failed reports whether the run found a new kind of failure: one that the reference does
// not show and that is not accepted. A result without kinds (written before kinds were
// counted) failed when any property failed.
func (r *Result) Failed() bool {
	if r.Kinds == nil {
		for _, n := range r.Counts {
			if n > 0 {
				return true
			}
		}
		return false
	}
	for _, k := range r.Kinds {
		if k.New() {
			return true
		}
	}
	return false
}

// KindCount is how often a run found one kind of failure.
type KindCount struct {
	Kind     string `json:"kind"`
	Property string `json:"property"`
	Count    int    `json:"count"`
	// ReferenceCount is how often the reference failed with this kind on the same inputs;
	// Known says it did at least once: a known behaviour of the reference.
	ReferenceCount int  `json:"reference_count,omitempty"`
	Known          bool `json:"known,omitempty"`
	// Accepted says that Options.Accept holds the kind or its property.
	Accepted bool `json:"accepted,omitempty"`
}

// New reports a kind that fails the run: found, not known in the reference, not accepted.
func (k KindCount) New() bool { return k.Count > 0 && !k.Known && !k.Accepted }

// NewKind reports whether kind is a new kind of r (KindCount.New); a result without kinds
// says true for any kind.
func (r *Result) NewKind(kind string) bool {
	for _, k := range r.Kinds {
		if k.Kind == kind {
			return k.New()
		}
	}
	return r.Kinds == nil
}

// Failure is one failing input, minimized.
type Failure struct {
	Property string `json:"property"`
	// Kind is the property and what kind of failure it is (Kinds).
	Kind      string `json:"kind"`
	Generator string `json:"generator"`
	// Case is the corpus case the input is, or was made from.
	Case   string `json:"case,omitempty"`
	Detail string `json:"detail"`
	// Input is the smallest failing text found; OriginalBytes the size it was found at.
	Input         string `json:"input"`
	OriginalBytes int    `json:"original_bytes"`
	Output        string `json:"output"`
	Found         bool   `json:"found"`
	// File is the inbox case written for it, when one was.
	File string `json:"file,omitempty"`
}

// Answer describes the extractor's answer for people: "no summary", or the summary
// quoted, shortened to about 120 bytes.
func (f *Failure) Answer() string {
	if !f.Found {
		return "no summary"
	}
	return quote(f.Output, 120)
}
