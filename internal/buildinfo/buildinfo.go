// Package buildinfo says which compacteval is running: its module version, or the VCS
// revision it was built from.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Info is what the binary knows of its own build.
type Info struct {
	// Module is the main module's version ("v0.3.0", or "(devel)" for a build from a
	// checkout).
	Module string `json:"module"`
	// Revision is the VCS commit the binary was built from, with Modified when the tree had
	// changes; empty when the build carries no VCS stamp (go run, go test).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain's version.
	Go string `json:"go"`
}

var read = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Module: "(unknown)"}
	}
	in := Info{Module: bi.Main.Version, Go: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
})

// Read returns the running binary's build information.
func Read() Info { return read() }

// Version returns one word for the build: the module version when it is a release,
// otherwise the first 12 digits of the revision (with "+dirty" for a modified tree), or
// "devel".
func Version() string {
	in := Read()
	switch {
	case in.Module != "" && in.Module != "(devel)":
		return in.Module
	case in.Revision != "":
		v := in.Revision
		if len(v) > 12 {
			v = v[:12]
		}
		if in.Modified {
			v += "+dirty"
		}
		return v
	}
	return "devel"
}
