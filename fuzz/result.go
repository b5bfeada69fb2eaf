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
	// Counts counts the failing inputs of every property, Examples the distinct ones kept.
	Counts   map[string]int `json:"failures"`
	Examples []Failure      `json:"examples"`
	// Timings is the time check of every input family.
	Timings []Timing `json:"timings"`
	// Notes say what the run could not do.
	Notes []string `json:"notes,omitempty"`
}

// Failed reports whether any property failed.
func (r *Result) Failed() bool {
	for _, n := range r.Counts {
		if n > 0 {
			return true
		}
	}
	return false
}

// Failure is one failing input, minimized.
type Failure struct {
	Property  string `json:"property"`
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
