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
