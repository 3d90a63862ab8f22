// The Pyodide peer (CPython compiled to wasm with Emscripten, npm pyodide):
// the python workloads of package bench, in one node process. Run by
// package bench (peers.go) with its configuration on stdin; see common.mjs.

import { loadPyodide } from "pyodide";
import * as m from "./common.mjs";

const cfg = m.config();

// load is a new interpreter whose stdout lines go to the returned array.
async function load() {
  const out = [];
  const py = await loadPyodide({ stdout: (line) => out.push(line), stderr: () => {} });
  return { py, out };
}

// python runs code and checks it printed want (lines without their
// newlines, as Pyodide's stdout callback gets them), returning what it
// printed.
function python(it, code, want) {
  it.out.length = 0;
  it.py.runPython(code);
  const got = it.out.join("\n") + "\n";
  if (want !== undefined && got !== want) {
    throw new Error(`printed ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  return got;
}

await m.run("create-python", async () => {
  const took = [], cpus = [];
  for (let i = 0; i < cfg.firstPythonRounds; i++) {
    const start = m.now(), cpu0 = m.cpu();
    python(await load(), cfg.print.code, cfg.print.want);
    took.push(m.now() - start);
    cpus.push(m.cpu() - cpu0);
    globalThis.gc?.();
  }
  const r = m.median(took);
  r.note += `, CPU ${m.human(m.median(cpus).ns)}`;
  return r;
});

// warm is the interpreter of the warm workloads, loaded by the first.
let warm;
async function loaded() {
  warm ??= await load();
  return warm;
}

await m.run("python-warm", async () => {
  const it = await loaded();
  const r = await m.mean(() => python(it, cfg.print.code, cfg.print.want));
  r.note += " (runPython in a loaded interpreter)";
  return r;
});

await m.run("python-cpu", async () => {
  const it = await loaded();
  const start = m.now(), cpu0 = m.cpu();
  const got = python(it, cfg.cpu.code);
  const wall = m.now() - start, cpu = m.cpu() - cpu0;
  const secs = Number.parseFloat(got);
  if (!Number.isFinite(secs)) throw new Error(`the CPU-bound set printed ${JSON.stringify(got)}`);
  return { ns: secs * 1e9, note: `in-interpreter sum; command ${m.human(wall)}, CPU ${m.human(cpu)}` };
});
