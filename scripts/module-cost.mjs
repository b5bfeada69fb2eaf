// module-cost.mjs: where robust.ts's time goes on answers sent through the module protocol
// (docs/protocol.md), step by step, in CPU time of this Node process: the request line
// parsed and the text's bytes decoded to a string, the extraction (its first run, which the
// module: path pays, as V8 compiles the extractor's code while it runs, and the best), the
// answer encoded, and the extraction of the file's text in process. scripts/module-cost.sh runs it
// beside the whole path, one process for each input (the first run is of fresh code only
// for the first input), and prints its figures; it prints, for each input, one line of
// milliseconds:
//
//	NAME DECODE PARSE FIRST-EXTRACT EXTRACT ENCODE IN-PROCESS
//
//   node scripts/module-cost.mjs ROBUST.JS ROUNDS INPUT...
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const mod = await import(new URL(process.argv[2], `file://${process.cwd()}/`).href);
const rounds = Number(process.argv[3]);

// cpu runs f ROUNDS times and returns the least CPU time of a run, in milliseconds, f's
// last result and the CPU time of its first run.
function cpu(f) {
	let best = Infinity;
	let first;
	let out;
	for (let i = 0; i < rounds; i++) {
		const t0 = process.cpuUsage();
		out = f();
		const t = process.cpuUsage(t0);
		first ??= (t.user + t.system) / 1000;
		best = Math.min(best, (t.user + t.system) / 1000);
	}
	return [best, out, first];
}

for (const file of process.argv.slice(4)) {
	const text = readFileSync(file, "utf8");
	// The request as the Go client writes it to the module: runner: a line, then the text's
	// bytes (docs/protocol.md, "Texts as bytes").
	const bytes = Buffer.from(text, "utf8");
	const line = `{"id":1,"op":"extract","textBytes":${bytes.length}}`;
	const [parse, req] = cpu(() => JSON.parse(line));
	const [decode, str] = cpu(() => bytes.toString("utf8"));
	req.text = str;
	const [extract, summary, firstExtract] = cpu(() => mod.extractSummary(req.text));
	const [encode] = cpu(() => JSON.stringify({ id: req.id, summary: summary ?? null }) + "\n");
	const [inproc] = cpu(() => mod.extractSummary(text));
	console.log([basename(file, ".txt"), decode, parse, firstExtract, extract, encode, inproc].map((x) => (typeof x === "number" ? x.toFixed(1) : x)).join(" "));
}
