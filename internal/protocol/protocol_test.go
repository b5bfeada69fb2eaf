package protocol

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"op":"extract","text":"<summary>\nhi\n</summary>"}`,
		``,
		`{"op":"extract","text":"<analysis>only</analysis>"}`,
		`{"op":"extract","text":"<SUMMARY>\nhi\n</SUMMARY>","profile":"robust"}`,
		`{"op":"extract","text":"x","profile":"nope"}`,
		`{"op":"constants"}`,
		`{"op":"frobnicate"}`,
		`not json`,
	}, "\n")
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("Serve answered %d lines for 7 requests (a blank line gets none):\n%s", len(lines), out.String())
	}
	for i, want := range []string{
		`{"summary":"hi"}`,
		`{"summary":null}`,
		`{"summary":"hi"}`,
		`unknown profile \"nope\"`,
		`"maxTokens":32000`,
		`unknown op`,
		`{"error":`,
	} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("answer %d = %s, want it to contain %s", i, lines[i], want)
		}
	}
}

func TestResponseJSON(t *testing.T) {
	for _, tc := range []struct {
		resp Response
		want string
	}{
		{Response{HasSummary: true}, `{"summary":null}`},
		{Response{HasSummary: true, Summary: Str("a<b>")}, `{"summary":"a<b>"}`},
		{Response{Text: Str("t")}, `{"text":"t"}`},
	} {
		data, err := marshalNoEscape(tc.resp) // as Serve writes it
		data = bytes.TrimSuffix(data, []byte("\n"))
		if err != nil || string(data) != tc.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.resp, data, err, tc.want)
		}
		var back Response
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		if back.HasSummary != tc.resp.HasSummary || (back.Summary == nil) != (tc.resp.Summary == nil) {
			t.Errorf("Unmarshal(%s) = %+v, want %+v", data, back, tc.resp)
		}
	}
}
