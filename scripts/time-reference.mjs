// Times the reference extractSummary on one input file: runs it until a second has passed
// (at least once) and prints the mean time per call in nanoseconds.
// Usage: node scripts/time-reference.mjs REFERENCE_DIR FILE
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const [refDir, file] = process.argv.slice(2);
const ref = await import(pathToFileURL(join(resolve(refDir), "compaction.mjs")).href);
const text = readFileSync(file, "utf8");
let runs = 0;
const start = process.hrtime.bigint();
let elapsed = 0n;
do {
	ref.extractSummary(text);
	runs++;
	elapsed = process.hrtime.bigint() - start;
} while (elapsed < 1_000_000_000n);
console.log(String(elapsed / BigInt(runs)));
