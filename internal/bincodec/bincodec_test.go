package bincodec

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// every holds each kind the form writes.
type every struct {
	S    string
	B    bool
	I    int
	I8   int8
	I64  int64
	U    uint
	U16  uint16
	F    float64
	F32  float32
	P    *string
	PS   *every
	L    []string
	LS   []every
	A    [2]int
	M    map[string]int
	Any  any
	Anys map[string]any
}

// TestRoundTrip: a value whose every field holds a value other than its zero, one whose
// lists and maps are empty rather than nil, and the zero value decode as they were
// written. Their forms cut short, or with a byte more, are errors.
func TestRoundTrip(t *testing.T) {
	var full every
	fill(reflect.ValueOf(&full).Elem(), "v", 2)
	full.Any = []any{nil, true, -3, 0.7, "s", []any{}, map[string]any{"k": map[string]any{}}}
	empty := every{L: []string{}, LS: []every{}, M: map[string]int{}, Anys: map[string]any{}, Any: []any{}}
	for _, v := range []*every{&full, &empty, {}} {
		data, err := Append(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		got := every{S: "left over", L: []string{"left over"}}
		if err := Decode(data, &got); err != nil {
			t.Fatalf("Decode(Append(%+v)) = %v", v, err)
		}
		if diff := cmp.Diff(v, &got); diff != "" {
			t.Errorf("Decode(Append(v)) mismatch (-want +got):\n%s", diff)
		}
		for n := range len(data) {
			if err := Decode(data[:n], new(every)); !errors.Is(err, ErrMalformed) {
				t.Errorf("Decode of the form cut to %d of %d bytes = %v, want ErrMalformed", n, len(data), err)
			}
		}
		if err := Decode(append(data, 0), new(every)); !errors.Is(err, ErrMalformed) {
			t.Errorf("Decode of the form and a byte more = %v, want ErrMalformed", err)
		}
	}
}

// TestAppendRefuses: a value the form cannot hold is an error, not a form read back wrong.
func TestAppendRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
	}{
		{name: "a struct in an interface", v: &struct{ A any }{A: struct{}{}}},
		{name: "an int32 in an interface", v: &struct{ A any }{A: int32(1)}},
		{name: "an unexported field", v: &struct{ a int }{a: 1}},
		{name: "a channel", v: &struct{ C chan int }{}},
	} {
		if _, err := appendValue(nil, reflect.ValueOf(tc.v).Elem()); err == nil {
			t.Errorf("%s: appendValue gave no error", tc.name)
		}
	}
}

// fill sets every field reachable from v to a value other than its zero, named after
// path; pointers to a struct go depth levels down.
func fill(v reflect.Value, path string, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(path + " \xe2\x82 \n")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int64:
		v.SetInt(-int64(len(path)))
	case reflect.Uint, reflect.Uint16:
		v.SetUint(uint64(len(path)) << 9)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(-0.5 * float64(len(path)))
	case reflect.Pointer:
		if depth == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), path, depth-1)
	case reflect.Slice:
		if depth == 0 {
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth-1)
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, path+".key", depth)
		if e.Kind() == reflect.Interface {
			e.Set(reflect.ValueOf(path))
		} else {
			fill(e, path+".value", depth)
		}
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(path))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), path+"."+v.Type().Field(i).Name, depth)
		}
	default:
		panic(fmt.Sprintf("fill: %s is a %s", path, v.Kind()))
	}
}
