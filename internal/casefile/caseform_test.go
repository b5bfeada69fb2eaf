package casefile

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/compacteval/compacteval/internal/bincodec"
	"github.com/compacteval/compacteval/report"
	"github.com/google/go-cmp/cmp"
)

// TestCaseFormEveryField: a case whose every field, and every field of its results, holds
// a value other than its zero decodes from internal/bincodec's form as it was encoded; a
// field the form cannot hold fails here.
func TestCaseFormEveryField(t *testing.T) {
	var c report.Case
	fill(reflect.ValueOf(&c).Elem(), "case")
	data, err := bincodec.Append(nil, &c)
	if err != nil {
		t.Fatal(err)
	}
	var got report.Case
	if err := bincodec.Decode(data, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("Decode(Append(c)) mismatch (-want +got):\n%s", diff)
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
		panic(fmt.Sprintf("fill: %s is a %s: teach fill about it", path, v.Kind()))
	}
}
