// Package gate compares a compacteval run with a blessed baseline and decides whether it
// regressed.
//
// Both are report.json documents (package report). The config (gate.yaml) sets how far
// each metric may fall, which cases must always pass, and what a new or removed case
// means. Every regression reads "case: metric was -> now (allowed drop)". Arrange groups
// a Result's regressions for a reader, one row per case and extractor, and Markdown and
// JUnit render it for a pull-request comment and for CI's test reports.
package gate
