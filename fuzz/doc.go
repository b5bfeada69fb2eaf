// Package fuzz holds what compacteval's fuzzing shares across packages: the drift mutators
// (fuzz/drift) and the check that the ClusterFuzzLite build names every fuzz target.
//
// The fuzz targets themselves live beside the code they check (compact, corpus,
// fuzz/drift); make fuzz runs each in turn, and .clusterfuzzlite/ builds them for
// ClusterFuzzLite (docs/fuzzing.md).
package fuzz
