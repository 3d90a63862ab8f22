// Shared by the peer drivers: how a measurement is taken and reported, the
// same ways as package bench takes its own (a mean over a loop of at least
// a second, a median, percentiles by nearest rank, peak RSS from VmHWM).
//
// A driver reads its configuration as JSON on stdin and writes one JSON
// object per line on stdout: {"key", "ns", "note", "rss"} for a
// measurement (rss: a peak RSS in bytes, 0 when none), or {"key", "error"}
// for one it could not take.

import { readFileSync, writeFileSync } from "node:fs";

let cfg = {};

// config is the JSON object on stdin (read once).
export function config() {
  cfg = JSON.parse(readFileSync(0, "utf8"));
  return cfg;
}

// now is a monotonic clock in nanoseconds, as a Number.
export function now() {
  return Number(process.hrtime.bigint());
}

// cpu is this process's CPU time (user + system) in nanoseconds.
export function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
}

export function emit(key, ns, note, rss) {
  process.stdout.write(JSON.stringify({ key, ns: Math.round(ns), note: note || "", rss: rss || 0 }) + "\n");
}

export function fail(key, err) {
  process.stdout.write(JSON.stringify({ key, error: String(err && err.stack ? err.message : err) }) + "\n");
}

// run measures one workload under key, unless the configuration's "only"
// leaves it out: fn returns {ns, note, rss}; what it throws is the
// workload's error, and the driver goes on with the next.
export async function run(key, fn) {
  if (cfg.only && !cfg.only.includes(key)) return;
  try {
    const r = await fn();
    emit(key, r.ns, r.note, r.rss);
  } catch (err) {
    fail(key, err);
  }
}

// mean times op once untimed (to warm up), then in a loop until at least
// minNs have passed and at least minRuns have run: the mean per run.
export async function mean(op, minNs = 1e9, minRuns = 10) {
  await op();
  let n = 0;
  const start = now();
  let took = 0;
  while (n < minRuns || took < minNs) {
    await op();
    n++;
    took = now() - start;
  }
  return { ns: took / n, note: `mean of ${n}` };
}

function sorted(xs) {
  return [...xs].sort((a, b) => a - b);
}

// median is the median of the times, noted as such.
export function median(took) {
  const s = sorted(took);
  return { ns: s[Math.floor(s.length / 2)], note: `median of ${s.length}` };
}

// percentiles is p50 with p95 and p99 in the note (nearest rank).
export function percentiles(took) {
  const s = sorted(took);
  const at = (p) => s[Math.max(0, Math.ceil((s.length * p) / 100) - 1)];
  return { ns: at(50), note: `p50 of ${s.length}; p95 ${human(at(95))}, p99 ${human(at(99))}` };
}

// human is a time in nanoseconds as package bench's round writes it.
export function human(ns) {
  if (ns < 1e6) return `${Math.round(ns / 1e3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

// resetPeakRSS starts the peak RSS afresh from the current RSS (Linux);
// false where it cannot.
export function resetPeakRSS() {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return peakRSS() > 0;
  } catch {
    return false;
  }
}

// peakRSS is VmHWM in bytes, 0 where it cannot be read.
export function peakRSS() {
  try {
    const m = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

