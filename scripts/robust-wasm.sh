#!/usr/bin/env bash
# robust-wasm.sh: would robust compiled to WebAssembly under Node replace robust.ts? Builds
# compact.ExtractRobust for GOOS=js GOARCH=wasm (a synchronous extractSummary on the global
# object, Go's wasm_exec.js), robust.ts as the npm package ships it (scripts/npmrobust), and
# prints, under Node: the start-up of each, and the time of each on answers of three shapes
# at 20 KB, 1 MB and 10 MB, with whether both return the same. docs/robust.md ("One robust")
# gives what it printed and what follows from it. Needs go and node; writes only to a
# temporary folder (and, for the build, a folder it removes inside this module).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pkg=$(mktemp -d ./.robust-wasm-XXXX)
trap 'rm -rf "$tmp" "$pkg"' EXIT
cat >"$pkg/main.go" <<'GO'
//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/compacteval/compacteval/compact"
)

func main() {
	js.Global().Set("goExtractSummary", js.FuncOf(func(this js.Value, args []js.Value) any {
		e := compact.ExtractRobust(args[0].String())
		if !e.OK {
			return js.Undefined()
		}
		return e.Summary
	}))
	select {}
}
GO
GOOS=js GOARCH=wasm CGO_ENABLED=0 go build -trimpath -ldflags=-s -o "$tmp/robust.wasm" "./$pkg"
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$tmp/"
go run ./scripts/npmrobust -out "$tmp/npmrobust" >/dev/null
echo "robust.wasm: $(wc -c <"$tmp/robust.wasm") bytes, $(gzip -9 -c "$tmp/robust.wasm" | wc -c) gzipped; load $(cut -d' ' -f1-3 /proc/loadavg)"
cat >"$tmp/bench.mjs" <<'JS'
import fs from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const t0 = performance.now();
require("./wasm_exec.js");
const go = new globalThis.Go();
const inst = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync("./robust.wasm")), go.importObject);
go.run(inst);
const t1 = performance.now();
const { extractSummary } = await import("./npmrobust/robust.js");
const t2 = performance.now();
console.log(`start-up: wasm ${(t1 - t0).toFixed(1)} ms, robust.ts ${(t2 - t1).toFixed(1)} ms`);
function typical(n) {
  let body = "", i = 0;
  while (body.length < n) { body += `${i % 9 + 1}. Section ${i}:\n   - edited src/file${i}.ts and ran go test ./pkg${i}\n`; i++; }
  return `<analysis>\nthinking\n</analysis>\n\n<summary>\n${body}</summary>\n`;
}
function closers(n) { let s = "<summary>\n"; while (s.length < n) s += "x </summary> y\n"; return s; }
function attrs(n) { let s = ""; while (s.length < n) s += `<summary a="${"y".repeat(200)}">\n`; return s + "done\n"; }
console.log("| shape | bytes | wasm ms | robust.ts ms | wasm / robust.ts | same |");
console.log("| --- | ---: | ---: | ---: | ---: | --- |");
for (const [name, gen] of [["typical answer", typical], ["closer chain", closers], ["attribute openers", attrs]]) {
  for (const size of [20_000, 1_000_000, 10_000_000]) {
    const text = gen(size);
    const same = globalThis.goExtractSummary(text) === extractSummary(text);
    const reps = size > 1e6 ? 3 : size > 1e5 ? 10 : 200;
    let w = performance.now(); for (let r = 0; r < reps; r++) globalThis.goExtractSummary(text); w = (performance.now() - w) / reps;
    let j = performance.now(); for (let r = 0; r < reps; r++) extractSummary(text); j = (performance.now() - j) / reps;
    console.log(`| ${name} | ${size} | ${w.toFixed(2)} | ${j.toFixed(2)} | ${(w / j).toFixed(1)} | ${same} |`);
  }
}
process.exit(0);
JS
(cd "$tmp" && node bench.mjs)
