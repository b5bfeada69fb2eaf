package protocol

import (
	"bufio"
	"strconv"
	"unicode/utf8"
)

// writeRequest writes req to w as one line: the JSON of marshalNoEscape, but with the text
// last and escaped straight into w, so that a 10 MB answer is neither encoded by reflection
// nor built in a buffer and copied out of it (scripts/module-cost.sh: encoding/json took 25
// to 60 ms on 10 MB, beside 40 to 190 ms for the Go robust's whole extraction).
//
// With textBytes, a text of valid UTF-8 goes as bytes instead (docs/protocol.md, "Texts as
// bytes"): the line ends with "textBytes": its length, and the text follows the line as it
// is, neither escaped here nor parsed by the process. Invalid UTF-8 still goes as JSON, whose
// U+FFFD for each bad byte a decoder of bytes would not reproduce.
func writeRequest(w *bufio.Writer, req Request, textBytes bool) error {
	text := req.Text
	req.Text = nil
	b, err := marshalNoEscape(req)
	if err != nil {
		return err
	}
	if text == nil {
		w.Write(b)
		return w.WriteByte('\n')
	}
	w.Write(b[:len(b)-1]) // all but its closing '}'
	if textBytes && utf8.ValidString(*text) {
		w.WriteString(`,"textBytes":`)
		w.WriteString(strconv.Itoa(len(*text)))
		w.WriteString("}\n")
		_, err = w.WriteString(*text)
		return err
	}
	w.WriteString(`,"text":`)
	writeString(w, *text)
	_, err = w.WriteString("}\n")
	return err
}

// plain and plainASCII mark the bytes that a JSON string holds as they are: ASCII but for
// '"', '\\' and control characters, and, in valid UTF-8 (plain), every byte of a multi-byte
// sequence but 0xe2, which may start U+2028 or U+2029.
var plain, plainASCII = func() (t, ascii [256]bool) {
	for c := 0x20; c < len(t); c++ {
		t[c] = c != '"' && c != '\\' && c != 0xe2
		ascii[c] = t[c] && c < utf8.RuneSelf
	}
	return t, ascii
}()

// writeString writes s to w as a JSON string, escaped as encoding/json escapes it with
// SetEscapeHTML(false): '"', '\\' and control characters, U+2028 and U+2029, and each byte
// of invalid UTF-8 as U+FFFD. Runs of bytes that need no escape are written whole.
func writeString(w *bufio.Writer, s string) {
	const hex = "0123456789abcdef"
	t := &plainASCII
	if utf8.ValidString(s) {
		t = &plain
	}
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && t[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			w.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}
