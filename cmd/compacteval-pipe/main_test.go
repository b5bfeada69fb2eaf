package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestPipeAnswersAsCompactevalPipe: the same requests get the same answers, byte for
// byte, from compacteval-pipe and from compacteval pipe.
func TestPipeAnswersAsCompactevalPipe(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIP: go is not on PATH")
	}
	in := strings.Join([]string{
		`{"op":"extract","text":"<analysis>\nthink\n</analysis>\n<summary>\n1. Fix it.\n</summary>"}`,
		`{"op":"extract","text":"<summary>\nunclosed","profile":"robust"}`,
		`{"op":"instruction","reason":"manual","customInstructions":"Keep file paths."}`,
		`not json`,
	}, "\n") + "\n"
	var got, stderr bytes.Buffer
	if code := run(nil, strings.NewReader(in), &got, &stderr); code != 0 {
		t.Fatalf("run() = %d, stderr %s", code, stderr.String())
	}
	cmd := exec.Command("go", "run", "../compacteval", "pipe")
	cmd.Stdin = strings.NewReader(in)
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run ../compacteval pipe: %v", err)
	}
	if got.String() != string(want) {
		t.Errorf("compacteval-pipe answered\n%s\nwant (compacteval pipe)\n%s", got.String(), want)
	}
	if n := strings.Count(got.String(), "\n"); n != 4 {
		t.Errorf("compacteval-pipe gave %d answer lines to 4 requests:\n%s", n, got.String())
	}
	if code := run([]string{"x"}, strings.NewReader(""), &got, &stderr); code != 2 {
		t.Errorf("run(x) = %d, want 2", code)
	}
}
