package casefile

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// TestCaseCodecEveryField: a case whose every field, and every field of its results, holds
// a value other than its zero decodes as it was encoded; a field the codec leaves out
// fails here. Its encoding cut short, or with a byte more, is an error.
func TestCaseCodecEveryField(t *testing.T) {
	var c report.Case
	fill(reflect.ValueOf(&c).Elem(), "case")
	data := appendCase(nil, &c)
	var got report.Case
	if err := decodeCase(data, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("decodeCase(appendCase(c)) mismatch (-want +got):\n%s", diff)
	}
	for n := range len(data) {
		if err := decodeCase(data[:n], new(report.Case)); err == nil {
			t.Errorf("decodeCase of the encoding cut to %d of %d bytes: no error", n, len(data))
		}
	}
	if err := decodeCase(append(data, 0), new(report.Case)); err == nil {
		t.Error("decodeCase of the encoding and a byte more: no error")
	}
}

// fill sets every field reachable from v to a value other than its zero, named after path.
func fill(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(path + " \xe2\x82 \n")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), path)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	default:
		panic(fmt.Sprintf("fill: %s is a %s: teach appendCase and fill about it", path, v.Kind()))
	}
}
