#!/usr/bin/env node
// make peers, the Node half: fetches the published npm packages of Claude Code into a cache
// folder outside the repository, finds the summary formatter in the shipped JavaScript by
// what it does (not by a minified name, which changes with every build), and runs it.
//
//   node scripts/peers/peers.mjs locate CACHE   fetch and find; write CACHE/found/<profile>.json,
//                                               print what was found as one JSON line
//   node scripts/peers/peers.mjs serve CACHE    answer docs/protocol.md extract requests whose
//                                               "profile" names a version, from CACHE/found
//   node scripts/peers/peers.mjs find FILE PROFILE CACHE
//                                               find in FILE alone (no npm), as locate does for
//                                               PROFILE (the tests use it on a made-up bundle)
//
// Nothing of the packages' code is kept in the repository: it stays in CACHE.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import vm from "node:vm";

// The versions the Go profiles reproduce. From 2.1.332 on, @anthropic-ai/claude-code is a
// wrapper whose optionalDependencies name one native package per platform; the JavaScript
// is bundled inside that binary, the same on every platform, so linux-x64's is read.
const peers = [
	{ profile: "claude-code@2.1.88", package: "@anthropic-ai/claude-code", version: "2.1.88", file: "cli.js" },
	{
		profile: "claude-code@2.1.332",
		package: "@anthropic-ai/claude-code",
		version: "2.1.332",
		native: "@anthropic-ai/claude-code-linux-x64",
		file: "claude",
	},
];

const args = process.argv.slice(2);
const mode = args[0];
const cache = mode === "find" ? args[3] : args[1];
if (!["locate", "serve", "find"].includes(mode) || !cache) {
	process.stderr.write("usage: node scripts/peers/peers.mjs locate|serve CACHE, or find FILE PROFILE CACHE\n");
	process.exit(2);
}
const foundDir = path.join(cache, "found");

// fetch runs npm pack for name@version into the cache once and returns the unpacked folder.
function fetch(name, version) {
	const dir = path.join(cache, "packages", `${name.replace("/", "+")}@${version}`);
	if (fs.existsSync(path.join(dir, ".unpacked"))) return dir;
	const tarballs = path.join(cache, "tarballs");
	fs.mkdirSync(tarballs, { recursive: true });
	const out = execFileSync("npm", ["pack", "--json", "--pack-destination", tarballs, `${name}@${version}`], {
		stdio: ["ignore", "pipe", "inherit"],
		encoding: "utf8",
	});
	const [info] = JSON.parse(out);
	if (info.version !== version) throw new Error(`npm pack ${name}@${version} gave version ${info.version}`);
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	execFileSync("tar", ["xzf", path.join(tarballs, info.filename), "-C", dir], { stdio: "inherit" });
	fs.writeFileSync(path.join(dir, ".unpacked"), info.integrity + "\n");
	return dir;
}

// parseFunctionAt returns the source of the function declaration that starts at start
// ("function NAME(...){...}"): the shortest prefix that Node parses, up to max bytes.
function parseFunctionAt(src, start, max = 8000) {
	const head = /^function\s*([\w$]+)\s*\(/.exec(src.slice(start, start + 200));
	if (!head) return null;
	for (let end = src.indexOf("}", start); end !== -1 && end - start < max; end = src.indexOf("}", end + 1)) {
		const text = src.slice(start, end + 1);
		try {
			new vm.Script(`(${text})`);
			return { name: head[1], start, end: end + 1, text };
		} catch {
			// not closed yet: a brace inside the body, a string or a template
		}
	}
	return null;
}

// enclosing returns the smallest function declaration that contains index i.
function enclosing(src, i) {
	for (let s = src.lastIndexOf("function", i), tries = 0; s !== -1 && tries < 40; s = src.lastIndexOf("function", s - 1), tries++) {
		const f = parseFunctionAt(src, s);
		if (f && f.end > i) return f;
	}
	return null;
}

// definition returns the declaration of function name nearest to index near: minified names
// repeat across the modules of a bundle, and a module's helpers sit next to their callers.
function definition(src, name, near) {
	const re = new RegExp(`function ${name.replace(/\$/g, "\\$")}\\(`, "g");
	let best = null;
	for (let m; (m = re.exec(src)); ) {
		if (/[\w$]/.test(src[m.index - 1])) continue;
		if (!best || Math.abs(m.index - near) < Math.abs(best - near)) best = m.index;
	}
	return best === null ? null : parseFunctionAt(src, best);
}

const keywords = new Set(["function", "if", "for", "while", "switch", "return", "catch", "typeof", "new", "RegExp", "String", "Error"]);

// withHelpers returns f and, recursively, the declarations of the functions it calls.
function withHelpers(src, f) {
	const out = new Map([[f.name, f]]);
	const todo = [f];
	while (todo.length) {
		const g = todo.pop();
		for (const m of g.text.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\(/g)) {
			const name = m[1];
			if (keywords.has(name) || out.has(name) || name === g.name) continue;
			const d = definition(src, name, f.start);
			if (!d) throw new Error(`${f.name} calls ${name}, whose declaration is not in the file`);
			out.set(name, d);
			todo.push(d);
		}
	}
	return [...out.values()];
}

// locateFormatter finds formatCompactSummary: the one function that puts "Summary:" and a
// newline in front of an interpolated or concatenated value (the trimmed block content) and
// handles a summary tag.
function locateFormatter(src) {
	const found = new Map();
	for (const m of src.matchAll(/Summary:(?:\n|\\n)(?:\$\{|["'`]\s*\+)/g)) {
		const f = enclosing(src, m.index);
		if (f && /summary/.test(f.text.replace(/Summary:/g, "")) && f.text.includes(".trim()")) found.set(f.text, f);
	}
	if (found.size !== 1) {
		throw new Error(`want one summary formatter, found ${found.size}: ${[...found.values()].map((f) => `${f.name} at ${f.start}`).join(", ") || "none"}`);
	}
	return [...found.values()][0];
}

// locateRefusal finds the check before a full compaction is accepted: a throw of the
// "no_summary_block" failure guarded by !A(reply) && !B(reply). None in older versions.
function locateRefusal(src) {
	const found = new Map();
	for (const m of src.matchAll(/no_summary_block/g)) {
		const before = src.slice(Math.max(0, m.index - 400), m.index);
		const g = /!([\w$]+)\(([\w$]+)\)&&!([\w$]+)\(\2\)\)throw\b[^;]*$/.exec(before);
		if (g) found.set(`${g[1]},${g[3]}`, { names: [g[1], g[3]], at: m.index - before.length + g.index });
	}
	if (found.size > 1) throw new Error(`want at most one refusal check, found ${[...found.keys()].join("; ")}`);
	return found.size ? [...found.values()][0] : null;
}

function sha(s) {
	return createHash("sha256").update(s).digest("hex").slice(0, 16);
}

// find finds the formatter (and a refusal check) of profile in file, writes what it found
// to CACHE/found/<profile>.json and returns a description of it.
function find(file, profile, from) {
	// latin1 keeps one character per byte, so a binary with JavaScript inside reads whole;
	// the formatter and its helpers are ASCII.
	const src = fs.readFileSync(file, "latin1");
	const formatter = locateFormatter(src);
	const fns = withHelpers(src, formatter);
	const refusal = locateRefusal(src);
	if (refusal) {
		for (const name of refusal.names) {
			for (const d of withHelpers(src, definition(src, name, refusal.at))) {
				const same = fns.find((f) => f.name === d.name);
				if (!same) fns.push(d);
				else if (same.text !== d.text) throw new Error(`two functions named ${d.name}`);
			}
		}
	}
	const source = fns.map((f) => f.text).join("\n");
	const found = { profile, from, formatter: formatter.name, refusal: refusal ? refusal.names : null, source };
	fs.mkdirSync(foundDir, { recursive: true });
	fs.writeFileSync(path.join(foundDir, `${profile}.json`), JSON.stringify(found) + "\n");
	return {
		profile,
		from,
		formatter: `${formatter.name} at byte ${formatter.start} (${formatter.text.length} bytes)`,
		helpers: fns.filter((f) => f !== formatter).map((f) => f.name),
		refusal: refusal ? `!${refusal.names[0]}(reply) && !${refusal.names[1]}(reply)` : null,
		sha256: sha(source),
	};
}

function locate() {
	fs.mkdirSync(foundDir, { recursive: true });
	const report = [];
	for (const p of peers) {
		let dir = fetch(p.package, p.version);
		let where = `${p.package}@${p.version}`;
		if (p.native) {
			const meta = JSON.parse(fs.readFileSync(path.join(dir, "package", "package.json"), "utf8"));
			const v = meta.optionalDependencies?.[p.native];
			if (v !== p.version) throw new Error(`${where} does not depend on ${p.native}@${p.version} (it names ${v})`);
			dir = fetch(p.native, p.version);
			where = `${p.native}@${p.version}`;
		}
		report.push(find(path.join(dir, "package", p.file), p.profile, `${where} package/${p.file}`));
	}
	process.stdout.write(JSON.stringify(report) + "\n");
}

// load compiles what locate found in a fresh context: the shipped functions, as they are.
function load(profile) {
	const found = JSON.parse(fs.readFileSync(path.join(foundDir, `${profile}.json`), "utf8"));
	const ctx = vm.createContext({});
	const refuse = found.refusal ? `(t) => !${found.refusal[0]}(t) && !${found.refusal[1]}(t)` : "null";
	return vm.runInContext(`${found.source}\n;({ format: ${found.formatter}, refuse: ${refuse} })`, ctx);
}

async function serve() {
	const runners = {};
	for (const f of fs.readdirSync(foundDir).filter((f) => f.endsWith(".json"))) {
		const profile = f.slice(0, -".json".length);
		runners[profile] = load(profile);
	}
	const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
	for await (const line of rl) {
		if (line.trim() === "") continue;
		let out;
		try {
			const req = JSON.parse(line);
			const r = runners[req.profile];
			if (req.op !== "extract" || !r || typeof req.text !== "string") throw new Error(`unsupported request ${line.slice(0, 80)}`);
			if (r.refuse && r.refuse(req.text)) {
				out = { summary: null };
			} else {
				const s = r.format(req.text);
				out = { summary: s === "" ? null : s };
			}
		} catch (e) {
			out = { error: String(e && e.message ? e.message : e) };
		}
		process.stdout.write(JSON.stringify(out) + "\n");
	}
}

try {
	if (mode === "locate") locate();
	else if (mode === "find") process.stdout.write(JSON.stringify([find(args[1], args[2], args[1])]) + "\n");
	else await serve();
} catch (e) {
	process.stderr.write(`peers: ${e && e.message ? e.message : e}\n`);
	process.exit(2);
}
