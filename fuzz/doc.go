// Package fuzz checks an extractor against the properties a summary extractor must keep,
// on generated inputs: no text of a closed analysis block in the summary, no summary that
// is only tags, no structural tag line kept, no summary lost where a reader sees one, the
// same answer to the same text, and time linear in the input.
//
// The extractor is given as functions (Target; Of makes one from a compact.Extractor), so
// any Go extraction function can be checked; Run sends it the responses of corpus cases,
// the inputs of the time check (Families) and generated texts (drift samples of the
// corpus, structured texts, analysis markers, random soups) for a time budget, and
// minimizes each failing input it keeps. The Result is plain data: compacteval fuzz prints
// it and report.json holds it. Running the extractors of the command line (processes
// behind docs/protocol.md) and writing failures as corpus cases is compacteval's own
// internal/fuzzrun.
//
// The Go fuzz targets (FuzzXxx) live beside the code they check (compact, corpus,
// fuzz/drift, ...); fuzz/drift holds the drift mutators, and a test here checks that the
// ClusterFuzzLite build names every fuzz target (docs/fuzzing.md).
package fuzz
