package eval

import (
	"math"
	"sort"
)

// weigh sets the Weight of each fact said before cut: 1 + ln(N/n), where N is the number
// of messages before cut that hold a fact and n the number of them that hold this one
// (an inverse document frequency over the session's messages), times the fact's weight
// across sessions when sessions is not nil; rounded to four decimals. A fact every
// message mentions weighs 1; one said in a single message of many weighs most. Facts of
// the kept tail alone weigh 0. The weights depend on the conversation (and the sessions
// scored with it) only, never on the summary, so the measures stay monotone.
func weigh(facts []Fact, cut int, sessions *SessionFrequency) {
	msgs := map[int]bool{}
	for i := range facts {
		for _, m := range facts[i].in {
			if m < cut {
				msgs[m] = true
			}
		}
	}
	n := float64(len(msgs))
	for i := range facts {
		df := 0
		for _, m := range facts[i].in {
			if m < cut {
				df++
			}
		}
		facts[i].Weight = 0
		if df > 0 {
			facts[i].Weight = round4((1 + math.Log(n/float64(df))) * sessions.weight(&facts[i]))
		}
	}
}

// SessionFrequency counts, over sessions scored together (the sessions of a project),
// how many mention each fact before their cut: a fact that every session of a project
// mentions (its repository, its main module) tells little about any one of them. Set
// Options.Sessions to it and each fact's weight is multiplied by 1 + ln(S/s), S the
// sessions counted and s those that mention it. The zero value and nil weigh every fact 1.
type SessionFrequency struct {
	sessions int
	count    map[string]int // kind, NUL, key: sessions that mention the fact
}

// NewSessionFrequency counts the facts of ins by session: the inputs read from one file
// (Input.Source without its :LINE, or the ID when there is no Source) are one session, so
// that several compactions of a session count it once. Secrets are removed with
// opt.Redact first, as Score does.
func NewSessionFrequency(ins []Input, opt Options) *SessionFrequency {
	bySession := map[string]map[string]bool{}
	for _, in := range ins {
		name := sessionOf(in.Source)
		if in.Source == "" {
			name = in.ID
		}
		seen := bySession[name]
		if seen == nil {
			seen = map[string]bool{}
			bySession[name] = seen
		}
		conv, _ := redactMessages(in.Conversation, opt.Redact)
		cut := in.Cut
		if cut < 0 {
			cut = Boundary(in.Conversation, opt.keepTokens())
		}
		for _, f := range Facts(conv, in.Probes) {
			if f.in[0] < cut {
				seen[f.Kind+"\x00"+f.key] = true
			}
		}
	}
	s := &SessionFrequency{sessions: len(bySession), count: map[string]int{}}
	names := make([]string, 0, len(bySession))
	for n := range bySession {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for k := range bySession[n] {
			s.count[k]++
		}
	}
	return s
}

// Sessions returns the number of sessions counted.
func (s *SessionFrequency) Sessions() int {
	if s == nil {
		return 0
	}
	return s.sessions
}

// weight returns 1 + ln(S/s) for fact f: 1 for a fact every session mentions, or one
// that none of those counted does (a session scored that was not counted).
func (s *SessionFrequency) weight(f *Fact) float64 {
	if s == nil || s.sessions == 0 {
		return 1
	}
	c := s.count[f.Kind+"\x00"+f.key]
	if c == 0 {
		return 1
	}
	return 1 + math.Log(float64(s.sessions)/float64(c))
}
