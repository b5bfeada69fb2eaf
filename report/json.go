package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// Marshal returns the report as indented JSON with a final newline; HTML characters are
// not escaped, so summaries read as written.
func Marshal(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Read reads a report.json, refusing another schema version.
func Read(path string) (*Report, error) {
	data, err := os.ReadFile(path)
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
