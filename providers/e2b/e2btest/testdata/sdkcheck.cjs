// sdkcheck drives E2B's own JavaScript SDK, unmodified, against a server
// (e2btest in the Go test that runs it): every call the e2b adapter relies
// on, each as it is documented. It prints one JSON line per check:
// {"name", "ok", "detail"}; a check that throws is not ok, with the error.
//
//   E2B_SDK_DIR=<folder holding node_modules/e2b> E2B_API_URL=... \
//   E2B_SANDBOX_URL=... E2B_API_KEY=... E2B_DOMAIN=... node sdkcheck.cjs
//
// Checks named "unimplemented: ..." expect the call to fail with the SDK's
// error for envd's Connect code unimplemented.
'use strict'
const path = require('path')
const { Sandbox, CommandExitError, NotFoundError, SandboxError } = require(path.join(process.env.E2B_SDK_DIR, 'node_modules', 'e2b'))

const results = []
function report(name, ok, detail) {
  const line = JSON.stringify({ name, ok, detail: detail === undefined ? '' : String(detail) })
  results.push(line)
  process.stdout.write(line + '\n')
}
async function check(name, fn) {
  try {
    const detail = await fn()
    report(name, true, detail)
  } catch (e) {
    report(name, false, `${e && e.name}: ${e && e.message}`)
  }
}
function expect(cond, what) {
  if (!cond) throw new Error('expected ' + what)
}
function eq(got, want, what) {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`)
}
async function unimplemented(name, fn) {
  try {
    await fn()
    report('unimplemented: ' + name, false, 'the call succeeded')
  } catch (e) {
    const ok = e instanceof SandboxError && /unimplemented/.test(e.message)
    report('unimplemented: ' + name, ok, `${e && e.name}: ${e && e.message}`)
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function main() {
  let sbx
  await check('create', async () => {
    sbx = await Sandbox.create({ timeoutMs: 120_000, metadata: { suite: 'sdkcheck' }, envs: { SDK_ENV: 'from-create' } })
    expect(/^[a-z0-9]+$/.test(sbx.sandboxId), 'an E2B sandbox id: ' + sbx.sandboxId)
    return sbx.sandboxId
  })
  if (!sbx) return

  await check('run: output and exit 0', async () => {
    const r = await sbx.commands.run('echo out; echo err >&2')
    eq([r.exitCode, r.stdout, r.stderr], [0, 'out\n', 'err\n'], 'result')
  })
  await check('run: streaming', async () => {
    const chunks = []
    const r = await sbx.commands.run('for i in 1 2 3; do echo line$i; sleep 0.2; done', { onStdout: (d) => chunks.push(d) })
    eq(chunks.join(''), 'line1\nline2\nline3\n', 'streamed stdout')
    expect(chunks.length >= 2, 'output in several chunks, live')
    eq(r.stdout, 'line1\nline2\nline3\n', 'stdout')
  })
  await check('run: non-zero exit', async () => {
    try {
      await sbx.commands.run('echo before; exit 3')
    } catch (e) {
      expect(e instanceof CommandExitError, 'a CommandExitError, got ' + e.name)
      eq([e.exitCode, e.stdout], [3, 'before\n'], 'exit code and output')
      return
    }
    throw new Error('no error for exit 3')
  })
  await check('run: timeout', async () => {
    const start = Date.now()
    try {
      await sbx.commands.run('sleep 30', { timeoutMs: 1000 })
    } catch (e) {
      expect(Date.now() - start < 10_000, 'ended within 10 s')
      return e.name
    }
    throw new Error('no error past the timeout')
  })
  await check('run: envs', async () => {
    const r = await sbx.commands.run('echo "$SDK_ENV $ONE"', { envs: { ONE: 'per-command' } })
    eq(r.stdout, 'from-create per-command\n', 'environment')
  })
  await check('run: cwd', async () => {
    await sbx.files.makeDir('/home/user/sub')
    const r = await sbx.commands.run('pwd', { cwd: '/home/user/sub' })
    eq(r.stdout, '/home/user/sub\n', 'pwd')
  })
  await check('run: default user and home', async () => {
    const r = await sbx.commands.run('pwd; echo "$HOME"; whoami')
    eq(r.stdout, '/home/user\n/home/user\nuser\n', 'pwd, HOME and whoami')
  })
  await check('run: as root', async () => {
    const r = await sbx.commands.run('id -u; echo "$HOME"', { user: 'root' })
    eq(r.stdout, '0\n/root\n', 'uid and HOME')
  })
  await check('run: background, list, connect, kill', async () => {
    const h = await sbx.commands.run('echo started; sleep 60', { background: true })
    expect(h.pid > 0, 'a pid')
    const procs = await sbx.commands.list()
    expect(procs.some((p) => p.pid === h.pid), 'the process listed')
    const out = []
    const again = await sbx.commands.connect(h.pid, { onStdout: (d) => out.push(d) })
    eq(await sbx.commands.kill(h.pid), true, 'kill')
    try {
      await again.wait()
    } catch (e) {
      expect(e instanceof CommandExitError, 'killed: a CommandExitError, got ' + e.name)
    }
    eq(await sbx.commands.kill(h.pid), false, 'kill of an ended process')
    const after = await sbx.commands.list()
    expect(!after.some((p) => p.pid === h.pid), 'the process gone from the list')
  })
  await check('run: background wait', async () => {
    const h = await sbx.commands.run('sleep 0.3; echo done', { background: true })
    const r = await h.wait()
    eq([r.exitCode, r.stdout], [0, 'done\n'], 'waited result')
  })

  await check('files: write and read text', async () => {
    const info = await sbx.files.write('notes/a.txt', 'héllo\n')
    eq([info.path, info.name], ['/home/user/notes/a.txt', 'a.txt'], 'written entry')
    eq(await sbx.files.read('notes/a.txt'), 'héllo\n', 'read back')
    const r = await sbx.commands.run('cat /home/user/notes/a.txt')
    eq(r.stdout, 'héllo\n', 'the command sees it')
  })
  await check('files: bytes', async () => {
    const data = new Uint8Array(256)
    for (let i = 0; i < 256; i++) data[i] = i
    await sbx.files.write('/tmp/b.bin', data.buffer)
    const back = await sbx.files.read('/tmp/b.bin', { format: 'bytes' })
    eq(Array.from(back), Array.from(data), 'bytes round trip')
  })
  await check('files: list', async () => {
    const entries = await sbx.files.list('/home/user/notes')
    eq(entries.map((e) => [e.name, e.type, e.path]), [['a.txt', 'file', '/home/user/notes/a.txt']], 'entries')
  })
  await check('files: makeDir', async () => {
    eq(await sbx.files.makeDir('/home/user/d1/d2'), true, 'made')
    eq(await sbx.files.makeDir('/home/user/d1/d2'), false, 'already there')
  })
  await check('files: exists', async () => {
    eq([await sbx.files.exists('notes/a.txt'), await sbx.files.exists('nope.txt')], [true, false], 'exists')
  })
  await check('files: getInfo', async () => {
    const i = await sbx.files.getInfo('notes/a.txt')
    eq([i.name, i.type, i.path, i.size], ['a.txt', 'file', '/home/user/notes/a.txt', 7], 'info')
    const d = await sbx.files.getInfo('/home/user/d1')
    eq(d.type, 'dir', 'a folder')
  })
  await check('files: rename', async () => {
    const e = await sbx.files.rename('notes/a.txt', 'notes/b.txt')
    eq(e.path, '/home/user/notes/b.txt', 'new path')
    eq([await sbx.files.exists('notes/a.txt'), await sbx.files.read('notes/b.txt')], [false, 'héllo\n'], 'moved')
  })
  await check('files: remove', async () => {
    await sbx.files.remove('notes/b.txt')
    eq(await sbx.files.exists('notes/b.txt'), false, 'removed')
  })
  await check('files: missing path', async () => {
    try {
      await sbx.files.read('/home/user/missing.txt')
    } catch (e) {
      expect(e instanceof NotFoundError, 'a NotFoundError, got ' + e.name)
      return e.message
    }
    throw new Error('no error')
  })

  await check('getHost', async () => {
    const h = sbx.getHost(8080)
    expect(h.startsWith('8080-' + sbx.sandboxId + '.'), 'port-id.domain: ' + h)
    return h
  })
  await check('isRunning', async () => {
    eq(await sbx.isRunning(), true, 'running')
  })
  await check('getInfo', async () => {
    const i = await sbx.getInfo()
    eq([i.sandboxId, i.templateId, i.metadata, i.state], [sbx.sandboxId, 'base', { suite: 'sdkcheck' }, 'running'], 'info')
    expect(i.endAt > i.startedAt, 'an end after the start')
  })
  await check('setTimeout', async () => {
    await sbx.setTimeout(600_000)
    const i = await sbx.getInfo()
    const left = i.endAt.getTime() - Date.now()
    expect(left > 590_000 && left <= 601_000, 'the end 600 s from now, got ' + left)
  })
  await check('connect', async () => {
    const other = await Sandbox.connect(sbx.sandboxId)
    const r = await other.commands.run('echo via-connect')
    eq(r.stdout, 'via-connect\n', 'runs')
  })
  await check('list', async () => {
    const p = Sandbox.list({ query: { metadata: { suite: 'sdkcheck' } } })
    const items = await p.nextItems()
    expect(items.some((s) => s.sandboxId === sbx.sandboxId), 'the sandbox listed')
    const none = await Sandbox.list({ query: { metadata: { suite: 'other' } } }).nextItems()
    eq(none.length, 0, 'a metadata filter that matches none')
  })
  await check('list: paging', async () => {
    const second = await Sandbox.create({ timeoutMs: 60_000, metadata: { suite: 'sdkcheck' } })
    const p = Sandbox.list({ query: { metadata: { suite: 'sdkcheck' } }, limit: 1 })
    const seen = []
    while (p.hasNext) seen.push(...(await p.nextItems()).map((s) => s.sandboxId))
    await second.kill()
    eq(seen.slice().sort(), [sbx.sandboxId, second.sandboxId].sort(), 'both, one per page')
  })
  await check('getMetrics', async () => {
    const m = await sbx.getMetrics()
    expect(Array.isArray(m), 'a list')
    return JSON.stringify(m)
  })
  await check('pause and resume', async () => {
    const pause = sbx.pause ? sbx.pause.bind(sbx) : sbx.betaPause.bind(sbx)
    await pause()
    const i = await Sandbox.getInfo(sbx.sandboxId)
    eq(i.state, 'paused', 'state')
    sbx = await Sandbox.connect(sbx.sandboxId)
    const r = await sbx.commands.run('echo resumed')
    eq(r.stdout, 'resumed\n', 'runs after resume')
  })

  await unimplemented('watchDir', async () => {
    const w = await sbx.files.watchDir('/home/user', () => {})
    await w.stop()
  })
  await unimplemented('stdin', async () => {
    const h = await sbx.commands.run('cat', { background: true, stdin: true })
    try {
      await sbx.commands.sendStdin(h.pid, 'x\n')
    } finally {
      await sbx.commands.kill(h.pid)
    }
  })
  await unimplemented('pty', async () => {
    const h = await sbx.pty.create({ cols: 80, rows: 24, onData: () => {} })
    await h.kill()
  })

  await check('kill', async () => {
    eq(await sbx.kill(), true, 'killed')
    eq(await sbx.isRunning(), false, 'not running')
    try {
      await Sandbox.connect(sbx.sandboxId)
    } catch (e) {
      return e.name
    }
    throw new Error('connect to a killed sandbox worked')
  })
  await check('expiry', async () => {
    const short = await Sandbox.create({ timeoutMs: 1000 })
    await sleep(2500)
    eq(await short.isRunning(), false, 'ended by itself')
    try {
      await short.commands.run('true')
    } catch (e) {
      return e.name
    }
    throw new Error('a command ran in an expired sandbox')
  })
}

main().then(
  () => process.exit(0),
  (e) => {
    report('main', false, e && e.stack)
    process.exit(1)
  },
)
