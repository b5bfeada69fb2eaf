package cflite

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEncodeDecode: what Encode writes, the consumer's rules (Decode) read back, for the
// edge cases those rules make: empty strings and bytes last, negative numbers, both bools.
func TestEncodeDecode(t *testing.T) {
	for _, tc := range []struct {
		reason string
		args   []any
	}{
		{"one response", []any{"<summary>\nbody\n</summary>"}},
		{"an empty string last", []any{"x", ""}},
		{"only an empty string", []any{""}},
		{"empty bytes", []any{[]byte{}}},
		{"bytes", []any{[]byte("version: 1\n")}},
		{"a negative int and a uint8", []any{"a", "", -2, "b", uint8(255)}},
		{"an int64 first", []any{int64(-1), uint8(3), "", "x"}},
		{"true and false", []any{"a", "b", true}},
		{"false", []any{"a", "b", false}},
		{"text with invalid UTF-8", []any{"\xff\x00\u2028"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			data, err := Encode(tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Decode(data, tc.args...)
			if err != nil {
				t.Fatalf("Decode(Encode(%q)) error: %v", tc.args, err)
			}
			if diff := cmp.Diff(tc.args, got); diff != "" {
				t.Errorf("Decode(Encode()) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeRules: the consumer's rules that Encode's final byte works around, and that a
// seed in Go's own corpus format is not read as the value it holds.
func TestDecodeRules(t *testing.T) {
	// Without the final byte an empty last string is refused, so the target never runs.
	if _, err := Decode([]byte{'\x00', 0, 0, 1, 'x', 0, 0, 0, 0}, "", ""); !errors.Is(err, errNotEnough) {
		t.Errorf("Decode(empty string at the very end) error = %v, want not enough bytes", err)
	}
	// A []byte of length 0 is 30 bytes modulo what is left.
	data := append([]byte{0, 0, 0, 0}, bytes.Repeat([]byte{'a'}, 7)...)
	got, err := Decode(data, []byte(nil))
	if err != nil || len(got[0].([]byte)) != 30%7 {
		t.Errorf("Decode(length 0, 7 bytes left) = %q, %v; want %d bytes", got, err, 30%7)
	}
	// A go test fuzz v1 file: its first four bytes, "go t", are a length far past the end.
	v1 := []byte("go test fuzz v1\nstring(\"<summary>\\nbody\\n</summary>\")\n")
	if got, err := Decode(v1, ""); err == nil {
		t.Errorf("Decode(go test fuzz v1 file) = %q, want an error", got)
	}
}

// TestTargetsMatchSignatures: the seeds of every target have the types, in order, of its
// f.Fuzz function's arguments in the source, so that go-fuzz-headers splits them right.
func TestTargetsMatchSignatures(t *testing.T) {
	in, err := ReadInputs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fuzzFunc := regexp.MustCompile(`(?s)func (Fuzz\w+)\(f \*testing\.F\) \{.*?f\.Fuzz\(func\(t \*testing\.T, ([^)]*)\)`)
	signatures := map[string][]string{} // package Func -> argument types
	files, _ := filepath.Glob("../../*/*_test.go")
	more, _ := filepath.Glob("../../*/*/*_test.go")
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pkg := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(f)), "../../")
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			signatures[pkg+" "+m[1]] = argTypes(m[2])
		}
	}
	for _, tg := range Targets {
		want, ok := signatures[tg.Package+" "+tg.Func]
		if !ok {
			t.Errorf("%s: no f.Fuzz of %s in %s", tg.Binary, tg.Func, tg.Package)
			continue
		}
		seeds := tg.Seeds(in)
		if len(seeds) < 4 {
			t.Errorf("%s: %d seeds, want at least 4", tg.Binary, len(seeds))
		}
		for i, args := range seeds {
			var got []string
			for _, a := range args {
				got = append(got, reflect.TypeOf(a).String())
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s seed %d: types differ from %s's f.Fuzz (-f.Fuzz +seed):\n%s", tg.Binary, i, tg.Func, diff)
			}
		}
	}
}

// argTypes turns "reason, custom string, count int" into [string string int].
func argTypes(params string) []string {
	var types []string
	pending := 0
	for _, p := range strings.Split(params, ",") {
		fields := strings.Fields(p)
		pending++
		if len(fields) == 2 {
			typ := strings.ReplaceAll(fields[1], "byte", "uint8")
			for ; pending > 0; pending-- {
				types = append(types, typ)
			}
		}
	}
	return types
}
