#!/usr/bin/env node
// The extractor profiles of profiles.go, written in JavaScript from the same descriptions so
// that TestProfilesAgreeWithJS can hold the Go versions to JavaScript's own regular
// expressions, replace and trim. Protocol: docs/protocol.md, extract requests only, with
// "profile" naming one of the profiles below; an empty result is {"summary": null}, except
// for vscode, which tells "" (opener, nothing after it) from no opener.
import { createInterface } from "node:readline";

const orNull = (s) => (s === "" ? null : s);

// block finds the first open tag and the first close tag after it, by plain search.
const block = (s, name) => {
	const i = s.indexOf(`<${name}>`);
	if (i === -1) return null;
	const j = s.indexOf(`</${name}>`, i + name.length + 2);
	return j === -1 ? null : { start: i, end: j + name.length + 3, body: s.slice(i + name.length + 2, j) };
};

const windmill = (greedy) => (text) => {
	let s = text.replace(/<analysis>[\s\S]*?<\/analysis>/gi, "");
	const m = s.match(greedy ? /<summary>([\s\S]*)<\/summary>/i : /<summary>([\s\S]*?)<\/summary>/i);
	if (m) {
		s = m[1].trim();
	} else {
		const i = s.search(/<summary>/i);
		if (i !== -1) s = s.slice(i);
	}
	s = s.replace(/<\/?(?:analysis|summary)>/gi, "");
	return orNull(s.replace(/\n{3,}/g, "\n\n").trim());
};

const profiles = {
	"claude-code@2.1.332": (text) => {
		let s = text;
		const a = block(s, "analysis");
		if (a && !s.slice(0, a.start).includes("<summary>")) s = s.slice(0, a.start) + s.slice(a.end);
		const b = block(s, "summary");
		if (!b && !/^[ \t]*<summary>/m.test(s)) return null; // refused
		if (b) s = s.slice(0, b.start) + "Summary:\n" + b.body.trim() + s.slice(b.end);
		return orNull(s.replace(/\n\n+/g, "\n\n").trim());
	},
	"claude-code@2.1.88": (text) => {
		let s = text.replace(/<analysis>[\s\S]*?<\/analysis>/, "");
		const m = s.match(/<summary>([\s\S]*?)<\/summary>/);
		if (m) s = s.replace(/<summary>[\s\S]*?<\/summary>/, "Summary:\n" + m[1].trim());
		return orNull(s.replace(/\n\n+/g, "\n\n").trim());
	},
	"windmill@67ef1eb": windmill(false),
	"windmill@10cd0dc": windmill(true),
	vscode: (text) => {
		const i = text.indexOf("<summary>");
		if (i === -1) return null;
		const start = i + "<summary>".length;
		const j = text.indexOf("</summary>", start);
		return j === -1 ? text.substring(start).trim() : text.substring(start, j).trim();
	},
	dust: (text) => {
		const m = text.match(/<summary>([\s\S]*?)<\/summary>/);
		return orNull(m ? m[1].trim() : text.trim());
	},
	plain: (text) => orNull(text.trim()),
};

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
	if (line.trim() === "") continue;
	let out;
	try {
		const req = JSON.parse(line);
		const fn = profiles[req.profile];
		if (req.op !== "extract" || !fn) throw new Error(`unsupported request ${line.slice(0, 80)}`);
		out = { summary: fn(req.text) };
	} catch (e) {
		out = { error: String(e && e.message ? e.message : e) };
	}
	process.stdout.write(JSON.stringify(out) + "\n");
}
