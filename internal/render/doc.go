// Package render writes a report.json's document as Markdown, HTML and JUnit XML, and the
// set of report files a run leaves in its folder.
//
// It only renders: every figure comes from the report package's document, which the
// pipeline builds, as go-cmp builds its report tree in report_value.go and formats it in
// report_text.go. So rendering or gating a report.json compiles no extractor, model SDK or
// esbuild (TestReportReadersStayLight). WriteSet replaces a run's files as one set and keeps
// the other files of the folder.
package render
