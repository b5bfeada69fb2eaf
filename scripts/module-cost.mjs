// module-cost.mjs: where robust.ts's time goes on one answer sent through the module
// protocol (docs/protocol.md), step by step, in CPU time of this Node process: the request
// line's bytes decoded, parsed, the extraction, the answer encoded, and what a runner adds.
// scripts/module-cost.sh runs it beside the whole path.
//
//   node scripts/module-cost.mjs ROBUST.JS INPUT [ROUNDS]
import { readFileSync } from "node:fs";

const mod = await import(new URL(process.argv[2], `file://${process.cwd()}/`).href);
const text = readFileSync(process.argv[3], "utf8");
const rounds = Number(process.argv[4] ?? 5);
// The request line as the Go client writes it (marshalNoEscape: no HTML escaping).
const line = Buffer.from(JSON.stringify({ op: "extract", text, id: 1 }) + "\n", "utf8");

function cpu(f) {
	let best = Infinity;
	let out;
	for (let i = 0; i < rounds; i++) {
		const t0 = process.cpuUsage();
		out = f();
		const t = process.cpuUsage(t0);
		best = Math.min(best, (t.user + t.system) / 1000);
	}
	return [best, out];
}

const [decode, str] = cpu(() => line.toString("utf8", 0, line.length - 1));
const [parse, req] = cpu(() => JSON.parse(str));
const [extract, summary] = cpu(() => mod.extractSummary(req.text));
const [encode, answer] = cpu(() => JSON.stringify({ id: req.id, summary: summary ?? null }) + "\n");
const [inproc] = cpu(() => mod.extractSummary(text));
const total = decode + parse + extract + encode;
const row = (name, ms) => console.log(`| ${name} | ${ms.toFixed(1)} ms | ${((100 * ms) / total).toFixed(0)}% |`);
console.log(`| step (robust.ts under Node ${process.version}, ${text.length} characters, ${line.length} bytes of request, ${answer.length} of answer) | CPU, best of ${rounds} | share |`);
console.log("| --- | ---: | ---: |");
row("decode the request line (UTF-8 to a string)", decode);
row("JSON.parse of the request", parse);
row("extractSummary", extract);
row("JSON.stringify of the answer", encode);
console.log(`| the four together | ${total.toFixed(1)} ms | 100% |`);
console.log(`| extractSummary on the file's text, in process | ${inproc.toFixed(1)} ms | |`);
