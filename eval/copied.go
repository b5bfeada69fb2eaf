package eval

import (
	"strings"
	"unicode"

	"github.com/compacteval/compacteval/corpus"
)

// CopyRun is the length in words of the shortest run a summary shares with an assistant or
// tool message that counts as copied text.
const CopyRun = 12

// copySource holds what a summary must not copy from some messages: the hashes of every
// run of CopyRun words and of every whole line (normalized, 12 characters or more).
type copySource struct {
	runs, lines map[uint64]struct{}
}

// copySources holds the assistant and tool messages (text and tool call inputs) apart from
// the user's: the instruction asks for the user's messages and for their security
// constraints word for word, so a quote of the user's words is no copy, and only a user's
// line copied whole outside the sections that list them is.
type copySources struct {
	others, user copySource
}

func newCopySources(msgs []corpus.Message) copySources {
	s := copySources{
		others: copySource{map[uint64]struct{}{}, map[uint64]struct{}{}},
		user:   copySource{map[uint64]struct{}{}, map[uint64]struct{}{}},
	}
	for _, m := range msgs {
		dst, runs := s.others, m.Role != corpus.RoleUser
		if !runs {
			dst = s.user
		}
		dst.add(m.Text, runs)
		for _, tc := range m.ToolCalls {
			dst.add(tc.Input, runs)
		}
	}
	return s
}

func (c copySource) add(text string, runs bool) {
	for line := range strings.SplitSeq(text, "\n") {
		if n := normText(line); len(n) >= minCopiedLine {
			c.lines[hashString(n)] = struct{}{}
		}
	}
	if !runs {
		return
	}
	words := strings.Fields(normText(text))
	for i := 0; i+CopyRun <= len(words); i++ {
		c.runs[hashWords(words[i:i+CopyRun])] = struct{}{}
	}
}

// quotable reports whether a line is an error message, which a summary is asked to quote
// exactly: copying one is no copying of the conversation.
func quotable(line string) bool {
	_, _, ok := errorKeys(strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "-*>•`")))
	return ok
}

// minCopiedLine is the shortest normalized line that counts as copied when a message has
// it whole.
const minCopiedLine = 12

// hashString is FNV-1a (hash/fnv's New64a) of s, without allocating.
func hashString(s string) uint64 {
	return fnvAdd(fnvOffset, s)
}

// hashWords is FNV-1a of the words, each followed by a zero byte.
func hashWords(words []string) uint64 {
	h := uint64(fnvOffset)
	for _, w := range words {
		h = fnvAdd(h, w)
		h *= fnvPrime // h ^= 0
	}
	return h
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// maskCopied returns line without its copied words: all of them when an assistant or tool
// message has the whole line (or a user message has it and the line is not in a
// userSection, where the summary lists the user's messages or constraints), else those in
// a run of CopyRun or more words shared with an assistant or tool message. The gaps become
// line breaks so that no fact matches across them. With quotes, an error message in a
// longer line is not masked: a summary is asked to quote errors exactly. It also returns how many words were copied of how many. The result depends
// on the line alone (and the headings above it), so removing other lines never changes it.
func (s copySources) maskCopied(line string, userSection, quotes bool) (kept string, copied, words int) {
	type field struct {
		start, end int
		norm       string
	}
	var fs []field
	start := -1
	addField := func(end int) {
		if n := normText(line[start:end]); n != "" {
			fs = append(fs, field{start, end, n})
		}
		start = -1
	}
	for i, r := range line {
		if unicode.IsSpace(r) {
			if start >= 0 {
				addField(i)
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		addField(len(line))
	}
	if n := normText(line); len(n) >= minCopiedLine {
		h := hashString(n)
		_, ok := s.others.lines[h]
		if !ok && !userSection {
			_, ok = s.user.lines[h]
		}
		if ok {
			return "", len(fs), len(fs)
		}
	}
	if len(fs) < CopyRun || quotes && quotable(line) {
		return line, 0, len(fs)
	}
	covered := make([]bool, len(fs))
	for i := 0; i+CopyRun <= len(fs); i++ {
		h := uint64(fnvOffset) // hashWords of the run's words
		for _, f := range fs[i : i+CopyRun] {
			h = fnvAdd(h, f.norm) * fnvPrime
		}
		if _, ok := s.others.runs[h]; ok {
			for k := i; k < i+CopyRun; k++ {
				covered[k] = true
			}
		}
	}
	var b strings.Builder
	prevEnd := 0
	for i, f := range fs {
		if covered[i] {
			copied++
			if prevEnd >= 0 {
				b.WriteString(line[prevEnd:f.start])
				b.WriteByte('\n')
			}
			prevEnd = -1
			continue
		}
		if prevEnd < 0 {
			prevEnd = f.start
		}
	}
	if copied == 0 {
		return line, 0, len(fs)
	}
	if prevEnd >= 0 {
		b.WriteString(line[prevEnd:])
	}
	return b.String(), copied, len(fs)
}
