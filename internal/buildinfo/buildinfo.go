// Package buildinfo says which compacteval is running: its version and the commit it was
// built from.
//
// A release build (make dist) stamps both with the linker:
//
//	go build -ldflags "-X github.com/compacteval/compacteval/internal/buildinfo.version=v0.3.0
//	  -X github.com/compacteval/compacteval/internal/buildinfo.commit=<sha>"
//
// Without a stamp they come from debug.ReadBuildInfo: the module version of a go install
// module@version, and vcs.revision and vcs.modified of a go build in a checkout.
package buildinfo

import (
	"regexp"
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

// version and commit are stamped by a release build (-ldflags -X); empty otherwise.
var version, commit string

var read = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{Main: debug.Module{Version: "(unknown)"}}
	}
	return fromBuild(bi, version, commit)
})

// fromBuild is Read's rule: the stamped version and commit win over what the Go toolchain
// recorded (a stamped build is a release, built from a clean tree).
func fromBuild(bi *debug.BuildInfo, version, commit string) Info {
	in := Info{Module: bi.Main.Version, Go: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	if version != "" {
		in.Module = version
	}
	if commit != "" {
		in.Revision, in.Modified = commit, false
	}
	return in
}

var (
	semver = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)
	// A pseudo-version, or make dist's snapshot of a commit with no tag (v0.0.0-C12).
	pseudo = regexp.MustCompile(`[0-9]{14}-[0-9a-f]{12}$|^v0\.0\.0-[0-9a-f]{12}$`)
)

// IsRelease reports whether in is a released version, "vX.Y.Z" (stamped, or of a go
// install module@vX.Y.Z), not a build from a checkout: no "(devel)", no pseudo-version
// (which Go 1.24 and later give a build in a checkout), no snapshot (make dist with no tag,
// v0.0.0-C12), no "+dirty".
func (in Info) IsRelease() bool {
	return semver.MatchString(in.Module) && !pseudo.MatchString(in.Module)
}

// Read returns the running binary's build information.
func Read() Info { return read() }

// Version returns one word for the build: the module version when it is a release,
// otherwise the first 12 digits of the revision (with "+dirty" for a modified tree), or
// "devel".
func Version() string { return Read().Version() }

// Version is the package's Version for in.
func (in Info) Version() string {
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
