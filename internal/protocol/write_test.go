package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// go test -run='^$' -fuzz='^FuzzWriteString$' -fuzztime=30s ./internal/protocol
func FuzzWriteString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "<summary>\n\tx\r\n</summary>", "\x00\x01\b\f\x1f\x7f",
		"\u2028\u2029\u0085", "… — \u2028 ‚", "é日本😀", "\xff\xfe bad \xe2\x80", "&<>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := marshalNoEscape(s)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		writeString(w, s)
		w.Flush()
		if got := b.String(); got != string(want) {
			t.Errorf("writeString(%q) = %s, want %s (encoding/json)", s, got, want)
		}
	})
}

func TestWriteRequest(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"an extraction", Request{ID: json.RawMessage("7"), Op: "extract", Text: Str("<summary>\nhi\n</summary>")}},
		{"an extraction with a profile", Request{ID: json.RawMessage("8"), Op: "extract", Text: Str("x\u2028\xff"), Profile: Str("robust")}},
		{"an empty text, which is a text", Request{ID: json.RawMessage("9"), Op: "extract", Text: Str("")}},
		{"no text", Request{ID: json.RawMessage("10"), Op: "keptTailNote", Count: Int(3), Opening: Str("hi")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			if err := writeRequest(w, tc.req, false); err != nil {
				t.Fatal(err)
			}
			w.Flush()
			line := b.Bytes()
			if bytes.IndexByte(line, '\n') != len(line)-1 {
				t.Fatalf("writeRequest wrote %q, want one line", line)
			}
			want, err := marshalNoEscape(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got, wantV map[string]any
			if err := json.Unmarshal(line, &got); err != nil {
				t.Fatalf("writeRequest wrote %q: %v", line, err)
			}
			if err := json.Unmarshal(want, &wantV); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantV, got); diff != "" {
				t.Errorf("writeRequest() mismatch with marshalNoEscape (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteRequestTextBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"a text of valid UTF-8 goes as bytes", Request{ID: json.RawMessage("7"), Op: "extract", Text: Str("<summary>\n\"hé\" ✓\r\n\u2028</summary>")},
			"{\"id\":7,\"op\":\"extract\",\"textBytes\":34}\n<summary>\n\"hé\" ✓\r\n\u2028</summary>"},
		{"an empty text, as bytes", Request{ID: json.RawMessage("8"), Op: "extract", Text: Str(""), Profile: Str("robust")},
			"{\"id\":8,\"op\":\"extract\",\"profile\":\"robust\",\"textBytes\":0}\n"},
		{"invalid UTF-8 goes as JSON", Request{ID: json.RawMessage("9"), Op: "extract", Text: Str("x\xff")},
			"{\"id\":9,\"op\":\"extract\",\"text\":\"x\\ufffd\"}\n"},
		{"no text", Request{ID: json.RawMessage("10"), Op: "keptTailNote", Count: Int(3)},
			"{\"id\":10,\"op\":\"keptTailNote\",\"count\":3}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			if err := writeRequest(w, tc.req, true); err != nil {
				t.Fatal(err)
			}
			w.Flush()
			if got := b.String(); got != tc.want {
				t.Errorf("writeRequest(textBytes) = %q, want %q", got, tc.want)
			}
		})
	}
}
