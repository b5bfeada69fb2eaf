// Times extractSummary of a module (robust.ts with its types removed) on benchmark inputs
// written by internal/cmd/benchinputs, as internal/cmd/timerobust times the Go robust, which
// starts it (timerobust -beside) and asks for one input at a time on its standard input: a
// line "NAME MS WARM" asks for NAME to be run until MS milliseconds of CPU time (user and
// system, of the whole process) have passed, and at least five times, after WARM
// milliseconds of it the first time NAME is asked for, and the answer is the line "NAME
// NANOSECONDS BYTES": the CPU time per run and the input's size in UTF-8 bytes. The input
// "corpus" is corpus.json, every response of the bundled corpus in turn. It exits at the end
// of its input.
// Usage: node scripts/time-robust-ts.mjs MODULE DIR   (internal/cmd/timerobust -beside)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [module, dir] = process.argv.slice(2);
const { extractSummary } = await import(pathToFileURL(resolve(module)).href);

function texts(name) {
	if (name === "corpus") return JSON.parse(readFileSync(join(dir, "corpus.json"), "utf8"));
	return [readFileSync(join(dir, name + ".txt"), "utf8")];
}

function cpu() {
	const u = process.cpuUsage();
	return (u.user + u.system) * 1000;
}

// MIN_RUNS is the fewest rounds a time is taken over, as timerobust's minRuns (which says
// why): one round of a 10 MB input is whether a major collection fell in it.
const MIN_RUNS = 5;

// run extracts every text in turn until limit nanoseconds of CPU time have passed, and at
// least MIN_RUNS times, and returns the CPU time per round.
function run(inputs, limit) {
	let runs = 0;
	const start = cpu();
	do {
		for (const t of inputs) extractSummary(t);
		runs++;
	} while (runs < MIN_RUNS || cpu() - start < limit);
	return Math.round((cpu() - start) / runs);
}

// The input asked for last, kept for the next request (timerobust asks for each twice).
let current = { name: "", inputs: [], bytes: 0 };

for await (const line of createInterface({ input: process.stdin })) {
	const [name, ms, warm] = line.split(" ");
	const budget = Number(ms) * 1e6;
	if (!name || !(budget > 0) || !(Number(warm) >= 0)) throw new Error(`time-robust-ts: bad request ${JSON.stringify(line)}: want "NAME MS WARM"`);
	if (name !== current.name) {
		const inputs = texts(name);
		current = { name, inputs, bytes: inputs.reduce((n, t) => n + Buffer.byteLength(t), 0) };
		// Warm-up: the JIT compiles (and recompiles) what this input runs, on threads of its
		// own whose CPU time the process's counts: the corpus's answers took 29 ms of CPU a
		// round for their first 25 rounds, 5.8 ms at rounds 50 to 100, and settled at 3.9 ms
		// after about 120 rounds (0.7 s of CPU). timerobust asks for a second.
		run(inputs, Number(warm) * 1e6);
	}
	console.log(`${name} ${run(current.inputs, budget)} ${current.bytes}`);
}
