package compact

import "strings"

// The profiles in this file reproduce other agents' summary extractors, written from a
// reading of their public sources (no code copied). Each is JavaScript upstream; the Go
// versions keep JavaScript's semantics: a replace without /g touches only the first match,
// /i folds ASCII letters only, a string replacement expands $$, $&, $` and $', and trim is
// TrimJS. TestProfilesAgreeWithJS checks them against the same regular expressions run by
// Node, and make peers (scripts/peers) checks the claude-code ones against the formatters
// that Claude Code's npm packages of those versions ship.
//
// A profile of another agent names the version it reproduces (claude-code@2.1.88); the
// bare name is an alias of the newest verified version (see Lookup), and every version
// stays, with its goldens.

func init() {
	register(Extractor{
		Name: "claude-code@2.1.88",
		Source: "formatCompactSummary of Claude Code 2.1.88 (cli.js of the npm package " +
			"@anthropic-ai/claude-code@2.1.88; make peers runs it)",
		Extract: ExtractClaudeCode,
	})
	register(Extractor{
		Name: "claude-code@2.1.332",
		Source: "formatCompactSummary of Claude Code 2.1.332 (the JavaScript bundled in the binary of the npm package " +
			"@anthropic-ai/claude-code-linux-x64@2.1.332; make peers runs it), with the agent's refusal of an answer without a summary block",
		Extract: ExtractClaudeCodeSearch,
	})
	register(Extractor{
		Name: "windmill@67ef1eb",
		Source: "formatCompactSummary, windmill-labs/windmill " +
			"frontend/src/lib/components/copilot/chat/compactionPrompt.ts at 67ef1eb04ecfc60dd30d8662a5eef8a8ffba8a70",
		Extract: ExtractWindmill,
	})
	register(Extractor{
		Name: "windmill@10cd0dc",
		Source: "formatCompactSummary, windmill-labs/windmill " +
			"frontend/src/lib/components/copilot/chat/compactionPrompt.ts at 10cd0dc8dfe9bcc228c6f44cd3725483d903db0a",
		Extract: ExtractWindmillGreedy,
	})
	alias("claude-code", "claude-code@2.1.332", "claude-code@2.1.88")
	alias("windmill", "windmill@10cd0dc", "windmill@67ef1eb")
	register(Extractor{
		Name: "vscode",
		Source: "extractInlineSummary, microsoft/vscode-copilot-chat " +
			"src/extension/prompts/node/agent/summarizedConversationHistory.tsx (2026 inline-summarization version)",
		Extract: ExtractVSCode,
	})
	register(Extractor{
		Name: "dust",
		Source: "extractSummary, dust-tt/dust front/temporal/agent_loop/lib/compaction.ts " +
			"(as mirrored at HomeIncorporated/dust ad6ad75c7fa8fb9b22c00b0a006158b1eba2f609)",
		Extract: ExtractDust,
	})
	register(Extractor{
		Name:    "plain",
		Source:  "no tag parsing: the whole answer, trimmed (pi's own compaction, opencode, crush, codex)",
		Extract: ExtractPlain,
	})
}

// ExtractClaudeCode is Claude Code 2.1.88's formatCompactSummary: it removes the first
// <analysis>...</analysis> block (lazy), replaces the first <summary>...</summary> block
// (lazy) with "Summary:\n" and the block's trimmed content, keeps the text around the tags,
// collapses each run of two or more newlines to two, and trims. The result is not found
// when it is empty. Tags are case-sensitive.
//
// Reproduced quirk: the replacement is a JavaScript replacement string, so "$&", "$`", "$'"
// and "$$" inside the summary expand to the matched block, the text before it, the text
// after it and "$". A summary quoting shell ("$$", "$'...'") is changed, and one holding many
// "$&" grows with the square of its length.
//
// Unlike upstream, the growth is bounded (see MaxOutput): when expanding the next "$"
// sequence would make the replacement longer than MaxOutput bytes or twice len(text),
// whichever is larger, the expansion stops there and the rest of the summary's content is
// kept as written, "$&" and all; Capped is then true. Up to that point the output is
// upstream's, byte for byte; no input below the bound differs.
func ExtractClaudeCode(text string) Extraction {
	s := replaceFirstBlock(text, "<analysis>", "</analysis>", false, func(string, string, string) string { return "" })
	path := PathWhole
	capped := false
	limit := max(MaxOutput, 2*len(text))
	s = replaceFirstBlock(s, "<summary>", "</summary>", false, func(match, before, after string) string {
		path = PathBlock
		content := match[len("<summary>") : len(match)-len("</summary>")]
		var out string
		out, capped = expandJSReplacement("Summary:\n"+TrimJS(content), match, before, after, limit)
		return out
	})
	s = TrimJS(collapseNewlines(s, 2))
	return Extraction{Summary: s, OK: s != "", Path: path, Capped: capped}
}

// ExtractClaudeCodeSearch is Claude Code 2.1.332's formatCompactSummary and the check its
// agent makes before it accepts a compaction. The first analysis block (the first
// "<analysis>" and the first "</analysis>" after it) is removed, unless a "<summary>" comes
// before it. Then, when neither a closed summary block (the first "<summary>" and the first
// "</summary>" after it) nor a line that begins with "<summary>" (after spaces and tabs) is
// left, the agent refuses the answer: the result is not found, with Path PathRefused.
// Otherwise the first closed block is replaced by "Summary:\n" and its trimmed content,
// written as it is (no "$&" expansion); the text around it is kept, each run of two or more
// newlines collapsed to two, and the whole trimmed. Empty means not found. Tags are
// case-sensitive.
//
// Reproduced on purpose: an opener at the start of a line without a closer is accepted, and
// the answer is then kept whole, tag included; a block with nothing in it gives "Summary:".
func ExtractClaudeCodeSearch(text string) Extraction {
	s := text
	if start, end, ok := findBlock(s, "<analysis>", "</analysis>", false, 0); ok && !strings.Contains(s[:start], "<summary>") {
		s = s[:start] + s[end:]
	}
	start, end, closed := findBlock(s, "<summary>", "</summary>", false, 0)
	if !closed && !hasLineOpener(s, "<summary>") {
		return Extraction{Path: PathRefused}
	}
	path := PathWhole
	if closed {
		s = s[:start] + "Summary:\n" + TrimJS(s[start+len("<summary>"):end-len("</summary>")]) + s[end:]
		path = PathBlock
	}
	s = TrimJS(collapseNewlines(s, 2))
	return Extraction{Summary: s, OK: s != "", Path: path}
}

// hasLineOpener reports whether a line of s begins with tag after spaces and tabs: the
// JavaScript /^[ \t]*tag/m, whose ^ follows "\n", "\r", U+2028 or U+2029 (not U+0085).
func hasLineOpener(s, tag string) bool {
	for i := strings.Index(s, tag); i >= 0; {
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j == 0 || s[j-1] == '\n' || s[j-1] == '\r' ||
			j >= 3 && s[j-3] == 0xe2 && s[j-2] == 0x80 && (s[j-1] == 0xa8 || s[j-1] == 0xa9) {
			return true
		}
		k := strings.Index(s[i+1:], tag)
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// MaxOutput bounds ExtractClaudeCode's reproduction of JavaScript's replacement-string
// expansion: the expanded summary block may reach MaxOutput bytes or twice the input's
// length, whichever is larger, and no more. Upstream has no bound (30 KB of "$&" in a
// summary block expands to about 450 MB there); 4 MiB is far above what a summary quoting
// a few "$" sequences reaches, and every input of the differential test stays below it.
const MaxOutput = 4 << 20

// ExtractWindmill is Windmill's formatCompactSummary at 67ef1eb: it removes every analysis block
// (lazy, case-insensitive); takes the trimmed content of the first summary block (lazy,
// case-insensitive), or with no closed block the text from the first opener on (opener
// included), or with no opener the text as it is; then removes every <analysis>,
// </analysis>, <summary> and </summary> tag (case-insensitive), collapses runs of three or
// more newlines to two, and trims. Empty means not found.
func ExtractWindmill(text string) Extraction {
	s := removeAllBlocks(text, "<analysis>", "</analysis>", true)
	path := PathWhole
	if start, end, ok := findBlock(s, "<summary>", "</summary>", true, 0); ok {
		s = TrimJS(s[start+len("<summary>") : end-len("</summary>")])
		path = PathBlock
	} else if i := indexFold(s, "<summary>", 0); i >= 0 {
		s = s[i:]
		path = PathOpenerToEnd
	}
	return windmillTidy(s, path)
}

// windmillTidy is the end of both Windmill formatters: every remaining analysis and
// summary tag removed (case-insensitive), runs of blank lines collapsed, the text trimmed.
func windmillTidy(s string, path Path) Extraction {
	for _, tag := range []string{"<analysis>", "</analysis>", "<summary>", "</summary>"} {
		s = removeAllFold(s, tag)
	}
	s = TrimJS(collapseNewlines(s, 3))
	return Extraction{Summary: s, OK: s != "", Path: path}
}

// ExtractWindmillGreedy is Windmill's formatCompactSummary at 10cd0dc, where the summary
// match became greedy: as ExtractWindmill, but the block runs from the first summary opener
// to the last closer after it (case-insensitive), so a summary that quotes "</summary>" is
// kept whole, the quoted tags removed.
func ExtractWindmillGreedy(text string) Extraction {
	s := removeAllBlocks(text, "<analysis>", "</analysis>", true)
	path := PathWhole
	if i := indexFold(s, "<summary>", 0); i >= 0 {
		if j := lastIndexFold(s, "</summary>", i+len("<summary>")); j >= 0 {
			s = TrimJS(s[i+len("<summary>") : j])
			path = PathBlock
		} else {
			s = s[i:]
			path = PathOpenerToEnd
		}
	}
	return windmillTidy(s, path)
}

// ExtractVSCode is VS Code Copilot Chat's extractInlineSummary: the text between the first
// "<summary>" and the first "</summary>" after it, or everything after the opener when no
// closer follows, trimmed. Without an opener there is no summary. Tags are case-sensitive.
//
// Reproduced quirk: an opener with nothing after it gives OK with an empty summary, as
// upstream returns "" (not undefined) and its caller applies it.
func ExtractVSCode(text string) Extraction {
	i := strings.Index(text, "<summary>")
	if i < 0 {
		return Extraction{Path: PathNone}
	}
	rest := text[i+len("<summary>"):]
	if j := strings.Index(rest, "</summary>"); j >= 0 {
		return Extraction{Summary: TrimJS(rest[:j]), OK: true, Path: PathBlock}
	}
	return Extraction{Summary: TrimJS(rest), OK: true, Path: PathOpenerToEnd}
}

// ExtractDust is Dust's extractSummary: the trimmed content of the first summary block
// (lazy, case-sensitive), otherwise the whole text trimmed (analysis included). Empty means
// not found.
func ExtractDust(text string) Extraction {
	if start, end, ok := findBlock(text, "<summary>", "</summary>", false, 0); ok {
		s := TrimJS(text[start+len("<summary>") : end-len("</summary>")])
		return Extraction{Summary: s, OK: s != "", Path: PathBlock}
	}
	s := TrimJS(text)
	return Extraction{Summary: s, OK: s != "", Path: PathWhole}
}

// ExtractPlain parses no tags: the whole answer, trimmed; empty means not found. It is what
// agents that ask for an untagged summary do (pi, opencode, crush, codex).
func ExtractPlain(text string) Extraction {
	s := TrimJS(text)
	return Extraction{Summary: s, OK: s != "", Path: PathWhole}
}

// findBlock finds the leftmost match of the JavaScript pattern open[\s\S]*?close at or
// after from: the first opener that has a closer after it, with the first such closer. It
// returns the match's bounds. As every later opener has fewer closers after it, the first
// opener decides.
func findBlock(s, open, close string, fold bool, from int) (start, end int, ok bool) {
	i := index(s, open, from, fold)
	if i < 0 {
		return 0, 0, false
	}
	j := index(s, close, i+len(open), fold)
	if j < 0 {
		return 0, 0, false
	}
	return i, j + len(close), true
}

// replaceFirstBlock is s.replace(/open[\s\S]*?close/, fn) for one match (no /g).
func replaceFirstBlock(s, open, close string, fold bool, fn func(match, before, after string) string) string {
	start, end, ok := findBlock(s, open, close, fold, 0)
	if !ok {
		return s
	}
	return s[:start] + fn(s[start:end], s[:start], s[end:]) + s[end:]
}

// removeAllBlocks is s.replace(/open[\s\S]*?close/g, ""): matches are found left to right,
// each search starting where the previous match ended.
func removeAllBlocks(s, open, close string, fold bool) string {
	var b strings.Builder
	pos := 0
	for {
		start, end, ok := findBlock(s, open, close, fold, pos)
		if !ok {
			break
		}
		b.WriteString(s[pos:start])
		pos = end
	}
	if pos == 0 {
		return s
	}
	b.WriteString(s[pos:])
	return b.String()
}

// removeAllFold removes every ASCII-case-insensitive occurrence of tag.
func removeAllFold(s, tag string) string {
	var b strings.Builder
	pos := 0
	for {
		i := indexFold(s, tag, pos)
		if i < 0 {
			break
		}
		b.WriteString(s[pos:i])
		pos = i + len(tag)
	}
	if pos == 0 {
		return s
	}
	b.WriteString(s[pos:])
	return b.String()
}

func index(s, sub string, from int, fold bool) int {
	if fold {
		return indexFold(s, sub, from)
	}
	i := strings.Index(s[from:], sub)
	if i < 0 {
		return -1
	}
	return from + i
}

// indexFold returns the first index at or after from where s holds sub with ASCII letters
// compared case-insensitively, as a JavaScript /i pattern without the u flag does for an
// ASCII pattern (a non-ASCII letter never matches an ASCII one there). sub must be ASCII.
//
// Every tag the profiles look for starts with a byte that is no letter ('<', '['), which
// matches only itself: the scan jumps from one such byte to the next (strings.IndexByte)
// instead of comparing at every index, which made the Windmill profiles the most of a run.
func indexFold(s, sub string, from int) int {
	n := len(sub)
	if n == 0 || isASCIILetter(sub[0]) {
		for i := from; i+n <= len(s); i++ {
			if asciiEqualFold(s[i:i+n], sub) {
				return i
			}
		}
		return -1
	}
	for i := from; i+n <= len(s); i++ {
		j := strings.IndexByte(s[i:len(s)-n+1], sub[0])
		if j < 0 {
			return -1
		}
		i += j
		if asciiEqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

// lastIndexFold is the last index at or after from where s holds sub, compared as
// indexFold does, or -1.
func lastIndexFold(s, sub string, from int) int {
	n := len(sub)
	if n == 0 || isASCIILetter(sub[0]) {
		for i := len(s) - n; i >= from; i-- {
			if asciiEqualFold(s[i:i+n], sub) {
				return i
			}
		}
		return -1
	}
	for end := len(s) - n + 1; end > from; {
		i := strings.LastIndexByte(s[from:end], sub[0])
		if i < 0 {
			return -1
		}
		i += from
		if asciiEqualFold(s[i:i+n], sub) {
			return i
		}
		end = i
	}
	return -1
}

func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// collapseNewlines replaces each run of at least min "\n" with "\n\n" (the JavaScript
// replace(/\n{min,}/g, "\n\n")).
func collapseNewlines(s string, min int) string {
	if !strings.Contains(s, strings.Repeat("\n", min)) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '\n' {
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteString(s[i : i+j])
			i += j
			continue
		}
		j := i
		for j < len(s) && s[j] == '\n' {
			j++
		}
		if j-i >= min {
			b.WriteString("\n\n")
		} else {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}

// expandJSReplacement expands a JavaScript replacement string for a pattern without capture
// groups: $$ is $, $& the match, $` the text before it, $' the text after it. Other $
// sequences ($1, $<name>) stay as written, as no group exists. When expanding the next
// sequence would take the result past limit bytes, the rest of repl is appended as written
// and capped is true.
func expandJSReplacement(repl, match, before, after string, limit int) (out string, capped bool) {
	if !strings.Contains(repl, "$") {
		return repl, false
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		if repl[i] != '$' || i+1 == len(repl) {
			b.WriteByte(repl[i])
			continue
		}
		var add string
		switch repl[i+1] {
		case '$':
			add = "$"
		case '&':
			add = match
		case '`':
			add = before
		case '\'':
			add = after
		default:
			b.WriteByte('$')
			continue
		}
		if b.Len()+len(add) > limit {
			b.WriteString(repl[i:])
			return b.String(), true
		}
		b.WriteString(add)
		i++
	}
	return b.String(), false
}
