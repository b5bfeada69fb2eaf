// Package docs holds compacteval's documentation. It has no code: its tests hold the pages
// to the code, the scripts and the CLI's testscripts (links, generated tables and
// transcripts, the fuzz targets, the action and its workflows, the release's steps).
package docs
