package infile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRefusesWhatIsTooLarge(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.jsonl")
	big := filepath.Join(dir, "big.jsonl")
	os.WriteFile(small, []byte("0123456789"), 0o644)
	os.WriteFile(big, []byte("0123456789x"), 0o644)
	if data, err := Read(small, 10, "a session file"); err != nil || string(data) != "0123456789" {
		t.Errorf("Read(10 bytes, limit 10) = %q, %v; want the bytes", data, err)
	}
	_, err := Read(big, 10, "a session file")
	if want := big + ": longer than 10 bytes, the limit on a session file"; !errors.Is(err, ErrTooLarge) || err.Error() != want {
		t.Errorf("Read(11 bytes, limit 10) = %v, want %q", err, want)
	}
	// A reader that never ends (a pipe, a FIFO) is read to the limit only.
	_, err = ReadAll(endless{}, "stdin", 1<<20, "a report")
	if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), "stdin: longer than 1 MiB") {
		t.Errorf("ReadAll(endless) = %v, want stdin over 1 MiB", err)
	}
	if _, err := Read(dir, 10, "a session file"); err == nil || !strings.Contains(err.Error(), "a folder, not a session file") {
		t.Errorf("Read(folder) = %v, want a folder refused", err)
	}
}

func TestReadRefusesADevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	for _, dev := range []string{"/dev/zero", os.DevNull} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		_, err := Read(dev, 1<<20, "a session file")
		if err == nil || !strings.Contains(err.Error(), "a device, not a session file") {
			t.Errorf("Read(%s) = %v, want a device refused", dev, err)
		}
	}
}

// TestReadAllOfAFile reads a regular file whole, as extract reads its FILE or stdin, into one
// buffer of its size: io.ReadAll, before, made a dozen more as its slice grew.
func TestReadAllOfAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "response.txt")
	want := strings.Repeat("<summary>\nDone.\n</summary>\n", 40000) // about 1 MB
	if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(limit int64, skip int64) ([]byte, error) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.Seek(skip, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		return ReadAll(f, path, limit, "a response")
	}
	n := int64(len(want))
	if data, err := read(n, 0); err != nil || string(data) != want {
		t.Errorf("ReadAll(file of %d bytes, limit %d) = %d bytes, %v; want the file", n, n, len(data), err)
	}
	if _, err := read(n-1, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadAll(file of %d bytes, limit %d) = %v, want too large", n, n-1, err)
	}
	// Its size is a hint only: a file read from an offset (stdin after a read) gives the rest.
	if data, err := read(n, 7); err != nil || string(data) != want[7:] {
		t.Errorf("ReadAll(file from byte 7) = %d bytes, %v; want the last %d", len(data), err, n-7)
	}
	// The allocations ReadAll adds to opening the file: its own Stat and the buffer.
	opened := testing.AllocsPerRun(5, func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Stat()
		f.Close()
	})
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := read(n, 0); err != nil {
			t.Fatal(err)
		}
	})
	if allocs-opened > 2 {
		t.Errorf("ReadAll of a 1 MB file made %.0f allocations beside the file's %.0f, want its Stat and the buffer", allocs-opened, opened)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

var _ io.Reader = endless{}

func TestSize(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{n: 512 << 20, want: "512 MiB"},
		{n: 1 << 30, want: "1 GiB"},
		{n: 4 << 10, want: "4 KiB"},
		{n: 1000, want: "1000 bytes"},
	} {
		if got := Size(tt.n); got != tt.want {
			t.Errorf("Size(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
