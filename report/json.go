package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"

	"github.com/compacteval/compacteval/eval"
	"github.com/compacteval/compacteval/internal/infile"
)

// Marshal returns the report as indented JSON with a final newline; HTML characters are
// not escaped, so summaries read as written.
func Marshal(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes the report to w as Marshal returns it, byte for byte, encoding its cases
// and its eval cases one at a time (read from Stored and StoredEval when they are set): the
// memory it needs does not grow with the cases.
func Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	// The report without its cases, then each case in the place of the empty list.
	head := *r
	cases := r.NumCases()
	if cases > 0 || r.Stored != nil {
		head.Cases = []Case{}
	}
	evals := r.NumEvalCases()
	if evals > 0 || r.StoredEval != nil {
		head.Eval.Cases = []eval.Result{}
	}
	text, err := encode(&head, "")
	if err != nil {
		return err
	}
	rest := text
	if cases > 0 {
		next, stop := iter.Pull2(r.AllCases())
		defer stop()
		if rest, err = splice(bw, rest, "\n  \"cases\": [],\n", "", "    ", cases, func(int) (any, error) {
			c, err, ok := next()
			if !ok && err == nil {
				err = fmt.Errorf("write report: fewer than the %d cases the report holds", cases)
			}
			return c, err
		}); err != nil {
			return err
		}
	}
	if evals > 0 {
		at := bytes.Index(rest, []byte("\n  \"eval\": {\n"))
		if at < 0 {
			return fmt.Errorf("write report: no eval object in %.40q", rest)
		}
		bw.Write(rest[:at])
		next, stop := iter.Pull2(r.AllEvalCases())
		defer stop()
		if rest, err = splice(bw, rest[at:], "\n    \"cases\": [],\n", "  ", "      ", evals, func(int) (any, error) {
			c, err, ok := next()
			if !ok && err == nil {
				err = fmt.Errorf("write report: fewer than the %d eval cases the report holds", evals)
			}
			return c, err
		}); err != nil {
			return err
		}
	}
	bw.Write(rest)
	return bw.Flush()
}

// splice writes text up to the first empty list marker (a key with its value [] on a line
// of its own, at the indent of lead), then the n elements of that list, each at prefix,
// as the encoder writes a list; it returns the text after the marker.
func splice(w *bufio.Writer, text []byte, marker, lead, prefix string, n int, elem func(int) (any, error)) ([]byte, error) {
	at := bytes.Index(text, []byte(marker))
	if at < 0 {
		return nil, fmt.Errorf("write report: no %q", marker)
	}
	w.Write(text[:at])
	w.WriteString(marker[:len(marker)-len("],\n")] + "\n")
	for i := range n {
		v, err := elem(i)
		if err != nil {
			return nil, err
		}
		data, err := encode(v, prefix)
		if err != nil {
			return nil, err
		}
		w.WriteString(prefix)
		w.Write(bytes.TrimSuffix(data, []byte("\n")))
		if i < n-1 {
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("  " + lead + "],\n")
	return text[at+len(marker):], nil
}

// encode is the one encoding of the document and of its parts: indented by two spaces
// after prefix, HTML characters not escaped, a final newline.
func encode(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Read reads a report.json, refusing another schema version.
func Read(path string) (*Report, error) {
	data, err := infile.Read(path, infile.MaxReportBytes, "a report")
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes a report.json read from path (named in errors). The bare names that an
// older report gives claude-code and windmill become the versions they named then.
func Parse(path string, data []byte) (*Report, error) {
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a compacteval report: %w", path, err)
	}
	if head.SchemaVersion == nil {
		return nil, fmt.Errorf("%s: not a compacteval report: no schema_version", path)
	}
	if *head.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("%s: report schema version %d, this compacteval reads version %d", path, *head.SchemaVersion, SchemaVersion)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	renameLegacy(&r)
	return &r, nil
}
