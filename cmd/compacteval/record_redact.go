package main

import (
	"bytes"
	"io"
	"strings"

	"github.com/compacteval/compacteval/internal/record"
	"github.com/compacteval/compacteval/internal/redact"
)

// redactWriter removes literal secrets (the API key, the base URL's query values) from
// everything record prints, whatever produced it: a server's error that echoes the key, a
// URL, the JSON document. It holds back an unfinished line, so a secret split across two
// writes is still found; Flush writes what is left.
type redactWriter struct {
	w       io.Writer
	secrets []string
	line    []byte
}

func newRedactWriter(w io.Writer, secrets []string) *redactWriter {
	return &redactWriter{w: w, secrets: secrets}
}

func (rw *redactWriter) Write(p []byte) (int, error) {
	rw.line = append(rw.line, p...)
	i := bytes.LastIndexByte(rw.line, '\n')
	if i < 0 {
		return len(p), nil
	}
	if err := rw.emit(rw.line[:i+1]); err != nil {
		return 0, err
	}
	rw.line = append(rw.line[:0], rw.line[i+1:]...)
	return len(p), nil
}

// Flush writes the unfinished line.
func (rw *redactWriter) Flush() error {
	if len(rw.line) == 0 {
		return nil
	}
	err := rw.emit(rw.line)
	rw.line = rw.line[:0]
	return err
}

func (rw *redactWriter) emit(b []byte) error {
	s, _ := redact.Literals(string(b), rw.secrets...)
	_, err := io.WriteString(rw.w, s)
	return err
}

// recordSecrets returns the literal values record must never print or write: the API key
// and the base URL's query values and password.
func recordSecrets(key, baseURL string) []string {
	var out []string
	if strings.TrimSpace(key) != "" {
		out = append(out, key)
	}
	return append(out, record.QuerySecrets(baseURL)...)
}
