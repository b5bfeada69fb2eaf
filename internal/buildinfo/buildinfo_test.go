package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFromBuild(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	checkout := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}}
	for _, tc := range []struct {
		reason          string
		bi              *debug.BuildInfo
		version, commit string
		want            Info
		wantVersion     string
		wantRelease     bool
	}{
		{
			reason:      "go build in a modified checkout: the VCS stamp",
			bi:          checkout,
			want:        Info{Module: "(devel)", Revision: rev, Modified: true, Go: "go1.26.0"},
			wantVersion: "0123456789ab+dirty",
		},
		{
			reason:      "make dist: the stamped version and commit win, and a stamped build is clean",
			bi:          checkout,
			version:     "v0.3.0",
			commit:      "fedcba",
			want:        Info{Module: "v0.3.0", Revision: "fedcba", Go: "go1.26.0"},
			wantVersion: "v0.3.0",
			wantRelease: true,
		},
		{
			reason:      "make dist with no tag at HEAD: a snapshot is no release",
			bi:          checkout,
			version:     "v0.0.0-0123456789ab",
			commit:      rev,
			want:        Info{Module: "v0.0.0-0123456789ab", Revision: rev, Go: "go1.26.0"},
			wantVersion: "v0.0.0-0123456789ab",
		},
		{
			reason:      "go install module@v0.3.0: the module version, no VCS stamp",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.3.0"}},
			want:        Info{Module: "v0.3.0", Go: "go1.26.0"},
			wantVersion: "v0.3.0",
			wantRelease: true,
		},
		{
			reason:      "a pseudo-version (Go 1.24+ in a checkout) is no release",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.3.1-0.20261202034142-0123456789ab"}},
			want:        Info{Module: "v0.3.1-0.20261202034142-0123456789ab", Go: "go1.26.0"},
			wantVersion: "v0.3.1-0.20261202034142-0123456789ab",
		},
		{
			reason:      "a modified tree's pseudo-version is no release",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261202034142-0123456789ab+dirty"}},
			want:        Info{Module: "v0.0.0-20261202034142-0123456789ab+dirty", Go: "go1.26.0"},
			wantVersion: "v0.0.0-20261202034142-0123456789ab+dirty",
		},
		{
			reason:      "go test: no version, no VCS stamp",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			want:        Info{Module: "(devel)", Go: "go1.26.0"},
			wantVersion: "devel",
		},
		{
			reason:      "a pre-release tag is a release",
			bi:          &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			version:     "v0.3.0-rc.1",
			want:        Info{Module: "v0.3.0-rc.1", Go: "go1.26.0"},
			wantVersion: "v0.3.0-rc.1",
			wantRelease: true,
		},
	} {
		got := fromBuild(tc.bi, tc.version, tc.commit)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: fromBuild() mismatch (-want +got):\n%s", tc.reason, diff)
		}
		if v := got.Version(); v != tc.wantVersion {
			t.Errorf("%s: Version() = %q, want %q", tc.reason, v, tc.wantVersion)
		}
		if r := got.IsRelease(); r != tc.wantRelease {
			t.Errorf("%s: IsRelease() = %v, want %v", tc.reason, r, tc.wantRelease)
		}
	}
}
