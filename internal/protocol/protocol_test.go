package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
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

// echo answers every request with its id and summary "a"; extra is shell run after each
// answer, printing what a misbehaving process prints.
func echoer(t *testing.T, extra string, opt StartOptions) *Client {
	t.Helper()
	script := `while IFS= read -r l; do id=${l#'{"id":'}; id=${id%%,*}; printf '{"id":%s,"summary":"a"}\n' "$id"; ` + extra + `; done`
	c, err := StartWith(context.Background(), []string{"sh", "-c", script}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientIDs(t *testing.T) {
	extract := Request{Op: "extract", Text: Str("x")}
	for _, tc := range []struct {
		name      string
		extra     string // printed after each answer
		orderOnly bool
		want      string // the error of the second batch ("" none)
		close     string // the error of Close
	}{
		{name: "well behaved", extra: ":"},
		{name: "an answer twice", extra: `printf '{"id":%s,"summary":"b"}\n' "$id"`,
			want: `protocol error at stdout line 2: id 1 was answered already, want 2: an extra line: {"id":1,"summary":"b"}`},
		{name: "an id never sent", extra: `printf '{"id":99,"summary":"b"}\n'`,
			want: `protocol error at stdout line 2: unknown id 99, want 2: {"id":99,"summary":"b"}`},
		{name: "a debug line", extra: `echo '{"summary":"debug"}'`,
			want: `protocol error at stdout line 2: no id, want the answer to request 2 naming it`},
		{name: "a debug line, order only, is still caught at the end", extra: `[ "$id" = 2 ] && echo '{"summary":"debug"}'`, orderOnly: true,
			close: `protocol error at stdout line 3: a line after the answer to the last request (2): an extra line: {"summary":"debug"}`},
		{name: "blank lines are no answers", extra: `echo; echo '  '`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := echoer(t, tc.extra, StartOptions{OrderOnly: tc.orderOnly})
			defer c.Kill()
			if _, err := c.Do(extract); err != nil {
				t.Fatalf("first request: %v", err)
			}
			_, err := c.Do(extract)
			if got := errString(err); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (err == nil) {
				t.Errorf("second request: error %q, want %q", got, tc.want)
			}
			if err != nil {
				var pe *ProtocolError
				if !errors.As(err, &pe) {
					t.Errorf("error %v is no *ProtocolError", err)
				}
				if _, again := c.Do(extract); again == nil {
					t.Error("a request after a protocol error was answered")
				}
			}
			if got := errString(c.Close()); got != tc.close {
				t.Errorf("Close() = %q, want %q", got, tc.close)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestServeEchoesIDs(t *testing.T) {
	in := `{"id":1,"op":"constants"}` + "\n" + `{"id":"x","op":"extract","text":5}` + "\n" + `{"op":"keptTailNote","count":1}` + "\n"
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	for i, want := range []string{`{"id":1,"maxTokens"`, `{"id":"x","error":"field text is number, want a string"}`, `{"text":`} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], want) {
			t.Errorf("Serve answer %d = %q, want it to start with %s", i, lines[i:min(i+1, len(lines))], want)
		}
	}
}

// responseLines are answer lines for TestDecodeSummary: each way a summary can be
// written, and lines that are no answer.
var responseLines = []string{
	`{"id":1,"summary":"a"}`,
	`{"id":"x","summary":"a\nb \"q\" \u00e9 \ud83d\ude00 \ud800 <b>"}`,
	"{\"summary\":\"\xff\xfe invalid UTF-8\"}",
	`{"id":2,"summary":null}`,
	`{"id":3}`,
	`{"id":4,"summary":""}`,
	`{"id":5,"Summary":"case","SUMMARY":"last"}`,
	`{"summary":"a","summary":null}`,
	`{"summary":null,"summary":"b"}`,
	`{"summary":5}`,
	`{"summary":"a","text":5}`,
	`{"summary":"a","error":"e","text":"t","maxTokens":3,"instruction":"i"}`,
	`null`,
	`[1]`,
	`{"summary":"a"`,
}

// TestDecodeSummary: what the one-pass decode of an answer with a summary decodes, the
// decode of any answer decodes alike; a line it does not decode, it leaves alone.
func TestDecodeSummary(t *testing.T) {
	decoded := 0
	for _, line := range responseLines {
		if checkDecodeSummary(t, []byte(line)) {
			decoded++
		}
	}
	if decoded != 7 {
		t.Errorf("decodeSummary decoded %d of the lines, want 7", decoded)
	}
}

func checkDecodeSummary(t *testing.T, b []byte) bool {
	t.Helper()
	untouched := Response{Text: Str("untouched")}
	fast := untouched
	if !decodeSummary(b, &fast) {
		if !reflect.DeepEqual(fast, untouched) {
			t.Errorf("decodeSummary(%q) = false, and changed the response to %+v", b, fast)
		}
		return false
	}
	var want Response
	if err := decodeAny(b, &want); err != nil {
		t.Errorf("decodeSummary(%q) = true, but decodeAny fails: %v", b, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Errorf("decodeSummary(%q) = %s, want %s (decodeAny)", b, show(fast), show(want))
	}
	return true
}

func show(r Response) string {
	s := func(p *string) string {
		if p == nil {
			return "nil"
		}
		return strconv.Quote(*p)
	}
	return fmt.Sprintf("{ID:%s Summary:%s HasSummary:%v Text:%s Instruction:%s Error:%s MaxTokens:%v}",
		r.ID, s(r.Summary), r.HasSummary, s(r.Text), s(r.Instruction), s(r.Error), r.MaxTokens != nil)
}
