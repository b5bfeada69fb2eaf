// compacteval review's runner: answers the reference protocol (docs/protocol.md) with the
// exports of the module named by its argument, as ../shared/reference/reference.mjs does for
// the seed module. A request for an export the module lacks gets {"error": ...}. Each answer
// carries the id of its request first, so that a line the module prints itself
// (console.log) is never taken for an answer.
import { pathToFileURL } from "node:url";

// stdout carries the answers: what the module logs goes to stderr.
console.log = console.info = console.debug = console.error;

const loaded = await import(pathToFileURL(process.argv[2]).href);
// A CommonJS module arrives as its default export.
const ref = loaded.extractSummary === undefined && loaded.default && typeof loaded.default === "object" ? loaded.default : loaded;

function fn(name) {
	if (typeof ref[name] !== "function") throw new Error(`the module does not export ${name}`);
	return ref[name];
}

function answer(req) {
	switch (req.op) {
		case "extract": {
			const s = fn("extractSummary")(req.text);
			return { summary: s === undefined || s === null ? null : s };
		}
		case "instruction": {
			const opts = { reason: req.reason };
			if (req.customInstructions !== undefined && req.customInstructions !== null) opts.customInstructions = req.customInstructions;
			if (req.keptTail) opts.keptTail = req.keptTail;
			return { text: fn("buildCompactionInstruction")(opts) };
		}
		case "keptTailNote":
			return { text: fn("keptTailNote")({ count: req.count, opening: req.opening }) };
		case "continuation":
			return { text: fn("continuationSummary")(req.summary, req.transcriptPath ?? undefined) };
		case "constants":
			if (typeof ref.COMPACTION_INSTRUCTION !== "string") throw new Error("the module does not export COMPACTION_INSTRUCTION");
			return { maxTokens: ref.COMPACTION_MAX_TOKENS, instruction: ref.COMPACTION_INSTRUCTION };
		default:
			return { error: `unknown op ${JSON.stringify(req.op)}` };
	}
}

function answerLine(line) {
	if (line.trim() === "") return "";
	let req, out;
	try {
		req = JSON.parse(line);
		out = answer(req);
	} catch (e) {
		out = { error: String(e && e.message ? e.message : e) };
	}
	const id = req !== null && typeof req === "object" ? req.id : undefined;
	return JSON.stringify(id === undefined ? out : { id, ...out }) + "\n";
}

// Lines end as readline ends them (\n, \r\n or a lone \r). Each chunk of stdin is split
// by hand and its answers written at once: readline's promise per line and a write per
// answer cost a third of what this runner adds to the module's own work.
const lineEnd = /\r\n|\n|\r/;
let rest = [];
function answerText(text) {
	let out = "";
	for (const line of text.includes("\r") ? text.split(lineEnd) : [text]) out += answerLine(line);
	return out;
}
process.stdin.on("data", (chunk) => {
	let out = "";
	let from = 0;
	for (let nl = chunk.indexOf(10); nl >= 0; from = nl + 1, nl = chunk.indexOf(10, from)) {
		let line = chunk.subarray(from, nl);
		if (rest.length > 0) {
			line = Buffer.concat([...rest, line]);
			rest = [];
		}
		out += answerText(line.toString("utf8"));
	}
	if (from < chunk.length) rest.push(chunk.subarray(from));
	if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => {
	if (rest.length > 0) process.stdout.write(answerText(Buffer.concat(rest).toString("utf8")));
});
