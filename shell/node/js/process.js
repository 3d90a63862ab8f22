// process, console, timers and the other globals.
var process = new EventEmitter();
var kNoWrite = function () { return true; };

function toBytesOrString(chunk, encoding) {
  if (typeof chunk === 'string') {
    var enc = normalizeEncoding(encoding) || 'utf8';
    return enc === 'utf8' ? chunk : new Uint8Array(native.encode(chunk, enc));
  }
  if (chunk instanceof Uint8Array) return chunk;
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "chunk" argument must be of type string or an instance of Buffer, TypedArray, or DataView.' + receivedText(chunk));
}

function makeWriteStream(fd) {
  var s = new EventEmitter();
  s.fd = fd;
  s.isTTY = false;
  s.writable = true;
  s.writableLength = 0;
  s.writableHighWaterMark = 16384;
  s._isStdio = true;
  s.write = function (chunk, encoding, cb) {
    if (typeof encoding === 'function') { cb = encoding; encoding = undefined; }
    native.write(fd, toBytesOrString(chunk, encoding));
    if (typeof cb === 'function') process.nextTick(cb, null);
    return true;
  };
  s.end = function (chunk, encoding, cb) {
    if (typeof chunk === 'function') { cb = chunk; chunk = undefined; }
    if (typeof encoding === 'function') { cb = encoding; encoding = undefined; }
    if (chunk !== undefined && chunk !== null) s.write(chunk, encoding);
    if (typeof cb === 'function') process.nextTick(cb);
    var self = s;
    setImmediate(function () { self.emit('finish'); });
    return s;
  };
  s.cork = s.uncork = function () {};
  s.setDefaultEncoding = function () { return s; };
  s.getWindowSize = function () { return [80, 24]; };
  s.hasColors = function () { return false; };
  s.getColorDepth = function () { return 1; };
  s.destroy = function () { return s; };
  return s;
}

function makeStdin() {
  var s = new EventEmitter();
  s.fd = 0;
  s.isTTY = false;
  s.readable = true;
  var encoding = null;
  var started = false;
  var ended = false;
  var paused = true;
  function start() {
    if (started) return;
    started = true;
    setImmediate(function () {
      var ab = native.readStdin();
      if (ab.byteLength > 0) {
        var buf = bufferFromAB(ab);
        s.emit('data', encoding ? buf.toString(encoding) : buf);
      }
      ended = true;
      s.readable = false;
      s.emit('end');
      s.emit('close');
    });
  }
  s._onListener = function (type) {
    if (type === 'data' || type === 'end' || type === 'readable') {
      paused = false;
      start();
    }
  };
  s.setEncoding = function (enc) { encoding = checkEncoding(enc); return s; };
  s.resume = function () { paused = false; start(); return s; };
  s.pause = function () { paused = true; return s; };
  s.isPaused = function () { return paused; };
  s.read = function () {
    if (ended) return null;
    var ab = native.readStdin();
    ended = true;
    if (ab.byteLength === 0) return null;
    var buf = bufferFromAB(ab);
    return encoding ? buf.toString(encoding) : buf;
  };
  s.pipe = function (dest) {
    s.on('data', function (d) { dest.write(d); });
    s.on('end', function () { if (!dest._isStdio && typeof dest.end === 'function') dest.end(); });
    return dest;
  };
  s.unref = s.ref = function () { return s; };
  s.setRawMode = function () { return s; };
  s.destroy = function () { ended = true; return s; };
  return s;
}

process.title = 'node';
process.version = native.version;
process.versions = { node: native.version.slice(1), goja: 'dop251/goja', modules: '115', v8: '0.0.0-goja' };
process.release = { name: 'node' };
process.arch = native.arch;
process.platform = 'linux';
process.argv = native.argv;
process.argv0 = 'node';
process.execArgv = native.execArgv;
process.execPath = native.execPath;
process.env = native.env;
process.pid = native.pid;
process.ppid = native.pid - 1;
process.exitCode = undefined;
process.config = { variables: {} };
process.features = { inspector: false, ipv6: false, tls: false, cached_builtins: true };
process.stdout = makeWriteStream(1);
process.stderr = makeWriteStream(2);
process.stdin = makeStdin();
process.cwd = function () { return native.cwd(); };
process.chdir = function (dir) {
  validateString(dir, 'directory');
  native.chdir(dir);
};
process.umask = function () { return 18; };
process.getuid = process.geteuid = function () { return native.uid; };
process.getgid = process.getegid = function () { return native.gid; };
process.getgroups = function () { return [native.gid]; };
process.exit = function (code) {
  if (code !== undefined && code !== null) process.exitCode = code;
  native.exit(exitCodeOf(process.exitCode));
};
process.reallyExit = process.exit;
process.abort = function () { native.exit(134); };
process.kill = function (pid, sig) {
  if (pid === process.pid) native.exit(sig === 0 ? 0 : 143);
  throw nodeError(Error, 'ESRCH', 'kill ESRCH');
};
function exitCodeOf(code) {
  if (code === undefined || code === null) return 0;
  var n = Number(code);
  if (!Number.isInteger(n)) {
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "code" argument must be of type number.' + receivedText(code));
  }
  return n & 255;
}
process.hrtime = function (prev) {
  var ns = native.hrtime();
  var sec = Number(ns / 1000000000n);
  var nsec = Number(ns % 1000000000n);
  if (prev) {
    sec -= prev[0];
    nsec -= prev[1];
    if (nsec < 0) { sec--; nsec += 1e9; }
  }
  return [sec, nsec];
};
process.hrtime.bigint = function () { return native.hrtime(); };
process.uptime = function () { return native.now() / 1000; };
process.memoryUsage = function () { return native.memoryUsage(); };
process.memoryUsage.rss = function () { return native.memoryUsage().rss; };
process.cpuUsage = function () { var t = Math.round(native.now() * 1000); return { user: t, system: 0 }; };
process.resourceUsage = function () { return { userCPUTime: Math.round(native.now() * 1000), systemCPUTime: 0, maxRSS: native.memoryUsage().rss / 1024 }; };
process.emitWarning = function (warning, type, code) {
  if (typeof type === 'object' && type !== null) { code = type.code; type = type.type; }
  var name = typeof warning === 'string' ? (type || 'Warning') : (warning.name || 'Warning');
  var msg = typeof warning === 'string' ? warning : warning.message;
  if (native.noWarnings) return;
  native.write(2, '(node:' + process.pid + ') ' + (code ? '[' + code + '] ' : '') + name + ': ' + msg + '\n');
};
process.binding = function (name) { throw unavailable('process.binding(' + JSON.stringify(name) + ')'); };
process.dlopen = function () { throw unavailable('process.dlopen'); };
process.setUncaughtExceptionCaptureCallback = function (fn) { process._captureFn = fn; };
process.hasUncaughtExceptionCaptureCallback = function () { return typeof process._captureFn === 'function'; };
process.report = { getReport: function () { return {}; } };
process.allowedNodeEnvironmentFlags = new Set();

// nextTick: a microtask that runs before promise reactions queued after it.
var tickQueue = [];
var tickScheduled = false;
function runTicks() {
  tickScheduled = false;
  while (tickQueue.length) {
    var t = tickQueue.shift();
    try {
      t[0].apply(undefined, t[1]);
    } catch (e) {
      native.fatal(e);
      return;
    }
  }
}
process.nextTick = function (fn) {
  validateFunction(fn, 'callback');
  tickQueue.push([fn, Array.prototype.slice.call(arguments, 1)]);
  if (!tickScheduled) {
    tickScheduled = true;
    Promise.resolve().then(runTicks);
  }
};
// runTask runs a macrotask (the main script, a timer, an immediate), then
// the nextTick queue, before the promise jobs it queued.
function runTask(fn, thisArg, args) {
  var r = fn.apply(thisArg, args);
  if (tickQueue.length) runTicks();
  return r;
}
function queueMicrotask(fn) {
  validateFunction(fn, 'callback');
  Promise.resolve().then(function () {
    try {
      fn();
    } catch (e) {
      native.fatal(e);
    }
  });
}

// Timers
class Timeout {
  constructor(id, fn, ms, args, repeat) {
    this._id = id;
    this._idleTimeout = ms;
    this._onTimeout = fn;
    this._timerArgs = args;
    this._repeat = repeat ? ms : null;
    this._destroyed = false;
  }
  ref() { native.refTimer(this._id, true); return this; }
  unref() { native.refTimer(this._id, false); return this; }
  hasRef() { return native.hasRefTimer(this._id); }
  refresh() { native.refreshTimer(this._id); return this; }
  close() { clearTimeout(this); return this; }
  [Symbol.toPrimitive]() { return this._id; }
}
class Immediate {
  constructor(id) { this._id = id; }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return true; }
}
var timersById = new Map();
function timerDelay(ms) {
  ms = Number(ms);
  if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
  return ms;
}
function setTimeout(fn, ms) {
  validateFunction(fn, 'callback');
  var args = Array.prototype.slice.call(arguments, 2);
  var t;
  var id = native.setTimer(function () {
    timersById.delete(id);
    runTask(fn, t, args);
  }, timerDelay(ms), false);
  t = new Timeout(id, fn, timerDelay(ms), args, false);
  timersById.set(id, t);
  return t;
}
function setInterval(fn, ms) {
  validateFunction(fn, 'callback');
  var args = Array.prototype.slice.call(arguments, 2);
  var t;
  var id = native.setTimer(function () { runTask(fn, t, args); }, timerDelay(ms), true);
  t = new Timeout(id, fn, timerDelay(ms), args, true);
  timersById.set(id, t);
  return t;
}
function timerIdOf(t) {
  if (t instanceof Timeout || t instanceof Immediate) return t._id;
  if (typeof t === 'number' || typeof t === 'string') return +t;
  return undefined;
}
function clearTimeout(t) {
  var id = timerIdOf(t);
  if (id === undefined) return;
  timersById.delete(id);
  native.clearTimer(id);
  if (t instanceof Timeout) t._destroyed = true;
}
function setImmediate(fn) {
  validateFunction(fn, 'callback');
  var args = Array.prototype.slice.call(arguments, 1);
  var id = native.setImmediate(function () { runTask(fn, undefined, args); });
  return new Immediate(id);
}
function clearImmediate(t) {
  var id = timerIdOf(t);
  if (id !== undefined) native.clearImmediate(id);
}
var timersPromises = {
  setTimeout: function (ms, value) {
    return new Promise(function (resolve) { setTimeout(resolve, ms, value); });
  },
  setImmediate: function (value) {
    return new Promise(function (resolve) { setImmediate(resolve, value); });
  },
  scheduler: {
    wait: function (ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); },
    yield: function () { return new Promise(function (resolve) { setImmediate(resolve); }); },
  },
};

// console
var consoleGroupIndent = '';
var consoleCounts = new Map();
var consoleTimers = new Map();
function consoleWrite(fd, args) {
  var s;
  var v = args[0];
  if (args.length === 1 && typeof v === 'string') s = v;
  else if (args.length === 1 && typeof v === 'number' && !Object.is(v, -0)) s = '' + v;
  else s = formatWithOptionsInternal(undefined, args);
  if (consoleGroupIndent !== '') {
    s = consoleGroupIndent + s.split('\n').join('\n' + consoleGroupIndent);
  }
  native.write(fd, s + '\n');
}
function formatTime(ms) {
  var hours = 0, minutes = 0, seconds = 0;
  if (ms >= 1000) {
    if (ms >= 60000) {
      if (ms >= 3600000) {
        hours = Math.floor(ms / 3600000);
        ms = ms % 3600000;
      }
      minutes = Math.floor(ms / 60000);
      ms = ms % 60000;
    }
    seconds = ms / 1000;
  }
  if (hours !== 0 || minutes !== 0) {
    var parts = [seconds.toFixed(3).split('.')];
    var sec = parts[0][0], msec = parts[0][1];
    var res = hours !== 0 ? hours + ':' + String(minutes).padStart(2, '0') : String(minutes);
    return res + ':' + String(sec).padStart(2, '0') + '.' + msec + ' (' + (hours !== 0 ? 'h:m' : '') + 'm:ss.mmm)';
  }
  if (seconds !== 0) return seconds.toFixed(3) + 's';
  return Number(ms.toFixed(3)) + 'ms';
}
var console = {
  log: function (...args) { consoleWrite(1, args); },
  warn: function (...args) { consoleWrite(2, args); },
  dir: function (obj, options) {
    consoleWrite(1, [inspect(obj, Object.assign({ customInspect: false }, options))]);
  },
  time: function (label) {
    label = label === undefined ? 'default' : '' + label;
    if (consoleTimers.has(label)) {
      process.emitWarning("Label '" + label + "' already exists for console.time()");
      return;
    }
    consoleTimers.set(label, native.now());
  },
  timeEnd: function (label) {
    label = label === undefined ? 'default' : '' + label;
    if (!consoleTimers.has(label)) {
      process.emitWarning("No such label '" + label + "' for console.timeEnd()");
      return;
    }
    var ms = native.now() - consoleTimers.get(label);
    consoleTimers.delete(label);
    consoleWrite(1, [label + ': ' + formatTime(ms)]);
  },
  timeLog: function (label) {
    label = label === undefined ? 'default' : '' + label;
    if (!consoleTimers.has(label)) {
      process.emitWarning("No such label '" + label + "' for console.timeLog()");
      return;
    }
    var ms = native.now() - consoleTimers.get(label);
    consoleWrite(1, [label + ': ' + formatTime(ms)].concat(Array.prototype.slice.call(arguments, 1)));
  },
  trace: function () {
    var err = { name: 'Trace', message: format.apply(null, arguments) };
    Error.captureStackTrace(err);
    consoleWrite(2, [nodeStack(err.stack)]);
  },
  assert: function (expression) {
    if (!expression) {
      var args = Array.prototype.slice.call(arguments, 1);
      if (args.length === 0) args = ['Assertion failed'];
      else if (typeof args[0] === 'string') args[0] = 'Assertion failed: ' + args[0];
      else args.unshift('Assertion failed');
      consoleWrite(2, args);
    }
  },
  clear: function () {},
  count: function (label) {
    label = label === undefined ? 'default' : '' + label;
    var n = (consoleCounts.get(label) || 0) + 1;
    consoleCounts.set(label, n);
    consoleWrite(1, [label + ': ' + n]);
  },
  countReset: function (label) {
    label = label === undefined ? 'default' : '' + label;
    if (!consoleCounts.has(label)) {
      process.emitWarning("Count for '" + label + "' does not exist");
      return;
    }
    consoleCounts.delete(label);
  },
  group: function () {
    if (arguments.length > 0) console.log.apply(console, arguments);
    consoleGroupIndent += '  ';
  },
  groupEnd: function () {
    consoleGroupIndent = consoleGroupIndent.slice(0, consoleGroupIndent.length - 2);
  },
  table: function (data, properties) { consoleTable(data, properties); },
};
console.info = console.log;
console.debug = console.log;
console.dirxml = console.log;
console.error = console.warn;
console.groupCollapsed = console.group;
console.Console = function Console() { return console; };
console.profile = console.profileEnd = console.timeStamp = function () {};

// console.table, after Node.js v20's lib/internal/cli_table.js.
function consoleTable(tabularData, properties) {
  if (tabularData === null || typeof tabularData !== 'object') return console.log(tabularData);
  var renderRow = function (row, columnWidths) {
    var out = '\u2502';
    for (var i = 0; i < row.length; i++) {
      var cell = row[i];
      var len = getStringWidth(cell);
      out += ' ' + cell + ' '.repeat(Math.max(0, columnWidths[i] - len)) + ' ';
      if (i !== row.length - 1) out += '\u2502';
    }
    return out + '\u2502';
  };
  var table = function (head, columns) {
    var rows = [];
    var columnWidths = head.map(function (h) { return getStringWidth(h); });
    var longestColumn = Math.max.apply(null, columns.map(function (a) { return a.length; }));
    for (var i = 0; i < head.length; i++) {
      var column = columns[i];
      for (var j = 0; j < longestColumn; j++) {
        if (rows[j] === undefined) rows[j] = [];
        var value = rows[j][i] = hasOwn(column, j) ? column[j] : '';
        var width = columnWidths[i] || 0;
        var counted = getStringWidth(value);
        columnWidths[i] = Math.max(width, counted);
      }
    }
    var divider = columnWidths.map(function (i) { return '\u2500'.repeat(i + 2); });
    var result = '\u250c' + divider.join('\u252c') + '\u2510\n' +
      renderRow(head, columnWidths) + '\n' +
      '\u251c' + divider.join('\u253c') + '\u2524\n';
    for (var k = 0; k < rows.length; k++) result += renderRow(rows[k], columnWidths) + '\n';
    result += '\u2514' + divider.join('\u2534') + '\u2518';
    return result;
  };
  var _inspect = function (v) {
    var depth = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 2 ? -1 : 0;
    return inspect(v, { maxArrayLength: 3, breakLength: Infinity, colors: false, depth: depth });
  };
  var getIndexArray = function (length) { return Array.from({ length: length }, function (_, i) { return _inspect(i); }); };
  var mapIter = isMapIterator(tabularData);
  var isKeyValue = false;
  var i = 0;
  if (isMap(tabularData)) {
    var keys = [], values = [], length = 0;
    tabularData.forEach(function (v, k) {
      keys.push(_inspect(k));
      values.push(_inspect(v));
      length++;
    });
    return console.log(table(['(iteration index)', 'Key', 'Values'], [getIndexArray(length), keys, values]));
  }
  var setlike = isSet(tabularData) || mapIter || isSetIterator(tabularData);
  if (setlike) {
    var vals = [], len = 0;
    Array.from(tabularData).forEach(function (v) { vals.push(_inspect(v)); len++; });
    return console.log(table(['(iteration index)', 'Values'], [getIndexArray(len), vals]));
  }
  var map = Object.create(null);
  var hasPrimitives = false;
  var valuesKeyArray = [];
  var indexKeyArray = Object.keys(tabularData);
  for (; i < indexKeyArray.length; i++) {
    var item = tabularData[indexKeyArray[i]];
    var primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
    if (properties === undefined && primitive) {
      hasPrimitives = true;
      valuesKeyArray[i] = _inspect(item);
    } else {
      var ks = properties || Object.keys(item);
      for (var ki = 0; ki < ks.length; ki++) {
        var key = ks[ki];
        if (map[key] === undefined) map[key] = [];
        if ((primitive && properties) || !hasOwn(item, key)) map[key][i] = '';
        else map[key][i] = _inspect(item[key]);
      }
    }
  }
  var mapKeys = Object.keys(map);
  var mapValues = mapKeys.map(function (k) { return map[k]; });
  if (hasPrimitives) {
    mapKeys.push('Values');
    mapValues.push(valuesKeyArray);
  }
  mapKeys.unshift('(index)');
  mapValues.unshift(indexKeyArray);
  return console.log(table(mapKeys, mapValues));
}

var performance = {
  now: function () { return native.now(); },
  timeOrigin: native.timeOrigin,
  mark: function () {},
  measure: function () {},
  toJSON: function () { return { timeOrigin: native.timeOrigin }; },
};

function structuredClone(value, seen) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') {
      var e = new Error((typeof value === 'function' ? String(value) : value.toString()) + ' could not be cloned.');
      e.name = 'DataCloneError';
      throw e;
    }
    return value;
  }
  seen = seen || new Map();
  if (seen.has(value)) return seen.get(value);
  var out;
  if (Array.isArray(value)) {
    out = [];
    seen.set(value, out);
    for (var i = 0; i < value.length; i++) out[i] = structuredClone(value[i], seen);
    return out;
  }
  if (isDate(value)) return new Date(value.getTime());
  if (isRegExp(value)) return new RegExp(value.source, value.flags);
  if (isMap(value)) {
    out = new Map();
    seen.set(value, out);
    value.forEach(function (v, k) { out.set(structuredClone(k, seen), structuredClone(v, seen)); });
    return out;
  }
  if (isSet(value)) {
    out = new Set();
    seen.set(value, out);
    value.forEach(function (v) { out.add(structuredClone(v, seen)); });
    return out;
  }
  if (isArrayBuffer(value)) return value.slice(0);
  if (ArrayBuffer.isView(value)) return new value.constructor(value);
  if (isError(value)) {
    out = new (globalThis[value.name] || Error)(value.message);
    seen.set(value, out);
    return out;
  }
  out = {};
  seen.set(value, out);
  Object.keys(value).forEach(function (k) { out[k] = structuredClone(value[k], seen); });
  return out;
}


var webcrypto = {
  getRandomValues: function (arr) {
    if (!ArrayBuffer.isView(arr)) {
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "typedArray" argument must be an instance of Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array, Uint32Array, or Uint8ClampedArray.' + receivedText(arr));
    }
    var bytes = new Uint8Array(native.randomBytes(arr.byteLength));
    new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength).set(bytes);
    return arr;
  },
  randomUUID: function () { return randomUUID(); },
};
function randomUUID() {
  var b = new Uint8Array(native.randomBytes(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  var h = native.decode(b, 'hex');
  return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
}
