// robust.ts: compacteval's robust summary extractor as a drop-in replacement for
// `extractSummary` of the seed compaction module (../shared/seed/compaction.ts):
//
//     import { extractSummary } from "./robust";
//
// It is the TypeScript twin of compacteval's Go `compact.ExtractRobust` (compact/robust.go,
// robust_scan.go and a file per rule, robust_rule_*.go), whose policy docs/robust.md states
// rule by rule; the two are held equal by a differential test (compact/robust_ts_test.go) on
// the corpus, the drift matrix and generated inputs. It has no dependencies and runs in time
// linear in the length of the text.
// The npm package @compacteval/robust (npm/robust, make npm-robust) is this file, types stripped.
//
// On a well-formed answer (an analysis block, then one summary block, tags alone on their
// lines) it returns exactly what the seed's extractSummary returns. Otherwise it never loses
// a summary a careful reader sees (tags in any letter case, with attributes or spaces, one
// letter misspelled, right after a closing tag or after prose on a line; untagged answers
// return their text minus analysis), and never returns the text of a closed analysis block
// or a bare tag. It returns undefined where there is no summary.
//
// For speed (docs/robust.md measures it beside the Go robust) the text is read with
// charCodeAt at integer indices, lines and trimmed ends are index ranges, and a string is
// sliced only to make a candidate's body: no regular expression runs per tag, and one runs
// per line only on a line of over 256 characters that may be a row of tags (tagShapedOnly).

// Plain const objects rather than const enums, so Node's type stripping runs this file.
const Kind = { Opener: 0, Closer: 1 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const Name = { Summary: 1, Analysis: 2, Think: 3, Example: 4 } as const;
type Name = (typeof Name)[keyof typeof Name];

// How many blocks may end at a fallback closer: each such block has scanned to the end.
const MAX_FALLBACKS = 8;
// Scan.blockEndLoop's answer where a tag ends the block.
const ENDED = -2;

const AT_LINE_START = 1;
const AT_LINE_END = 2;
const IN_CODE = 4;
const AFTER_CLOSER = 8;
const IN_ANALYSIS = 16; // inside an analysis block (Scan.regions)
const DETAILS_READ = 32; // AFTER_DETAILS is known (Scan.afterDetails)
const AFTER_DETAILS = 64;



// NextTags: for each tag index i, the index of the first tag at or after i that is a
// structural analysis or think closer, any such closer, a summary opener that opens a block,
// an example closer, a structural summary closer (Scan.regions; tags.n for none).
interface NextTags {
	nextStruct: Int32Array;
	nextAny: Int32Array;
	nextSummary: Int32Array;
	nextExample: Int32Array;
	nextSumClose: Int32Array;
}

interface Candidate {
	body: string;
	closed: boolean;
	sections: number; // sectionCount(body), -1 until beats asks
	start: number;
}

// Character codes the scan compares with.
const LT = 60; // <
const GT = 62; // >
const SLASH = 47;
const TICK = 96; // `
const TILDE = 126;
const NL = 10;
const CR = 13;
const NEL = 0x85;
const LS = 0x2028;
const PS = 0x2029;

// at returns xs[i]; every caller indexes within bounds, so undefined is a broken invariant.
function at<T>(xs: ArrayLike<T>, i: number): T {
	const x = xs[i];
	return x === undefined ? outOfRange(i, xs.length) : x;
}

// at32 is at for an Int32Array: each kind of array its own function, so that the JIT reads
// each with one kind of load.
function at32(xs: Int32Array, i: number): number {
	const x = xs[i];
	return x === undefined ? outOfRange(i, xs.length) : x;
}

function at8(xs: Uint8Array, i: number): number {
	const x = xs[i];
	return x === undefined ? outOfRange(i, xs.length) : x;
}

function outOfRange(i: number, n: number): never {
	throw new RangeError(`robust: index ${i} out of range [0, ${n})`);
}

// isJSSpace: what String.prototype.trim removes. NaN (a read past the end) is no space.
function isJSSpace(c: number): boolean {
	if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
	return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === LS || c === PS || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

// Go's unicode.IsSpace, which strings.TrimSpace uses on the Go side: JavaScript's set
// without U+FEFF, with U+0085.
function isGoSpace(c: number): boolean {
	return c === NEL || (c !== 0xfeff && isJSSpace(c));
}

function invisible(c: number): boolean {
	return isJSSpace(c) || c === 0x200b || c === 0x200c || c === 0x200d || c === 0x2060 || c === 0x180e || c === NEL;
}

// The sets the trims take: JavaScript's trim, Go's TrimSpace, invisible characters, and
// invisible characters but U+0085 (robust's trim where U+0085 is a character).
const JS = 0;
const GO = 1;
const INVISIBLE = 2;
const INVISIBLE_NOT_NEL = 3;
type Trimmed = typeof JS | typeof GO | typeof INVISIBLE | typeof INVISIBLE_NOT_NEL;

function inSet(c: number, set: Trimmed): boolean {
	switch (set) {
		case JS:
			return isJSSpace(c);
		case GO:
			return isGoSpace(c);
		case INVISIBLE:
			return invisible(c);
		default:
			return c !== NEL && invisible(c);
	}
}

// SPACES is a run of spaces that spacesBefore compares at once.
const SPACES = " ".repeat(64);

// spacesBefore returns j moved back over the runs of SPACES that end s[i:j]: a text that
// ends in many thousands of spaces (a model padding its answer) is trimmed by comparisons
// of 64 characters, each a memory comparison, not a character at a time.
function spacesBefore(s: string, i: number, j: number): number {
	while (j - i >= SPACES.length && s.endsWith(SPACES, j)) j -= SPACES.length;
	return j;
}

// trimStart and trimEnd return the ends of s[i:j] trimmed of set. A printable ASCII
// character, where most trims stop, is in no set: it ends the trim without the set's tests.
// A space is in every set: trimEnd passes a long run of them at the end by spacesBefore.
function trimStart(s: string, i: number, j: number, set: Trimmed): number {
	for (let c = s.charCodeAt(i); i < j && !(c > 32 && c < 0x7f) && inSet(c, set); c = s.charCodeAt(++i));
	return i;
}

function trimEnd(s: string, i: number, j: number, set: Trimmed): number {
	for (let c = s.charCodeAt(j - 1); j > i && !(c > 32 && c < 0x7f) && inSet(c, set); c = s.charCodeAt(--j - 1))
		if (c === 32 && s.charCodeAt(j - SPACES.length) === 32) j = spacesBefore(s, i, j - 1) + 1; // then past the space at j - 1
	return j;
}

function trimSet(s: string, set: Trimmed): string {
	const j = trimEnd(s, 0, s.length, set);
	return s.slice(trimStart(s, 0, j, set), j);
}

function onlyInvisible(s: string, i: number, j: number): boolean {
	return trimStart(s, i, j, INVISIBLE) === j;
}

function lowerASCII(c: number): number {
	return c >= 65 && c <= 90 ? c + 32 : c;
}

function isASCIILetter(c: number): boolean {
	return ((c | 0x20) - 97) >>> 0 < 26; // c | 0x20 is a lower-case letter only for a letter
}

// foldAt reports whether s holds p at i, ASCII letters in any case.
function foldAt(s: string, i: number, p: string): boolean {
	if (i + p.length > s.length) return false;
	for (let k = 0; k < p.length; k++) if (lowerASCII(s.charCodeAt(i + k)) !== lowerASCII(p.charCodeAt(k))) return false;
	return true;
}

// equalFoldAt reports whether s[i:j] is p, ASCII letters in any case.
const equalFoldAt = (s: string, i: number, j: number, p: string): boolean => j - i === p.length && foldAt(s, i, p);

// indexBracketCloser returns the index of the first "[/summary]", in any ASCII case, at or
// after from, or -1. Its first two characters and its last have no case, so it goes from
// one '/' to the next, as the Go side does, and compares around each, the ']' first (a
// near-miss closer fails there): a case-insensitive regular expression compares at every
// character (80% of the time of a text of [summary] lines), and indexOf("[/") stops at
// every '['.
function indexBracketCloser(s: string, from: number): number {
	for (let i = s.indexOf("/", from + 1); i >= 0; i = s.indexOf("/", i + 1))
		if (s.charCodeAt(i + 8) === 93 && s.charCodeAt(i - 1) === 91 && foldAt(s, i - 1, "[/summary]")) return i - 1;
	return -1;
}

// countUpTo returns the number of non-overlapping sub in s from index from, counting no
// further than max.
function countUpTo(s: string, sub: string, from: number, max: number): number {
	let n = 0;
	for (let i = s.indexOf(sub, from); i >= 0 && n < max; i = s.indexOf(sub, i + sub.length)) n++;
	return n;
}

function skipBlanks(s: string, i: number, end: number): number {
	for (let c = s.charCodeAt(i); i < end && (c === 32 || c === 9); c = s.charCodeAt(++i));
	return i;
}

// isTerminator: a line terminator of eachLine's split, U+0085 included.
function isTerminator(c: number): boolean {
	return c === NL || c === CR || c === LS || c === PS || c === NEL;
}

// terminatorLen: the line terminator at s[i]; U+0085 only where nel says so.
function terminatorLen(s: string, i: number, nel: boolean): number {
	switch (s.charCodeAt(i)) {
		case NL:
		case LS:
		case PS:
			return 1;
		case CR:
			return s.charCodeAt(i + 1) === NL ? 2 : 1;
		case NEL:
			return nel ? 1 : 0;
	}
	return 0;
}

// Lines of a string, split at every terminator, U+0085 included, as the Go side's eachLine
// splits them (a terminator at the end leaves an empty last line). A loop over them reads
//
//	for (let i = 0; i <= s.length; i = nextLineAt(s, j)) { const j = lineEndAt(s, i, nlOnly); ... }
//
// where nlOnly says s holds no terminator but "\n" (then "\n" is searched for, not read
// character by character).
function lineEndAt(s: string, i: number, nlOnly: boolean): number {
	if (nlOnly) {
		const k = s.indexOf("\n", i);
		return k < 0 ? s.length : k;
	}
	for (; i < s.length; i++) if (isTerminator(s.charCodeAt(i))) return i;
	return s.length;
}

// lastIndexNL is s.lastIndexOf("\n", i) (i >= 0) that reads the first characters itself: a
// call of lastIndexOf, into the runtime, costs as much as reading a hundred, and most lines
// are short.
function lastIndexNL(s: string, i: number): number {
	for (const stop = Math.max(-1, i - 64); i > stop; i--) if (s.charCodeAt(i) === NL) return i;
	return i < 0 ? -1 : s.lastIndexOf("\n", i);
}

function nextLineAt(s: string, end: number): number {
	if (end >= s.length) return s.length + 1;
	return end + (s.charCodeAt(end) === CR && s.charCodeAt(end + 1) === NL ? 2 : 1);
}

// LineEnds: which line terminators a text holds, read once for the whole extraction.
interface LineEnds {
	nl: boolean;
	cr: boolean;
	nel: boolean; // U+0085
	sep: boolean; // U+2028 or U+2029
	lt: number; // the first '<', -1 for none: no tag
}

function lineEndsOf(text: string): LineEnds {
	return {
		nl: text.indexOf("\n") >= 0,
		cr: text.indexOf("\r") >= 0,
		nel: text.indexOf("\u0085") >= 0,
		sep: text.indexOf("\u2028") >= 0 || text.indexOf("\u2029") >= 0,
		lt: text.indexOf("<"),
	};
}

// onlyNewlines reports whether s holds no line terminator but "\n".
function onlyNewlines(s: string): boolean {
	return s.indexOf("\r") < 0 && s.indexOf("\u0085") < 0 && s.indexOf("\u2028") < 0 && s.indexOf("\u2029") < 0;
}

// SUMMARY is "summary" as character codes, which summaryMisspellingAt compares with.
const SUMMARY = new Uint8Array([115, 117, 109, 109, 97, 114, 121]);

// summaryMisspellingAt: s[j:k] (ASCII letters) is "summary" with one letter changed, added or
// removed after its "su". The letters being ASCII, c | 0x20 is a letter's lower case, and
// the word's letters are read from SUMMARY: near-miss names (<summar> on every line) ask
// here at every tag.
function summaryMisspellingAt(s: string, j: number, k: number): boolean {
	const n = k - j;
	if (n < 6 || n > 8 || (s.charCodeAt(j) | 0x20) !== 115 || (s.charCodeAt(j + 1) | 0x20) !== 117) return false;
	let i = 2; // the common prefix, "su" already compared
	while (i < Math.min(n, 7) && (s.charCodeAt(j + i) | 0x20) === SUMMARY[i]) i++;
	if (n === 7) {
		if (i === 7) return false; // "summary" itself
		for (let p = i + 1; p < 7; p++) if ((s.charCodeAt(j + p) | 0x20) !== SUMMARY[p]) return false;
		return true;
	}
	if (n === 6) {
		for (let p = i; p < 6; p++) if ((s.charCodeAt(j + p) | 0x20) !== SUMMARY[p + 1]) return false;
		return true;
	}
	for (let p = i; p < 7; p++) if (SUMMARY[p] !== (s.charCodeAt(j + p + 1) | 0x20)) return false;
	return true;
}

// tagNameAt names the tag whose name is s[j:k], ASCII letters; 0 for none.
function tagNameAt(s: string, j: number, k: number): Name | 0 {
	const n = k - j;
	if (n < 5 || n > 8) return 0;
	switch (s.charCodeAt(j) | 0x20) { // the letter in lower case
		case 115: // s
			return n === 7 && lettersAre(s, j, "summary") ? Name.Summary : summaryMisspellingAt(s, j, k) ? Name.Summary : 0;
		case 97: // a
			return n === 8 && lettersAre(s, j, "analysis") ? Name.Analysis : 0;
		case 101: // e
			return n === 7 && lettersAre(s, j, "example") ? Name.Example : 0;
		case 116: // t
			return (n === 5 && lettersAre(s, j, "think")) || (n === 8 && lettersAre(s, j, "thinking")) ? Name.Think : 0;
	}
	return 0;
}

// lettersAre reports whether the ASCII letters at s[j:] spell word (lower case) in any case.
function lettersAre(s: string, j: number, word: string): boolean {
	for (let k = 0; k < word.length; k++) if ((s.charCodeAt(j + k) | 0x20) !== word.charCodeAt(k)) return false;
	return true;
}

// structural: a tag is structure, not a mention, where real answers put it (rule "Tags").
function structural(kind: Kind, flags: number): boolean {
	if (flags & IN_CODE) return false;
	return (flags & (AT_LINE_START | AFTER_CLOSER)) !== 0 || (kind === Kind.Closer && (flags & AT_LINE_END) !== 0);
}

// Tags are the tags of a text in text order, held as columns so that a text of many tags
// makes a few arrays rather than an object per tag: tag i spans start(i) to end(i), on the
// line that starts at line(i). A loop over every tag may read the columns starts, names,
// kinds and flagBits itself, at indices below n: the one run of a large answer runs much of
// such a loop before V8 optimises it, where a call per read costs four times the read.
class Tags {
	n = 0;
	starts = new Int32Array(16);
	private ends = new Int32Array(16);
	private lines = new Int32Array(16);
	names = new Uint8Array(16);
	kinds = new Uint8Array(16);
	flagBits = new Uint8Array(16);

	push(start: number, end: number, line: number, name: Name, kind: Kind, flags: number): void {
		if (this.n === this.starts.length) this.grow();
		const i = this.n++;
		this.starts[i] = start;
		this.ends[i] = end;
		this.lines[i] = line;
		this.names[i] = name;
		this.kinds[i] = kind;
		this.flagBits[i] = flags;
	}

	// reserve makes room for n tags in all: a loop pushed at once knows how many it pushes,
	// and one copy of the columns at that size costs less than a copy at each doubling.
	reserve(n: number): void {
		if (n > this.starts.length) this.grow(n);
	}

	private grow(size = 0): void {
		const n = Math.max(this.starts.length * 2, size);
		const more = <A extends Int32Array | Uint8Array>(a: A, b: A): A => {
			b.set(a);
			return b;
		};
		this.starts = more(this.starts, new Int32Array(n));
		this.ends = more(this.ends, new Int32Array(n));
		this.lines = more(this.lines, new Int32Array(n));
		this.names = more(this.names, new Uint8Array(n));
		this.kinds = more(this.kinds, new Uint8Array(n));
		this.flagBits = more(this.flagBits, new Uint8Array(n));
	}

	start(i: number): number {
		return at32(this.starts, i);
	}

	end(i: number): number {
		return at32(this.ends, i);
	}

	line(i: number): number {
		return at32(this.lines, i);
	}

	name(i: number): Name {
		return at8(this.names, i) as Name;
	}

	kind(i: number): Kind {
		return at8(this.kinds, i) as Kind;
	}

	flags(i: number): number {
		return at8(this.flagBits, i);
	}

	mark(i: number, flags: number): void {
		this.flagBits[i] = this.flags(i) | flags;
	}

	inAnalysis(i: number): boolean {
		return (this.flags(i) & IN_ANALYSIS) !== 0;
	}

	structural(i: number): boolean {
		return structural(this.kind(i), this.flags(i));
	}

	analysisLike(i: number): boolean {
		const name = this.name(i);
		return name === Name.Analysis || name === Name.Think;
	}
}

// wrongCloserEnd: the end of the summary closer before any summary opener that the unclosed
// analysis opened by tags[i] runs to (rule "Analysis"), -1 for none.
function wrongCloserEnd(tags: Tags, i: number, nextSumClose: Int32Array, nextSummary: Int32Array): number {
	const j = at32(nextSumClose, i + 1);
	return j < at32(nextSummary, i + 1) ? tags.end(j) : -1;
}

// wrongCloserFrom returns the index of the first structural </analysis> at or after index
// from, tags.n for none (Scan.nextWrongCloser's loop, a function returning a number as
// Scan.findLastEnder says why).
function wrongCloserFrom(tags: Tags, from: number): number {
	let w = from;
	while (w < tags.n && !(tags.name(w) === Name.Analysis && tags.kind(w) === Kind.Closer && tags.structural(w))) w++;
	return w;
}

// fenceAt: the fence character of the line s[i:j] once trimmed ('`' or '~'), 0 for none.
function fenceAt(s: string, i: number, j: number): number {
	i = trimStart(s, i, j, JS);
	const c = s.charCodeAt(i);
	if ((c === TICK || c === TILDE) && i + 3 <= j && s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === c) return c;
	return 0;
}

const isFenceLine = (line: string): boolean => fenceAt(line, 0, line.length) !== 0;

// Spans are spans of the text in text order, as columns: fence lines (with their fence
// character, '`' or '~'), the fenced code of a block, and the analysis and example blocks
// (Scan.regions, character 0), of which a text of many blocks makes a few arrays rather
// than an object per block.
class Spans {
	n = 0;
	private starts = new Int32Array(8);
	private ends = new Int32Array(8);
	private chars = new Uint8Array(8);

	push(start: number, end: number, char: number): void {
		if (this.n === this.starts.length) {
			const grow = <A extends Int32Array | Uint8Array>(a: A, b: A): A => {
				b.set(a);
				return b;
			};
			this.starts = grow(this.starts, new Int32Array(2 * this.n));
			this.ends = grow(this.ends, new Int32Array(2 * this.n));
			this.chars = grow(this.chars, new Uint8Array(2 * this.n));
		}
		this.starts[this.n] = start;
		this.ends[this.n] = end;
		this.chars[this.n] = char;
		this.n++;
	}

	start(i: number): number {
		return at32(this.starts, i);
	}

	end(i: number): number {
		return at32(this.ends, i);
	}

	char(i: number): number {
		return at8(this.chars, i);
	}

	setStart(i: number, start: number): void {
		at32(this.starts, i);
		this.starts[i] = start;
	}

	setEnd(i: number, end: number): void {
		at32(this.ends, i);
		this.ends[i] = end;
	}

	// search returns the index of the first span that ends after pos (the spans are
	// disjoint), n for none.
	search(pos: number): number {
		let lo = 0;
		let hi = this.n;
		while (lo < hi) {
			const m = (lo + hi) >> 1;
			if (this.end(m) > pos) hi = m;
			else lo = m + 1;
		}
		return lo;
	}

	// contains reports whether pos lies in a span.
	contains(pos: number): boolean {
		if (this.n === 0) return false;
		const k = this.search(pos);
		return k < this.n && this.start(k) <= pos;
	}
}

// SLICED is the length from which V8's String.prototype.slice makes a view of the string
// (SlicedString::kMinLength), not a copy.
const SLICED = 13;

// NO_SPANS is an empty Spans that is never pushed to.
const NO_SPANS = new Spans();

// nextTagStart returns the first '<' at or after pos that may start a tag, or -1. A tag's
// name, after blanks and a '/', follows its '<': a '<' before anything else (a comparison,
// a bare '<' on its line) starts none and needs no line. After such a '<' the next is
// looked for here while they come close together (a line of '<'), else by indexOf.
function nextTagStart(text: string, pos: number): number {
	for (let i = text.indexOf("<", pos); i >= 0; ) {
		const c = text.charCodeAt(i + 1);
		if (isASCIILetter(c) || c === 32 || c === 9 || c === SLASH) return i;
		const near = Math.min(text.length, i + 64);
		let k = i + 1;
		while (k < near && text.charCodeAt(k) !== LT) k++;
		i = k < near ? k : text.indexOf("<", k);
	}
	return -1;
}

// summaryAt reports whether s holds "summary>" at j, and analysisAt "analysis>": the tags as
// the prompt writes them, where the scan asks at every tag. Each character is compared by
// hand, the '>' first, which a near-miss (<summar>, <summary x="y">) fails: a call of
// startsWith costs more than the comparisons, and a loop over the word more than the call.
function summaryAt(s: string, j: number): boolean {
	return (
		s.charCodeAt(j + 7) === GT &&
		s.charCodeAt(j) === 115 && // s
		s.charCodeAt(j + 1) === 117 && // u
		s.charCodeAt(j + 2) === 109 && // m
		s.charCodeAt(j + 3) === 109 && // m
		s.charCodeAt(j + 4) === 97 && // a
		s.charCodeAt(j + 5) === 114 && // r
		s.charCodeAt(j + 6) === 121 // y
	);
}

function analysisAt(s: string, j: number): boolean {
	return (
		s.charCodeAt(j + 8) === GT &&
		s.charCodeAt(j) === 97 && // a
		s.charCodeAt(j + 1) === 110 && // n
		s.charCodeAt(j + 2) === 97 && // a
		s.charCodeAt(j + 3) === 108 && // l
		s.charCodeAt(j + 4) === 121 && // y
		s.charCodeAt(j + 5) === 115 && // s
		s.charCodeAt(j + 6) === 105 && // i
		s.charCodeAt(j + 7) === 115 // s
	);
}

class Scan {
	readonly text: string;
	readonly nel: boolean;
	readonly simple: boolean; // "\n" is the only line terminator of the scan
	readonly nlOnly: boolean; // "\n" is the only line terminator of eachLine's split
	tags = new Tags();
	fences = new Spans();
	// What blockEnd found: where the block's body ends, whether a closer ends it, the tag to
	// go on after, whether a fallback closer ended it, and the fenced code in the body.
	private endPos = 0;
	private endClosed = false;
	private endNext = 0;
	private endByFallback = false;
	private code = new Spans();
	inlineOpeners = 0;
	private regionTags = 0; // analysis, think and example openers, analysis and think closers
	openAnalysis = false;
	private details = false; // the text holds "<details" in any ASCII case (parseTag sees each)
	private lastEnder = -2; // the last tag that can end a block (enderAfter), -1 for none, -2 not yet found
	private wrongCursor = -1; // nextWrongCloser's last answer, -1 before the first
	private gtAt = -1;
	private ltAt = -1;
	private parsedName: Name = Name.Summary;
	private parsedKind: Kind = Kind.Opener;
	// bodyOf's last answers from its second question on, and the entry the next one replaces
	private bodies: { raw: string; from: number; closed: boolean; body: string | undefined; sections: number }[] | undefined;
	private bodySections = -1; // sectionCount of bodyOf's last answer, -1 not counted
	private bodyAsked = false;
	private bodyNext = 0;
	// A run of the text that repeats itself runPeriod characters back: text[x] ===
	// text[x - runPeriod] for every x in [runFrom, runEnd) (bodyOf's last repeat found).
	private runFrom = 0;
	private runEnd = 0;
	private runPeriod = 0;

	constructor(text: string, ends: LineEnds) {
		this.text = text;
		this.nel = ends.nel && !ends.cr && !ends.nl;
		this.simple = !this.nel && !ends.cr && !ends.sep;
		this.nlOnly = this.simple && !ends.nel;
		if (ends.lt >= 0) this.scanTags(ends.lt);
		this.scanFences();
	}

	lineEnd(i: number): number {
		const text = this.text;
		if (this.simple) {
			const k = text.indexOf("\n", i);
			return k < 0 ? text.length : k;
		}
		for (let j = i; j < text.length; j++) if (terminatorLen(text, j, this.nel) > 0) return j;
		return text.length;
	}

	lineStart(i: number, lo: number): number {
		if (this.simple) {
			if (i <= lo) return lo;
			const k = lastIndexNL(this.text, i - 1);
			return k < lo ? lo : k + 1;
		}
		for (let j = i; j > lo; j--) if (this.endsTerminator(j)) return j;
		return lo;
	}

	endsTerminator(j: number): boolean {
		const c = this.text.charCodeAt(j - 1);
		if (c === NL || c === CR || c === LS || c === PS) return true;
		return c === NEL && this.nel;
	}

	nextLine(end: number): number {
		if (end >= this.text.length) return -1;
		return end + terminatorLen(this.text, end, this.nel);
	}

	prevLine(start: number): number {
		if (start === 0) return -1;
		const n = this.text.charCodeAt(start - 1) === NL && start >= 2 && this.text.charCodeAt(start - 2) === CR ? 2 : 1;
		return this.lineStart(start - n, 0);
	}

	// rule "Tags": every tag of the text, each '<' read once, with where it stands on its line.
	// scanTags reads the tags from the first '<', at from.
	private scanTags(from: number): void {
		const text = this.text;
		let lineEnd = -1;
		let lineStart = 0;
		let firstVisible = 0;
		let contentEnd = 0;
		let lastTick = -2; // the last '`' of the line, -1 for none, -2 not yet read
		let tickPos = 0;
		let ticks = 0; // the '`' on the line before tickPos
		let tickAt = -1; // the next '`' of the text at or after tickPos (text.length for none)
		let prevEnd = -1; // the end of the last closer on the line, -1 for none
		let prev = -1; // the last tag read the long way on the current line, -1 for none
		for (let pos = from; pos < text.length; ) {
			const i = nextTagStart(text, pos);
			if (i < 0) break;
			if (i >= lineEnd && (i === 0 || this.endsTerminator(i))) {
				// A tag alone on its line, pushed with the flags the rest of this loop would set,
				// without finding the line's bounds (the Go side's lineTag), and the lines after it
				// that repeat it.
				const e = this.pushLineTag(i);
				if (e >= 0) {
					lineEnd = pos = e;
					continue;
				}
			}
			if (i >= lineEnd) {
				if (prev >= 0 && prev === this.tags.n - 1 && this.simple) {
					// The line before, read the long way, is done: the lines after it that repeat
					// it hold its tags again, found without reading them (a looping model writes
					// "\u200b<summary>" on thousands of lines; the Go side's repeatLine).
					const e = this.repeatLine(prev, lineEnd);
					if (e > lineEnd) {
						lineEnd = pos = e;
						continue;
					}
				}
				const lo = lineEnd >= 0 ? this.nextLine(lineEnd) : 0;
				lineStart = this.lineStart(i, lo);
				lineEnd = this.lineEnd(i);
				// A printable ASCII character at an end is no invisible one: no trim to call.
				const c0 = text.charCodeAt(lineStart);
				firstVisible = c0 > 32 && c0 < 0x7f ? lineStart : trimStart(text, lineStart, lineEnd, INVISIBLE);
				const c9 = text.charCodeAt(lineEnd - 1);
				contentEnd = c9 > 32 && c9 < 0x7f && lineEnd > lineStart ? lineEnd : trimEnd(text, lineStart, lineEnd, INVISIBLE);
				lastTick = -2;
				tickPos = lineStart;
				ticks = 0;
				prevEnd = -1;
				prev = -1;
			}
			// Count the '`' before i on the line, from one to the next (each found once).
			for (;;) {
				if (tickAt < tickPos) {
					const k = text.indexOf("`", tickPos);
					tickAt = k < 0 ? text.length : k;
				}
				if (tickAt >= i) break;
				ticks++;
				tickPos = tickAt + 1;
			}
			tickPos = i;
			const end = this.parseTag(i, lineEnd);
			if (end < 0) {
				pos = i + 1;
				continue;
			}
			const name = this.parsedName;
			const kind = this.parsedKind;
			let flags = 0;
			if (i === firstVisible) flags |= AT_LINE_START;
			if (end >= contentEnd) flags |= AT_LINE_END;
			if (ticks % 2 === 1) {
				// Inside a code span where a '`' after the tag closes it.
				if (lastTick === -2) {
					lastTick = text.lastIndexOf("`", lineEnd - 1); // >= tickAt, on the line
					if (lastTick < i) lastTick = -1;
				}
				if (lastTick >= end) flags |= IN_CODE;
			}
			if (prevEnd >= 0 && onlyInvisible(text, prevEnd, i)) flags |= AFTER_CLOSER;
			prevEnd = kind === Kind.Closer ? end : -1;
			if (name === Name.Summary && kind === Kind.Opener && !structural(kind, flags) && !(flags & IN_CODE)) this.inlineOpeners++;
			if (name !== Name.Summary && (kind === Kind.Opener || name !== Name.Example)) this.regionTags++;
			this.tags.push(i, end, lineStart, name, kind, flags);
			prev = this.tags.n - 1;
			pos = end;
			if (prev > 0 && this.tags.line(prev - 1) === lineStart) {
				// The line may loop over its tags (a looping model's "</analysis><summary>"
				// thousands of times on one line): the copies are pushed at once.
				const e = this.repeatInLine(lineEnd);
				if (e >= 0) {
					prev = this.tags.n - 1;
					pos = e;
					tickPos = this.tags.start(prev); // the '`' before it are as many as before t, less an even number
					prevEnd = kind === Kind.Closer ? e : -1;
				}
			}
		}
	}

	// pushCopy pushes tags[first..last] again, shifted by shift, their lines by lineShift
	// (0 for a copy on the same line), counted as scanTags counts the tags it reads.
	private pushCopy(first: number, last: number, shift: number, lineShift: number): void {
		const tags = this.tags;
		for (let g = first; g <= last; g++) {
			const name = tags.name(g);
			const kind = tags.kind(g);
			const flags = tags.flags(g);
			if (name === Name.Summary && kind === Kind.Opener && !structural(kind, flags) && !(flags & IN_CODE)) this.inlineOpeners++;
			if (name !== Name.Summary && (kind === Kind.Opener || name !== Name.Example)) this.regionTags++;
			tags.push(tags.start(g) + shift, tags.end(g) + shift, tags.line(g) + lineShift, name, kind, flags);
		}
	}

	// repeatInLine pushes the tags of a loop on one line, read the long way up to the last tag,
	// t, on the line that ends at lineEnd. Where an earlier tag of the line among the four
	// before t, r, is the same tag, the characters from r to t hold an even number of '`',
	// and the line from t on repeats the line from r on (period = t's start less r's), up to
	// run, the tags after r up to t are pushed again for each repeat, shifted by the period,
	// while the repeat's last tag ends at least a period before run. There, what the scan
	// reads at each '<' of a repeat is what it read a period before: the characters up to
	// the tag's end, the next '>', '<' and '`' of the line (each within a period, or past
	// run for both), whether the tag ends its line (a '<' comes after it) and the parity of
	// the '`' before it; the last '`' of the line lies past both or before both. It returns
	// the end of the last tag pushed, -1 for none. The Go side reads these tag by tag.
	private repeatInLine(lineEnd: number): number {
		const text = this.text;
		const tags = this.tags;
		const t = tags.n - 1;
		const ts = tags.start(t);
		const te = tags.end(t);
		const line = tags.line(t);
		for (let r = t - 1; r >= 0 && r >= t - 4 && tags.line(r) === line; r--) {
			const rs = tags.start(r);
			if (tags.end(r) - rs !== te - ts || tags.name(r) !== tags.name(t) || tags.kind(r) !== tags.kind(t) || text.charCodeAt(rs + 1) !== text.charCodeAt(ts + 1)) continue;
			const period = ts - rs;
			if (te + 2 * period > lineEnd) return -1; // no room for a repeat
			// Two looks before the run is read: a repeat has t's '<' again a period on, and after
			// t's end what came after r's. A line of openers with words of changing length between
			// them (no repeat at any tag) fails one or the other at once.
			if (text.charCodeAt(ts + period) !== LT || text.charCodeAt(te) !== text.charCodeAt(te - period)) return -1;
			const run = repeatsFrom(text, ts, period, 0, lineEnd); // text[x] === text[x - period] for every x in [ts, run)
			if (te + 2 * period > run) return -1;
			// The '`' between r and t, counted only here, where a repeat is pushed, and only up
			// to t: a line of tags with no '`' would otherwise have indexOf read to the end of
			// the text at each tag.
			let ticks = 0;
			for (let k = rs; k < ts; k++) if (text.charCodeAt(k) === TICK) ticks++;
			if (ticks % 2 === 1) return -1;
			tags.reserve(tags.n + (t - r) * Math.floor((run - te) / period));
			let pushed = -1;
			for (let shift = period; te + shift + period <= run; shift += period) {
				this.pushCopy(r + 1, t, shift, 0);
				pushed = te + shift;
			}
			return pushed;
		}
		return -1;
	}

	// repeatLinePair pushes the tags of a loop of two lines: tags[q] and tags[q + 1], the last
	// two, are each alone on its line, the second's the line after the first's. Where the lines
	// after them repeat the two, found as a period of the text, the two tags are pushed again
	// for each repeat (the lines are the same characters between the same terminators). It
	// returns the end of the last tag pushed, -1 for none (the Go side's repeatLinePair). Only
	// a simple scan asks: its lines end at "\n" alone.
	private repeatLinePair(q: number): number {
		const text = this.text;
		const tags = this.tags;
		const n = tags.end(q + 1) + 1 - tags.start(q);
		const p = repeatsFrom(text, tags.end(q + 1) + 1, n, 0); // text[x] === text[x - n] for every x in [end + 1, p)
		let last = -1;
		for (let shift = n; ; shift += n) {
			for (let g = q; g <= q + 1; g++) {
				// The repeat of g's line holds its characters where it ends before p, and ends
				// at a "\n" there, or at the end of the text.
				const e = tags.end(g) + shift;
				if (e > p || (e === p && e !== text.length)) return last;
				const name = tags.name(g);
				const kind = tags.kind(g);
				if (name !== Name.Summary && (kind === Kind.Opener || name !== Name.Example)) this.regionTags++;
				tags.push(tags.start(g) + shift, e, tags.line(g) + shift, name, kind, tags.flags(g));
				last = e;
			}
		}
	}

	// repeatLine pushes the tags of the lines after the line ending at end, whose last tag is
	// tags[last], that repeat it exactly: the same tags with the same flags, as scanTags finds
	// a tag's flags from its line alone. It returns the end of the last line it pushed the
	// tags of, end for none. Only a simple scan asks: its lines end at "\n" alone.
	private repeatLine(last: number, end: number): number {
		const text = this.text;
		const tags = this.tags;
		const start = tags.line(last);
		const n = end + 1 - start;
		if (end + n > text.length || (end + n < text.length && text.charCodeAt(end + n) !== NL) || text.charCodeAt(end) !== NL || text.charCodeAt(end + 1) !== text.charCodeAt(start)) {
			return end; // the next line is no repeat: another length, or another first character
		}
		let first = last;
		while (first > 0 && tags.line(first - 1) === start) first--;
		const p = repeatsFrom(text, end + 1, n, 0);
		for (let e = end + n, d = n; e < p || (e === text.length && e === p); e += n, d += n) {
			for (let k = first; k <= last; k++) {
				const name = tags.name(k);
				const kind = tags.kind(k);
				const flags = tags.flags(k);
				if (name === Name.Summary && kind === Kind.Opener && !(flags & (AT_LINE_START | AFTER_CLOSER | IN_CODE))) this.inlineOpeners++;
				if (name !== Name.Summary && (kind === Kind.Opener || name !== Name.Example)) this.regionTags++;
				tags.push(tags.start(k) + d, tags.end(k) + d, start + d, name, kind, flags);
			}
			end = e;
		}
		return end;
	}

	// pushLineTag pushes the tag at text[i] ('<', at the start of a line) where it is alone on
	// its line, and the same tag on the lines after it that repeat it or the two lines before:
	// it returns the end of the last tag pushed, -1 for none. It is a method of scanTags's own
	// so that V8 has seen every operation scanTags runs for it (the call, at each '<' that
	// starts a line) however rarely a tag stands alone: V8 optimises scanTags while it runs, and
	// an operation not run by then (a typical answer's second lone tag comes a third of the way
	// in) would discard that code, to be optimised again.
	private pushLineTag(i: number): number {
		const text = this.text;
		const end = this.lineTag(i);
		if (end < 0) return -1;
		let pos = end;
		const name = this.parsedName;
		const kind = this.parsedKind;
		const region = name !== Name.Summary && (kind === Kind.Opener || name !== Name.Example);
		if (region) this.regionTags++;
		this.tags.push(i, end, i, name, kind, AT_LINE_START | AT_LINE_END);
		if (this.simple && text.charCodeAt(end) === NL && text.charCodeAt(end + 1) === LT && text.charCodeAt(end + 2) === text.charCodeAt(i + 1)) {
			// The lines after it that repeat its line exactly (a looping model writes
			// "<summary>" on thousands of lines): the same tag on each (the Go side's
			// repeatLineTag). They are found as a period of the text, text[x] ===
			// text[x - n] from the next line on, checked in chunks that double.
			const n = end + 1 - i; // the line and its "\n"
			let p = end + 1;
			for (let chunk = n; p < text.length; chunk = Math.min(2 * chunk, 4096)) {
				const m = Math.min(chunk, text.length - p);
				if (text.slice(p, p + m) !== text.slice(p - n, p - n + m)) {
					while (text.charCodeAt(p) === text.charCodeAt(p - n)) p++;
					break;
				}
				p += m;
			}
			// A line ending at e repeats it where e <= p, and ends with a "\n" where e < p.
			for (let e = end + n; e < p || (e === text.length && e === p); e += n) {
				if (region) this.regionTags++;
				this.tags.push(e - n + 1, e, e - n + 1, name, kind, AT_LINE_START | AT_LINE_END);
				pos = e;
			}
		} else if (text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === NL && text.charCodeAt(end + 2) === LT && text.charCodeAt(end + 3) === text.charCodeAt(i + 1)) {
			// The same for lines that end at "\r\n" (a model writing Windows line ends), in a
			// text of any line ends: each repeat of the line with its "\r\n", whole in the
			// run, holds the same tag alone on its line (the Go side's repeatLineTagCRLF).
			const n = end + 2 - i;
			const p = repeatsFrom(text, end + 2, n, 0);
			for (let e = end + n; e + 1 < p; e += n) {
				if (region) this.regionTags++;
				this.tags.push(e - n + 2, e, e - n + 2, name, kind, AT_LINE_START | AT_LINE_END);
				pos = e;
			}
		} else if (this.simple && text.charCodeAt(end) === NL && this.tags.n >= 2) {
			// The next line may start as the line before did, a tag alone on it: the
			// two lines may repeat (<analysis> and <summary> again and again).
			const q = this.tags.n - 2;
			const qs = this.tags.start(q);
			if (this.tags.end(q) + 1 === i && qs === this.tags.line(q) && text.charCodeAt(end + 1) === text.charCodeAt(qs) && text.charCodeAt(end + 2) === text.charCodeAt(qs + 1)) {
				const e = this.repeatLinePair(q);
				if (e >= 0) pos = e;
			} else {
				const e = this.repeatUnit(end);
				if (e >= 0) pos = e;
			}
		}
		return pos;
	}

	// repeatUnit pushes the tags of a loop of lines that ends with the last tag, alone on its
	// line (which ends at end). Where an earlier tag of the last four, r, is the same tag
	// written alike and the text from this line on repeats the text from r on (tried where
	// the three characters after each match), r ends its line as this tag does, and the
	// lines after r's up to this one repeat whole, each the same characters between the same
	// terminators: they hold the same tags with the same flags (scanTags finds a tag's flags
	// from its line alone), pushed again for each repeat. It returns the end of the last tag
	// pushed, -1 for none (the Go side's repeatUnit). Loops of several lines with text
	// between their tags (think-blocks, details-fallback, mixed-fences) are otherwise read tag
	// by tag. Only a simple scan asks: its lines end at "\n" alone.
	private repeatUnit(end: number): number {
		const text = this.text;
		const tags = this.tags;
		const t = tags.n - 1;
		const ts = tags.start(t);
		for (let r = t - 1; r >= 0 && r >= t - 4; r--) {
			const rs = tags.start(r);
			const re = tags.end(r);
			if (re - rs !== end - ts || tags.name(r) !== tags.name(t) || tags.kind(r) !== tags.kind(t)) continue;
			if (text.charCodeAt(re) !== text.charCodeAt(end) || text.charCodeAt(re + 1) !== text.charCodeAt(end + 1) || text.charCodeAt(re + 2) !== text.charCodeAt(end + 2)) continue;
			const period = ts - rs;
			const p = repeatsFrom(text, ts, period, 0); // text[x] === text[x - period] for every x in [ts, p)
			// A repeat of the lines ends at shift + end, a "\n" before p or the end of the text.
			tags.reserve(tags.n + (t - r) * Math.floor((p - end) / period + 1));
			let pushed = -1;
			for (let shift = period; end + shift < p || (end + shift === p && p === text.length); shift += period) {
				this.pushCopy(r + 1, t, shift, shift);
				pushed = end + shift;
			}
			return pushed;
		}
		return -1;
	}

	// lineTag reads the tag at text[i] ('<', at the start of a line) where it is alone on its
	// line, written without blanks: it returns the tag's end and leaves its name and kind in
	// parsedName and parsedKind, or returns -1.
	private lineTag(i: number): number {
		const text = this.text;
		let j = i + 1;
		let kind: Kind = Kind.Opener;
		if (text.charCodeAt(j) === SLASH) {
			kind = Kind.Closer;
			j++;
		}
		// The two names the prompt asks for, compared at once (summaryAt, analysisAt), where
		// their first letter matches: the scan may call them, not inline them.
		const c = text.charCodeAt(j);
		let k = j;
		let name: Name | 0 = 0;
		if (c === 115 && summaryAt(text, j)) {
			k = j + 7;
			name = Name.Summary;
		} else if (c === 97 && analysisAt(text, j)) {
			k = j + 8;
			name = Name.Analysis;
		} else {
			while (k - j <= 8 && isASCIILetter(text.charCodeAt(k))) k++;
			if (text.charCodeAt(k) !== GT) return -1;
			name = tagNameAt(text, j, k);
		}
		if (name === 0 || (k + 1 < text.length && terminatorLen(text, k + 1, this.nel) === 0)) return -1;
		this.parsedName = name;
		this.parsedKind = kind;
		return k + 1;
	}

	// parseTag reads the tag at text[i] ('<') on the line that ends at end: it returns the
	// tag's end and leaves its name and kind in parsedName and parsedKind, or returns -1.
	private parseTag(i: number, end: number): number {
		const text = this.text;
		// The four tags as the prompt writes them, read at once (no terminator can stand
		// inside them, so they end before the line does), where their first letter matches:
		// the Go side's plainTag.
		const c1 = text.charCodeAt(i + 1);
		if (c1 === 115 && summaryAt(text, i + 1)) {
			this.parsedName = Name.Summary;
			this.parsedKind = Kind.Opener;
			return i + "<summary>".length;
		}
		if (c1 === 97 && analysisAt(text, i + 1)) {
			this.parsedName = Name.Analysis;
			this.parsedKind = Kind.Opener;
			return i + "<analysis>".length;
		}
		if (c1 === SLASH) {
			const c2 = text.charCodeAt(i + 2);
			if (c2 === 115 && summaryAt(text, i + 2)) {
				this.parsedName = Name.Summary;
				this.parsedKind = Kind.Closer;
				return i + "</summary>".length;
			}
			if (c2 === 97 && analysisAt(text, i + 2)) {
				this.parsedName = Name.Analysis;
				this.parsedKind = Kind.Closer;
				return i + "</analysis>".length;
			}
		}
		// Every tag ends at a '>' before the line's end: with none (a model's loop of
		// "<summary x" on one line), the '<' starts no tag, known without reading its name.
		if (this.gtAt <= i) {
			const g = text.indexOf(">", i + 1);
			this.gtAt = g < 0 ? text.length : g;
		}
		if (this.gtAt >= end) {
			if ((c1 | 0x20) === 100 && !this.details) this.details = foldAt(text, i, "<details");
			return -1;
		}
		let j = skipBlanks(text, i + 1, end);
		let kind: Kind = Kind.Opener;
		if (j < end && text.charCodeAt(j) === SLASH) {
			kind = Kind.Closer;
			j = skipBlanks(text, j + 1, end);
		}
		// Every name starts with s, a, e or t (tagNameAt): a name that does not (<details>,
		// <div>) is no tag, known before its letters are read.
		const f = text.charCodeAt(j) | 0x20;
		if (j >= end || (f !== 115 && f !== 97 && f !== 101 && f !== 116)) {
			// Every '<' that starts no tag comes here: the one place that looks for <details.
			if (f === 100 && j === i + 1 && !this.details) this.details = foldAt(text, i, "<details");
			return -1;
		}
		if (f === 97 && analysisAt(text, j)) {
			// <analysis> and </analysis> as the prompt writes them, compared at once.
			this.parsedName = Name.Analysis;
			this.parsedKind = kind;
			return j + "analysis>".length;
		}
		let k = j;
		while (k < end && isASCIILetter(text.charCodeAt(k))) k++;
		const name = tagNameAt(text, j, k);
		if (name === 0) return -1;
		this.parsedName = name;
		this.parsedKind = kind;
		const c = text.charCodeAt(k);
		if (c === GT && k < end) return k + 1; // the common tag, <summary> or </summary>
		if (kind === Kind.Closer || (k < end && c !== 32 && c !== GT)) {
			const k2 = skipBlanks(text, k, end);
			if (k2 >= end || text.charCodeAt(k2) !== GT) return -1;
			return k2 + 1;
		}
		// The next '>' and '<' of the whole text, cached: positions only grow during the scan.
		if (this.gtAt < k) {
			const g = text.indexOf(">", k);
			this.gtAt = g < 0 ? text.length : g;
		}
		const gt = Math.min(this.gtAt, end);
		if (gt >= end) return -1; // no '>' on the line: the next '<' need not be looked for
		if (this.ltAt < k) {
			const l = text.indexOf("<", k);
			this.ltAt = l < 0 ? text.length : l;
		}
		if (Math.min(this.ltAt, end) < gt) return -1;
		return gt + 1;
	}

	private scanFences(): void {
		const a = this.fenceHits("```", TICK);
		const b = this.fenceHits("~~~", TILDE);
		if (b.n === 0) this.fences = a;
		else if (a.n === 0) this.fences = b;
		else {
			const f = this.fences;
			for (let i = 0, j = 0; i < a.n || j < b.n; ) {
				if (j === b.n || (i < a.n && a.start(i) < b.start(j))) f.push(a.start(i), a.end(i), a.char(i++));
				else f.push(b.start(j), b.end(j), b.char(j++));
			}
		}
	}

	private fenceHits(s: string, c: number): Spans {
		const out = new Spans();
		const text = this.text;
		let lo = 0;
		let tryRepeat = 8;
		for (let pos = 0; pos < text.length; ) {
			const i = text.indexOf(s, pos);
			if (i < 0) break;
			const start = this.lineStart(i, lo);
			let end = this.lineEnd(i);
			if (trimStart(text, start, i, JS) === i) {
				out.push(start, end, c);
				if (out.n === tryRepeat && this.simple) {
					// A loop of fenced blocks: the fences of the loop again. Asked at 8, 16, 32 ...
					// fences, a few times a text.
					tryRepeat *= 2;
					end = this.repeatFences(out, end);
				}
			}
			const nl = this.nextLine(end);
			if (nl < 0) break;
			pos = nl;
			lo = nl;
		}
		return out;
	}

	// repeatFences pushes the fence lines after the last of out, which ends at end, where the
	// text from that one's line on repeats the text one to four fences back: a loop of fenced
	// blocks. Whether a line is a fence line depends on the line alone, so where the text
	// repeats itself period characters back (text[x] === text[x - period]), each line that
	// ends there is a fence line exactly where the line period characters back is one. It
	// returns the end of the last fence line of out (the Go side's repeatFences). Only a
	// simple scan asks: its lines end at "\n" alone.
	private repeatFences(out: Spans, end: number): number {
		const text = this.text;
		const last = out.n - 1;
		const lastStart = out.start(last);
		for (let back = 1; back <= 4 && back < out.n; back++) {
			const src = last - back;
			const period = lastStart - out.start(src);
			// The line after the last fence line is where the one after out[src] ends up.
			const e = end + period;
			if (e > text.length || (e < text.length && text.charCodeAt(e) !== NL) || text.charCodeAt(end) !== NL) continue;
			const from = lastStart;
			if (from + period > text.length || text.slice(from, from + period) !== text.slice(from - period, from)) continue; // no repeat over the first period
			const p = repeatsFrom(text, from, period, period);
			for (let k = src + 1; ; k++) {
				const fe = out.end(k) + period;
				if (!(fe < p || (fe === text.length && fe === p))) break;
				out.push(out.start(k) + period, fe, out.char(k));
				end = fe;
			}
			return end;
		}
		return end;
	}

	// rule "Analysis": tag i followed on its line, after blanks, by a lower-case ASCII letter is prose about the tag
	// (`<summary> has to hold all nine sections`), not the start of a block's content.
	proseAfter(i: number): boolean {
		if ((this.tags.flags(i) & AT_LINE_END) !== 0) return false;
		const text = this.text;
		let k = this.tags.end(i);
		while (k < text.length && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k++;
		const c = k < text.length ? text.charCodeAt(k) : 0;
		return c >= 0x61 && c <= 0x7a;
	}

	// rule "Analysis": the analysis blocks, and the example blocks (rule "Echoed templates").
	// Its loops over the tags are a function each: V8 optimises a long loop while it runs,
	// and the code it makes ends at the loop's end (what follows has not run yet), so that
	// the next loop in the same function would have the whole function optimised again.
	regions(): { analysis: Spans; examples: Spans } {
		// Every region starts at an analysis, think or example opener or at an orphan closer.
		if (this.regionTags === 0) return { analysis: NO_SPANS, examples: NO_SPANS };
		const regions = this.analysisRegions(this.nextTags());
		// A block written inside a tag (</summary<analysis></analysis>>) takes the tag with it: cutting it leaves no tag
		// made of the two ends (the Go side's widenInTag).
		this.widenInTags(regions.analysis);
		this.markInAnalysis(regions.analysis);
		return regions;
	}

	// nextTags returns, for each tag index, the index of the next tag of each kind that
	// regions asks about from there on (tags.n for none).
	private nextTags(): NextTags {
		const tags = this.tags;
		const n = tags.n;
		const nextStruct = new Int32Array(n + 1);
		const nextAny = new Int32Array(n + 1);
		const nextSummary = new Int32Array(n + 1);
		const nextExample = new Int32Array(n + 1);
		const nextSumClose = new Int32Array(n + 1);
		// The answer is made before the loop: V8 may optimise the loop alone while it runs (on
		// stack replacement) and reuse that code on every later call, and code made before the
		// answer's object had ever been made leaves it, and is thrown away, at every return.
		const next = { nextStruct, nextAny, nextSummary, nextExample, nextSumClose };
		// Built from the end, the next of each kind held in a local, each tag's columns read
		// once and directly (Tags says why).
		let struct = n;
		let any = n;
		let summary = n;
		let example = n;
		let sumClose = n;
		nextStruct[n] = nextAny[n] = nextSummary[n] = nextExample[n] = nextSumClose[n] = n;
		const { kinds, names, flagBits } = tags;
		for (let j = n - 1; j >= 0; j--) {
			const kind = kinds[j] as Kind;
			const name = names[j] as Name;
			const flags = flagBits[j]!;
			if (kind === Kind.Closer) {
				if (name === Name.Summary) {
					if (structural(kind, flags)) sumClose = j;
				} else if (name === Name.Analysis || name === Name.Think) {
					any = j;
					if (structural(kind, flags)) struct = j;
				} else if (name === Name.Example) example = j;
			} else if (name === Name.Summary && structural(kind, flags)) {
				// A summary opener that is not prose about the tag (proseAfter, with no summary closer after it).
				if (sumClose < n || !this.proseAfter(j)) summary = j;
			}
			nextStruct[j] = struct;
			nextAny[j] = any;
			nextSummary[j] = summary;
			nextExample[j] = example;
			nextSumClose[j] = sumClose;
		}
		return next;
	}

	// analysisRegions returns the analysis and example blocks in text order.
	private analysisRegions(next: NextTags): { analysis: Spans; examples: Spans } {
		const { nextStruct, nextAny, nextSummary, nextExample, nextSumClose } = next;
		const tags = this.tags;
		const n = tags.n;
		const analysis = new Spans();
		const examples = new Spans();
		const regions = { analysis, examples }; // made before the loop, as nextTags says why
		let summarySeen = false;
		const { kinds, names, flagBits } = tags;
		for (let i = 0; i < n; i++) {
			// Each tag's columns read once, as above.
			const kind = kinds[i] as Kind;
			const name = names[i] as Name;
			const isStructural = structural(kind, flagBits[i]!);
			if (kind === Kind.Opener && name === Name.Summary && isStructural) summarySeen = true;
			if (kind === Kind.Closer && (name === Name.Analysis || name === Name.Think) && isStructural && !summarySeen) {
				// An orphan closer: what came before it, back to the last analysis block, is analysis.
				analysis.push(analysis.n === 0 ? 0 : analysis.end(analysis.n - 1), tags.end(i), 0);
				continue;
			}
			if (kind !== Kind.Opener) continue;
			if (!isStructural) {
				if ((name === Name.Analysis || name === Name.Think) && i + 1 < n && tags.kind(i + 1) === Kind.Closer && tags.analysisLike(i + 1)) {
					analysis.push(tags.start(i), tags.end(i + 1), 0);
					i++;
				}
				continue;
			}
			if (name === Name.Analysis || name === Name.Think) {
				if (i + 1 < n && tags.kind(i + 1) === Kind.Closer && tags.analysisLike(i + 1) && tags.line(i + 1) === tags.line(i)) {
					// Its closer on its line (<analysis></analysis> before prose): closed there, whatever follows the closer.
					analysis.push(tags.start(i), tags.end(i + 1), 0);
					i++;
					continue;
				}
				let j = at32(nextStruct, i + 1);
				let e = -1;
				if (j < n) {
					const a = at32(nextAny, i + 1);
					if (a < j) {
						const k = at32(nextSummary, a + 1);
						if (k < j && at32(nextSumClose, k) < j) {
							// A closer with text after it on its line (</analysis>x), then a whole summary block before the next
							// analysis closer: the analysis ended at the first closer, the block is the summary.
							analysis.push(tags.start(i), tags.end(a), 0);
							i = a;
							continue;
						}
					}
					const k = at32(nextSummary, i + 1);
					if (k < j && tags.name(j - 1) === Name.Summary && tags.kind(j - 1) === Kind.Closer && onlyInvisible(this.text, tags.end(j - 1), tags.start(j))) {
						analysis.push(tags.start(i), tags.start(k), 0);
						i = k - 1;
						continue;
					}
					if (k < j && at32(nextSumClose, k) > j && (tags.flags(k) & (AT_LINE_START | AT_LINE_END)) === (AT_LINE_START | AT_LINE_END)) {
						// A summary opener, and no summary closer before the analysis closer: the summary was closed with </analysis>.
						analysis.push(tags.start(i), tags.start(k), 0);
						i = k - 1;
						continue;
					}
					analysis.push(tags.start(i), tags.end(j), 0);
					i = j;
				} else if ((j = at32(nextAny, i + 1)) < n) {
					analysis.push(tags.start(i), tags.end(j), 0);
					i = j;
				} else if ((e = this.fenceClosingAnalysis(i, wrongCloserEnd(tags, i, nextSumClose, nextSummary))) >= 0) {
					// Opened inside a fence that closes before the analysis would end: the model closed the fence, not the analysis.
					// Both fence lines are the analysis's.
					analysis.push(Math.max(this.fenceLine, analysis.n === 0 ? 0 : analysis.end(analysis.n - 1)), e, 0);
					while (i + 1 < n && tags.start(i + 1) < e) i++;
				} else if ((j = at32(nextSumClose, i + 1)) < at32(nextSummary, i + 1)) {
					// Closed by a summary closer before any summary opener: the wrong closer.
					analysis.push(tags.start(i), tags.end(j), 0);
					i = j;
				} else if ((j = at32(nextSummary, i + 1)) < n) {
					analysis.push(tags.start(i), tags.start(j), 0);
					i = j - 1;
				} else {
					analysis.push(tags.start(i), this.text.length, 0);
					this.openAnalysis = true;
					i = n;
				}
			} else if (name === Name.Example) {
				const j = at32(nextExample, i + 1);
				if (j < n) examples.push(tags.start(i), tags.end(j), 0);
			}
		}
		return regions;
	}

	// markInAnalysis marks the tags inside analysis blocks, both in text order.
	private markInAnalysis(analysis: Spans): void {
		const { n, starts, flagBits } = this.tags;
		for (let i = 0, r = 0; i < n && r < analysis.n; ) {
			const start = starts[i]!;
			if (start >= analysis.end(r)) r++;
			else {
				if (start >= analysis.start(r)) flagBits[i] = flagBits[i]! | IN_ANALYSIS;
				i++;
			}
		}
	}

	// widenInTags widens each of rs, the analysis blocks, to the tag it is written inside: a '<' before it on its line
	// with no '>' between, a '>' right after it.
	private widenInTags(rs: Spans): void {
		const text = this.text;
		for (let k = 0; k < rs.n; k++) {
			const start = rs.start(k);
			const end = rs.end(k);
			if (start === 0 || end >= text.length || text.charCodeAt(end) !== GT || text.charCodeAt(start) !== LT) continue;
			for (let p = start - 1; p >= 0; p--) {
				const c = text.charCodeAt(p);
				if (c === LT) {
					rs.setStart(k, p);
					rs.setEnd(k, end + 1);
					break;
				}
				if (c === GT || c === NL || c === CR || c === LS || c === PS || (c === NEL && this.nel)) break;
			}
		}
	}

	// rule "Blocks" and "Duplicates": the best summary block.
	blocks(analysis: Spans, examples: Spans, inline: boolean): { best: Candidate | undefined; seen: boolean } {
		const tags = this.tags;
		let fallbacks = MAX_FALLBACKS;
		const found = { best: undefined as Candidate | undefined, seen: false }; // made before the loop, as nextTags says why
		this.wrongCursor = -1;
		for (let i = 0; i < tags.n; i++) {
			if (tags.name(i) !== Name.Summary || tags.kind(i) !== Kind.Opener || tags.flags(i) & IN_CODE || (!tags.structural(i) && (!inline || this.htmlOnLine(i))) || tags.inAnalysis(i))
				continue;
			if (this.emptyBefore(i)) {
				found.seen = true; // an empty block ended by the next opener: the loop of a stuck model
				continue;
			}
			this.blockEnd(i, fallbacks > 0);
			if (this.endByFallback) fallbacks--;
			const c = this.candidate(i, this.endPos, this.endClosed, analysis, this.code);
			found.seen = true;
			if (c !== undefined && !(examples.contains(tags.start(i)) && isTemplate(c.body, this.nlOnly)) && (found.best === undefined || beats(c, found.best))) found.best = c;
			i = this.endNext;
		}
		return found;
	}

	// emptyBefore reports whether the block opened by tags[i] is empty and ends, unclosed, at
	// the next tag: a structural summary opener on a later line, after nothing but blanks, that
	// is no HTML element (blockEnd's answer for it, found without its setup).
	private emptyBefore(i: number): boolean {
		const tags = this.tags;
		if (i + 1 >= tags.n) return false;
		if (tags.name(i + 1) !== Name.Summary || tags.kind(i + 1) !== Kind.Opener || !tags.structural(i + 1) || tags.line(i + 1) === tags.line(i) || tags.start(i + 1) - tags.end(i) > 16) return false;
		if (i + 2 < tags.n) {
			if (tags.name(i + 2) === Name.Summary && tags.kind(i + 2) === Kind.Closer && tags.line(i + 2) === tags.line(i + 1)) return false; // <summary>Title</summary>: an HTML element inside the body
		}
		// The common gaps are one "\n" or "\r\n" (<summary> on line after line), read without a trim.
		const text = this.text;
		const from = tags.end(i);
		const to = tags.start(i + 1);
		const gap = to - from;
		const blanks = (gap === 1 && text.charCodeAt(from) === NL) || (gap === 2 && text.charCodeAt(from) === CR && text.charCodeAt(from + 1) === NL) || trimStart(text, from, to, this.nel ? INVISIBLE : INVISIBLE_NOT_NEL) === to;
		return blanks && !this.afterDetails(i + 1);
	}

	// htmlOnLine: a <details> element before the tag on its line.
	private htmlOnLine(i: number): boolean {
		const text = this.text;
		const b = trimEnd(text, this.tags.line(i), this.tags.start(i), JS);
		const a = trimStart(text, this.tags.line(i), b, JS);
		if (b === a || text.charCodeAt(b - 1) !== GT) return false;
		let lt = b - 1;
		while (lt >= a && text.charCodeAt(lt) !== LT) lt--;
		return lt >= a && lt + 8 <= b && foldAt(text, lt, "<details");
	}

	// blockEnd finds where the block that tags[i] opens ends (rule "Blocks") and leaves it in
	// endPos, endClosed, endNext, endByFallback and code.
	private blockEnd(i: number, fallbacks: boolean): void {
		const tags = this.tags;
		const fences = this.fences;
		this.code.n = 0;
		// The first fence line after the opener's line start. Openers come in text order: a
		// cursor moves over the fences once for every pass of blocks (the Go side's
		// fenceCursor), from the first where it is behind the opener (the next pass).
		let fi = this.fenceCursor;
		if (fi > 0 && fences.start(fi - 1) > tags.line(i)) fi = 0;
		while (fi < fences.n && fences.start(fi) <= tags.line(i)) fi++;
		this.fenceCursor = fi;
		if (fi === fences.n && !this.enderAfter(i)) {
			// Nothing after the opener can end the block and no fence line can change what
			// the loop below would see: it would read every tag to the end for the first
			// wrong closer. Found with a cursor instead, so that a loop of such blocks (each a
			// fallback) is read once, not once per block (the Go side's shortcut).
			const w = this.nextWrongCloser(i + 1);
			if (fallbacks && w < tags.n && !tags.inAnalysis(w)) this.setEnd(tags.start(w), true, w, true);
			else this.setEnd(this.text.length, false, tags.n, false);
			return;
		}
		const outer = fences.n === 0 ? 0 : this.fenceRightBefore(i, fi) || this.fenceBefore(i);
		const f = this.blockEndLoop(i, fi, outer);
		if (f === ENDED) return;
		if (fallbacks && f >= 0) this.setEnd(tags.start(f), true, f, true);
		else this.setEnd(this.text.length, false, tags.n, false);
	}

	private setEnd(pos: number, closed: boolean, next: number, byFallback: boolean): void {
		this.endPos = pos;
		this.endClosed = closed;
		this.endNext = next;
		this.endByFallback = byFallback;
	}

	// blockEndLoop reads the tags after tags[i], and the fence lines from fences[fi] on, for
	// blockEnd. Where a tag ends the block it leaves the end and returns ENDED; otherwise it
	// returns the closer a fallback ends the block at, -1 for none. Its loop is a function
	// returning a number, as findLastEnder says why: what follows the loop is a local.
	private blockEndLoop(i: number, fi: number, outer: number): number {
		const tags = this.tags;
		const fences = this.fences;
		const code = this.code;
		const text = this.text;
		let fence = false;
		let fenced = -1;
		let wrongCloser = -1;
		let fallback = -1; // the first wrong closer outside analysis blocks, else fenced
		let html = 0;
		let open = 0;
		for (let j = i + 1; j < tags.n; j++) {
			for (; fi < fences.n && fences.start(fi) <= tags.line(j); fi++) {
				const char = fences.char(fi);
				if (outer !== 0 && !fence && char === outer && this.bareFence(fi)) {
					outer = 0;
				} else if (!fence) {
					fence = true;
					open = char;
					code.push(fences.start(fi), text.length, 0);
				} else if (char === open) {
					fence = false;
					code.setEnd(code.n - 1, fences.end(fi));
				}
			}
			if (tags.name(j) === Name.Summary && tags.inAnalysis(j)) continue;
			if (tags.name(j) === Name.Analysis && tags.kind(j) === Kind.Closer && tags.structural(j) && !fence && wrongCloser < 0) {
				wrongCloser = j;
				if (!tags.inAnalysis(j)) fallback = j;
			}
			if (tags.name(j) !== Name.Summary || tags.flags(j) & IN_CODE) continue;
			if (fence) {
				if (fenced < 0 && tags.kind(j) === Kind.Closer && tags.structural(j)) {
					fenced = j;
					if (fallback < 0) fallback = j;
				}
				continue;
			}
			if (tags.kind(j) === Kind.Opener && (tags.line(j) !== tags.line(i) || !tags.structural(j)) && j + 1 < tags.n) {
				if (tags.name(j + 1) === Name.Summary && tags.kind(j + 1) === Kind.Closer && tags.line(j + 1) === tags.line(j)) {
					j++;
					continue;
				}
			}
			if (tags.kind(j) === Kind.Opener && tags.structural(j) && this.afterDetails(j)) {
				html++;
				continue;
			}
			if (tags.kind(j) === Kind.Closer && html > 0) {
				html--;
				continue;
			}
			if (tags.kind(j) === Kind.Opener && tags.structural(j)) {
				this.setEnd(tags.start(j), false, j - 1, false);
				return ENDED;
			}
			if (tags.kind(j) === Kind.Closer && (tags.structural(j) || tags.line(j) === tags.line(i))) {
				this.setEnd(tags.start(j), true, j, false);
				return ENDED;
			}
		}
		return fallback;
	}

	// enderAfter reports whether a tag after tags[i] could end a block in blockEnd's loop: a
	// summary closer, or a structural summary opener that is no HTML element, outside analysis
	// blocks and code spans. The last such tag is found once, from the end.
	private enderAfter(i: number): boolean {
		if (this.lastEnder === -2) this.lastEnder = this.findLastEnder();
		return this.lastEnder > i;
	}

	// findLastEnder returns the index of the last tag that can end a block (enderAfter), -1
	// for none. Its loop is a function returning a number: V8 may optimise the loop alone while
	// it runs (on stack replacement) and reuse that code on every later call, and such code
	// leaves, and is thrown away, at whatever follows the loop that had not yet run.
	private findLastEnder(): number {
		const tags = this.tags;
		for (let j = tags.n - 1; j >= 0; j--) {
			if (tags.name(j) !== Name.Summary || tags.inAnalysis(j) || tags.flags(j) & IN_CODE) continue;
			if (tags.kind(j) === Kind.Closer || (tags.structural(j) && !this.afterDetails(j))) return j;
		}
		return -1;
	}

	// nextWrongCloser returns the index of the first structural </analysis> at or after index
	// from (tags.n for none), blockEnd's wrong closer where no fence intervenes. The blocks
	// ask in text order, so a cursor moves forward once over the tags.
	private nextWrongCloser(from: number): number {
		if (this.wrongCursor < from) this.wrongCursor = wrongCloserFrom(this.tags, from);
		return this.wrongCursor;
	}

	// fenceClosingAnalysis: the end of the first bare fence line closing a fence opened on the
	// line before the unclosed analysis opener tags[i], where it starts before limit (the end of
	// the summary closer it would run to, -1 for none); -1 for none.
	private fenceClosingAnalysis(i: number, limit: number): number {
		// Without a summary closer to run to or a fence line in the text there is no line to
		// read (a loop of unclosed openers), as on the Go side.
		if (limit < 0 || this.fences.n === 0) return -1;
		const c = this.fenceBefore(i);
		if (c === 0) return -1;
		const text = this.text;
		for (let start = this.nextLine(this.lineEnd(this.tags.line(i))); start >= 0 && start < limit; ) {
			const end = this.lineEnd(start);
			const b = trimEnd(text, start, end, JS);
			let a = trimStart(text, start, b, JS);
			if (b - a >= 3 && text.charCodeAt(a) === c) {
				while (a < b && text.charCodeAt(a) === c) a++;
				if (a === b) return end;
			}
			start = this.nextLine(end);
		}
		return -1;
	}

	// bareFence: the fence line holds its fence characters alone (no info string).
	private bareFence(fi: number): boolean {
		const text = this.text;
		const f = this.fences;
		const b = trimEnd(text, f.start(fi), f.end(fi), JS);
		let a = trimStart(text, f.start(fi), b, JS);
		while (a < b && text.charCodeAt(a) === f.char(fi)) a++;
		return a === b;
	}

	private fenceLine = -1; // where the line fenceBefore read last starts
	private fenceCursor = 0; // blockEnd's first fence line after the last opener's line start

	// fenceRightBefore: the fence character of the fence line that ends right before the
	// line of tags[i], where the tag starts its line and fi is the first fence line after
	// that line's start: there fenceBefore, which reads the lines before it, returns the
	// same character; else 0 (the Go side's fenceRightBefore). A loop of fenced blocks asks
	// for each opener. Only a simple scan answers: its lines end at "\n" alone.
	private fenceRightBefore(i: number, fi: number): number {
		const line = this.tags.line(i);
		if (!this.simple || fi === 0 || this.tags.start(i) !== line) return 0;
		const f = this.fences;
		return f.end(fi - 1) + 1 === line && this.text.charCodeAt(f.end(fi - 1)) === NL ? f.char(fi - 1) : 0;
	}

	// fenceBefore: the fence character of a fence line opened on the last non-blank line
	// (of three) before the opener's, 0 for none (rule "Fences"); it leaves the line's start
	// in fenceLine. A fence line is one of the fence lines scanFences found: with none (a
	// loop of unclosed analysis openers asks for each) no line is read (the Go side's
	// mayHoldFence).
	private fenceBefore(i: number): number {
		const text = this.text;
		const start = this.tags.start(i);
		let l = this.tags.line(i);
		if (this.fences.n === 0 || !(this.tags.flags(i) & AT_LINE_START) || trimStart(text, l, start, JS) !== start) return 0;
		for (let n = 0; n < 3; n++) {
			if ((l = this.prevLine(l)) < 0) return 0;
			const end = this.lineEnd(l);
			const a = trimStart(text, l, end, JS);
			if (a < end) {
				this.fenceLine = l;
				return fenceAt(text, a, end);
			}
		}
		return 0;
	}

	private afterDetails(i: number): boolean {
		if (!this.details) return false;
		const flags = this.tags.flags(i);
		if (flags & DETAILS_READ) return (flags & AFTER_DETAILS) !== 0;
		const after = this.readAfterDetails(i);
		this.tags.mark(i, DETAILS_READ | (after ? AFTER_DETAILS : 0));
		return after;
	}

	private readAfterDetails(i: number): boolean {
		const text = this.text;
		let l = this.tags.line(i);
		let b = trimEnd(text, l, this.tags.start(i), JS);
		let a = trimStart(text, l, b, JS);
		for (let n = 0; a === b && n < 3; n++) {
			if ((l = this.prevLine(l)) < 0) break;
			b = trimEnd(text, l, this.lineEnd(l), JS);
			a = trimStart(text, l, b, JS);
		}
		return b - a >= 8 && foldAt(text, a, "<details") && text.charCodeAt(b - 1) === GT;
	}

	// candidate returns the block tags[i] opens, ending at end, or undefined where it is
	// degenerate: no content, or the template echoed.
	private candidate(i: number, end: number, closed: boolean, analysis: Spans, code: Spans): Candidate | undefined {
		const from = this.tags.end(i);
		const raw = this.cutRegions(from, end, analysis, code);
		// Its text is text[from:end] where no region was cut.
		const body = this.bodyOf(raw, raw.length === end - from ? from : -1, closed);
		if (body === undefined) return undefined;
		return { body, closed, start: this.tags.start(i), sections: this.bodySections };
	}

	// bodyOf returns blockBody's answer, remembering the last four from the second question
	// on: a loop of blocks asks the same text again (the Go side's scan.bodyOf). raw is
	// text[from:from+raw.length] where from >= 0. V8 makes a slice of SLICED characters or
	// more a view of the text, and compares two such views in its runtime (a dozenth of the
	// time of a loop of short blocks): where both are slices of the text, they are equal
	// where the text repeats itself from the one to the other, and a loop of blocks repeats
	// at one period, found once (repeatsFrom) and then known. An answer found again moves to
	// the newer copy, so that the period stays that of the loop.
	private bodyOf(raw: string, from: number, closed: boolean): string | undefined {
		this.bodySections = -1;
		if (this.bodies === undefined) {
			if (!this.bodyAsked) {
				this.bodyAsked = true;
				return this.blockBody(raw, closed);
			}
			this.bodies = [];
		}
		const n = raw.length;
		for (const m of this.bodies) {
			if (m.closed !== closed || m.raw.length !== n) continue;
			if (n >= SLICED && from >= 0 && m.from >= 0 ? this.sameSlices(Math.min(m.from, from), Math.max(m.from, from), n) : m.raw === raw) {
				if (from >= 0) m.from = from; // a position, not the string: no old object points at a new one
				// A body asked again is a loop's, whose candidates beats compares: counted once.
				if (m.sections < 0 && m.body !== undefined) m.sections = sectionCount(m.body);
				this.bodySections = m.sections;
				return m.body;
			}
		}
		const body = this.blockBody(raw, closed);
		const m = { raw, from, closed, body, sections: -1 };
		if (this.bodies.length < 4) this.bodies.push(m);
		else this.bodies[this.bodyNext] = m;
		this.bodyNext = (this.bodyNext + 1) % 4;
		return body;
	}

	// sameSlices reports whether text[a:a+n] and text[b:b+n] are equal (a <= b). Where they are
	// not in the known run, the run from b is found, reading no further than 64 times the
	// slices' length past b (the copies of a loop, found at once), and kept where it holds
	// them: a failed comparison (another block of the loop) keeps the run the loop's.
	private sameSlices(a: number, b: number, n: number): boolean {
		const period = b - a;
		if (period <= 0) return period === 0;
		if (period === this.runPeriod && b >= this.runFrom && b + n <= this.runEnd) return true;
		if (this.text.charCodeAt(b) !== this.text.charCodeAt(a)) return false;
		const end = repeatsFrom(this.text, b, period, 0, b + 64 * Math.max(n, 64));
		if (end < b + n) return false;
		this.runPeriod = period;
		this.runFrom = b;
		this.runEnd = end;
		return true;
	}

	// blockBody returns the body of a block from its text, analysis blocks cut out, or
	// undefined where it is degenerate.
	private blockBody(body: string, closed: boolean): string | undefined {
		const nlOnly = this.nlOnly;
		// What is left of a loop's block (the Go side's shortcut): the trims below take only a
		// partial closer, blanks, lines without content and a leading analysis block from the
		// ends, and no line gains content by that, so the block would be degenerate anyway.
		if (!hasContent(body, nlOnly)) return undefined;
		if (!closed) body = trimPartialCloser(body);
		body = trimRobust(body, this.nel);
		body = stripWrapperFence(body);
		body = removeNestedAnalysis(body);
		body = trimTagLines(body, this.nel);
		if (!hasContent(body, nlOnly) || isTemplate(body, nlOnly)) return undefined;
		return body;
	}

	// cutRegions returns text[from:to] without the regions rs (sorted, disjoint) that start
	// outside the fenced code of code.
	cutRegions(from: number, to: number, rs: Spans, code: Spans): string {
		const text = this.text;
		let i = this.firstRegionAfter(rs, from);
		if (i === rs.n || rs.start(i) >= to) return text.slice(from, to); // no region in it
		if (rs.end(i) >= to && code.n === 0) {
			// One region, which runs on past to (an analysis opened in the block that the next
			// opener ends): the part before it, what the loop below keeps (the Go side's
			// cutRegions).
			return text.slice(from, Math.max(from, rs.start(i)));
		}
		let out = "";
		let cut = false;
		for (; i < rs.n && rs.start(i) < to; i++) {
			if (code.n > 0 && code.contains(rs.start(i))) continue;
			cut = true;
			if (rs.start(i) > from) out += text.slice(from, rs.start(i));
			from = Math.max(from, rs.end(i));
		}
		if (!cut) return text.slice(from, to);
		if (from < to) out += text.slice(from, to);
		return out;
	}

	private regionHint = 0; // firstRegionAfter's last answer

	// firstRegionAfter is rs.search(pos). The blocks ask in text order, so it looks on
	// from its last answer first and searches only where that is far or behind (the Go
	// side's firstRegionAfter).
	private firstRegionAfter(rs: Spans, pos: number): number {
		let i = this.regionHint;
		if (i > rs.n || (i > 0 && rs.end(i - 1) > pos)) i = 0;
		for (let n = 0; i < rs.n && rs.end(i) <= pos; n++, i++) {
			if (n === 8) {
				i = rs.search(pos);
				break;
			}
		}
		this.regionHint = i;
		return i;
	}

	// rule "No tags": a summary marked without a block: before an orphan closer, after
	// [summary], or after a Summary heading or label.
	marker(analysis: Spans, examples: Spans): string | undefined {
		const text = this.text;
		let open = false; // a structural opener waits for the closer of its block
		let after = 0; // the end of the last structural tag
		let example = false; // the last structural tag closes an example block
		let openEnd = 0; // the end of the structural opener that open waits with
		let blockFrom = -1; // the body of the block the last structural tag closed, from blockFrom to blockTo
		let blockTo = -1;
		const tags = this.tags;
		for (let i = 0; i < tags.n; i++) {
			if (!tags.structural(i) || tags.inAnalysis(i)) continue;
			const prev = after;
			const afterExample = example;
			const prevFrom = blockFrom;
			const prevTo = blockTo;
			blockFrom = blockTo = -1;
			after = tags.end(i);
			example = tags.name(i) === Name.Example && tags.kind(i) === Kind.Closer && examples.contains(tags.start(i));
			if (tags.name(i) !== Name.Summary) continue;
			if (tags.kind(i) === Kind.Opener) {
				open = true;
				openEnd = tags.end(i);
				continue;
			}
			if (open) {
				open = false; // the closer of a block, which the blocks rule judged: no orphan
				blockFrom = openEnd;
				blockTo = tags.start(i);
				continue;
			}
			const k = analysis.search(tags.start(i));
			const afterAnalysis = k > 0 && analysis.end(k - 1) >= prev;
			const from = afterAnalysis ? analysis.end(k - 1) : prev;
			// Blanks alone trim to nothing, which has no content: a row of closers apart by a
			// space makes no string.
			if (asciiBlanks(text, from, tags.start(i))) continue;
			const body = trimRobust(text.slice(from, tags.start(i)), this.nel);
			if (hasContent(body, this.nlOnly) && (afterAnalysis || afterExample || sectionCount(body, 2) >= 2 || (prevFrom >= 0 && isTemplate(trimRobust(text.slice(prevFrom, prevTo), this.nel), this.nlOnly))))
				return body;
		}
		const lastAnalysis = analysis.n > 0 ? analysis.start(analysis.n - 1) : -1;
		let closeAt = -1;
		let failedClose = -2;
		const headingTried = [false, false]; // a heading before the last analysis block, one after it
		let ti = 0; // the first tag at or after start, where a line opens with '<'
		for (let start = 0; start >= 0; ) {
			if (headingTried[0] && (lastAnalysis <= start || headingTried[1])) {
				// Only a [summary] line can still be a marker: go to the next line with a '['.
				const k = text.indexOf("[", start);
				if (k < 0) break;
				start = this.lineStart(k, start);
			}
			// A line that opens with a tag is no marker line, and one whose tag is followed by a
			// line end ends there (a tag never spans a line end): a loop of tag lines is passed
			// without searching for its line ends.
			if (text.charCodeAt(start) === LT) {
				while (ti < tags.n && tags.start(ti) < start) ti++;
				// The tag lines of a run, in one loop.
				const from = start;
				for (; ti < tags.n && tags.start(ti) === start; ti++) {
					const e = tags.end(ti);
					const n = terminatorLen(text, e, this.nel);
					if (n === 0) break;
					start = e + n;
				}
				if (start !== from) continue;
			}
			if (!markerStart(text.charCodeAt(start))) {
				// Go to the next line that starts as a marker line may.
				const m = markerLine(text, start, this.nel);
				if (m < 0) break;
				start = m;
			}
			const end = this.lineEnd(start);
			const next = this.nextLine(end);
			if (start === end || !markerStart(text.charCodeAt(start)) || analysis.contains(start)) {
				start = next; // a marker line starts with a blank, '[', a heading mark or S
				continue;
			}
			const b = trimEnd(text, start, end, JS);
			const a = trimStart(text, start, b, JS);
			if (equalFoldAt(text, a, b, "[summary]")) {
				if (closeAt < end) {
					closeAt = indexBracketCloser(text, end);
					if (closeAt < 0) closeAt = text.length;
				}
				if (closeAt !== failedClose) {
					const body = trimRobust(this.cutRegions(end, closeAt, analysis, NO_SPANS), this.nel);
					if (hasContent(body, this.nlOnly)) return body;
					failedClose = closeAt;
				}
				start = next;
				continue;
			}
			const after = lastAnalysis > start ? 1 : 0;
			if (next >= 0 && !headingTried[after] && isSummaryLabel(text, a, b)) {
				headingTried[after] = true;
				const to = after === 1 ? lastAnalysis : text.length;
				const body = trimRobust(this.cutRegions(next, Math.max(next, to), analysis, NO_SPANS), this.nel);
				if (hasContent(body, this.nlOnly) && sectionCount(body, 3) >= 3) return body;
			} else if (this.nlOnly && next > start && text.charCodeAt(next) === text.charCodeAt(start) && (!headingTried[after] || !isSummaryLabel(text, a, b))) {
				// The line is neither [summary] nor a Summary label, and the lines that repeat it
				// whole (a loop of "\u200b<summary>" lines) are neither: passed at once.
				const p = next - start;
				start = next + Math.floor((repeatsFrom(text, next, p, 0) - next) / p) * p;
				continue;
			}
			start = next;
		}
		return undefined;
	}

	untagged(analysis: Spans): string | undefined {
		if (this.openAnalysis) return undefined;
		const end = firstCloserStart(this.tags, this.text.length);
		// The ends lose their tag lines as a block's body does (rule "Trim"): cutting a closed analysis block out of
		// "<analysis<analysis></analysis>>" leaves "<analysis>".
		const body = trimTagLines(trimRobust(trimPartialCloser(this.cutRegions(0, end, analysis, NO_SPANS)), this.nel), this.nel);
		if (!hasProse(body, this.nlOnly) || isToolCall(body, this.nlOnly) || isRefusal(body)) return undefined;
		return body;
	}
}

// firstCloserStart returns where the first structural summary closer outside analysis blocks
// starts, or none (untagged's loop, a function returning a number as Scan.findLastEnder says
// why).
function firstCloserStart(tags: Tags, none: number): number {
	for (let i = 0; i < tags.n; i++)
		if (tags.name(i) === Name.Summary && tags.kind(i) === Kind.Closer && tags.structural(i) && !tags.inAnalysis(i)) return tags.start(i);
	return none;
}

// beats: rule "Duplicates". Each candidate counts its sections the first time a comparison
// asks (an answer with one block never does).
function beats(c: Candidate, d: Candidate): boolean {
	if (c.sections < 0) c.sections = sectionCount(c.body);
	if (d.sections < 0) d.sections = sectionCount(d.body);
	if (c.sections !== d.sections) return c.sections > d.sections;
	if (c.closed !== d.closed) return c.closed;
	return c.start > d.start;
}

// trimPartialCloser: an unclosed body loses a partial closing tag at its end (rule "Truncation").
function trimPartialCloser(body: string): string {
	const lo = Math.max(0, body.length - "</summary".length); // a partial closer starts at or after lo
	let i = body.length - 1;
	while (i >= lo && body.charCodeAt(i) !== LT) i--;
	if (i < lo) return body;
	const frag = body.slice(i);
	if (foldAt("</summary", 0, frag) || foldAt("<summary", 0, frag)) return body.slice(0, i);
	return body;
}

// asciiBlanks reports whether s[i:j] holds only spaces, tabs and line feeds or carriage
// returns, which trimRobust trims whatever nel says.
function asciiBlanks(s: string, i: number, j: number): boolean {
	for (; i < j; i++) {
		const c = s.charCodeAt(i);
		if (c !== 32 && c !== 10 && c !== 9 && c !== 13) return false;
	}
	return true;
}

function trimRobust(s: string, nel: boolean): string {
	return trimSet(s, nel ? INVISIBLE : INVISIBLE_NOT_NEL);
}

// A tag line holds one summary, analysis or think tag alone, between invisible characters:
// its trimmed text matches /^<[ \t]*\/?[ \t]*([A-Za-z]*)[ \t]*>$/ with a tag's name. It is
// read from the tag's side of the line, so that a long line that is no tag line is not read
// to its end.
const isTagLineName = (name: Name | 0): boolean => name !== 0 && name !== Name.Example;
const blankInLine = (c: number): boolean => invisible(c) && !isTerminator(c);

// tagLineEnd returns the end of s's first line where it is a tag line, else -1.
function tagLineEnd(s: string): number {
	let p = 0;
	while (blankInLine(s.charCodeAt(p))) p++;
	if (s.charCodeAt(p) !== LT) return -1;
	p = skipBlanks(s, p + 1, s.length);
	if (s.charCodeAt(p) === SLASH) p = skipBlanks(s, p + 1, s.length);
	const from = p;
	while (isASCIILetter(s.charCodeAt(p))) p++;
	if (!isTagLineName(tagNameAt(s, from, p))) return -1;
	p = skipBlanks(s, p, s.length);
	if (s.charCodeAt(p) !== GT) return -1;
	p++;
	while (blankInLine(s.charCodeAt(p))) p++;
	return p === s.length || isTerminator(s.charCodeAt(p)) ? p : -1;
}

// tagLineStart returns the start of s's last line where it is a tag line, else -1.
function tagLineStart(s: string): number {
	const blankBefore = (p: number): number => {
		for (let c = s.charCodeAt(p - 1); p > 0 && (c === 32 || c === 9); c = s.charCodeAt(--p - 1));
		return p;
	};
	let p = s.length;
	while (p > 0 && blankInLine(s.charCodeAt(p - 1))) p--;
	if (p === 0 || s.charCodeAt(p - 1) !== GT) return -1;
	p = blankBefore(p - 1);
	const to = p;
	while (p > 0 && isASCIILetter(s.charCodeAt(p - 1))) p--;
	if (!isTagLineName(tagNameAt(s, p, to))) return -1;
	p = blankBefore(p);
	if (p > 0 && s.charCodeAt(p - 1) === SLASH) p = blankBefore(p - 1);
	if (p === 0 || s.charCodeAt(p - 1) !== LT) return -1;
	p--;
	while (p > 0 && blankInLine(s.charCodeAt(p - 1))) p--;
	return p === 0 || isTerminator(s.charCodeAt(p - 1)) ? p : -1;
}

// rule "Trim": the lines at the ends of a body that hold one summary, analysis or think tag alone.
function trimTagLines(body: string, nel: boolean): string {
	if (body.charCodeAt(0) !== LT && body.charCodeAt(body.length - 1) !== GT) return body;
	if (body.includes("```") || body.includes("~~~")) return body; // a tag line in fenced code is quoted
	while (body.charCodeAt(0) === LT) {
		const e = tagLineEnd(body);
		if (e < 0) break;
		body = trimRobust(e >= body.length ? "" : body.slice(nextLineAt(body, e)), nel);
	}
	while (body.charCodeAt(body.length - 1) === GT) {
		const start = tagLineStart(body);
		if (start < 0) break;
		body = trimRobust(body.slice(0, start), nel);
	}
	return body;
}

function stripWrapperFence(body: string): string {
	const nl = body.indexOf("\n");
	if (nl < 0 || fenceAt(body, 0, nl) === 0) return body;
	// The last line of the rest, once blanks and line ends are trimmed off its end.
	let e = body.length;
	for (let c = body.charCodeAt(e - 1); e > nl + 1 && (c === 32 || c === 9 || c === CR || c === NL); c = body.charCodeAt(--e - 1));
	const i = lastIndexNL(body, e - 1); // i >= nl
	if (fenceAt(body, i + 1, body.length) === 0 || countUpTo(body, "```", nl + 1, 2) > 1) return body;
	return body.slice(nl + 1, i > nl ? i : nl + 1).trim();
}

function removeNestedAnalysis(body: string): string {
	if (!foldAt(body, 0, "<analysis>")) return body;
	const end = body.search(/<\/analysis>/i); // ASCII case only: no u flag
	if (end < 0) return body;
	return body.slice(end + "</analysis>".length).trim();
}

// isSectionMark: what may stand before a section's number on its line.
const isSectionMark = (c: number): boolean => c === 32 || c === 9 || c === 35 || c === 42 || c === GT || c === 45; // space tab # * > -

// sectionCount: how many of the numbered sections 1 to 9 the body's lines start (rule
// "Duplicates"), counting no further than limit. A section's line is, after the marks
// " \t#*>-", a digit 1-9, '.' or ')' and one more character. Rather than split s into
// lines, it visits each '.' and ')' and reads around it: the digit before, the marks back
// to the start of the line (the start of s or after a terminator), the character after.
function sectionCount(s: string, limit = 9): number {
	let seen = 0;
	let n = 0;
	for (const punct of [".", ")"]) {
		for (let at = 1; n < limit && at < s.length; ) {
			const p = s.indexOf(punct, at);
			if (p < 0) break;
			at = p + 1;
			const d = s.charCodeAt(p - 1) - 48;
			if (d < 1 || d > 9 || seen & (1 << d) || p + 1 >= s.length || isTerminator(s.charCodeAt(p + 1))) continue;
			let i = p - 1;
			while (i > 0 && isSectionMark(s.charCodeAt(i - 1))) i--;
			if (i === 0 || isTerminator(s.charCodeAt(i - 1))) {
				seen |= 1 << d;
				n++;
			}
		}
	}
	return n;
}

// contentLine: the line s[i:j] says something: not only tags or a section heading.
function contentLine(s: string, i: number, j: number): boolean {
	j = trimEnd(s, i, j, GO);
	i = trimStart(s, i, j, GO);
	return i < j && !tagShapedOnly(s, i, j) && !isHeadingOnly(s, i, j);
}

// hasContent: some line of body says something (contentLine). The first two lines decide
// most bodies; a body that goes on saying nothing goes to hasContentLoop.
function hasContent(body: string, nlOnly: boolean): boolean {
	for (let i = 0, j = 0, quiet = 0; i <= body.length; i = nextLineAt(body, j), quiet++) {
		if (quiet === 2) return hasContentLoop(body, i, nlOnly);
		j = lineEndAt(body, i, nlOnly);
		if (contentLine(body, i, j)) return true;
	}
	return false;
}

// hasContentLoop is hasContent from the line at i on, where the lines before it say nothing,
// as the Go side's hasContentLoop. It keeps the last four lines found to say nothing and
// where each starts (contentLine is a function of the line alone): a body that loops over a
// few tag lines asks about each line of the loop once, and where an nlOnly body repeats from
// a line equal to one of them on, the repeat is passed.
function hasContentLoop(body: string, i: number, nlOnly: boolean): boolean {
	const said = ["", "", "", ""];
	const starts = [0, 0, 0, 0];
	let k = 0; // lines found to say nothing; the last four are in said
	for (let j = 0; i <= body.length; i = nextLineAt(body, j)) {
		j = lineEndAt(body, i, nlOnly);
		const line = body.slice(i, j);
		let hit = -1;
		for (let x = 0; x < k && x < 4; x++) {
			if (at(said, x) === line) {
				hit = x;
				break;
			}
		}
		if (hit < 0) {
			if (contentLine(body, i, j)) return true;
			said[k % 4] = line;
			starts[k % 4] = i;
			k++;
		} else if (nlOnly && j < body.length) {
			// From i on, the body repeats itself i - starts[hit] characters back up to p: each
			// line that ends before p is a line that many characters earlier, which says nothing.
			const p = repeatsFrom(body, i, i - at(starts, hit), j + 1 - i);
			j = body.lastIndexOf("\n", p - 1);
		}
	}
	return false;
}

// repeatsFrom returns the end of the run from position from on where s[x] === s[x-period],
// known for the first known characters, up to limit at most. The run is compared in chunks
// that double (string equality is a memory comparison), as the Go side's repeatsFrom.
function repeatsFrom(s: string, from: number, period: number, known: number, limit = s.length): number {
	limit = Math.min(limit, s.length);
	let p = from + known;
	for (let chunk = Math.max(known, 1); p < limit; chunk = Math.min(2 * chunk, 1 << 12)) {
		const m = Math.min(chunk, limit - p);
		if (s.slice(p, p + m) !== s.slice(p - period, p - period + m)) {
			while (s.charCodeAt(p) === s.charCodeAt(p - period)) p++; // fewer than m characters
			break;
		}
		p += m;
	}
	return p;
}

// TAG_ROW_ON is tagShapedOnly's loop after a token as a regular expression: blanks (any
// invisible character; \s is isJSSpace's set), then tokens each followed by blanks. On a
// long line it reads a character several times faster than the loop (a line of a thousand
// near-miss tags), on a short one it costs more than the loop does. Where it fails it
// backtracks over every token, and its stack holds about two million (RangeError beyond):
// it reads a megabyte at most (tagRowOn).
const TAG_ROW_ON = /^[\s\u200b-\u200d\u2060\u180e\u0085]*(?:<[^<>]*>[\s\u200b-\u200d\u2060\u180e\u0085]*)*$/;

// tagRowOn reads s[i:j], the rest of a line after a token, with TAG_ROW_ON in pieces of up
// to a megabyte that each end with a '>': where the rest is a row, each '>' ends a token, so
// the rest is a row if and only if each piece is. It returns whether the rest is a row, or,
// where a megabyte holds no '>' (a long token), the position from which tagShapedOnly's
// loop goes on.
function tagRowOn(s: string, i: number, j: number): boolean | number {
	while (j - i > 1 << 20) {
		const k = s.lastIndexOf(">", i + (1 << 20) - 1);
		if (k < i) return i;
		if (!TAG_ROW_ON.test(s.slice(i, k + 1))) return false;
		i = k + 1;
	}
	return TAG_ROW_ON.test(s.slice(i, j));
}

// tagShapedOnly: s[i:j] (trimmed) is a row of <...> tokens separated by blanks. A line of
// over 256 characters is read by the loop for its first eight tokens, then by TAG_ROW_ON;
// where it repeats itself from a token on (a looping model's row of tags), the loop passes
// the copies (tokensRepeat, at the 2nd, 4th and 8th token).
function tagShapedOnly(s: string, i: number, j: number): boolean {
	const long = j - i > 256;
	let from0 = -1; // where the token before the last one starts, for tokensRepeat
	let from1 = -1; // where the last token starts
	for (let n = 0; i < j; n++) {
		if (n === 0) {
			for (let c = s.charCodeAt(i); i < j && (c === 32 || c === 9); c = s.charCodeAt(++i));
			const k = trimStart(s, i, j, INVISIBLE); // a BOM or zero-width character before the first tag
			if (k === j || s.charCodeAt(k) === LT) i = k; // invisible characters alone are blank
		} else {
			while (j > i && invisible(s.charCodeAt(j - 1))) j--;
			if (n >= 8 && j - i > 256) {
				const on = tagRowOn(s, i, j);
				if (typeof on === "boolean") return on;
				i = on;
			}
			while (i < j && invisible(s.charCodeAt(i))) i++;
		}
		if (i === j) break;
		if (s.charCodeAt(i) !== LT) return false;
		if (long && (n === 2 || n === 4 || n === 8)) {
			const k = tokensRepeat(s, i, j, from0, from1);
			if (k > i) {
				from0 += k - i;
				from1 += k - i;
				i = k;
			}
		}
		from0 = from1;
		from1 = i;
		let m = i + 1;
		for (let c = s.charCodeAt(m); m < j && c !== LT && c !== GT; c = s.charCodeAt(++m));
		if (m === j || s.charCodeAt(m) !== GT) return false;
		i = m + 1;
	}
	return true;
}

// tokensRepeat returns where tagShapedOnly's loop may go on from the token at s[i], the
// tokens that start at from0 and from1 read before it (the Go side's tokensRepeat): where
// s[:j] repeats itself from i on, two tokens back or one (s[x] === s[x - period] from x = i
// on, period the length of those tokens and their blanks), each copy of them before the last
// '<' of the repeat is read as they were (a token, then blanks up to the next '<'), and the
// loop goes on at the last copy. It returns i where s does not repeat.
function tokensRepeat(s: string, i: number, j: number, from0: number, from1: number): number {
	for (const from of [from0, from1]) {
		const period = i - from;
		if (period <= 0 || i + period > j || !s.startsWith(s.slice(from, i), i)) continue;
		const p = Math.min(repeatsFrom(s, i, period, period), j);
		return i + Math.floor((p - 1 - i) / period) * period;
	}
	return i;
}

// isHeadingOnly: s[i:j] is a numbered section heading and nothing else ("2. Key Concepts:").
function isHeadingOnly(s: string, i: number, j: number): boolean {
	for (let c = s.charCodeAt(i); i < j && (c === 35 || c === 42 || c === 32); c = s.charCodeAt(++i));
	const d = s.charCodeAt(i);
	if (j - i < 3 || d < 49 || d > 57 || s.charCodeAt(i + 1) !== 46) return false;
	let e = j;
	for (let c = s.charCodeAt(e - 1); e > i && (c === 42 || c === 32); c = s.charCodeAt(--e - 1));
	if (e === i || s.charCodeAt(e - 1) !== 58) return false;
	return j - i < 60 || Array.from(s.slice(i, j)).length < 60;
}

// rule "Echoed templates": a body made of the prompt's placeholders.
function isTemplate(body: string, nlOnly: boolean): boolean {
	// Each placeholder line ends with a ']' (then blanks): once the other lines are as many
	// as such ']' of the body, the placeholders cannot outnumber them (the Go side's
	// lineEndBrackets; a ']' before a non-ASCII character counts, as that may be a space).
	let brackets = 0;
	for (let k = body.indexOf("]"); k >= 0; k = body.indexOf("]", k + 1)) {
		let i = k + 1;
		for (let c = body.charCodeAt(i); c === 32 || c === 9 || c === 11 || c === 12; c = body.charCodeAt(++i));
		const c = body.charCodeAt(i);
		if (i === body.length || c === NL || c === CR || c >= 0x80) brackets++;
	}
	if (brackets < 3) return false;
	let placeholders = 0;
	let content = 0;
	for (let i = 0, j = 0; i <= body.length; i = nextLineAt(body, j)) {
		j = lineEndAt(body, i, nlOnly);
		let b = trimEnd(body, i, j, GO);
		let a = trimStart(body, i, b, GO);
		for (let c = body.charCodeAt(a); a < b && (c === 45 || c === 42); c = body.charCodeAt(++a));
		b = trimEnd(body, a, b, GO);
		a = trimStart(body, a, b, GO);
		if (a === b || isHeadingOnly(body, a, b)) continue;
		if (isPlaceholder(body, a, b)) placeholders++;
		else if (++content >= brackets) return false;
	}
	return placeholders >= 3 && placeholders > content;
}

// A placeholder of the prompt: a bracketed phrase with a word of three letters or more, or [...].
function isPlaceholder(s: string, i: number, j: number): boolean {
	if (j - i < 2 || s.charCodeAt(i) !== 91 || s.charCodeAt(j - 1) !== 93) return false;
	if (j - i === 5 && s.startsWith("...", i + 1)) return true;
	let run = 0;
	for (let k = i + 1; k < j - 1 && run < 3; k++) run = isASCIILetter(s.charCodeAt(k)) ? run + 1 : 0;
	return run >= 3;
}

// markerStart reports whether a line starting with c can be a marker line: "[summary]", or
// a Summary label after blanks and marks (non-ASCII characters may be JavaScript blanks).
function markerStart(c: number): boolean {
	switch (c) {
		case 91: // [
		case 35: // #
		case 42: // *
		case 95: // _
		case 58: // :
		case 32:
		case 9:
		case 11:
		case 12:
		case 115: // s
		case 83: // S
			return true;
	}
	return c >= 0x80;
}

// markerLine returns the start of the first line after from that starts with a
// markerStart character (or with a terminator: an empty line), or -1. U+0085 ends lines
// where nel says so.
function markerLine(text: string, from: number, nel: boolean): number {
	const re = nel ? /[\n\r\u0085\u2028\u2029][\t\v\f #*:_[sS\u0080-\uffff]/g : /[\n\r\u2028\u2029][\t\v\f #*:_[sS\u0080-\uffff]/g;
	re.lastIndex = from;
	const m = re.exec(text);
	return m === null ? -1 : m.index + 1;
}

// isSummaryLabel: s[i:j] (trimmed) is a Summary heading or label: "## Summary", "**Summary:**".
function isSummaryLabel(s: string, i: number, j: number): boolean {
	return labelIs(s, i, j, "summary");
}

// isLabelChar: what a label or heading puts around its word: # * _ space :
const isLabelChar = (c: number): boolean => c === 35 || c === 42 || c === 95 || c === 32 || c === 58;

// labelIs: s[i:j] is word, in any case, between label characters.
function labelIs(s: string, i: number, j: number, word: string): boolean {
	while (j > i && isLabelChar(s.charCodeAt(j - 1))) j--;
	while (i < j && isLabelChar(s.charCodeAt(i))) i++;
	return equalFoldAt(s, i, j, word);
}

// hasProse is hasContent without Summary and Analysis labels ("Summary:", "## Summary") and
// code fence lines. A line's answer depends on the line alone, so where "\n" is the only
// terminator the copies of a line that follow it (a loop of one line) need no second look.
function hasProse(body: string, nlOnly: boolean): boolean {
	for (let i = 0, j = 0; i <= body.length; i = nextLineAt(body, j)) {
		j = lineEndAt(body, i, nlOnly);
		if (isProseLine(body, i, j)) return true;
		if (nlOnly && j < body.length) j += repeatedLines(body, j + 1, j + 1 - i) * (j + 1 - i);
	}
	return false;
}

function isProseLine(s: string, i: number, j: number): boolean {
	const b = trimEnd(s, i, j, GO);
	const a = trimStart(s, i, b, GO);
	if (labelIs(s, a, b, "summary") || labelIs(s, a, b, "analysis") || fenceAt(s, a, b) !== 0) return false;
	return a < b && !tagShapedOnly(s, a, b) && !isHeadingOnly(s, a, b);
}

// repeatedLines returns how many whole copies of s[at-p:at] follow at at. It compares in
// strides that double while they match, then halve (string equality is a memory
// comparison), so that a loop of one line costs a few comparisons.
function repeatedLines(s: string, at: number, p: number): number {
	const same = (from: number, n: number): boolean => from + n <= s.length && s.slice(from, from + n) === s.slice(from - p, from - p + n);
	let good = 0; // s[at:at+good] is copies of the unit
	let step = p;
	for (; same(at + good, step); step *= 2) good += step;
	for (step /= 2; step >= p; step /= 2) if (same(at + good, step)) good += step;
	return good / p;
}

function isToolCall(body: string, nlOnly: boolean): boolean {
	// Such a line holds one of the markup prefixes at a '<', or a '{': a body with neither is
	// answered without splitting it into lines.
	// The expression reads a body without '<' several times slower than indexOf does.
	if (body.indexOf("{") < 0 && (body.indexOf("<") < 0 || !/<(?:function_calls|invoke|tool_call|tool_use)/i.test(body))) return false; // ASCII case only: no u flag
	for (let i = 0, j = 0; i <= body.length; i = nextLineAt(body, j)) {
		j = lineEndAt(body, i, nlOnly);
		const b = trimEnd(body, i, j, GO);
		const a = trimStart(body, i, b, GO);
		const c = body.charCodeAt(a);
		if (a === b || (c !== LT && c !== 123)) continue;
		if (c === LT) {
			for (const p of ["<function_calls", "<invoke", "<tool_call", "<tool_use"]) if (b - a >= p.length && foldAt(body, a, p)) return true;
			continue;
		}
		const l = body.slice(a, b);
		if (l.includes('"tool_use"') || l.includes('"tool_calls"') || l.includes('"function_call"')) return true;
	}
	return false;
}

function isRefusal(body: string): boolean {
	for (const p of ["i can't", "i can\u2019t", "i cannot", "i can not", "i'm unable", "i\u2019m unable", "i am unable", "i won't", "i won\u2019t", "i will not", "i'm sorry", "i\u2019m sorry", "sorry, i"])
		if (foldAt(body, 0, p)) return true;
	return false;
}

// SHAPE_TAG matches the four tags of the well-formed shape as the prompt spells them.
const SHAPE_TAG = /<\/?(?:summary|analysis)>/g;

// shapeTags returns the position of each of the four tags of the well-formed shape in s
// (<summary>, </summary>, <analysis>, </analysis>; -1 for none), or undefined where any of
// them occurs twice (the Go side's shapeTags). Four indexOf calls for the tags cost sixteen
// times the Go time on lines of "<summary a="yyy...">", where the search for "<summary>"
// shifts one character at a time over the y's: it reads each '<' instead, and where they
// are dense (a line of them), where a call for each costs more, a regular expression
// reads the rest.
function shapeTags(s: string): number[] | undefined {
	const at = [-1, -1, -1, -1];
	const put = (w: number, i: number): boolean => {
		if (at[w] !== -1) return false;
		at[w] = i;
		return true;
	};
	let budget = 64 + (s.length >> 5);
	for (let i = s.indexOf("<"); i >= 0; i = s.indexOf("<", i + 1)) {
		if (--budget < 0) {
			SHAPE_TAG.lastIndex = i;
			for (let m = SHAPE_TAG.exec(s); m !== null; m = SHAPE_TAG.exec(s)) {
				const slash = s.charCodeAt(m.index + 1) === SLASH ? 1 : 0;
				if (!put((s.charCodeAt(m.index + 1 + slash) === 115 ? 0 : 2) + slash, m.index)) return undefined;
			}
			return at;
		}
		const c = s.charCodeAt(i + 1);
		let w = -1;
		if (c === 115) {
			if (s.startsWith("summary>", i + 1)) w = 0;
		} else if (c === 97) {
			if (s.startsWith("analysis>", i + 1)) w = 2;
		} else if (c === SLASH) {
			if (s.startsWith("/summary>", i + 1)) w = 1;
			else if (s.startsWith("/analysis>", i + 1)) w = 3;
		}
		if (w >= 0 && !put(w, i)) return undefined;
	}
	return at;
}

// wellFormed: the answer the prompt asks for, where the seed's line-anchored result is kept.
// The shape (one summary opener and closer, at most one analysis block before them, tags
// alone on their lines, "\n" line ends) fixes where the seed's pattern
// /^[ \t]*<summary>[ \t]*\n([\s\S]*)\n[ \t]*<\/summary>[ \t]*$/m matches, so the summary is
// read off the tags' positions.
function wellFormed(text: string, ends: LineEnds): string | undefined {
	// The shape ends with "\n</summary>" (then blanks): most other answers fail that at once,
	// before shapeTags reads every '<' (a line of near-miss tags).
	if (ends.lt < 0 || !text.endsWith("\n</summary>", trimEnd(text, 0, text.length, JS))) return undefined;
	const s = text.trim();
	const at = shapeTags(s);
	if (at === undefined) return undefined;
	const [open, close, analysis, aclose] = at as [number, number, number, number];
	if (open < 0 || close < 0 || close + "</summary>".length !== s.length || close < open) return undefined;
	const analyses = analysis >= 0 ? 1 : 0;
	if ((aclose >= 0 ? 1 : 0) !== analyses || ((ends.cr || ends.nel || ends.sep) && !onlyNewlines(s))) return undefined;
	if (analyses === 1 && (!s.startsWith("<analysis>\n") || s.charCodeAt(aclose - 1) !== NL || s.charCodeAt(aclose + "</analysis>".length) !== NL || aclose > open))
		return undefined;
	// Each tag alone on its line: "\n<summary>\n" ... "\n</summary>", at the end.
	if (open === 0 || s.charCodeAt(open - 1) !== NL || s.charCodeAt(open + "<summary>".length) !== NL || s.charCodeAt(close - 1) !== NL) return undefined;
	// The pattern's two "\n" are distinct, and what follows the closer in the text is
	// blanks up to a line end or the end.
	const bodyStart = open + "<summary>\n".length;
	if (bodyStart > close - 1) return undefined;
	const lead = text.length - text.trimStart().length;
	let k = lead + s.length;
	for (let c = text.charCodeAt(k); k < text.length && (c === 32 || c === 9); c = text.charCodeAt(++k));
	const c = text.charCodeAt(k);
	if (k < text.length && c !== NL && c !== CR && c !== LS && c !== PS) return undefined;
	const summary = s.slice(bodyStart, close - 1).trim();
	// Headings alone are no summary, however well the tags are placed.
	if (summary === "" || sectionCount(summary, 5) < 5 || fenceAt(summary, 0, lineEndAt(summary, 0, true)) !== 0 || !hasContent(summary, true)) return undefined;
	return summary;
}

// The fast path: the answer most models write, one summary block (after an optional
// analysis block) with tags alone on their lines, however many tags the prose mentions. It
// reads each '<' once, keeps only the structural tags, and gives up (the full scan then
// decides) on anything whose effect it would have to work out: a tag after a closer, an
// opener with attributes, a mid-line analysis closer, a structural tag outside the shape, a
// long run of blanks next to a tag, a block without content. Where it answers, it returns
// what the full scan returns (the Go twin, compact/robust_fast.go, is held to that by
// FuzzRobustFastAgrees; this one by TestRobustTypeScriptAgrees).

// FAST_WALK bounds the blanks read next to one tag: a longer run sends the text to the full
// scan, so that a line of many tags after a long blank prefix is not read once per tag.
const FAST_WALK = 64;

// GIVE_UP is fastBlock's answer where the full scan has to decide.
const GIVE_UP = null;

// fastBlock returns the summary of text, undefined for none, or GIVE_UP.
function fastBlock(text: string, ends: LineEnds): string | undefined | typeof GIVE_UP {
	if (!ends.nl || ends.lt < 0) return GIVE_UP; // with a "\n" somewhere, U+0085 is no line terminator
	// The structural tags, in text order: start, end, name, kind, at line start.
	const st = new Int32Array(4 * 5);
	let n = 0;
	let tags = 0;
	let lastEnd = -1; // the end of the previous tag where it is a closer
	for (let pos = 0; pos < text.length; ) {
		if (tags > pos / 32 + 64) return GIVE_UP; // a loop of mentions, not prose that mentions tags
		const i = nextTagStart(text, pos);
		if (i < 0) break;
		// The tag at i, read as Scan.parseTag reads it: blanks never end a line, so the
		// line's end needs no search.
		let j = skipBlanks(text, i + 1, text.length);
		let kind: Kind = Kind.Opener;
		if (text.charCodeAt(j) === SLASH) {
			kind = Kind.Closer;
			j = skipBlanks(text, j + 1, text.length);
		}
		let k = j;
		while (isASCIILetter(text.charCodeAt(k))) k++;
		const name = tagNameAt(text, j, k);
		if (name === 0) {
			pos = i + 1;
			continue;
		}
		let end = k + 1;
		if (text.charCodeAt(k) !== GT) {
			if (kind === Kind.Opener && text.charCodeAt(k) === 32) return GIVE_UP; // attributes: the full scan finds the end
			const k2 = skipBlanks(text, k, text.length);
			if (text.charCodeAt(k2) !== GT) {
				pos = i + 1;
				continue;
			}
			end = k2 + 1;
		}
		pos = end;
		tags++;
		const p = fastBlanksBefore(text, i);
		if (p === -1 || (p >= 0 && p === lastEnd)) return GIVE_UP; // a long blank run, or a tag right after a closer
		lastEnd = kind === Kind.Closer ? end : -1;
		const lineStart = p === -2;
		let isStructural = lineStart;
		if (!isStructural && kind === Kind.Closer) {
			const after = fastBlanksAfter(text, end);
			if (after < 0) return GIVE_UP;
			isStructural = after === 1;
		}
		if (!isStructural) {
			if (kind === Kind.Closer && (name === Name.Analysis || name === Name.Think)) return GIVE_UP; // may close a mid-line analysis opener
			continue; // a mention: inert in this shape
		}
		if (n === 4) return GIVE_UP;
		st.set([i, end, name, kind, lineStart ? 1 : 0], n * 5);
		n++;
	}
	const is = (m: number, name: Name, kind: Kind): boolean => at32(st, m * 5 + 2) === name && at32(st, m * 5 + 3) === kind;
	const analysisAt = (m: number, kind: Kind): boolean => (is(m, Name.Analysis, kind) || is(m, Name.Think, kind));
	let open = 0;
	if (n === 4 && analysisAt(0, Kind.Opener) && analysisAt(1, Kind.Closer)) open = 2;
	else if (n !== 2) return GIVE_UP;
	const close = open + 1;
	if (!is(open, Name.Summary, Kind.Opener) || !is(close, Name.Summary, Kind.Closer) || at32(st, close * 5 + 4) !== 1) return GIVE_UP;
	if (fastBlanksAfter(text, at32(st, open * 5 + 1)) !== 1) return GIVE_UP; // a tag after the opener on its line would end the block
	// Scan.candidate for a closed block with no analysis inside; one block, so no sections to compare.
	let body = trimRobust(text.slice(at32(st, open * 5 + 1), at32(st, close * 5)), false);
	body = stripWrapperFence(body);
	body = removeNestedAnalysis(body);
	const nlOnly = !(ends.cr || ends.nel || ends.sep) || onlyNewlines(body);
	if (!hasContent(body, nlOnly) || isTemplate(body, nlOnly)) return GIVE_UP;
	return body;
}

// fastBlanksBefore walks back from i over invisible characters: it returns -2 where it
// reached the start of the line, -1 after FAST_WALK characters, else where it stopped.
function fastBlanksBefore(text: string, i: number): number {
	for (let p = i; i - p <= FAST_WALK; p--) {
		if (p === 0) return -2;
		const c = text.charCodeAt(p - 1);
		if (c === NL || c === CR || c === LS || c === PS) return -2;
		if (c === 32 || c === 9 || c === 11 || c === 12) continue;
		if (c < 0x80 || !invisible(c)) return p;
	}
	return -1;
}

// fastBlanksAfter: 1 where only invisible characters follow e on its line (a closer there
// ends its line), 0 where something else does, -1 after FAST_WALK characters.
function fastBlanksAfter(text: string, e: number): number {
	for (let q = e; q - e <= FAST_WALK; q++) {
		if (q === text.length) return 1;
		const c = text.charCodeAt(q);
		if (c === NL || c === CR || c === LS || c === PS) return 1;
		if (c === 32 || c === 9 || c === 11 || c === 12) continue;
		if (c < 0x80 || !invisible(c)) return 0;
	}
	return -1;
}

/**
 * extractSummary returns the summary of a compaction answer, or undefined when it holds
 * none. Same signature as the seed module's extractSummary.
 */
export function extractSummary(text: string): string | undefined {
	const ends = lineEndsOf(text);
	const wf = wellFormed(text, ends);
	if (wf !== undefined) return wf;
	const fast = fastBlock(text, ends);
	if (fast !== GIVE_UP) return fast;
	const sc = new Scan(text, ends);
	const { analysis, examples } = sc.regions();
	let { best, seen } = sc.blocks(analysis, examples, false);
	if (best === undefined && sc.inlineOpeners > 0) {
		const inline = sc.blocks(analysis, examples, true);
		best = inline.best;
		seen = seen || inline.seen;
	}
	if (best !== undefined) return best.body;
	const m = sc.marker(analysis, examples);
	if (m !== undefined) return m;
	if (!seen) return sc.untagged(analysis);
	return undefined;
}
