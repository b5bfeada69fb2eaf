package corpus

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpoolEveryField: a case whose every field holds a value other than its zero, and one
// whose lists and maps are empty rather than nil, are read back from the spool as they were
// put; a field the form cannot hold fails here. A value YAML does not give (a time in an
// origin's parameters) is not spooled. (internal/bincodec tests a form cut short.)
func TestSpoolEveryField(t *testing.T) {
	s := newSpool()
	if s == nil {
		t.Skip("no spool on this system")
	}
	var full Case
	fillCase(reflect.ValueOf(&full).Elem(), "case")
	full.Origin.Parameters = map[string]any{"nil": nil, "bool": true, "int": -3, "float": 0.7, "string": "s",
		"list": []any{1, "two", []any{}}, "map": map[string]any{"k": map[string]any{}}}
	empty := Case{Categories: []string{}, KnownDeviations: map[string]string{}, Conversation: []Message{{ToolCalls: []ToolCall{}}},
		Probes: []Probe{}, SummaryFlaws: []string{}, Origin: Origin{Parameters: map[string]any{}, Usage: map[string]int{}}}
	for _, c := range []*Case{&full, &empty, {}} {
		at := s.put(c)
		if at.n == 0 {
			t.Fatalf("put(%+v) spooled nothing", c)
		}
		got, err := s.get(at)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(c, got); diff != "" {
			t.Errorf("get(put(c)) mismatch (-want +got):\n%s", diff)
		}
	}
	odd := Case{Origin: Origin{Parameters: map[string]any{"when": struct{}{}}}}
	if at := s.put(&odd); at.n != 0 {
		t.Errorf("put of a case with a struct{} in its parameters spooled it")
	}
}

// fillCase sets every field reachable from v to a value other than its zero, named after
// path.
func fillCase(v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(path + " \xe2\x82 \n")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(-int64(len(path)))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillCase(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillCase(k, path+".key")
		if e.Kind() == reflect.Interface {
			e.Set(reflect.ValueOf(path))
		} else {
			fillCase(e, path+".value")
		}
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			fillCase(v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	default:
		panic(fmt.Sprintf("fillCase: %s is a %s: teach the spool and fillCase about it", path, v.Kind()))
	}
}
