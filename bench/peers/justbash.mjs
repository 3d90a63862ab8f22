// The just-bash peer (a bash interpreter in TypeScript, npm just-bash): the
// shell workloads of package bench, in one node process. Run by package
// bench (peers.go) with its configuration on stdin; see common.mjs.

import { Bash } from "just-bash";
import * as m from "./common.mjs";

const cfg = m.config();

// Limits high enough for the shell loop (its defaults stop it at 20,000
// commands, 10,000 iterations of a loop and 30 s).
const limits = { maxCommandCount: 1e9, maxLoopIterations: 1e9, maxExecutionTimeMs: cfg.timeoutMs };

function newBash() {
  return new Bash({ executionLimits: limits });
}

// exec runs cmd and checks that it printed want (blanks around aside, as
// package bench checks the pipeline's count).
async function exec(bash, cmd, want) {
  const r = await bash.exec(cmd);
  if (r.stdout.trim() !== want.trim()) {
    throw new Error(`${cmd}: exit ${r.exitCode}, stdout ${JSON.stringify(r.stdout)}, stderr ${JSON.stringify(r.stderr)}`);
  }
}

// firstCommand is the time from creating a Bash until its first echo ends.
async function firstCommand() {
  const start = m.now();
  await exec(newBash(), cfg.echo.cmd, cfg.echo.want);
  return m.now() - start;
}

await m.run("create-echo", () => m.mean(() => exec(newBash(), cfg.echo.cmd, cfg.echo.want)));

await m.run("first-seq", async () => {
  const took = [];
  for (let i = 0; i < cfg.firstCommands; i++) took.push(await firstCommand());
  return m.percentiles(took);
});

await m.run("first-conc", async () => {
  const took = await Promise.all(Array.from({ length: cfg.firstCommands }, firstCommand));
  return m.percentiles(took);
});

const warm = newBash();
await m.run("warm-echo", () => m.mean(() => exec(warm, cfg.echo.cmd, cfg.echo.want)));
await m.run("pipeline", () => m.mean(() => exec(warm, cfg.pipeline.cmd, cfg.pipeline.want)));

await m.run("shell-loop", async () => {
  const start = m.now(), cpu0 = m.cpu();
  await exec(warm, cfg.shellLoop.cmd, cfg.shellLoop.want);
  return { ns: m.now() - start, note: `CPU ${m.human(m.cpu() - cpu0)}` };
});

await m.run("concurrent", async () => {
  globalThis.gc?.();
  const rss = m.resetPeakRSS();
  const start = m.now();
  await Promise.all(Array.from({ length: cfg.concurrent.n }, () => exec(newBash(), cfg.concurrent.cmd, cfg.concurrent.want)));
  return { ns: m.now() - start, rss: rss ? m.peakRSS() : 0 };
});
