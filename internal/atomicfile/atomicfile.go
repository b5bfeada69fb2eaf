// Package atomicfile writes files so that a reader sees the old content or the new, never a
// part: the data goes to a temporary file in the same folder, which is synced and renamed.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrExists is returned by Create when the file is already there.
var ErrExists = errors.New("file exists")

// Write replaces path with data.
func Write(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false)
}

// Create writes data to path, which must not exist yet; it never overwrites a file, even one
// created by another process while the data is written.
func Create(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, true)
}

func write(path string, data []byte, perm os.FileMode, exclusive bool) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if exclusive {
		// A hard link fails if path exists, so a concurrent writer cannot be overwritten.
		if err := os.Link(tmp.Name(), path); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("write %s: %w", path, ErrExists)
			}
			return fmt.Errorf("write %s: %w", path, err)
		}
		return os.Remove(tmp.Name())
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
