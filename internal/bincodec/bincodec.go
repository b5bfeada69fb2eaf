// Package bincodec writes Go values in a compact binary form and reads them back, for
// the temporary files of a run (corpus's spool, internal/casefile's cases).
//
// The form is every exported field in order, by reflection: a string is its length and
// its bytes, a bool a byte, a signed number its zigzag varint, an unsigned one its varint,
// a float its bits, a list, a map or a pointer its length plus one (0 for nil), an
// interface value a kind byte and the value (the kinds YAML gives: nil, bool, int,
// float64, string, lists and maps of them). A value holding anything else (an unexported
// field, a channel, another dynamic type) cannot be written. What is read is what was
// written, nil and empty lists apart. The form names no type and no field: it is read back
// only into the type it was written from, by the same build.
package bincodec

import (
	"errors"
	"fmt"
	"math"
	"reflect"
)

// ErrMalformed is the error of Decode for data cut short, running on, or not of the form.
var ErrMalformed = errors.New("malformed binary value")

// Append appends the form of *v to b. It fails when *v holds what the form cannot.
func Append[T any](b []byte, v *T) ([]byte, error) {
	return appendValue(b, reflect.ValueOf(v).Elem())
}

// Decode sets *v to the value whose form is data, which Append wrote from a value of type
// T; it returns ErrMalformed when data is not such a form, whole.
func Decode[T any](data []byte, v *T) error {
	var zero T
	*v = zero
	d := decoder{b: data}
	d.value(reflect.ValueOf(v).Elem())
	if d.err == nil && len(d.b) > 0 {
		d.err = ErrMalformed
	}
	return d.err
}

// The kinds of an interface value.
const (
	anyNil byte = iota
	anyBool
	anyInt
	anyFloat
	anyString
	anyList
	anyMap
)

var (
	anyListType = reflect.TypeFor[[]any]()
	anyMapType  = reflect.TypeFor[map[string]any]()
)

// appendUvarint and appendUint64 are encoding/binary's AppendUvarint and
// LittleEndian.AppendUint64, written here so that the corpus, which spools its cases with
// this package, does not compile that package too (architecture.md counts what each part
// compiles).
func appendUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

func appendUint64(b []byte, x uint64) []byte {
	for i := range 8 {
		b = append(b, byte(x>>(8*i)))
	}
	return b
}

func appendLen(b []byte, n int, isNil bool) []byte {
	if isNil {
		return appendUvarint(b, 0)
	}
	return appendUvarint(b, uint64(n)+1)
}

// appendValue appends v's form to b.
func appendValue(b []byte, v reflect.Value) ([]byte, error) {
	var err error
	switch v.Kind() {
	case reflect.String:
		b = appendUvarint(b, uint64(v.Len()))
		b = append(b, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b = appendUvarint(b, uint64(v.Int())<<1^uint64(v.Int()>>63))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b = appendUvarint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		b = appendUint64(b, math.Float64bits(v.Float()))
	case reflect.Pointer:
		b = appendLen(b, 1, v.IsNil())
		if !v.IsNil() {
			return appendValue(b, v.Elem())
		}
	case reflect.Slice:
		b = appendLen(b, v.Len(), v.IsNil())
		for i := range v.Len() {
			if b, err = appendValue(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			if b, err = appendValue(b, v.Index(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Map:
		b = appendLen(b, v.Len(), v.IsNil())
		for it := v.MapRange(); it.Next(); {
			if b, err = appendValue(b, it.Key()); err != nil {
				return nil, err
			}
			if b, err = appendValue(b, it.Value()); err != nil {
				return nil, err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				return nil, fmt.Errorf("bincodec: %s has an unexported field", t)
			}
			if b, err = appendValue(b, v.Field(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Interface:
		if v.IsNil() {
			return append(b, anyNil), nil
		}
		e := v.Elem()
		switch {
		case e.Type() == reflect.TypeFor[bool]():
			b = append(b, anyBool)
		case e.Type() == reflect.TypeFor[int]():
			b = append(b, anyInt)
		case e.Type() == reflect.TypeFor[float64]():
			b = append(b, anyFloat)
		case e.Type() == reflect.TypeFor[string]():
			b = append(b, anyString)
		case e.Type() == anyListType:
			b = append(b, anyList)
		case e.Type() == anyMapType:
			b = append(b, anyMap)
		default:
			return nil, fmt.Errorf("bincodec: a value of type %s", e.Type())
		}
		return appendValue(b, e)
	default:
		return nil, fmt.Errorf("bincodec: a value of kind %s", v.Kind())
	}
	return b, nil
}

// decoder reads what appendValue wrote; once it has gone wrong (err) it reads nothing.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = ErrMalformed
	}
	d.b = nil
}

func (d *decoder) uvarint() uint64 {
	var x uint64
	for i, c := range d.b {
		if i == 10 || i == 9 && c > 1 { // more than 64 bits
			break
		}
		x |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.b = d.b[i+1:]
			return x
		}
	}
	d.fail()
	return 0
}

// len returns a list's, a map's or a pointer's length, and false for nil.
func (d *decoder) len() (int, bool) {
	n := d.uvarint()
	if n == 0 {
		return 0, false
	}
	if n-1 > uint64(len(d.b)) { // every element takes a byte at least
		d.fail()
		return 0, false
	}
	return int(n - 1), true
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

// value decodes into v (settable) what appendValue wrote of a value of v's type.
func (d *decoder) value(v reflect.Value) {
	if d.err != nil {
		return
	}
	switch v.Kind() {
	case reflect.String:
		n := d.uvarint()
		if n > uint64(len(d.b)) {
			d.fail()
			return
		}
		v.SetString(string(d.b[:n]))
		d.b = d.b[n:]
	case reflect.Bool:
		switch d.byte() {
		case 0:
		case 1:
			v.SetBool(true)
		default:
			d.fail()
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		u := d.uvarint()
		v.SetInt(int64(u>>1) ^ -int64(u&1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(d.uvarint())
	case reflect.Float32, reflect.Float64:
		if len(d.b) < 8 {
			d.fail()
			return
		}
		var u uint64
		for i := range 8 {
			u |= uint64(d.b[i]) << (8 * i)
		}
		v.SetFloat(math.Float64frombits(u))
		d.b = d.b[8:]
	case reflect.Pointer:
		if _, ok := d.len(); ok {
			p := reflect.New(v.Type().Elem())
			d.value(p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		if n, ok := d.len(); ok {
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				d.value(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			d.value(v.Index(i))
		}
	case reflect.Map:
		if n, ok := d.len(); ok {
			m := reflect.MakeMapWithSize(v.Type(), n)
			for range n {
				k := reflect.New(v.Type().Key()).Elem()
				e := reflect.New(v.Type().Elem()).Elem()
				d.value(k)
				d.value(e)
				if d.err != nil {
					return
				}
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			d.value(v.Field(i))
		}
	case reflect.Interface:
		var t reflect.Type
		switch d.byte() {
		case anyNil:
			return
		case anyBool:
			t = reflect.TypeFor[bool]()
		case anyInt:
			t = reflect.TypeFor[int]()
		case anyFloat:
			t = reflect.TypeFor[float64]()
		case anyString:
			t = reflect.TypeFor[string]()
		case anyList:
			t = anyListType
		case anyMap:
			t = anyMapType
		default:
			d.fail()
			return
		}
		e := reflect.New(t).Elem()
		d.value(e)
		v.Set(e)
	default:
		d.fail()
	}
}
