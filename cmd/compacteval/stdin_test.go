package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestContextReader: the reader passes what it reads through unchanged, through a buffer
// smaller than the reads, and a read that waits for input ends with the context's error
// when the context is cancelled.
func TestContextReader(t *testing.T) {
	const text = "a response of some length, read in small pieces"
	r := newContextReader(context.Background(), strings.NewReader(text))
	var got []byte
	buf := make([]byte, 5)
	for {
		n, err := r.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if string(got) != text {
		t.Errorf("read through contextReader = %q, want %q", got, text)
	}

	pr, pw := io.Pipe() // nothing is ever written: the read waits for ever
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r = newContextReader(ctx, pr)
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(r)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("ReadAll(waiting, cancelled) error = %v, want context.Canceled", err)
	}
}
