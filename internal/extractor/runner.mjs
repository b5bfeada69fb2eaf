// compacteval review's runner: answers the reference protocol (docs/protocol.md) with the
// exports of the module named by its argument, as ../shared/reference/reference.mjs does for
// the seed module, and reads the text of an extract request as bytes after its line when the
// line says "textBytes" (docs/protocol.md, "Texts as bytes"). A request for an export the
// module lacks gets {"error": ...}. Each answer carries the id of its request first, so that
// a line the module prints itself (console.log) is never taken for an answer.
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

// pending is an extract request whose text follows its line as pending.textBytes bytes of
// UTF-8 (docs/protocol.md, "Texts as bytes"): the Go client sends texts so, unescaped, and
// they are decoded once, with no JSON.parse of the text.
let pending = null;

function answerLine(line) {
	if (line.trim() === "") return "";
	let req, out;
	try {
		req = JSON.parse(line);
		if (req !== null && typeof req === "object" && req.textBytes !== undefined) {
			if (!Number.isSafeInteger(req.textBytes) || req.textBytes < 0) throw new Error(`textBytes ${JSON.stringify(req.textBytes)} is not a length`);
			if (req.textBytes > 0) {
				pending = req;
				return "";
			}
			req.text = "";
		}
		out = answer(req);
	} catch (e) {
		out = { error: String(e && e.message ? e.message : e) };
	}
	return answerOf(req, out);
}

function answerOf(req, out) {
	const id = req !== null && typeof req === "object" ? req.id : undefined;
	return JSON.stringify(id === undefined ? out : { id, ...out }) + "\n";
}

// answerText answers the request whose text is the bytes in textBuf.
function answerText(req, textBuf) {
	let out;
	try {
		req.text = textBuf.toString("utf8");
		out = answer(req);
	} catch (e) {
		out = { error: String(e && e.message ? e.message : e) };
	}
	return answerOf(req, out);
}

// Lines end as readline ends them (\n, \r\n or a lone \r). Each chunk of stdin is split
// by hand and its answers written at once: readline's promise per line and a write per
// answer cost a third of what this runner adds to the module's own work. A text sent as
// bytes is copied once, into textBuf, as its chunks arrive.
const lineEnd = /\r\n|\n|\r/;
let rest = [];
let textBuf = null;
let textHave = 0;
function answerLines(text) {
	let out = "";
	for (const line of text.includes("\r") ? text.split(lineEnd) : [text]) out += answerLine(line);
	return out;
}
process.stdin.on("data", (chunk) => {
	let out = "";
	let from = 0;
	while (from < chunk.length) {
		if (pending !== null) {
			textBuf ??= Buffer.allocUnsafe(pending.textBytes);
			const n = chunk.copy(textBuf, textHave, from, Math.min(chunk.length, from + pending.textBytes - textHave));
			textHave += n;
			from += n;
			if (textHave < pending.textBytes) break;
			const req = pending;
			const buf = textBuf;
			pending = textBuf = null;
			textHave = 0;
			out += answerText(req, buf);
			continue;
		}
		const nl = chunk.indexOf(10, from);
		if (nl < 0) {
			rest.push(chunk.subarray(from));
			break;
		}
		let line = chunk.subarray(from, nl);
		from = nl + 1;
		if (rest.length > 0) {
			line = Buffer.concat([...rest, line]);
			rest = [];
		}
		out += answerLines(line.toString("utf8"));
	}
	if (out !== "") process.stdout.write(out);
});
process.stdin.on("end", () => {
	let out = rest.length > 0 ? answerLines(Buffer.concat(rest).toString("utf8")) : "";
	if (pending !== null) out += answerOf(pending, { error: `stdin ended after ${textHave} of the text's ${pending.textBytes} bytes` });
	if (out !== "") process.stdout.write(out);
});
