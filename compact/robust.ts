// robust.ts: compacteval's robust summary extractor as a drop-in replacement for
// `extractSummary` of the seed compaction module (../shared/seed/compaction.ts):
//
//     import { extractSummary } from "./robust";
//
// It is the TypeScript twin of compacteval's Go `compact.ExtractRobust` (compact/robust.go,
// robust_scan.go, robust_policy.go), whose doc comment states the policy; the two are held
// equal by a differential test (compact/robust_ts_test.go) on the corpus, the drift matrix and
// generated inputs. It has no dependencies and runs in time linear in the length of the text.
// The npm package @compacteval/robust (npm/robust, make npm-robust) is this file, types stripped.
//
// On a well-formed answer (an analysis block, then one summary block, tags alone on their
// lines) it returns exactly what the seed's extractSummary returns. Otherwise it never loses
// a summary a careful reader sees (tags in any letter case, with attributes or spaces, one
// letter misspelled, right after a closing tag or after prose on a line; untagged answers
// return their text minus analysis), and never returns the text of a closed analysis block
// or a bare tag. It returns undefined where there is no summary.

// Plain const objects rather than const enums, so Node's type stripping runs this file.
const Kind = { Opener: 0, Closer: 1 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

const Name = { Summary: 1, Analysis: 2, Think: 3, Example: 4 } as const;
type Name = (typeof Name)[keyof typeof Name];

// How many blocks may end at a fallback closer: each such block has scanned to the end.
const MAX_FALLBACKS = 8;

const AT_LINE_START = 1;
const AT_LINE_END = 2;
const IN_CODE = 4;
const AFTER_CLOSER = 8;

interface Tag {
	start: number;
	end: number;
	line: number; // start of its line
	name: Name;
	kind: Kind;
	flags: number;
}

interface FenceLine {
	start: number;
	end: number;
	char: string;
}

interface Region {
	start: number;
	end: number;
}

interface Candidate {
	body: string;
	closed: boolean;
	sections: number;
	start: number;
	degenerate: boolean;
}

// at returns xs[i]; every caller indexes within bounds, so undefined is a broken invariant.
function at<T>(xs: ArrayLike<T>, i: number): T {
	const x = xs[i];
	if (x === undefined) throw new RangeError(`robust: index ${i} out of range [0, ${xs.length})`);
	return x;
}

function isJSSpace(c: string): boolean {
	switch (c) {
		case "\t":
		case "\n":
		case "\v":
		case "\f":
		case "\r":
		case " ":
		case "\u00a0":
		case "\u1680":
		case "\u2028":
		case "\u2029":
		case "\u202f":
		case "\u205f":
		case "\u3000":
		case "\ufeff":
			return true;
	}
	return c >= "\u2000" && c <= "\u200a" && c.length === 1;
}

// Go's unicode.IsSpace, which strings.TrimSpace uses on the Go side: JavaScript's set
// without U+FEFF, with U+0085.
function isGoSpace(c: string): boolean {
	return (isJSSpace(c) && c !== "\ufeff") || c === "\u0085";
}

function invisible(c: string): boolean {
	return isJSSpace(c) || c === "\u200b" || c === "\u200c" || c === "\u200d" || c === "\u2060" || c === "\u180e" || c === "\u0085";
}

function onlyInvisible(s: string): boolean {
	for (let i = 0; i < s.length; i++) if (!invisible(s.charAt(i))) return false;
	return true;
}

function trimFunc(s: string, cut: (c: string) => boolean): string {
	let i = 0;
	let j = s.length;
	while (i < j && cut(s.charAt(i))) i++;
	while (j > i && cut(s.charAt(j - 1))) j--;
	return s.slice(i, j);
}

const trimJS = (s: string): string => trimFunc(s, isJSSpace);
const trimSpaceGo = (s: string): string => trimFunc(s, isGoSpace);

function trimLeftSet(s: string, set: string): string {
	let i = 0;
	while (i < s.length && set.includes(s.charAt(i))) i++;
	return s.slice(i);
}

function trimRightSet(s: string, set: string): string {
	let j = s.length;
	while (j > 0 && set.includes(s.charAt(j - 1))) j--;
	return s.slice(0, j);
}

function lowerASCII(c: number): number {
	return c >= 65 && c <= 90 ? c + 32 : c;
}

// foldAt reports whether s holds p at i, ASCII letters in any case (i + p.length <= s.length).
function foldAt(s: string, i: number, p: string): boolean {
	for (let k = 0; k < p.length; k++) if (lowerASCII(s.charCodeAt(i + k)) !== lowerASCII(p.charCodeAt(k))) return false;
	return true;
}

const equalFold = (a: string, b: string): boolean => a.length === b.length && foldAt(a, 0, b);
const hasPrefixFold = (s: string, p: string): boolean => s.length >= p.length && foldAt(s, 0, p);

function indexFold(s: string, sub: string, from: number): number {
	for (let i = from; i + sub.length <= s.length; i++) if (foldAt(s, i, sub)) return i;
	return -1;
}

function count(s: string, sub: string): number {
	let n = 0;
	for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
	return n;
}

const isASCIILetter = (c: string): boolean => /^[A-Za-z]$/.test(c);

function skipBlanks(s: string, i: number, end: number): number {
	while (i < end && (s[i] === " " || s[i] === "\t")) i++;
	return i;
}

// terminatorLen: the line terminator at s[i]; U+0085 only where nel says so.
function terminatorLen(s: string, i: number, nel: boolean): number {
	switch (s[i]) {
		case "\n":
		case "\u2028":
		case "\u2029":
			return 1;
		case "\r":
			return s[i + 1] === "\n" ? 2 : 1;
		case "\u0085":
			return nel ? 1 : 0;
	}
	return 0;
}

// eachLine splits at every terminator, U+0085 included, as the Go side's eachLine does.
function eachLine(s: string, f: (line: string) => boolean): void {
	for (const line of s.split(/\r\n|[\n\r\u0085\u2028\u2029]/)) if (!f(line)) return;
}

function summaryMisspelling(name: string): boolean {
	const want = "summary";
	if (name.length < want.length - 1 || name.length > want.length + 1 || name === want || !name.startsWith("su")) return false;
	let a = name;
	let b = want;
	if (a.length > b.length) [a, b] = [b, a];
	let i = 0;
	while (i < a.length && a[i] === b[i]) i++;
	if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
	return a.slice(i) === b.slice(i + 1);
}

function tagNameOf(s: string): Name | 0 {
	if (s.length < 5 || s.length > 8) return 0;
	if (equalFold(s, "summary")) return Name.Summary;
	if (equalFold(s, "analysis")) return Name.Analysis;
	if (equalFold(s, "example")) return Name.Example;
	if (equalFold(s, "think") || equalFold(s, "thinking")) return Name.Think;
	return summaryMisspelling(s.toLowerCase()) ? Name.Summary : 0;
}

const analysisLike = (t: Tag): boolean => t.name === Name.Analysis || t.name === Name.Think;

function structural(t: Tag): boolean {
	if (t.flags & IN_CODE) return false;
	return (t.flags & (AT_LINE_START | AFTER_CLOSER)) !== 0 || (t.kind === Kind.Closer && (t.flags & AT_LINE_END) !== 0);
}

function inRegions(rs: Region[], pos: number): boolean {
	let lo = 0;
	let hi = rs.length;
	while (lo < hi) {
		const m = (lo + hi) >> 1;
		if (at(rs, m).end > pos) hi = m;
		else lo = m + 1;
	}
	return lo < rs.length && at(rs, lo).start <= pos;
}

function searchRegions(rs: Region[], from: number): number {
	let lo = 0;
	let hi = rs.length;
	while (lo < hi) {
		const m = (lo + hi) >> 1;
		if (at(rs, m).end > from) hi = m;
		else lo = m + 1;
	}
	return lo;
}

function isFenceLine(line: string): boolean {
	return fenceOf(line) !== "";
}

function fenceOf(line: string): string {
	const l = trimJS(line);
	if (l.startsWith("```")) return "`";
	if (l.startsWith("~~~")) return "~";
	return "";
}

class Scan {
	readonly text: string;
	readonly nel: boolean;
	readonly simple: boolean;
	tags: Tag[] = [];
	fences: FenceLine[] = [];
	inlineOpeners = 0;
	openAnalysis = false;
	private details = -1;
	private gtAt = -1;
	private ltAt = -1;

	constructor(text: string) {
		this.text = text;
		this.nel = text.includes("\u0085") && !/[\n\r]/.test(text);
		this.simple = !this.nel && !/[\r\u2028\u2029]/.test(text);
		this.scanTags();
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
			const k = this.text.lastIndexOf("\n", i - 1);
			return k < lo ? lo : k + 1;
		}
		for (let j = i; j > lo; j--) if (this.endsTerminator(j)) return j;
		return lo;
	}

	endsTerminator(j: number): boolean {
		const c = this.text[j - 1];
		if (c === "\n" || c === "\r" || c === "\u2028" || c === "\u2029") return true;
		return c === "\u0085" && this.nel;
	}

	nextLine(end: number): number {
		if (end >= this.text.length) return -1;
		return end + terminatorLen(this.text, end, this.nel);
	}

	prevLine(start: number): number {
		if (start === 0) return -1;
		const n = this.text[start - 1] === "\n" && start >= 2 && this.text[start - 2] === "\r" ? 2 : 1;
		return this.lineStart(start - n, 0);
	}

	private scanTags(): void {
		const text = this.text;
		let lineEnd = -1;
		let lineStart = 0;
		let firstVisible = 0;
		let contentEnd = 0;
		let lastTick = -1;
		let tickPos = 0;
		let ticks = 0;
		const next = { gt: -1, lt: -1 };
		let prev = -1;
		for (let pos = 0; pos < text.length; ) {
			const i = text.indexOf("<", pos);
			if (i < 0) break;
			if (i >= lineEnd) {
				const lo = lineEnd >= 0 ? this.nextLine(lineEnd) : 0;
				lineStart = this.lineStart(i, lo);
				lineEnd = this.lineEnd(i);
				firstVisible = lineStart;
				while (firstVisible < lineEnd && invisible(text.charAt(firstVisible))) firstVisible++;
				contentEnd = lineEnd;
				while (contentEnd > lineStart && invisible(text.charAt(contentEnd - 1))) contentEnd--;
				lastTick = text.slice(i, lineEnd).lastIndexOf("`");
				if (lastTick >= 0) lastTick += i;
				tickPos = lineStart;
				ticks = 0;
				next.gt = -1;
				next.lt = -1;
				prev = -1;
			}
			ticks += count(text.slice(tickPos, i), "`");
			tickPos = i;
			const t = this.parseTag(i, lineEnd, next);
			if (t === undefined) {
				pos = i + 1;
				continue;
			}
			t.line = lineStart;
			if (i === firstVisible) t.flags |= AT_LINE_START;
			if (t.end >= contentEnd) t.flags |= AT_LINE_END;
			if (ticks % 2 === 1 && lastTick >= t.end) t.flags |= IN_CODE;
			if (prev >= 0 && at(this.tags, prev).kind === Kind.Closer && onlyInvisible(text.slice(at(this.tags, prev).end, i))) t.flags |= AFTER_CLOSER;
			prev = this.tags.length;
			if (t.name === Name.Summary && t.kind === Kind.Opener && !structural(t) && !(t.flags & IN_CODE)) this.inlineOpeners++;
			this.tags.push(t);
			pos = t.end;
		}
	}

	private parseTag(i: number, end: number, next: { gt: number; lt: number }): Tag | undefined {
		const text = this.text;
		let j = skipBlanks(text, i + 1, end);
		let kind: Kind = Kind.Opener;
		if (j < end && text[j] === "/") {
			kind = Kind.Closer;
			j = skipBlanks(text, j + 1, end);
		}
		let k = j;
		while (k < end && isASCIILetter(text.charAt(k))) k++;
		const name = tagNameOf(text.slice(j, k));
		if (name === 0) return undefined;
		const t: Tag = { start: i, end: 0, line: 0, name, kind, flags: 0 };
		if (kind === Kind.Closer || (k < end && text.charAt(k) !== " " && text.charAt(k) !== ">")) {
			const k2 = skipBlanks(text, k, end);
			if (k2 >= end || text[k2] !== ">") return undefined;
			t.end = k2 + 1;
			return t;
		}
		// The next '>' and '<' of the whole text, cached: positions only grow during the scan.
		if (this.gtAt < k) {
			const g = text.indexOf(">", k);
			this.gtAt = g < 0 ? text.length : g;
		}
		if (this.ltAt < k) {
			const l = text.indexOf("<", k);
			this.ltAt = l < 0 ? text.length : l;
		}
		next.gt = Math.min(this.gtAt, end);
		next.lt = Math.min(this.ltAt, end);
		if (next.gt >= end || next.lt < next.gt) return undefined;
		t.end = next.gt + 1;
		return t;
	}

	private scanFences(): void {
		const a = this.fenceHits("```", "`");
		const b = this.fenceHits("~~~", "~");
		this.fences = b.length === 0 ? a : a.concat(b).sort((x, y) => x.start - y.start);
	}

	private fenceHits(s: string, c: string): FenceLine[] {
		const out: FenceLine[] = [];
		const text = this.text;
		let lo = 0;
		for (let pos = 0; pos < text.length; ) {
			const i = text.indexOf(s, pos);
			if (i < 0) break;
			const start = this.lineStart(i, lo);
			const end = this.lineEnd(i);
			let f = start;
			while (f < i && isJSSpace(text.charAt(f))) f++;
			if (f === i) out.push({ start, end, char: c });
			const nl = this.nextLine(end);
			if (nl < 0) break;
			pos = nl;
			lo = nl;
		}
		return out;
	}

	regions(): { analysis: Region[]; examples: Region[] } {
		const tags = this.tags;
		const n = tags.length;
		const nextStruct = new Int32Array(n + 1);
		const nextAny = new Int32Array(n + 1);
		const nextSummary = new Int32Array(n + 1);
		const nextExample = new Int32Array(n + 1);
		const nextSumClose = new Int32Array(n + 1);
		nextStruct[n] = nextAny[n] = nextSummary[n] = nextExample[n] = nextSumClose[n] = n;
		for (let j = n - 1; j >= 0; j--) {
			nextStruct[j] = at(nextStruct, j + 1);
			nextAny[j] = at(nextAny, j + 1);
			nextSummary[j] = at(nextSummary, j + 1);
			nextExample[j] = at(nextExample, j + 1);
			nextSumClose[j] = at(nextSumClose, j + 1);
			const u = at(tags, j);
			if (u.kind === Kind.Closer && u.name === Name.Summary && structural(u)) nextSumClose[j] = j;
			if (u.kind === Kind.Closer && analysisLike(u)) {
				nextAny[j] = j;
				if (structural(u)) nextStruct[j] = j;
			} else if (u.kind === Kind.Opener && u.name === Name.Summary && structural(u)) {
				nextSummary[j] = j;
			} else if (u.kind === Kind.Closer && u.name === Name.Example) {
				nextExample[j] = j;
			}
		}
		const analysis: Region[] = [];
		const examples: Region[] = [];
		let summarySeen = false;
		for (let i = 0; i < n; i++) {
			const t = at(tags, i);
			if (t.kind === Kind.Opener && t.name === Name.Summary && structural(t)) summarySeen = true;
			if (t.kind === Kind.Closer && analysisLike(t) && structural(t) && !summarySeen) {
				// An orphan closer: what came before it, back to the last analysis block, is analysis.
				const last = analysis[analysis.length - 1];
				analysis.push({ start: last === undefined ? 0 : last.end, end: t.end });
				continue;
			}
			if (t.kind !== Kind.Opener) continue;
			if (!structural(t)) {
				if (analysisLike(t) && i + 1 < n && at(tags, i + 1).kind === Kind.Closer && analysisLike(at(tags, i + 1))) {
					analysis.push({ start: t.start, end: at(tags, i + 1).end });
					i++;
				}
				continue;
			}
			if (t.name === Name.Analysis || t.name === Name.Think) {
				let j = at(nextStruct, i + 1);
				if (j < n) {
					const k = at(nextSummary, i + 1);
					if (
						k < j &&
						at(tags, j - 1).name === Name.Summary &&
						at(tags, j - 1).kind === Kind.Closer &&
						onlyInvisible(this.text.slice(at(tags, j - 1).end, at(tags, j).start))
					) {
						analysis.push({ start: t.start, end: at(tags, k).start });
						i = k - 1;
						continue;
					}
					if (k < j && at(nextSumClose, k) > j && (at(tags, k).flags & (AT_LINE_START | AT_LINE_END)) === (AT_LINE_START | AT_LINE_END)) {
						// A summary opener, and no summary closer before the analysis closer: the summary was closed with </analysis>.
						analysis.push({ start: t.start, end: at(tags, k).start });
						i = k - 1;
						continue;
					}
					analysis.push({ start: t.start, end: at(tags, j).end });
					i = j;
				} else if ((j = at(nextAny, i + 1)) < n) {
					analysis.push({ start: t.start, end: at(tags, j).end });
					i = j;
				} else if ((j = at(nextSumClose, i + 1)) < at(nextSummary, i + 1)) {
					// Closed by a summary closer before any summary opener: the wrong closer.
					analysis.push({ start: t.start, end: at(tags, j).end });
					i = j;
				} else if ((j = at(nextSummary, i + 1)) < n) {
					analysis.push({ start: t.start, end: at(tags, j).start });
					i = j - 1;
				} else {
					analysis.push({ start: t.start, end: this.text.length });
					this.openAnalysis = true;
					i = n;
				}
			} else if (t.name === Name.Example) {
				const j = at(nextExample, i + 1);
				if (j < n) examples.push({ start: t.start, end: at(tags, j).end });
			}
		}
		return { analysis, examples };
	}

	blocks(analysis: Region[], examples: Region[], inline: boolean): { best?: Candidate; seen: boolean } {
		const tags = this.tags;
		let fallbacks = MAX_FALLBACKS;
		let best: Candidate | undefined;
		let seen = false;
		for (let i = 0; i < tags.length; i++) {
			const t = at(tags, i);
			if (t.name !== Name.Summary || t.kind !== Kind.Opener || t.flags & IN_CODE || (!structural(t) && (!inline || this.htmlOnLine(t))) || inRegions(analysis, t.start))
				continue;
			const e = this.blockEnd(i, analysis, fallbacks > 0);
			if (e.byFallback) fallbacks--;
			const c = this.candidate(t, e.pos, e.closed, analysis, e.code);
			c.degenerate = c.degenerate || (inRegions(examples, t.start) && isTemplate(c.body));
			seen = true;
			if (!c.degenerate && (best === undefined || beats(c, best))) best = c;
			i = e.next;
		}
		return { best, seen };
	}

	private htmlOnLine(t: Tag): boolean {
		const before = trimJS(this.text.slice(t.line, t.start));
		const lt = before.lastIndexOf("<");
		return lt >= 0 && hasPrefixFold(before.slice(lt), "<details") && before.endsWith(">");
	}

	private blockEnd(i: number, analysis: Region[], fallbacks: boolean): { pos: number; code: Region[]; closed: boolean; next: number; byFallback: boolean } {
		const tags = this.tags;
		const t = at(tags, i);
		const code: Region[] = [];
		const text = this.text;
		let fence = false;
		let fi = 0;
		while (fi < this.fences.length && at(this.fences, fi).start <= t.line) fi++;
		let fenced = -1;
		let wrongCloser = -1;
		let html = 0;
		let outer = this.fenceBefore(t);
		let open = "";
		for (let j = i + 1; j < tags.length; j++) {
			const u = at(tags, j);
			for (; fi < this.fences.length && at(this.fences, fi).start <= u.line; fi++) {
				const f = at(this.fences, fi);
				if (outer !== "" && !fence && f.char === outer && trimRightSet(trimJS(this.text.slice(f.start, f.end)), f.char) === "") {
					outer = "";
				} else if (!fence) {
					fence = true;
					open = f.char;
					code.push({ start: f.start, end: text.length });
				} else if (f.char === open) {
					fence = false;
					at(code, code.length - 1).end = f.end;
				}
			}
			if (u.name === Name.Summary && inRegions(analysis, u.start)) continue;
			if (u.name === Name.Analysis && u.kind === Kind.Closer && structural(u) && !fence && wrongCloser < 0) wrongCloser = j;
			if (u.name !== Name.Summary || u.flags & IN_CODE) continue;
			if (fence) {
				if (fenced < 0 && u.kind === Kind.Closer && structural(u)) fenced = j;
				continue;
			}
			if (
				u.kind === Kind.Opener &&
				(u.line !== t.line || !structural(u)) &&
				j + 1 < tags.length &&
				at(tags, j + 1).name === Name.Summary &&
				at(tags, j + 1).kind === Kind.Closer &&
				at(tags, j + 1).line === u.line
			) {
				j++;
				continue;
			}
			if (u.kind === Kind.Opener && structural(u) && this.afterDetails(u)) {
				html++;
				continue;
			}
			if (u.kind === Kind.Closer && html > 0) {
				html--;
				continue;
			}
			if (u.kind === Kind.Opener && structural(u)) return { pos: u.start, code, closed: false, next: j - 1, byFallback: false };
			if (u.kind === Kind.Closer && (structural(u) || u.line === t.line)) return { pos: u.start, code, closed: true, next: j, byFallback: false };
		}
		if (fallbacks && wrongCloser >= 0 && !inRegions(analysis, at(tags, wrongCloser).start))
			return { pos: at(tags, wrongCloser).start, code, closed: true, next: wrongCloser, byFallback: true };
		if (fallbacks && fenced >= 0) return { pos: at(tags, fenced).start, code, closed: true, next: fenced, byFallback: true };
		return { pos: text.length, code, closed: false, next: tags.length, byFallback: false };
	}

	private fenceBefore(t: Tag): string {
		if (this.fences.length === 0 || !(t.flags & AT_LINE_START) || trimJS(this.text.slice(t.line, t.start)) !== "") return "";
		let l = t.line;
		for (let n = 0; n < 3; n++) {
			if ((l = this.prevLine(l)) < 0) return "";
			const line = trimJS(this.text.slice(l, this.lineEnd(l)));
			if (line !== "") return fenceOf(line);
		}
		return "";
	}

	private afterDetails(t: Tag): boolean {
		if (this.details < 0) this.details = indexFold(this.text, "<details", 0) >= 0 ? 1 : 0;
		if (this.details === 0) return false;
		let before = trimJS(this.text.slice(t.line, t.start));
		let l = t.line;
		for (let n = 0; before === "" && n < 3; n++) {
			if ((l = this.prevLine(l)) < 0) break;
			before = trimJS(this.text.slice(l, this.lineEnd(l)));
		}
		return hasPrefixFold(before, "<details") && before.endsWith(">");
	}

	private candidate(t: Tag, end: number, closed: boolean, analysis: Region[], code: Region[]): Candidate {
		let body = this.cutRegions(t.end, end, analysis, code);
		if (!closed) body = trimPartialCloser(body);
		body = trimRobust(body, this.nel);
		body = stripWrapperFence(body);
		body = removeNestedAnalysis(body);
		body = trimTagLines(body, this.nel);
		return { body, closed, start: t.start, sections: sectionCount(body), degenerate: !hasContent(body) || isTemplate(body) };
	}

	cutRegions(from: number, to: number, rs: Region[], code: Region[]): string {
		const text = this.text;
		const parts: string[] = [];
		let cut = false;
		for (let i = searchRegions(rs, from); i < rs.length && at(rs, i).start < to; i++) {
			if (code.length > 0 && inRegions(code, at(rs, i).start)) continue;
			cut = true;
			if (at(rs, i).start > from) parts.push(text.slice(from, at(rs, i).start));
			from = Math.max(from, at(rs, i).end);
		}
		if (!cut) return text.slice(from, to);
		if (from < to) parts.push(text.slice(from, to));
		return parts.join("");
	}

	marker(analysis: Region[]): string | undefined {
		const text = this.text;
		let open = false; // a structural opener waits for the closer of its block
		let after = 0; // the end of the last structural tag
		for (const t of this.tags) {
			if (!structural(t) || inRegions(analysis, t.start)) continue;
			const prev = after;
			after = t.end;
			if (t.name !== Name.Summary) continue;
			if (t.kind === Kind.Opener) {
				open = true;
				continue;
			}
			if (open) {
				open = false; // the closer of a block, which the blocks rule judged: no orphan
				continue;
			}
			const k = searchRegions(analysis, t.start);
			const afterAnalysis = k > 0 && at(analysis, k - 1).end >= prev;
			const from = afterAnalysis ? at(analysis, k - 1).end : prev;
			const body = trimRobust(text.slice(from, t.start), this.nel);
			if (hasContent(body) && (afterAnalysis || sectionCount(body) >= 3)) return body;
		}
		const lastAnalysis = analysis.length > 0 ? at(analysis, analysis.length - 1).start : -1;
		let closeAt = -1;
		let failedClose = -2;
		const headingTried = [false, false];
		for (let start = 0; start >= 0; ) {
			const end = this.lineEnd(start);
			const next = this.nextLine(end);
			if (inRegions(analysis, start)) {
				start = next;
				continue;
			}
			const l = trimJS(text.slice(start, end));
			if (equalFold(l, "[summary]")) {
				if (closeAt < end) {
					closeAt = indexFold(text, "[/summary]", end);
					if (closeAt < 0) closeAt = text.length;
				}
				if (closeAt !== failedClose) {
					const body = trimRobust(this.cutRegions(end, closeAt, analysis, []), this.nel);
					if (hasContent(body)) return body;
					failedClose = closeAt;
				}
				start = next;
				continue;
			}
			const after = lastAnalysis > start ? 1 : 0;
			if (equalFold(trimLabel(l), "summary") && next >= 0 && !headingTried[after]) {
				headingTried[after] = true;
				const to = after === 1 ? lastAnalysis : text.length;
				const body = trimRobust(this.cutRegions(next, Math.max(next, to), analysis, []), this.nel);
				if (hasContent(body) && sectionCount(body) >= 3) return body;
			}
			start = next;
		}
		return undefined;
	}

	untagged(analysis: Region[]): string | undefined {
		if (this.openAnalysis) return undefined;
		let end = this.text.length;
		for (const t of this.tags) {
			if (t.name === Name.Summary && t.kind === Kind.Closer && structural(t) && !inRegions(analysis, t.start)) {
				end = t.start;
				break;
			}
		}
		const body = trimRobust(trimPartialCloser(this.cutRegions(0, end, analysis, [])), this.nel);
		if (!hasProse(body) || isToolCall(body) || isRefusal(body)) return undefined;
		return body;
	}
}

function beats(c: Candidate, d: Candidate): boolean {
	if (c.sections !== d.sections) return c.sections > d.sections;
	if (c.closed !== d.closed) return c.closed;
	return c.start > d.start;
}

function trimPartialCloser(body: string): string {
	const i = body.lastIndexOf("<");
	if (i < 0 || body.length - i > "</summary".length) return body;
	const frag = body.slice(i);
	if (hasPrefixFold("</summary", frag) || hasPrefixFold("<summary", frag)) return body.slice(0, i);
	return body;
}

function trimRobust(s: string, nel: boolean): string {
	return trimFunc(s, (c) => invisible(c) && (c !== "\u0085" || nel));
}

// The lines at the ends of a body that hold one summary, analysis or think tag alone.
function isTagLine(line: string): boolean {
	const m = /^<[ \t]*\/?[ \t]*([A-Za-z]*)[ \t]*>$/.exec(trimFunc(line, invisible));
	if (m === null) return false;
	const name = tagNameOf(m[1] ?? "");
	return name !== 0 && name !== Name.Example;
}

function trimTagLines(body: string, nel: boolean): string {
	if (body.includes("```") || body.includes("~~~")) return body; // a tag line in fenced code is quoted
	for (;;) {
		const m = /\r\n|[\n\r\u0085\u2028\u2029]/.exec(body);
		const first = m === null ? body : body.slice(0, m.index);
		if (!body.startsWith("<") || !isTagLine(first)) break;
		body = trimRobust(m === null ? "" : body.slice(m.index + m[0].length), nel);
	}
	for (;;) {
		const m = /[\n\r\u0085\u2028\u2029][^\n\r\u0085\u2028\u2029]*$/.exec(body);
		const start = m === null ? 0 : m.index + 1;
		if (!body.endsWith(">") || !isTagLine(body.slice(start))) break;
		body = trimRobust(body.slice(0, start), nel);
	}
	return body;
}

function stripWrapperFence(body: string): string {
	const nl = body.indexOf("\n");
	if (nl < 0 || !isFenceLine(body.slice(0, nl))) return body;
	const rest = body.slice(nl + 1);
	const i = trimRightSet(rest, " \t\r\n").lastIndexOf("\n");
	const last = trimJS(rest.slice(i + 1));
	if (!isFenceLine(last) || count(rest, "```") > 1) return body;
	return trimJS(rest.slice(0, Math.max(i, 0)));
}

function removeNestedAnalysis(body: string): string {
	if (!hasPrefixFold(body, "<analysis>")) return body;
	const end = indexFold(body, "</analysis>", 0);
	if (end < 0) return body;
	return trimJS(body.slice(end + "</analysis>".length));
}

function sectionCount(s: string): number {
	const seen = new Array<boolean>(10).fill(false);
	let n = 0;
	eachLine(s, (line) => {
		const l = trimLeftSet(line, " \t#*>-");
		if (l.length < 3 || l.charAt(0) < "1" || l.charAt(0) > "9" || (l.charAt(1) !== "." && l.charAt(1) !== ")")) return true;
		const d = l.charCodeAt(0) - 48;
		if (!seen[d]) {
			seen[d] = true;
			n++;
		}
		return true;
	});
	return n;
}

function hasContent(body: string): boolean {
	let found = false;
	eachLine(body, (line) => {
		const l = trimSpaceGo(line);
		found = l !== "" && !tagShapedOnly(l) && !isHeadingOnly(l);
		return !found;
	});
	return found;
}

function tagShapedOnly(l: string): boolean {
	for (let n = 0; l !== ""; n++) {
		l = n === 0 ? trimLeftSet(l, " \t") : trimFunc(l, invisible);
		if (l === "") break;
		if (l[0] !== "<") return false;
		const m = l.slice(1).search(/[<>]/);
		if (m < 0 || l[1 + m] !== ">") return false;
		l = l.slice(m + 2);
	}
	return true;
}

function isHeadingOnly(l: string): boolean {
	l = trimLeftSet(l, "#* ");
	if (l.length < 3 || l.charAt(0) < "1" || l.charAt(0) > "9" || l.charAt(1) !== ".") return false;
	return trimRightSet(l, "* ").endsWith(":") && Array.from(l).length < 60;
}

function isTemplate(body: string): boolean {
	if (count(body, "]") < 3) return false;
	let placeholders = 0;
	let content = 0;
	eachLine(body, (line) => {
		const l = trimSpaceGo(trimLeftSet(trimSpaceGo(line), "-*"));
		if (l === "" || isHeadingOnly(l)) {
			// neither
		} else if (isPlaceholder(l)) placeholders++;
		else content++;
		return true;
	});
	return placeholders >= 3 && placeholders > content;
}

// A placeholder of the prompt: a bracketed phrase with a word of three letters or more, or [...].
function isPlaceholder(l: string): boolean {
	if (l.length < 2 || !l.startsWith("[") || !l.endsWith("]")) return false;
	const inner = l.slice(1, -1);
	return inner === "..." || /[A-Za-z]{3}/.test(inner);
}

function trimLabel(l: string): string {
	return trimFunc(l, (c) => c === "#" || c === "*" || c === "_" || c === " " || c === ":");
}

function hasProse(body: string): boolean {
	let found = false;
	eachLine(body, (line) => {
		const l = trimSpaceGo(line);
		const h = trimLabel(l);
		if (equalFold(h, "summary") || equalFold(h, "analysis") || isFenceLine(l)) return true;
		found = l !== "" && !tagShapedOnly(l) && !isHeadingOnly(l);
		return !found;
	});
	return found;
}

function isToolCall(body: string): boolean {
	let found = false;
	eachLine(body, (line) => {
		const l = trimSpaceGo(line);
		for (const p of ["<function_calls", "<invoke", "<tool_call", "<tool_use"]) if (hasPrefixFold(l, p)) found = true;
		if (l.startsWith("{") && (l.includes('"tool_use"') || l.includes('"tool_calls"') || l.includes('"function_call"'))) found = true;
		return !found;
	});
	return found;
}

function isRefusal(body: string): boolean {
	for (const p of ["i can't", "i can\u2019t", "i cannot", "i can not", "i'm unable", "i\u2019m unable", "i am unable", "i won't", "i won\u2019t", "i will not", "i'm sorry", "i\u2019m sorry", "sorry, i"])
		if (hasPrefixFold(body, p)) return true;
	return false;
}

// wellFormed: the answer the prompt asks for, where the seed's line-anchored result is kept.
function wellFormed(text: string): string | undefined {
	const s = text.trim();
	if (count(s, "<summary>") !== 1 || count(s, "</summary>") !== 1 || count(s, "<analysis>") > 1 || count(s, "</analysis>") !== count(s, "<analysis>") || /[\r\u2028\u2029\u0085]/.test(s))
		return undefined;
	if (s.includes("<analysis>") && !s.startsWith("<analysis>\n")) return undefined;
	const i = s.indexOf("\n<summary>\n");
	const j = s.indexOf("\n</summary>");
	if (i < 0 || j < i || !s.endsWith("\n</summary>")) return undefined;
	const a = s.indexOf("\n</analysis>\n");
	if (s.includes("<analysis>") && (a < 0 || a > i)) return undefined;
	// The seed's line-anchored pattern; one opener and one closer keep it linear here.
	const m = text.match(/^[ \t]*<summary>[ \t]*\n([\s\S]*)\n[ \t]*<\/summary>[ \t]*$/m);
	if (!m) return undefined;
	const summary = (m[1] ?? "").trim(); // the group always takes part in a match
	// Headings alone are no summary, however well the tags are placed.
	if (summary === "" || sectionCount(summary) < 5 || isFenceLine(summary.split("\n")[0] ?? "") || !hasContent(summary)) return undefined;
	return summary;
}

/**
 * extractSummary returns the summary of a compaction answer, or undefined when it holds
 * none. Same signature as the seed module's extractSummary.
 */
export function extractSummary(text: string): string | undefined {
	const wf = wellFormed(text);
	if (wf !== undefined) return wf;
	const sc = new Scan(text);
	const { analysis, examples } = sc.regions();
	let { best, seen } = sc.blocks(analysis, examples, false);
	if (best === undefined && sc.inlineOpeners > 0) {
		const inline = sc.blocks(analysis, examples, true);
		best = inline.best;
		seen = seen || inline.seen;
	}
	if (best !== undefined) return best.body;
	const m = sc.marker(analysis);
	if (m !== undefined) return m;
	if (!seen) return sc.untagged(analysis);
	return undefined;
}
