package compact

import (
	"sort"
	"strings"
)

// Extractor is a named extraction profile: the seed port, or another agent's behaviour that
// compacteval compares with it.
type Extractor struct {
	// Name is the profile's name on the command line, in goldens and in reports. A profile
	// of another agent names the version it reproduces after an "@" (claude-code@2.1.88);
	// the bare name is an alias of the newest verified version (see Lookup).
	Name string
	// Source says where the behaviour comes from (repository, path, version).
	Source string
	// Extract returns the extraction for a model response.
	Extract func(text string) Extraction
}

var (
	profiles = map[string]Extractor{}
	// aliases maps a bare agent name to its newest verified version.
	aliases = map[string]string{}
	// legacy maps a bare name to the version it named before profiles named their version:
	// a report written then says "claude-code" for what is now claude-code@2.1.88.
	legacy = map[string]string{}
)

func register(e Extractor) {
	if _, dup := profiles[e.Name]; dup {
		panic("compact: extractor registered twice: " + e.Name)
	}
	profiles[e.Name] = e
}

func init() {
	register(Extractor{
		Name:    "seed",
		Source:  "../shared/seed/compaction.ts extractSummary (the module this package ports)",
		Extract: Extract,
	})
}

// alias makes name (an agent without a version) stand for the profile target, and records
// the version that name meant before profiles named their version.
func alias(name, target, before string) {
	if _, ok := profiles[target]; !ok {
		panic("compact: alias of an unregistered extractor: " + target)
	}
	if _, ok := profiles[before]; !ok {
		panic("compact: legacy name of an unregistered extractor: " + before)
	}
	aliases[name] = target
	legacy[name] = before
}

// Lookup returns the extractor named name. A bare agent name is an alias of its newest
// verified version: Lookup("claude-code") returns claude-code@2.1.332, whose Name says so.
func Lookup(name string) (Extractor, bool) {
	if target, ok := aliases[name]; ok {
		name = target
	}
	e, ok := profiles[name]
	return e, ok
}

// Alias returns the profile that the bare name stands for, and false when name is no alias.
func Alias(name string) (string, bool) {
	target, ok := aliases[name]
	return target, ok
}

// AliasNames returns the aliases, sorted.
func AliasNames() []string {
	names := make([]string, 0, len(aliases))
	for name := range aliases {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// LegacyName returns the versioned name that name meant in documents written before
// profiles named their version ("claude-code" was claude-code@2.1.88, "windmill" was
// windmill@67ef1eb), and false for any other name. A report never records a bare name
// now, so a bare name in one is always such an old name.
func LegacyName(name string) (string, bool) {
	v, ok := legacy[name]
	return v, ok
}

// Family returns the agent a profile name belongs to: the name before its "@", or the
// whole name when it has no version.
func Family(name string) string {
	family, _, _ := strings.Cut(name, "@")
	return family
}

// Extractors returns every extractor, sorted by name with seed first; aliases are not in it
// (each version of an agent is).
func Extractors() []Extractor {
	out := make([]Extractor, 0, len(profiles))
	for _, e := range profiles {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i].Name == "seed") != (out[j].Name == "seed") {
			return out[i].Name == "seed"
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// ExtractorNames returns the names of Extractors, in the same order, without the aliases.
func ExtractorNames() []string {
	var names []string
	for _, e := range Extractors() {
		names = append(names, e.Name)
	}
	return names
}

// Names returns ExtractorNames followed by the aliases: every name Lookup knows.
func Names() []string {
	return append(ExtractorNames(), AliasNames()...)
}

// NameHelp lists the names for a usage text: every profile, then what each alias stands
// for ("seed, ..., windmill@67ef1eb; claude-code is claude-code@2.1.332, ...").
func NameHelp() string {
	var as []string
	for _, a := range AliasNames() {
		as = append(as, a+" is "+aliases[a])
	}
	return strings.Join(ExtractorNames(), ", ") + "; " + strings.Join(as, ", ")
}
