// Globals and the hooks the Go side calls.
class AbortSignal extends EventEmitter {
  constructor() { super(); this.aborted = false; this.reason = undefined; this.onabort = null; }
  throwIfAborted() { if (this.aborted) throw this.reason; }
  addEventListener(type, fn) { this.on(type, fn); }
  removeEventListener(type, fn) { this.off(type, fn); }
  static abort(reason) { var c = new AbortController(); c.abort(reason); return c.signal; }
  static timeout(ms) {
    var c = new AbortController();
    setTimeout(function () {
      var e = new Error('The operation was aborted due to timeout');
      e.name = 'TimeoutError';
      c.abort(e);
    }, ms).unref();
    return c.signal;
  }
}
class AbortController {
  constructor() { this.signal = new AbortSignal(); }
  abort(reason) {
    var s = this.signal;
    if (s.aborted) return;
    s.aborted = true;
    if (reason === undefined) {
      reason = new Error('This operation was aborted');
      reason.name = 'AbortError';
    }
    s.reason = reason;
    var ev = { type: 'abort', target: s };
    if (typeof s.onabort === 'function') s.onabort(ev);
    s.emit('abort', ev);
  }
}

(function () {
  var g = globalThis;
  var define = function (name, value) {
    Object.defineProperty(g, name, { value: value, writable: true, configurable: true, enumerable: false });
  };
  define('global', g);
  define('console', console);
  define('process', process);
  define('Buffer', Buffer);
  define('setTimeout', setTimeout);
  define('clearTimeout', clearTimeout);
  define('setInterval', setInterval);
  define('clearInterval', clearTimeout);
  define('setImmediate', setImmediate);
  define('clearImmediate', clearImmediate);
  define('queueMicrotask', queueMicrotask);
  define('structuredClone', structuredClone);
  define('atob', atob);
  define('btoa', btoa);
  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);
  define('URL', URL);
  define('URLSearchParams', URLSearchParams);
  define('AbortController', AbortController);
  define('AbortSignal', AbortSignal);
  define('performance', performance);
  define('crypto', webcrypto);
  define('fetch', fetch);
  define('Headers', Headers);
  define('Response', Response);
})();

var nodeHooks = {
  inspect: inspect,
  runMain: function (file) {
    runTask(function () { Module._load(pathPosix.resolve(file), null, true); });
  },
  runTask: function (fn) { return runTask(fn); },
  setupEval: function (name) {
    var m = new Module(name, null);
    m.filename = pathPosix.join(native.cwd(), name);
    m.paths = nodeModulePaths(native.cwd());
    m.loaded = true;
    mainModule = m;
    var g = globalThis;
    g.module = m;
    g.exports = m.exports;
    g.require = makeRequire(m);
    g.__filename = name;
    g.__dirname = '.';
  },
  printResult: function (v) { console.log(v); },
  preload: function (id) {
    runTask(function () {
      var m = new Module('internal/preload', null);
      m.filename = pathPosix.join(native.cwd(), '[preload]');
      m.paths = nodeModulePaths(native.cwd());
      Module._load(id, m, false);
    });
  },
  formatFatal: function (err) {
    if (typeof err === 'string') return err;
    return inspect(err);
  },
  emitExit: function (code) {
    process.exitCode = code;
    process._exiting = true;
    process.emit('exit', code);
  },
  emitBeforeExit: function (code) {
    if (process.listenerCount('beforeExit') === 0) return false;
    process.emit('beforeExit', code);
    return true;
  },
  uncaught: function (err) {
    if (typeof process._captureFn === 'function') {
      process._captureFn(err);
      return true;
    }
    if (process.listenerCount('uncaughtException') === 0) return false;
    process.emit('uncaughtException', err, 'uncaughtException');
    return true;
  },
  rejection: function (reason, promise) {
    if (process.listenerCount('unhandledRejection') === 0) return false;
    process.emit('unhandledRejection', reason, promise);
    return true;
  },
  exitCode: function () {
    try { return exitCodeOf(process.exitCode); } catch (e) { return 1; }
  },
};
return nodeHooks;
