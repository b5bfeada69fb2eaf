package eval

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/compacteval/compacteval/internal/atomicfile"
)

var update = flag.Bool("update", false, "update docs/validity.md from the real validity set")

// ValidityDirEnv names the folder of real sessions the real-data validity check reads;
// scripts/validity-set.sh builds it from eval/validity/sources.tsv.
const ValidityDirEnv = "COMPACTEVAL_VALIDITY_DIR"

const (
	validitySources = "validity/sources.tsv"
	validityPage    = "../docs/validity.md"
	// The bar on the held-out half.
	minHeldOutWins     = 0.95
	maxHeldOutUnjudged = 0.10
	maxNoContrast      = 0.10 // per ablation and measure
)

// readSessions reads every pi session and Claude Code transcript (.jsonl) under dir.
func readSessions(t *testing.T, dir string) []Input {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(path) == ".jsonl" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	sort.Strings(files)
	var ins []Input
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		format, ok := DetectFormat(data)
		if !ok {
			t.Logf("%s: neither a pi session nor a Claude Code transcript; skipped", f)
			continue
		}
		read := ReadPiSession
		if format == FormatClaudeCode {
			read = ReadClaudeCode
		}
		got, _, err := read(bytes.NewReader(data), filepath.Base(f))
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		ins = append(ins, got...)
	}
	return ins
}

// half is the part of the real set that one side of the split holds.
type half struct {
	name     string
	ins      []Input
	projects map[string]bool
	sessions map[string]bool
	// perProject is the cap on each project's compactions (ProjectCap); capped is false
	// where the half has too few projects to cap, or its projects are not known.
	perProject int
	capped     bool
	over       map[string]int // compactions over the cap, by project: not compared
	repeats    int            // compactions an earlier file of the set also holds: counted once
}

// splitReal sorts the compactions of ins into the halves of the split (HalfOf), by the
// repository sources lists for their file; files it does not list go to UnlistedHalf. A
// compaction whose stored summary an earlier file also holds (a later checkpoint of the
// same session) is counted once. In the tuning and held-out halves each project keeps at
// most ProjectCap compactions, its first in CapOrder; the rest are counted in over.
func splitReal(ins []Input, sources []ValiditySource) []*half {
	repo := map[string]string{}
	for _, s := range sources {
		repo[s.Name] = s.Repository
	}
	halves := map[string]*half{}
	var order []*half
	for _, name := range []string{TuningHalf, HeldOutHalf, UnlistedHalf} {
		h := &half{name: name, projects: map[string]bool{}, sessions: map[string]bool{}, over: map[string]int{}}
		halves[name] = h
		order = append(order, h)
	}
	seen := map[string]bool{}
	for _, in := range ins {
		file := sessionOf(in.Source)
		name, r := UnlistedHalf, repo[file]
		if r != "" {
			name = HalfOf(r)
		}
		h := halves[name]
		if s := storedSummary(in); s != "" {
			if seen[s] {
				h.repeats++
				continue
			}
			seen[s] = true
		}
		h.ins = append(h.ins, in)
	}
	for _, h := range order {
		if h.name != UnlistedHalf {
			capProjects(h, repo)
		}
		for _, in := range h.ins {
			file := sessionOf(in.Source)
			r := repo[file]
			if r == "" {
				r = "(unlisted) " + file
			}
			h.projects[r] = true
			h.sessions[file] = true
		}
	}
	return order
}

// storedSummary returns the summary the agent stored for in, or its response when it
// stored none.
func storedSummary(in Input) string {
	if in.Summary != nil {
		return *in.Summary
	}
	return in.Response
}

// capProjects keeps, of each project of h, at most ProjectCap compactions: its first in
// CapOrder. The compactions kept stay in the order of h.ins.
func capProjects(h *half, repo map[string]string) {
	byProject := map[string][]string{}
	for _, in := range h.ins {
		r := repo[sessionOf(in.Source)]
		byProject[r] = append(byProject[r], in.ID)
	}
	counts := make([]int, 0, len(byProject))
	for _, ids := range byProject {
		counts = append(counts, len(ids))
	}
	h.perProject, h.capped = ProjectCap(counts)
	if !h.capped {
		return
	}
	keep := map[string]bool{}
	for r, ids := range byProject {
		CapOrder(ids)
		for i, id := range ids {
			if i < h.perProject {
				keep[id] = true
			} else {
				h.over[r]++
			}
		}
	}
	kept := h.ins[:0]
	for _, in := range h.ins {
		if keep[in.ID] {
			kept = append(kept, in)
		}
	}
	h.ins = kept
}

// formatBalance says how the split balanced h: the cap on each project and the
// compactions over it, and the compactions counted once.
func formatBalance(h *half) string {
	var b strings.Builder
	switch {
	case h.name == UnlistedHalf:
		b.WriteString("Not capped: the projects of unlisted files are not known.")
	case !h.capped:
		fmt.Fprintf(&b, "Not capped: fewer than %.0f projects cannot each hold at most %.0f%% of the half.", 1/MaxProjectShare, 100*MaxProjectShare)
	default:
		var over []string
		n := 0
		for r, k := range h.over {
			over = append(over, fmt.Sprintf("%s %d", r, k))
			n += k
		}
		sort.Strings(over)
		fmt.Fprintf(&b, "At most %d compactions per project (no project over %.0f%% of the half; `eval.ProjectCap`), each project's first in `eval.CapOrder`.", h.perProject, 100*MaxProjectShare)
		if n > 0 {
			fmt.Fprintf(&b, " Over the cap, not compared: %d (%s).", n, strings.Join(over, ", "))
		}
	}
	fmt.Fprintf(&b, " Counted once: %d compactions whose stored summary an earlier file also holds.\n\n", h.repeats)
	return b.String()
}

// formatMeans renders, per measure, the mean over projects of each project's share of
// applicable pairs won (ProjectMeans), every ablation but the shuffle.
func formatMeans(v Validity, project func(id string) string) string {
	means, projects := ProjectMeans(v.Pairs, project)
	parts := make([]string, 0, len(means))
	for k, m := range ValidityMeasures {
		m = strings.ReplaceAll(m, "_", " ")
		if projects[k] == 0 {
			parts = append(parts, m+" -")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.1f%% (%d projects)", m, 100*means[k], projects[k]))
	}
	return "Mean over projects of each project's share of applicable pairs won, every ablation but the shuffle: " + strings.Join(parts, ", ") + ".\n"
}

func TestValidityReal(t *testing.T) {
	dir := os.Getenv(ValidityDirEnv)
	if dir == "" {
		t.Skipf("%s is not set: the real-data validity check needs the set scripts/validity-set.sh builds (it fetches public sessions; tests never touch the network)", ValidityDirEnv)
	}
	f, err := os.Open(validitySources)
	if err != nil {
		t.Fatal(err)
	}
	sources, err := ReadValiditySources(f, validitySources)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ins := readSessions(t, dir)
	if len(ins) < 2 {
		t.Fatalf("%s holds %d compactions, want at least 2", dir, len(ins))
	}
	repoOf := map[string]string{} // compaction ID to its repository
	for _, s := range sources {
		repoOf[s.Name] = s.Repository
	}
	var page strings.Builder
	fmt.Fprintf(&page, "Measured on %s by `COMPACTEVAL_VALIDITY_DIR=DIR go test ./eval -run TestValidityReal -update`, with the set `scripts/validity-set.sh` builds in DIR.\n", time.Now().UTC().Format("2006-01-02"))
	only := os.Getenv("COMPACTEVAL_VALIDITY_HALF") // tune on one half: "tuning"
	for _, h := range splitReal(ins, sources) {
		if len(h.ins) == 0 || only != "" && h.name != only {
			continue
		}
		v := Validate(h.ins, Options{})
		tallies := v.Tallies()
		fmt.Fprintf(&page, "\n### %s half: %d compactions, %d sessions, %d projects\n\n", h.name, len(h.ins), len(h.sessions), len(h.projects))
		fmt.Fprintf(&page, "Projects: %s.\n\n", strings.Join(sortedKeys(h.projects), ", "))
		page.WriteString(formatBalance(h))
		fmt.Fprintf(&page, "Skipped (no summary, or no fact before the cut): %d of %d. Not enough to judge (fewer than %d facts before the cut): %d of %d.\n\n", len(v.Skipped), len(h.ins), MinWindowFacts, len(v.NotEnough), len(h.ins))
		page.WriteString(FormatTallies(tallies))
		means := formatMeans(v, projectOfCase(repoOf))
		page.WriteString("\n" + means)
		page.WriteString("\nPer project, every ablation but the shuffle:\n\n")
		page.WriteString(formatProjects(h, v, repoOf))
		t.Logf("%s half: %d compactions, %d projects, skipped %v\n%s%s%s", h.name, len(h.ins), len(h.projects), v.Skipped, formatBalance(h), FormatTallies(tallies), means)
		for _, p := range v.Pairs {
			for _, verdict := range p.Verdicts {
				if verdict == Loss || verdict == Tie && p.Ablation != AblationShuffled || verdict == NoContrast {
					t.Logf("%s: not won: %s", h.name, p)
					break
				}
			}
		}
		if h.name == TuningHalf {
			continue // tuned on: reported, not held to the bar
		}
		pmeans, pcount := ProjectMeans(v.Pairs, projectOfCase(repoOf))
		for k, m := range ValidityMeasures {
			if pcount[k] == 0 || pmeans[k] < minHeldOutWins {
				t.Errorf("%s half: %s: the mean over %d projects of their pairs won is %.1f%%, want at least %.0f%%", h.name, m, pcount[k], 100*pmeans[k], 100*minHeldOutWins)
			}
			all := tallies["all"][k]
			if share, ok := all.Rate().Value(); !ok || share < minHeldOutWins {
				t.Errorf("%s half: %s: real summaries win %d of %d pairs judged (%d ties), want at least %.0f%%", h.name, m, all.Wins, all.Rate().Of, all.Ties, 100*minHeldOutWins)
			}
			for _, name := range SortedAblations(tallies) {
				if nc := tallies[name][k].NoContrastRate(); name != AblationShuffled && nc.Of > 0 && float64(nc.Hit) >= maxNoContrast*float64(nc.Of) {
					t.Errorf("%s half: %s: %s: %d of %d pairs are of no contrast, want fewer than %.0f%%", h.name, name, m, nc.Hit, nc.Of, 100*maxNoContrast)
				}
			}
			if sh := tallies[AblationShuffled]; sh != nil && (sh[k].Losses > 0 || sh[k].Wins > 0) {
				t.Errorf("%s half: %s: %d shuffled summaries do not tie", h.name, m, sh[k].Losses+sh[k].Wins)
			}
		}
		if unjudged := len(v.Skipped) + len(v.NotEnough); float64(unjudged) >= maxHeldOutUnjudged*float64(len(h.ins)) {
			t.Errorf("%s half: %d of %d compactions are not judged (skipped %v, not enough to judge %v), want fewer than %.0f%%", h.name, unjudged, len(h.ins), v.Skipped, v.NotEnough, 100*maxHeldOutUnjudged)
		}
	}
	if *update {
		if err := writeGenerated(validityPage, page.String()); err != nil {
			t.Fatal(err)
		}
	}
}

// formatProjects renders, per project of h, its compactions, those not enough to judge, and
// the wins of the applicable pairs on each measure over every ablation but the shuffle.
func formatProjects(h *half, v Validity, repoOf map[string]string) string {
	project := projectOfCase(repoOf)
	type row struct {
		compactions, notEnough int
		t                      [measureCount]Tally
	}
	rows := map[string]*row{}
	get := func(p string) *row {
		if rows[p] == nil {
			rows[p] = &row{}
		}
		return rows[p]
	}
	for _, in := range h.ins {
		get(project(in.ID)).compactions++
	}
	for _, id := range v.NotEnough {
		get(project(id)).notEnough++
	}
	for p, t := range ProjectTallies(v.Pairs, project) {
		get(p).t = *t
	}
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("| project | compactions | not enough to judge | coverage | boundary coverage | weighted coverage | weighted boundary | score |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, n := range names {
		r := rows[n]
		fmt.Fprintf(&b, "| %s | %d | %d |", n, r.compactions, r.notEnough)
		for k := range r.t {
			rate := r.t[k].Rate()
			if x, ok := rate.Value(); ok {
				fmt.Fprintf(&b, " %.1f%% (%d/%d) |", 100*x, rate.Hit, rate.Of)
			} else {
				b.WriteString(" - |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// projectOfCase returns the project of a compaction id (FILE#...): the repository
// sources lists for FILE, or "(unlisted)".
func projectOfCase(repoOf map[string]string) func(id string) string {
	return func(id string) string {
		file := id
		if j := strings.IndexByte(id, '#'); j >= 0 {
			file = id[:j]
		}
		if r := repoOf[file]; r != "" {
			return r
		}
		return "(unlisted)"
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

const (
	generatedBegin = "<!-- BEGIN generated by go test ./eval -run TestValidityReal -update: do not edit -->\n"
	generatedEnd   = "<!-- END generated -->\n"
)

// writeGenerated replaces the text between the generated markers of the page at path.
func writeGenerated(path, text string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(old)
	i, j := strings.Index(s, generatedBegin), strings.Index(s, generatedEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no generated block (%q ... %q)", path, strings.TrimSpace(generatedBegin), strings.TrimSpace(generatedEnd))
	}
	out := s[:i+len(generatedBegin)] + text + s[j:]
	return atomicfile.Write(path, []byte(out), 0o644)
}
