// os, util, assert, crypto, url, querystring, readline and the CommonJS loader.
var os = {
  EOL: '\n',
  devNull: '/dev/null',
  constants: { signals: { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 }, errno: {}, priority: {} },
  platform: function () { return 'linux'; },
  type: function () { return 'Linux'; },
  release: function () { return '6.0.0-goja'; },
  version: function () { return '#1 SMP'; },
  machine: function () { return native.machine; },
  arch: function () { return native.arch; },
  endianness: function () { return 'LE'; },
  tmpdir: function () {
    var t = process.env.TMPDIR;
    if (t && t.length > 1 && t[t.length - 1] === '/') t = t.slice(0, -1);
    return t || '/tmp';
  },
  homedir: function () { return process.env.HOME || '/'; },
  hostname: function () { return process.env.HOSTNAME || 'sandbox'; },
  userInfo: function () {
    return {
      uid: native.uid, gid: native.gid,
      username: process.env.USER || process.env.LOGNAME || 'user',
      homedir: os.homedir(), shell: process.env.SHELL || '/bin/sh',
    };
  },
  cpus: function () {
    return [{ model: 'goja', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }];
  },
  availableParallelism: function () { return 1; },
  totalmem: function () { return 1073741824; },
  freemem: function () { return 536870912; },
  uptime: function () { return Math.floor(native.now() / 1000); },
  loadavg: function () { return [0, 0, 0]; },
  networkInterfaces: function () { return {}; },
  getPriority: function () { return 0; },
  setPriority: function () {},
};

// util
function isDeepEqual(a, b, strict, memo) {
  if (strict ? Object.is(a, b) : (a == b || (a !== a && b !== b))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  var ta = Object.prototype.toString.call(a), tb = Object.prototype.toString.call(b);
  if (ta !== tb) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (isDate(a)) { if (a.getTime() !== b.getTime()) return false; }
  else if (isRegExp(a)) { if (String(a) !== String(b) || a.lastIndex !== b.lastIndex) return false; }
  else if (isError(a)) { if (a.message !== b.message || a.name !== b.name) return false; }
  else if (isBoxedPrimitive(a)) { if (!Object.is(a.valueOf(), b.valueOf())) return false; }
  else if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length || a.byteLength !== b.byteLength) return false;
    for (var i = 0; i < a.length; i++) if (!Object.is(a[i], b[i]) && !(!strict && a[i] == b[i])) return false;
  }
  memo = memo || { a: [], b: [] };
  var idx = memo.a.indexOf(a);
  if (idx !== -1 && memo.b[idx] === b) return true;
  memo.a.push(a);
  memo.b.push(b);
  try {
    if (isMap(a)) {
      if (a.size !== b.size) return false;
      var okm = true;
      a.forEach(function (v, k) {
        if (!okm) return;
        if (!b.has(k) || !isDeepEqual(v, b.get(k), strict, memo)) okm = false;
      });
      if (!okm) return false;
    } else if (isSet(a)) {
      if (a.size !== b.size) return false;
      var oks = true;
      a.forEach(function (v) {
        if (!oks) return;
        if (b.has(v)) return;
        if (typeof v !== 'object' || v === null) { oks = false; return; }
        var found = false;
        b.forEach(function (w) { if (!found && isDeepEqual(v, w, strict, memo)) found = true; });
        if (!found) oks = false;
      });
      if (!oks) return false;
    }
    var ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (var j = 0; j < ka.length; j++) {
      if (!hasOwn(b, ka[j])) return false;
      if (!isDeepEqual(a[ka[j]], b[ka[j]], strict, memo)) return false;
    }
    if (strict) {
      var sa = Object.getOwnPropertySymbols(a).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(a, s); });
      var sb = Object.getOwnPropertySymbols(b).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(b, s); });
      if (sa.length !== sb.length) return false;
      for (var k = 0; k < sa.length; k++) if (!isDeepEqual(a[sa[k]], b[sa[k]], strict, memo)) return false;
    }
    return true;
  } finally {
    memo.a.pop();
    memo.b.pop();
  }
}

var kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
function promisify(original) {
  validateFunction(original, 'original');
  if (original[kCustomPromisify]) return original[kCustomPromisify];
  function fn() {
    var args = Array.prototype.slice.call(arguments);
    var self = this;
    return new Promise(function (resolve, reject) {
      args.push(function (err, value) {
        if (err) return reject(err);
        if (arguments.length > 2) resolve(Array.prototype.slice.call(arguments, 1));
        else resolve(value);
      });
      original.apply(self, args);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;
setTimeout[kCustomPromisify] = timersPromises.setTimeout;
setImmediate[kCustomPromisify] = timersPromises.setImmediate;

var util = {
  format: format,
  formatWithOptions: formatWithOptions,
  inspect: inspect,
  isDeepStrictEqual: function (a, b) { return isDeepEqual(a, b, true); },
  promisify: promisify,
  callbackify: function (original) {
    validateFunction(original, 'original');
    return function () {
      var args = Array.prototype.slice.call(arguments);
      var cb = args.pop();
      var self = this;
      original.apply(this, args).then(function (v) { process.nextTick(cb, null, v); },
        function (e) {
          if (!e) { var w = new Error('Promise was rejected with a falsy value'); w.reason = e; e = w; }
          process.nextTick(cb, e);
        });
    };
  },
  inherits: function (ctor, superCtor) {
    Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  },
  deprecate: function (fn, msg, code) {
    var warned = false;
    return function () {
      if (!warned) {
        warned = true;
        process.emitWarning(msg, 'DeprecationWarning', code);
      }
      return fn.apply(this, arguments);
    };
  },
  debuglog: function () { var f = function () {}; f.enabled = false; return f; },
  isArray: Array.isArray,
  isBoolean: function (v) { return typeof v === 'boolean'; },
  isNull: function (v) { return v === null; },
  isNullOrUndefined: function (v) { return v == null; },
  isNumber: function (v) { return typeof v === 'number'; },
  isString: function (v) { return typeof v === 'string'; },
  isSymbol: function (v) { return typeof v === 'symbol'; },
  isUndefined: function (v) { return v === undefined; },
  isObject: function (v) { return v !== null && typeof v === 'object'; },
  isFunction: function (v) { return typeof v === 'function'; },
  isPrimitive: function (v) { return v === null || (typeof v !== 'object' && typeof v !== 'function'); },
  isRegExp: isRegExp,
  isDate: isDate,
  isError: isError,
  stripVTControlCharacters: stripVTControlCharacters,
  toUSVString: function (s) { return String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'); },
  styleText: function (format, text) {
    var codes = inspect.colors[format];
    if (!codes) throw nodeTypeError('ERR_INVALID_ARG_VALUE', "The argument 'format' must be one of: " + Object.keys(inspect.colors).join(', '));
    return '\u001b[' + codes[0] + 'm' + text + '\u001b[' + codes[1] + 'm';
  },
  getSystemErrorName: function (n) { return native.errnoName(n); },
  TextEncoder: TextEncoder,
  TextDecoder: TextDecoder,
  types: {
    isDate: isDate, isRegExp: isRegExp, isMap: isMap, isSet: isSet, isWeakMap: isWeakMap,
    isWeakSet: isWeakSet, isPromise: isPromise, isNativeError: isNativeError,
    isTypedArray: isTypedArray, isUint8Array: function (v) { return v instanceof Uint8Array; },
    isArrayBuffer: isArrayBuffer, isAnyArrayBuffer: isArrayBuffer, isDataView: isDataView,
    isArrayBufferView: function (v) { return ArrayBuffer.isView(v); },
    isAsyncFunction: isAsyncFunction, isGeneratorFunction: isGeneratorFunction,
    isMapIterator: isMapIterator, isSetIterator: isSetIterator, isArgumentsObject: isArgumentsObject,
    isBoxedPrimitive: isBoxedPrimitive, isNumberObject: isNumberObject, isStringObject: isStringObject,
    isBooleanObject: isBooleanObject, isBigIntObject: isBigIntObject, isSymbolObject: isSymbolObject,
    isProxy: function () { return false; },
    isGeneratorObject: isGeneratorObject,
  },
};
util.parseArgs = function parseArgs(config) {
  config = config || {};
  var args = config.args || process.argv.slice(2);
  var options = config.options || {};
  var strict = config.strict !== false;
  var allowPositionals = config.allowPositionals !== undefined ? config.allowPositionals : !strict;
  var values = Object.create(null);
  var positionals = [];
  var shortMap = {};
  Object.keys(options).forEach(function (k) { if (options[k].short) shortMap[options[k].short] = k; });
  var store = function (name, value) {
    var o = options[name];
    if (o && o.multiple) (values[name] = values[name] || []).push(value);
    else values[name] = value;
  };
  for (var i = 0; i < args.length; i++) {
    var a = args[i];
    if (a === '--') { positionals.push.apply(positionals, args.slice(i + 1)); break; }
    var name, value;
    if (a.slice(0, 2) === '--') {
      var eq = a.indexOf('=');
      name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      value = eq === -1 ? undefined : a.slice(eq + 1);
    } else if (a[0] === '-' && a.length > 1) {
      name = shortMap[a[1]] || a[1];
      if (a.length > 2) {
        if (options[name] && options[name].type === 'string') value = a.slice(2);
        else {
          for (var j = 1; j < a.length; j++) store(shortMap[a[j]] || a[j], true);
          continue;
        }
      }
    } else {
      if (strict && !allowPositionals) {
        throw nodeTypeError('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument '" + a + "'. This command does not take positional arguments");
      }
      positionals.push(a);
      continue;
    }
    var opt = options[name];
    if (!opt && strict) {
      throw nodeTypeError('ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '" + a + "'");
    }
    if (opt && opt.type === 'string') {
      if (value === undefined) value = args[++i];
      store(name, value);
    } else {
      store(name, value === undefined ? true : value);
    }
  }
  Object.keys(options).forEach(function (k) {
    if (values[k] === undefined && options[k].default !== undefined) values[k] = options[k].default;
  });
  return { values: values, positionals: positionals };
};

// assert
class AssertionError extends Error {
  constructor(options) {
    var message = options.message;
    var generated = message === undefined;
    if (generated) message = assertMessage(options.actual, options.expected, options.operator);
    else if (message instanceof Error) throw message;
    super(String(message));
    this.generatedMessage = generated;
    this.code = 'ERR_ASSERTION';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = options.operator;
  }
  get name() { return 'AssertionError'; }
}
function assertMessage(actual, expected, operator) {
  var a = inspect(actual), e = inspect(expected);
  switch (operator) {
    case 'strictEqual':
      if (typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) {
        return 'Values have same structure but are not reference-equal:\n\n' + a + '\n';
      }
      return 'Expected values to be strictly equal:\n\n' + a + ' !== ' + e + '\n';
    case 'deepStrictEqual':
      return 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ' + a.split('\n').join('\n+ ') + '\n- ' + e.split('\n').join('\n- ');
    case 'deepEqual':
      return 'Expected values to be loosely deep-equal:\n\n' + a + '\n\nshould loosely deep-equal\n\n' + e;
    case 'notStrictEqual':
      return 'Expected "actual" to be strictly unequal to: ' + e;
    case 'notDeepStrictEqual':
      return 'Expected "actual" not to be strictly deep-equal to: ' + e;
    case '==':
      return a + ' == ' + e;
    case '!=':
      return a + ' != ' + e;
    case 'fail':
      return 'Failed';
  }
  return a + ' ' + operator + ' ' + e;
}
function innerOk(fn, argLen, value, message) {
  if (!value) {
    var generated = false;
    if (argLen === 0) {
      message = 'No value argument passed to ' + BACKTICK + 'assert.ok()' + BACKTICK;
    } else if (message === undefined) {
      message = 'The expression evaluated to a falsy value:\n\n  assert' + (fn === assert ? '' : '.ok') + '(' + inspect(value) + ')\n';
      generated = true;
    } else if (message instanceof Error) {
      throw message;
    }
    var err = new AssertionError({ actual: value, expected: true, message: message, operator: '==' });
    err.generatedMessage = generated;
    throw err;
  }
}
function assert(value, message) { innerOk(assert, arguments.length, value, message); }
assert.ok = function ok(value, message) { innerOk(ok, arguments.length, value, message); };
assert.AssertionError = AssertionError;
assert.fail = function (message) {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message: message === undefined ? 'Failed' : message, operator: 'fail' });
};
assert.equal = function (actual, expected, message) {
  if (!(actual == expected || (actual !== actual && expected !== expected))) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: '==' });
  }
};
assert.notEqual = function (actual, expected, message) {
  if (actual == expected || (actual !== actual && expected !== expected)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: '!=' });
  }
};
assert.strictEqual = function (actual, expected, message) {
  if (!Object.is(actual, expected)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'strictEqual' });
  }
};
assert.notStrictEqual = function (actual, expected, message) {
  if (Object.is(actual, expected)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'notStrictEqual' });
  }
};
assert.deepEqual = function (actual, expected, message) {
  if (!isDeepEqual(actual, expected, false)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'deepEqual' });
  }
};
assert.notDeepEqual = function (actual, expected, message) {
  if (isDeepEqual(actual, expected, false)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'notDeepEqual' });
  }
};
assert.deepStrictEqual = function (actual, expected, message) {
  if (!isDeepEqual(actual, expected, true)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'deepStrictEqual' });
  }
};
assert.notDeepStrictEqual = function (actual, expected, message) {
  if (isDeepEqual(actual, expected, true)) {
    throw new AssertionError({ actual: actual, expected: expected, message: message, operator: 'notDeepStrictEqual' });
  }
};
function expectedMatches(err, expected, message) {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && err instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      throw new AssertionError({ actual: err, expected: expected, message: message || 'The error is expected to be an instance of "' + expected.name + '". Received "' + (err && err.constructor && err.constructor.name) + '"', operator: 'throws' });
    }
    if (expected.call({}, err) !== true) {
      throw new AssertionError({ actual: err, expected: expected, message: message || 'The validation function is expected to return "true". Received false', operator: 'throws' });
    }
    return;
  }
  if (isRegExp(expected)) {
    if (!expected.test(String(err))) {
      throw new AssertionError({ actual: err, expected: expected, message: message || 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' + inspect(String(err)) + '\n', operator: 'throws' });
    }
    return;
  }
  if (typeof expected === 'object' && expected !== null) {
    Object.keys(expected).forEach(function (k) {
      var ev = expected[k], av = err == null ? undefined : err[k];
      var ok = isRegExp(ev) && typeof av === 'string' ? ev.test(av) : isDeepEqual(av, ev, true);
      if (!ok) {
        throw new AssertionError({ actual: err, expected: expected, message: message || 'Expected values to be strictly deep-equal:\n+ actual - expected\n\n  Comparison {\n+   ' + k + ': ' + inspect(av) + '\n-   ' + k + ': ' + inspect(ev) + '\n  }', operator: 'throws' });
      }
    });
  }
}
assert.throws = function (fn, expected, message) {
  validateFunction(fn, 'fn');
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try {
    fn();
  } catch (e) {
    expectedMatches(e, expected, message);
    return;
  }
  throw new AssertionError({ actual: undefined, expected: expected, operator: 'throws',
    message: 'Missing expected exception' + (expected && expected.name ? ' (' + expected.name + ').' : message ? ': ' + message : '.') });
};
assert.doesNotThrow = function (fn, expected, message) {
  try {
    fn();
  } catch (e) {
    throw new AssertionError({ actual: e, expected: expected, operator: 'doesNotThrow',
      message: 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"' });
  }
};
assert.rejects = function (promiseFn, expected, message) {
  var p = typeof promiseFn === 'function' ? promiseFn() : promiseFn;
  return Promise.resolve(p).then(function () {
    throw new AssertionError({ actual: undefined, expected: expected, operator: 'rejects',
      message: 'Missing expected rejection' + (expected && expected.name ? ' (' + expected.name + ').' : '.') });
  }, function (e) {
    expectedMatches(e, expected, message);
  });
};
assert.doesNotReject = function (promiseFn) {
  var p = typeof promiseFn === 'function' ? promiseFn() : promiseFn;
  return Promise.resolve(p).then(function () {}, function (e) {
    throw new AssertionError({ actual: e, operator: 'doesNotReject',
      message: 'Got unwanted rejection.\nActual message: "' + (e && e.message) + '"' });
  });
};
assert.match = function (string, regexp, message) {
  if (!regexp.test(string)) {
    throw new AssertionError({ actual: string, expected: regexp, operator: 'match',
      message: message || 'The input did not match the regular expression ' + inspect(regexp) + '. Input:\n\n' + inspect(string) + '\n' });
  }
};
assert.doesNotMatch = function (string, regexp, message) {
  if (regexp.test(string)) {
    throw new AssertionError({ actual: string, expected: regexp, operator: 'doesNotMatch',
      message: message || 'The input was expected to not match the regular expression ' + inspect(regexp) + '. Input:\n\n' + inspect(string) + '\n' });
  }
};
assert.ifError = function (err) { if (err !== null && err !== undefined) throw err; };
assert.strict = Object.assign(function strict(value, message) { innerOk(strict, arguments.length, value, message); }, assert, {
  equal: assert.strictEqual, notEqual: assert.notStrictEqual,
  deepEqual: assert.deepStrictEqual, notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict.strict = assert.strict;

// crypto
var hashAlgorithms = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
function normalizeHash(alg) {
  var a = String(alg).toLowerCase().replace(/^rsa-/, '').replace('sha-', 'sha');
  if (hashAlgorithms.indexOf(a) === -1) throw new Error('Digest method not supported');
  return a;
}
function Hash(alg, key) {
  this._alg = normalizeHash(alg);
  this._key = key;
  this._chunks = [];
  this._done = false;
}
Hash.prototype.update = function (data, encoding) {
  if (this._done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  this._chunks.push(typeof data === 'string' ? Buffer.from(data, encoding) : toData(data));
  return this;
};
Hash.prototype.digest = function (encoding) {
  if (this._done) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  this._done = true;
  var data = Buffer.concat(this._chunks.map(function (c) { return c instanceof Buffer ? c : Buffer.from(c); }));
  var ab = this._key === undefined ? native.hash(this._alg, data) : native.hmac(this._alg, this._key, data);
  var out = bufferFromAB(ab);
  return encoding && encoding !== 'buffer' ? out.toString(encoding) : out;
};
Hash.prototype.copy = function () {
  var h = new Hash(this._alg, this._key);
  h._chunks = this._chunks.slice();
  return h;
};
var crypto = {
  createHash: function (alg) { return new Hash(alg); },
  createHmac: function (alg, key) {
    return new Hash(alg, typeof key === 'string' ? Buffer.from(key) : toData(key, undefined, 'key'));
  },
  hash: function (alg, data, enc) { return new Hash(alg).update(data).digest(enc || 'hex'); },
  getHashes: function () { return hashAlgorithms.slice(); },
  randomBytes: function (n, cb) {
    var b = bufferFromAB(native.randomBytes(n));
    if (typeof cb === 'function') { setImmediate(cb, null, b); return undefined; }
    return b;
  },
  randomFillSync: function (buf, offset, size) {
    offset = offset || 0;
    size = size === undefined ? buf.byteLength - offset : size;
    new Uint8Array(buf.buffer || buf, (buf.byteOffset || 0) + offset, size).set(new Uint8Array(native.randomBytes(size)));
    return buf;
  },
  randomInt: function (min, max, cb) {
    if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
    var range = max - min;
    if (!(range > 0)) throw nodeRangeError('ERR_OUT_OF_RANGE', 'The value of "max" is out of range. It must be greater than the value of "min" (' + min + '). Received ' + max);
    var b = new Uint8Array(native.randomBytes(6));
    var x = 0;
    for (var i = 0; i < 6; i++) x = x * 256 + b[i];
    var r = min + Math.floor((x / 281474976710656) * range);
    if (typeof cb === 'function') { setImmediate(cb, null, r); return undefined; }
    return r;
  },
  randomUUID: randomUUID,
  getRandomValues: webcrypto.getRandomValues,
  webcrypto: webcrypto,
  timingSafeEqual: function (a, b) {
    if (a.byteLength !== b.byteLength) throw nodeRangeError('ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH', 'Input buffers must have the same byte length');
    var x = 0;
    for (var i = 0; i < a.length; i++) x |= a[i] ^ b[i];
    return x === 0;
  },
  constants: {},
};
['createCipheriv', 'createDecipheriv', 'createSign', 'createVerify', 'generateKeyPairSync', 'generateKeyPair',
  'pbkdf2', 'pbkdf2Sync', 'scrypt', 'scryptSync', 'createPublicKey', 'createPrivateKey', 'publicEncrypt',
  'privateDecrypt', 'createDiffieHellman', 'createECDH'].forEach(function (name) {
  crypto[name] = function () { throw unavailable('crypto.' + name); };
});

// url
var kSearchParamsOwner = Symbol('urlOwner');
class URLSearchParams {
  constructor(init) {
    this._list = [];
    if (init === undefined || init === null) return;
    if (typeof init === 'object') {
      if (typeof init[Symbol.iterator] === 'function') {
        for (var pair of init) {
          var p = Array.from(pair);
          if (p.length !== 2) throw nodeTypeError('ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');
          this._list.push([String(p[0]), String(p[1])]);
        }
      } else {
        var self = this;
        Object.keys(init).forEach(function (k) { self._list.push([k, String(init[k])]); });
      }
      return;
    }
    this._parse(String(init));
  }
  _parse(s) {
    if (s[0] === '?') s = s.slice(1);
    this._list = [];
    if (s === '') return;
    var parts = s.split('&');
    for (var i = 0; i < parts.length; i++) {
      if (parts[i] === '') continue;
      var eq = parts[i].indexOf('=');
      var k = eq === -1 ? parts[i] : parts[i].slice(0, eq);
      var v = eq === -1 ? '' : parts[i].slice(eq + 1);
      this._list.push([formDecode(k), formDecode(v)]);
    }
  }
  _update() {
    if (this[kSearchParamsOwner]) this[kSearchParamsOwner]._setSearchFromParams(this.toString());
  }
  get size() { return this._list.length; }
  append(k, v) { this._list.push([String(k), String(v)]); this._update(); }
  delete(k, v) {
    k = String(k);
    this._list = this._list.filter(function (p) { return !(p[0] === k && (v === undefined || p[1] === String(v))); });
    this._update();
  }
  get(k) { k = String(k); for (var p of this._list) if (p[0] === k) return p[1]; return null; }
  getAll(k) { k = String(k); return this._list.filter(function (p) { return p[0] === k; }).map(function (p) { return p[1]; }); }
  has(k, v) { k = String(k); return this._list.some(function (p) { return p[0] === k && (v === undefined || p[1] === String(v)); }); }
  set(k, v) {
    k = String(k); v = String(v);
    var found = false;
    this._list = this._list.filter(function (p) {
      if (p[0] !== k) return true;
      if (found) return false;
      found = true;
      p[1] = v;
      return true;
    });
    if (!found) this._list.push([k, v]);
    this._update();
  }
  sort() { this._list.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }); this._update(); }
  forEach(fn, thisArg) { for (var p of this._list) fn.call(thisArg, p[1], p[0], this); }
  keys() { return this._list.map(function (p) { return p[0]; })[Symbol.iterator](); }
  values() { return this._list.map(function (p) { return p[1]; })[Symbol.iterator](); }
  entries() { return this._list.map(function (p) { return [p[0], p[1]]; })[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  toString() { return this._list.map(function (p) { return formEncode(p[0]) + '=' + formEncode(p[1]); }).join('&'); }
  [customInspectSymbol](depth, options) {
    if (this._list.length === 0) return 'URLSearchParams {}';
    return 'URLSearchParams { ' + this._list.map(function (p) { return inspect(p[0]) + ' => ' + inspect(p[1]); }).join(', ') + ' }';
  }
}
function formDecode(s) {
  s = s.replace(/\+/g, ' ');
  try { return decodeURIComponent(s); } catch (e) { return native.percentDecode(s); }
}
function formEncode(s) {
  return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, function (c) {
    return '%' + c.charCodeAt(0).toString(16).toUpperCase();
  });
}
class URL {
  constructor(input, base) {
    var parts = native.parseURL(String(input), base === undefined ? undefined : String(base));
    if (parts === null) {
      var err = nodeTypeError('ERR_INVALID_URL', 'Invalid URL');
      err.input = String(input);
      if (base !== undefined) err.base = String(base);
      throw err;
    }
    this._set(parts);
  }
  _set(p) {
    this._p = p;
    if (!this._sp) {
      this._sp = new URLSearchParams(p.search);
      this._sp[kSearchParamsOwner] = this;
    } else {
      this._sp._parse(p.search);
    }
  }
  _reparse(changes) {
    var p = Object.assign({}, this._p, changes);
    var href = p.protocol + (p.slashes ? '//' : '') +
      (p.username ? p.username + (p.password ? ':' + p.password : '') + '@' : '') +
      p.hostname + (p.port ? ':' + p.port : '') + p.pathname + p.search + p.hash;
    var parsed = native.parseURL(href, undefined);
    if (parsed !== null) this._set(parsed);
  }
  _setSearchFromParams(s) {
    this._p = Object.assign({}, this._p, { search: s === '' ? '' : '?' + s });
    this._p.href = native.parseURL(this._rebuild(), undefined).href;
  }
  _rebuild() {
    var p = this._p;
    return p.protocol + (p.slashes ? '//' : '') +
      (p.username ? p.username + (p.password ? ':' + p.password : '') + '@' : '') +
      p.hostname + (p.port ? ':' + p.port : '') + p.pathname + p.search + p.hash;
  }
  get href() { return this._p.href; }
  set href(v) { var p = native.parseURL(String(v), undefined); if (p === null) throw nodeTypeError('ERR_INVALID_URL', 'Invalid URL'); this._set(p); }
  get origin() { return this._p.origin; }
  get protocol() { return this._p.protocol; }
  set protocol(v) { v = String(v); this._reparse({ protocol: v[v.length - 1] === ':' ? v : v + ':' }); }
  get username() { return this._p.username; }
  set username(v) { this._reparse({ username: encodeURIComponent(String(v)) }); }
  get password() { return this._p.password; }
  set password(v) { this._reparse({ password: encodeURIComponent(String(v)) }); }
  get host() { return this._p.hostname + (this._p.port ? ':' + this._p.port : ''); }
  set host(v) { v = String(v); var i = v.lastIndexOf(':'); if (i > v.lastIndexOf(']')) this._reparse({ hostname: v.slice(0, i), port: v.slice(i + 1) }); else this._reparse({ hostname: v }); }
  get hostname() { return this._p.hostname; }
  set hostname(v) { this._reparse({ hostname: String(v) }); }
  get port() { return this._p.port; }
  set port(v) { this._reparse({ port: String(v) }); }
  get pathname() { return this._p.pathname; }
  set pathname(v) { v = String(v); this._reparse({ pathname: v[0] === '/' || !this._p.slashes ? v : '/' + v }); }
  get search() { return this._p.search.length > 1 ? this._p.search : ''; }
  set search(v) { v = String(v); this._reparse({ search: v === '' ? '' : (v[0] === '?' ? v : '?' + v) }); }
  get searchParams() { return this._sp; }
  get hash() { return this._p.hash.length > 1 ? this._p.hash : ''; }
  set hash(v) { v = String(v); this._reparse({ hash: v === '' ? '' : (v[0] === '#' ? v : '#' + v) }); }
  toString() { return this.href; }
  toJSON() { return this.href; }
  static canParse(input, base) {
    return native.parseURL(String(input), base === undefined ? undefined : String(base)) !== null;
  }
  [customInspectSymbol](depth, options) {
    var obj = {
      href: this.href, origin: this.origin, protocol: this.protocol, username: this.username,
      password: this.password, host: this.host, hostname: this.hostname, port: this.port,
      pathname: this.pathname, search: this.search, searchParams: this.searchParams, hash: this.hash,
    };
    if (depth < 0) return '[URL]';
    return 'URL ' + inspect(obj, Object.assign({}, options, { depth: depth })).replace(/^\{/, '{');
  }
}
function fileURLToPath(u) {
  if (typeof u === 'string') u = new URL(u);
  if (u.protocol !== 'file:') throw nodeTypeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  return decodeURIComponent(u.pathname);
}
function pathToFileURL(p) {
  var abs = pathPosix.resolve(p);
  if (p[p.length - 1] === '/' && abs !== '/') abs += '/';
  return new URL('file://' + encodeURI(abs).replace(/\?/g, '%3F').replace(/#/g, '%23'));
}
var urlModule = {
  URL: URL,
  URLSearchParams: URLSearchParams,
  fileURLToPath: fileURLToPath,
  pathToFileURL: pathToFileURL,
  parse: function (s, parseQuery) {
    var u;
    try { u = new URL(s); } catch (e) {
      var rel = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(s);
      return { protocol: null, slashes: null, auth: null, host: null, port: null, hostname: null,
        hash: rel[3] || null, search: rel[2] || null,
        query: parseQuery ? querystring.parse((rel[2] || '').slice(1)) : (rel[2] ? rel[2].slice(1) : null),
        pathname: rel[1] || null, path: (rel[1] || '') + (rel[2] || '') || null, href: s };
    }
    return {
      protocol: u.protocol, slashes: true,
      auth: u.username ? u.username + (u.password ? ':' + u.password : '') : null,
      host: u.host, port: u.port || null, hostname: u.hostname, hash: u.hash || null,
      search: u.search || null,
      query: parseQuery ? querystring.parse(u.search.slice(1)) : (u.search ? u.search.slice(1) : null),
      pathname: u.pathname, path: u.pathname + u.search, href: u.href,
    };
  },
  format: function (u) {
    if (u instanceof URL) return u.href;
    if (typeof u === 'string') return u;
    var s = (u.protocol ? u.protocol + (u.protocol[u.protocol.length - 1] === ':' ? '' : ':') : '') +
      (u.slashes || (u.protocol && /^(https?|ftp|file|wss?):?$/.test(u.protocol)) ? '//' : '') +
      (u.auth ? u.auth + '@' : '') + (u.host || ((u.hostname || '') + (u.port ? ':' + u.port : ''))) +
      (u.pathname || '');
    if (u.search) s += u.search[0] === '?' ? u.search : '?' + u.search;
    else if (u.query && typeof u.query === 'object') { var q = querystring.stringify(u.query); if (q) s += '?' + q; }
    if (u.hash) s += u.hash[0] === '#' ? u.hash : '#' + u.hash;
    return s;
  },
  resolve: function (from, to) { return new URL(to, new URL(from, 'resolve://')).href.replace(/^resolve:\/\/\/?/, from[0] === '/' ? '/' : ''); },
};

var querystring = {
  escape: function (s) { return encodeURIComponent(s); },
  unescape: function (s) { try { return decodeURIComponent(s); } catch (e) { return native.percentDecode(s); } },
  parse: function (str, sep, eq) {
    sep = sep || '&';
    eq = eq || '=';
    var out = Object.create(null);
    if (typeof str !== 'string' || str.length === 0) return out;
    str.split(sep).forEach(function (part) {
      if (part === '') return;
      var i = part.indexOf(eq);
      var k = querystring.unescape((i === -1 ? part : part.slice(0, i)).replace(/\+/g, ' '));
      var v = i === -1 ? '' : querystring.unescape(part.slice(i + eq.length).replace(/\+/g, ' '));
      if (k in out) {
        if (Array.isArray(out[k])) out[k].push(v);
        else out[k] = [out[k], v];
      } else {
        out[k] = v;
      }
    });
    return out;
  },
  stringify: function (obj, sep, eq) {
    sep = sep || '&';
    eq = eq || '=';
    if (obj === null || typeof obj !== 'object') return '';
    var enc = function (v) {
      if (typeof v === 'string') return querystring.escape(v);
      if (typeof v === 'number' && isFinite(v)) return '' + v;
      if (typeof v === 'bigint' || typeof v === 'boolean') return '' + v;
      return '';
    };
    return Object.keys(obj).map(function (k) {
      var v = obj[k];
      if (Array.isArray(v)) return v.map(function (x) { return querystring.escape(k) + eq + enc(x); }).join(sep);
      return querystring.escape(k) + eq + enc(v);
    }).filter(function (s) { return s !== ''; }).join(sep);
  },
};
querystring.decode = querystring.parse;
querystring.encode = querystring.stringify;

// readline: lines from process.stdin (read as needed) or any stream with
// 'data' events.
function Interface(input, output, completer, terminal) {
  EventEmitter.call(this);
  var opts = input;
  if (input && input.input !== undefined) {
    output = input.output;
    input = input.input;
  }
  this.input = input;
  this.output = output;
  this.terminal = false;
  this.line = '';
  this.closed = false;
  this._prompt = (opts && opts.prompt !== undefined) ? opts.prompt : '> ';
  this._questions = [];
  this._started = false;
  this._paused = false;
  this._crlfDelay = 100;
  var self = this;
  if (input && input !== process.stdin && typeof input.on === 'function') {
    var buffered = '';
    var decoder = new StringDecoder('utf8');
    input.on('data', function (d) {
      buffered += typeof d === 'string' ? d : decoder.write(d);
      var lines = buffered.split(/\r?\n/);
      buffered = lines.pop();
      lines.forEach(function (l) { self._online(l); });
    });
    input.on('end', function () {
      buffered += decoder.end();
      if (buffered !== '') self._online(buffered);
      buffered = '';
      self.close();
    });
    this._started = true;
  }
}
Interface.prototype = Object.create(EventEmitter.prototype);
Interface.prototype.constructor = Interface;
Interface.prototype._onListener = function (type) {
  if (type === 'line') this._pump();
};
Interface.prototype._pump = function () {
  if (this._started || this.closed) return;
  this._started = true;
  var self = this;
  var step = function () {
    if (self.closed) return;
    if (self._paused) { self._started = false; return; }
    var line = native.readLine();
    if (line === null) {
      self.close();
      return;
    }
    self._online(line);
    setImmediate(step);
  };
  setImmediate(step);
};
Interface.prototype._online = function (line) {
  if (this.closed) return;
  var q = this._questions.shift();
  if (q) { q(line); return; }
  this.emit('line', line);
};
Interface.prototype.question = function (query, options, cb) {
  if (typeof options === 'function') cb = options;
  if (this.closed) throw nodeError(Error, 'ERR_USE_AFTER_CLOSE', 'readline was closed');
  if (this.output && typeof this.output.write === 'function') this.output.write(query);
  this._questions.push(cb);
  if (this.input === process.stdin) {
    var self = this;
    if (!this._started) {
      setImmediate(function () {
        if (self.closed || self._questions.length === 0) return;
        var line = native.readLine();
        if (line === null) { self.close(); return; }
        self._online(line);
      });
    }
  }
};
Interface.prototype.close = function () {
  if (this.closed) return;
  this.closed = true;
  this.emit('close');
};
Interface.prototype.pause = function () { this._paused = true; this.emit('pause'); return this; };
Interface.prototype.resume = function () {
  this._paused = false;
  this.emit('resume');
  if (this.listenerCount('line') > 0) this._pump();
  return this;
};
Interface.prototype.setPrompt = function (p) { this._prompt = p; };
Interface.prototype.getPrompt = function () { return this._prompt; };
Interface.prototype.prompt = function () {
  if (this.output && typeof this.output.write === 'function') this.output.write(this._prompt);
  if (this.input === process.stdin) this._pump();
};
Interface.prototype.write = function (d) { if (this.output) this.output.write(d); };
Interface.prototype[Symbol.asyncIterator] = function () {
  var self = this;
  var lines = [];
  var waiting = [];
  var done = false;
  this.on('line', function (l) {
    if (waiting.length) waiting.shift()({ value: l, done: false });
    else lines.push(l);
  });
  this.on('close', function () {
    done = true;
    while (waiting.length) waiting.shift()({ value: undefined, done: true });
  });
  return {
    next: function () {
      if (lines.length) return Promise.resolve({ value: lines.shift(), done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise(function (resolve) { waiting.push(resolve); });
    },
    return: function () { self.close(); return Promise.resolve({ value: undefined, done: true }); },
    [Symbol.asyncIterator]: function () { return this; },
  };
};
var readline = {
  Interface: Interface,
  createInterface: function (input, output, completer, terminal) { return new Interface(input, output, completer, terminal); },
  clearLine: function (stream, dir, cb) { if (cb) cb(); return true; },
  clearScreenDown: function (stream, cb) { if (cb) cb(); return true; },
  cursorTo: function (stream, x, y, cb) { if (typeof y === 'function') y(); else if (cb) cb(); return true; },
  moveCursor: function (stream, dx, dy, cb) { if (cb) cb(); return true; },
  emitKeypressEvents: function () {},
};
var readlinePromises = {
  Interface: Interface,
  createInterface: function (input, output) {
    var rl = new Interface(input, output);
    var question = rl.question;
    rl.question = function (query) {
      var self = this;
      return new Promise(function (resolve) { question.call(self, query, resolve); });
    };
    return rl;
  },
};

// The CommonJS loader.
var builtinNames = ['assert', 'assert/strict', 'buffer', 'child_process', 'cluster', 'console', 'crypto',
  'dgram', 'dns', 'dns/promises', 'events', 'fs', 'fs/promises', 'http', 'http2', 'https', 'inspector',
  'module', 'net', 'os', 'path', 'path/posix', 'perf_hooks', 'process', 'punycode', 'querystring',
  'readline', 'readline/promises', 'repl', 'stream', 'stream/promises', 'string_decoder', 'timers',
  'timers/promises', 'tls', 'tty', 'url', 'util', 'util/types', 'v8', 'vm', 'worker_threads', 'zlib',
  'async_hooks', 'diagnostics_channel', 'trace_events', 'wasi', 'sea', 'test'];
var unavailableModules = { child_process: 1, cluster: 1, dgram: 1, dns: 1, 'dns/promises': 1, http2: 1,
  inspector: 1, net: 1, repl: 1, tls: 1, v8: 1, vm: 1, worker_threads: 1, zlib: 1,
  stream: 1, 'stream/promises': 1, wasi: 1, sea: 1, test: 1, trace_events: 1 };
var builtinCache = Object.create(null);
function loadBuiltin(name) {
  if (name in builtinCache) return builtinCache[name];
  var m;
  switch (name) {
    case 'fs': m = fs; break;
    case 'fs/promises': m = fsPromises; break;
    case 'path': case 'path/posix': m = pathPosix; break;
    case 'os': m = os; break;
    case 'util': m = util; break;
    case 'util/types': m = util.types; break;
    case 'events': m = EventEmitter; break;
    case 'assert': m = assert; break;
    case 'assert/strict': m = assert.strict; break;
    case 'buffer':
      m = { Buffer: Buffer, kMaxLength: kMaxLength, constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 536870888 },
        atob: atob, btoa: btoa, isUtf8: function (b) { return native.validUTF8(b); },
        SlowBuffer: Buffer.allocUnsafeSlow, transcode: function () { throw unavailable('buffer.transcode'); } };
      break;
    case 'crypto': m = crypto; break;
    case 'url': m = urlModule; break;
    case 'querystring': m = querystring; break;
    case 'string_decoder': m = { StringDecoder: StringDecoder }; break;
    case 'timers':
      m = { setTimeout: setTimeout, clearTimeout: clearTimeout, setInterval: setInterval,
        clearInterval: clearTimeout, setImmediate: setImmediate, clearImmediate: clearImmediate,
        promises: timersPromises };
      break;
    case 'timers/promises': m = timersPromises; break;
    case 'http': m = http; break;
    case 'https': m = https; break;
    case 'readline': m = readline; readline.promises = readlinePromises; break;
    case 'readline/promises': m = readlinePromises; break;
    case 'process': m = process; break;
    case 'console': m = console; break;
    case 'perf_hooks': m = { performance: performance, PerformanceObserver: function () { throw unavailable('PerformanceObserver'); } }; break;
    case 'tty': m = { isatty: function () { return false; } }; break;
    case 'module': m = Module; break;
    case 'async_hooks':
      m = {
        AsyncLocalStorage: class AsyncLocalStorage {
          getStore() { return this._store; }
          run(store, fn) {
            var prev = this._store;
            this._store = store;
            try { return fn.apply(undefined, Array.prototype.slice.call(arguments, 2)); } finally { this._store = prev; }
          }
          enterWith(store) { this._store = store; }
          disable() { this._store = undefined; }
        },
        createHook: function () { return { enable: function () { return this; }, disable: function () { return this; } }; },
        executionAsyncId: function () { return 1; },
        triggerAsyncId: function () { return 0; },
      };
      break;
    case 'diagnostics_channel':
      m = { channel: function (n) { return { name: n, hasSubscribers: false, publish: function () {}, subscribe: function () {}, unsubscribe: function () {} }; },
        hasSubscribers: function () { return false; }, subscribe: function () {}, unsubscribe: function () {} };
      break;
    default:
      throw unavailable(name);
  }
  builtinCache[name] = m;
  return m;
}
function isBuiltin(name) {
  if (name.slice(0, 5) === 'node:') name = name.slice(5);
  return builtinNames.indexOf(name) !== -1;
}

function Module(id, parent) {
  this.id = id;
  this.path = id === '.' ? '.' : pathPosix.dirname(id);
  this.exports = {};
  this.filename = null;
  this.loaded = false;
  this.children = [];
  this.paths = [];
  Object.defineProperty(this, 'parent', { value: parent, writable: true, configurable: true, enumerable: false });
  if (parent && parent.children) parent.children.push(this);
}
Module._cache = Object.create(null);
Module.builtinModules = builtinNames.slice();
Module.isBuiltin = isBuiltin;
Module.Module = Module;
Module._extensions = Object.create(null);
Module.wrap = function (script) { return Module.wrapper[0] + script + Module.wrapper[1]; };
Module.wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
Module.createRequire = function (filename) {
  var f = String(filename);
  if (f.slice(0, 7) === 'file://') f = fileURLToPath(f);
  if (f[f.length - 1] === '/') f += 'noop.js';
  var m = new Module(f, null);
  m.filename = f;
  m.paths = nodeModulePaths(pathPosix.dirname(f));
  return makeRequire(m);
};
Module.syncBuiltinESMExports = function () {};
Module.findSourceMap = function () { return undefined; };
Module.register = function () { throw unavailable('module.register'); };

function nodeModulePaths(from) {
  from = pathPosix.resolve(from);
  var paths = [];
  var parts = from.split('/');
  for (var i = parts.length; i > 0; i--) {
    if (parts[i - 1] === 'node_modules') continue;
    var dir = parts.slice(0, i).join('/') || '';
    paths.push(dir + '/node_modules');
  }
  if (paths[paths.length - 1] !== '/node_modules') paths.push('/node_modules');
  return paths;
}
Module._nodeModulePaths = nodeModulePaths;

var resolveExtensions = ['.js', '.json', '.cjs', '.mjs'];
function tryFile(p) { return native.fs.kind(p) === 'file' ? p : false; }
function tryExtensions(p) {
  for (var i = 0; i < resolveExtensions.length; i++) {
    var f = tryFile(p + resolveExtensions[i]);
    if (f) return f;
  }
  return false;
}
function readPackageMain(dir) {
  var pj = dir + '/package.json';
  if (native.fs.kind(pj) !== 'file') return undefined;
  var text = bufferFromAB(native.fs.readFile(pj, 'r')).toString();
  var pkg;
  try {
    pkg = JSON.parse(text);
  } catch (e) {
    e.path = pj;
    e.message = 'Error parsing ' + pj + ': ' + e.message;
    throw e;
  }
  var main = pkg.main;
  if (typeof main !== 'string' || main === '') {
    if (pkg.exports !== undefined) main = exportsMain(pkg.exports);
  }
  return typeof main === 'string' && main !== '' ? main : undefined;
}
function exportsMain(exp) {
  if (typeof exp === 'string') return exp;
  if (Array.isArray(exp)) return exportsMain(exp[0]);
  if (exp && typeof exp === 'object') {
    if (exp['.'] !== undefined) return exportsMain(exp['.']);
    var keys = ['require', 'node', 'default'];
    for (var i = 0; i < keys.length; i++) {
      if (exp[keys[i]] !== undefined) return exportsMain(exp[keys[i]]);
    }
  }
  return undefined;
}
function tryPackage(dir) {
  var main = readPackageMain(dir);
  if (main !== undefined) {
    var m = pathPosix.resolve(dir, main);
    var f = tryFile(m) || tryExtensions(m) || tryFile(m + '/index.js') || tryFile(m + '/index.json');
    if (f) return f;
  }
  return tryFile(dir + '/index.js') || tryFile(dir + '/index.json') || tryFile(dir + '/index.cjs');
}
function resolveAt(base, trailingSlash) {
  if (!trailingSlash) {
    var f = tryFile(base) || tryExtensions(base);
    if (f) return f;
  }
  if (native.fs.kind(base) === 'dir') return tryPackage(base);
  return false;
}
Module._resolveFilename = function (request, parent) {
  if (isBuiltin(request)) return request;
  var parentDir = parent && parent.filename ? pathPosix.dirname(parent.filename) : native.cwd();
  var found = false;
  var trailing = request.length > 1 && request[request.length - 1] === '/';
  if (request === '.' || request === '..' || request.slice(0, 2) === './' || request.slice(0, 3) === '../' || request[0] === '/') {
    found = resolveAt(pathPosix.resolve(parentDir, request), trailing || request === '.' || request === '..');
  } else {
    var paths = parent && parent.paths && parent.paths.length ? parent.paths : nodeModulePaths(parentDir);
    for (var i = 0; i < paths.length && !found; i++) {
      found = resolveAt(pathPosix.join(paths[i], request), trailing);
    }
  }
  if (!found) {
    var stack = [];
    for (var m = parent; m; m = m.parent) if (m.filename) stack.push(m.filename);
    var msg = "Cannot find module '" + request + "'";
    if (stack.length) msg += '\nRequire stack:\n- ' + stack.join('\n- ');
    var err = new Error(msg);
    err.code = 'MODULE_NOT_FOUND';
    err.requireStack = stack;
    throw err;
  }
  return found;
};

function makeRequire(mod) {
  var require = function require(id) {
    if (typeof id !== 'string') {
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "id" argument must be of type string.' + receivedText(id));
    }
    if (id === '') throw nodeTypeError('ERR_INVALID_ARG_VALUE', "The argument 'id' must be a non-empty string. Received ''");
    return Module._load(id, mod, false);
  };
  require.resolve = function (request) {
    var f = Module._resolveFilename(request, mod);
    return f;
  };
  require.resolve.paths = function (request) { return isBuiltin(request) ? null : nodeModulePaths(mod.filename ? pathPosix.dirname(mod.filename) : native.cwd()); };
  require.cache = Module._cache;
  require.main = mainModule;
  require.extensions = Module._extensions;
  return require;
}

Module._load = function (request, parent, isMain) {
  if (request.slice(0, 5) === 'node:') {
    var bare = request.slice(5);
    if (builtinNames.indexOf(bare) === -1) {
      throw nodeError(Error, 'ERR_UNKNOWN_BUILTIN_MODULE', 'No such built-in module: ' + request);
    }
    return loadBuiltin(bare);
  }
  if (builtinNames.indexOf(request) !== -1) return loadBuiltin(request);
  var filename = Module._resolveFilename(request, parent);
  var cached = Module._cache[filename];
  if (cached !== undefined) return cached.exports;
  var module = new Module(filename, parent);
  if (isMain) {
    mainModule = module;
    module.id = '.';
  }
  Module._cache[filename] = module;
  var threw = true;
  try {
    module.load(filename);
    threw = false;
  } finally {
    if (threw) {
      delete Module._cache[filename];
      if (parent && parent.children) {
        var i = parent.children.indexOf(module);
        if (i !== -1) parent.children.splice(i, 1);
      }
    }
  }
  return module.exports;
};
Module.prototype.load = function (filename) {
  this.filename = filename;
  this.paths = nodeModulePaths(pathPosix.dirname(filename));
  var ext = pathPosix.extname(filename);
  var loader = Module._extensions[ext] || Module._extensions['.js'];
  loader(this, filename);
  this.loaded = true;
};
Module.prototype.require = function (id) { return Module._load(id, this, false); };
Module.prototype._compile = function (content, filename) {
  var fn = native.compile(content, filename);
  var require = makeRequire(this);
  return fn.call(this.exports, this.exports, require, this, filename, pathPosix.dirname(filename));
};
Module._extensions['.js'] = function (module, filename) {
  var content = bufferFromAB(native.fs.readFile(filename, 'r')).toString();
  module._compile(content, filename);
};
Module._extensions['.cjs'] = Module._extensions['.js'];
Module._extensions['.mjs'] = Module._extensions['.js'];
Module._extensions['.json'] = function (module, filename) {
  var content = bufferFromAB(native.fs.readFile(filename, 'r')).toString();
  if (content.charCodeAt(0) === 0xfeff) content = content.slice(1);
  try {
    module.exports = JSON.parse(content);
  } catch (err) {
    err.message = filename + ': ' + err.message;
    throw err;
  }
};
Module._extensions['.node'] = function (module, filename) {
  throw unavailable('native addon ' + filename);
};
var mainModule;
