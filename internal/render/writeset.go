package render

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

// File is one file of a report set: a base name (report.json) and its bytes, or, when
// Write is set, the function that writes them (so that a large report is never held
// whole).
type File struct {
	Name  string
	Data  []byte
	Write func(io.Writer) error
}

// WriteSet replaces the report files in dir as one set, so that no moment, even after a
// SIGKILL, shows a new report.json beside an old report.md. The files are written and
// synced into a fresh folder beside dir (.<dir>.new-<pid>-*), other files already in dir
// (a gate.md, say) are hard-linked into it, and the folder then takes dir's place: on Linux
// by one renameat2(RENAME_EXCHANGE), which swaps the two folders atomically, after which
// the old one is removed. Where the file system cannot exchange, dir is renamed aside
// (.<dir>.old-<pid>-*) and the new folder renamed into place: for that moment dir is
// missing, never mixed, and the next WriteSet puts the old set back first if the process
// died there.
//
// Each WriteSet first removes what killed runs left beside dir (and the temporary files of
// older compacteval versions inside it); folders of a process that is still running are
// left alone. dir must hold only files (a folder inside it is an error): it is replaced as
// a whole. A file added to dir by another process while WriteSet runs may be lost. If dir
// is a symbolic link, the folder it points to is replaced and the link kept.
func WriteSet(dir string, files []File) error {
	dir = filepath.Clean(dir)
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		dir = target
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	if err := cleanStale(parent, base); err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	names := map[string]bool{}
	for _, f := range files {
		if f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." || names[f.Name] {
			return fmt.Errorf("write reports in %s: bad or repeated file name %q", dir, f.Name)
		}
		names[f.Name] = true
	}
	keep, perm, exists, err := othersIn(dir, names)
	if err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	step("made " + filepath.Base(tmp))
	for _, f := range files {
		if err := writeSynced(filepath.Join(tmp, f.Name), f); err != nil {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		step("wrote " + f.Name)
	}
	for _, name := range keep {
		if err := linkOrCopy(filepath.Join(dir, name), filepath.Join(tmp, name)); err != nil {
			return fmt.Errorf("write reports in %s: keep %s: %w", dir, name, err)
		}
		step("kept " + name)
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	if err := syncDir(tmp); err != nil {
		return fmt.Errorf("write reports in %s: %w", dir, err)
	}
	step("synced")
	switch {
	case !exists:
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		done = true
		step("renamed")
	default:
		err := exchange(tmp, dir)
		if err == nil {
			done = true
			step("exchanged")
			// tmp now holds the old set.
			if err := os.RemoveAll(tmp); err != nil {
				return fmt.Errorf("write reports in %s: remove the old set: %w", dir, err)
			}
			step("removed the old set")
			break
		}
		if !errors.Is(err, errNoExchange) {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		old := filepath.Join(parent, "."+base+".old-"+strconv.Itoa(os.Getpid())+strings.TrimPrefix(filepath.Base(tmp), "."+base+".new-"+strconv.Itoa(os.Getpid())))
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		step("moved the old set aside")
		if err := os.Rename(tmp, dir); err != nil {
			os.Rename(old, dir)
			return fmt.Errorf("write reports in %s: %w", dir, err)
		}
		done = true
		step("renamed")
		if err := os.RemoveAll(old); err != nil {
			return fmt.Errorf("write reports in %s: remove the old set: %w", dir, err)
		}
		step("removed the old set")
	}
	return syncDir(parent)
}

// step is called between the steps of WriteSet; a test kills the process there.
var step = func(string) {}

// errNoExchange is exchange's error where folders cannot be swapped atomically.
var errNoExchange = errors.New("atomic exchange not supported")

// othersIn returns the names of the entries of dir that are not among names (the set's
// files) nor temporary files left by atomicfile writes of them, dir's mode, and whether
// dir exists. An entry that is not a regular file or a symbolic link is an error.
func othersIn(dir string, names map[string]bool) (keep []string, perm os.FileMode, exists bool, err error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0o755, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	if !fi.IsDir() {
		return nil, 0, false, fmt.Errorf("%s is not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, false, err
	}
	for _, e := range entries {
		if names[e.Name()] || staleTemp(e.Name(), names) {
			continue
		}
		if !e.Type().IsRegular() && e.Type()&os.ModeSymlink == 0 {
			return nil, 0, false, fmt.Errorf("%s holds %s, which is not a file: the report folder is replaced as a whole, so give it a folder of its own", dir, e.Name())
		}
		keep = append(keep, e.Name())
	}
	return keep, fi.Mode().Perm(), true, nil
}

// staleTemp reports whether name is a temporary file that atomicfile.Write of one of the
// set's files leaves when its process is killed (".report.json.tmp123").
func staleTemp(name string, names map[string]bool) bool {
	for n := range names {
		if strings.HasPrefix(name, "."+n+".tmp") {
			return true
		}
	}
	return false
}

// cleanStale removes the folders that killed WriteSets left beside parent/base. If base
// itself is missing because a process died between moving the old set aside and renaming
// the new one in, the old set is put back first.
func cleanStale(parent, base string) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return err
	}
	dir := filepath.Join(parent, base)
	for _, kind := range []string{".old-", ".new-"} {
		prefix := "." + base + kind
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() || !strings.HasPrefix(name, prefix) {
				continue
			}
			pidText, _, _ := strings.Cut(strings.TrimPrefix(name, prefix), "-")
			if pid, err := strconv.Atoi(pidText); err == nil && pid != os.Getpid() && processAlive(pid) {
				continue // another WriteSet at work
			}
			path := filepath.Join(parent, name)
			if kind == ".old-" {
				if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
					if err := os.Rename(path, dir); err != nil {
						return err
					}
					continue
				}
			}
			if err := os.RemoveAll(path); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeSynced(path string, file File) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if file.Write != nil {
		err = file.Write(f)
	} else {
		_, err = f.Write(file.Data)
	}
	if err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// linkOrCopy makes dst the same file as src: a hard link, a copy of a symbolic link, or,
// where hard links fail, a copy of the bytes.
func linkOrCopy(src, dst string) error {
	fi, err := os.Lstat(src)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	}
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile writes data to path atomically (a temporary file renamed into place).
func WriteFile(path string, data []byte) error {
	return atomicfile.Write(path, data, 0o644)
}
