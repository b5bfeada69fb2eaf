// Package cflite makes the seed corpora that .clusterfuzzlite/build.sh ships with the
// fuzz targets: one <binary>_seed_corpus.zip per target, from the corpus.
//
// ClusterFuzzLite builds a native Go fuzz target with OSS-Fuzz's compile_native_go_fuzzer,
// which links it with libFuzzer through go-118-fuzz-build: libFuzzer hands the target raw
// bytes, and go-118-fuzz-build's testing.F shim splits them into the f.Fuzz arguments with
// go-fuzz-headers' ConsumeFuzzer, and f.Add is a no-op there. A seed corpus for such a
// binary is therefore those raw bytes, not the "go test fuzz v1" files of testdata/fuzz
// (which the shim would read as bytes: a string argument would take its length from the
// first four bytes of "go test fuzz v1"). Encode writes arguments in that form.
package cflite

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Encode returns the libFuzzer input from which go-118-fuzz-build (main branch, with
// go-fuzz-headers v0.0.0-20230811130428-ced1acdcaa24) passes args to the target, in
// order. The kinds it takes are those the targets here use:
//
//   - string and []byte: a 4-byte big-endian length, then the bytes;
//   - int and int64: 8 bytes big-endian, then a byte that is odd (GetUint64 reads the
//     8 bytes as little-endian after an even byte);
//   - uint8: one byte;
//   - bool: one byte, even for true (GetBool's rule).
//
// A final 0 byte follows: ConsumeFuzzer refuses a string that ends exactly at the end of
// the data when it is empty, and takes a []byte of length 0 as 30 bytes modulo what is
// left (with one byte left, 0 again).
func Encode(args ...any) ([]byte, error) {
	var out []byte
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out = binary.BigEndian.AppendUint32(out, uint32(len(v)))
			if len(out) > maxTotalLen {
				return nil, fmt.Errorf("encode argument %d: a string may not start past byte %d", i, maxTotalLen)
			}
			out = append(out, v...)
		case []byte:
			out = binary.BigEndian.AppendUint32(out, uint32(len(v)))
			out = append(out, v...)
		case int:
			out = binary.BigEndian.AppendUint64(out, uint64(v))
			out = append(out, 1)
		case int64:
			out = binary.BigEndian.AppendUint64(out, uint64(v))
			out = append(out, 1)
		case uint8:
			out = append(out, v)
		case bool:
			b := byte(1)
			if v {
				b = 0
			}
			out = append(out, b)
		default:
			return nil, fmt.Errorf("encode argument %d: unsupported type %T", i, a)
		}
	}
	return append(out, 0), nil
}

// Decode reads data as go-118-fuzz-build does for a target whose arguments have the types
// of like (their values are ignored), following go-fuzz-headers' rules, including those
// Encode avoids: an empty string may not end the data, a []byte of length 0 is 30 bytes
// modulo what is left, and a longer one is taken modulo what is left. The tests use it to
// check Encode against the consumer's rules, written out independently of Encode.
func Decode(data []byte, like ...any) ([]any, error) {
	pos := 0
	left := func() int { return len(data) - pos }
	uint32At := func() (uint32, error) {
		if left() < 4 {
			return 0, errNotEnough
		}
		v := binary.BigEndian.Uint32(data[pos:])
		pos += 4
		return v, nil
	}
	var out []any
	for i, a := range like {
		switch a.(type) {
		case string:
			if left() <= 0 {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			n, err := uint32At()
			if err != nil || pos > maxTotalLen || left() <= 0 || uint64(pos)+uint64(n) > uint64(len(data)) {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			out = append(out, string(data[pos:pos+int(n)]))
			pos += int(n)
		case []byte:
			n, err := uint32At()
			if err != nil || left() <= 0 {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			if n == 0 {
				n = 30
			}
			if int(n) != left() {
				n %= uint32(left())
			}
			out = append(out, append([]byte{}, data[pos:pos+int(n)]...))
			pos += int(n)
		case int, int64:
			if left() < 9 {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			var u uint64
			if data[pos+8]%2 == 0 {
				u = binary.LittleEndian.Uint64(data[pos:])
			} else {
				u = binary.BigEndian.Uint64(data[pos:])
			}
			pos += 9
			if _, ok := a.(int); ok {
				out = append(out, int(u))
			} else {
				out = append(out, int64(u))
			}
		case uint8:
			if left() < 1 {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			out = append(out, data[pos])
			pos++
		case bool:
			if left() < 1 {
				return nil, fmt.Errorf("argument %d: %w", i, errNotEnough)
			}
			out = append(out, data[pos]%2 == 0)
			pos++
		default:
			return nil, fmt.Errorf("decode argument %d: unsupported type %T", i, a)
		}
	}
	return out, nil
}

var errNotEnough = errors.New("not enough bytes")

// maxTotalLen is go-fuzz-headers' MaxTotalLen: GetString refuses a string whose bytes start
// past it.
const maxTotalLen = 2000000
