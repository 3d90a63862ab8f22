// Errors, events, Buffer, text codecs.
function receivedText(value) {
  if (value == null) return ' Received ' + value;
  if (typeof value === 'function') return ' Received function ' + (value.name || '<anonymous>');
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) return ' Received an instance of ' + value.constructor.name;
    return ' Received ' + inspect(value, { depth: -1 });
  }
  var shown = inspect(value, { colors: false });
  if (shown.length > 28) shown = shown.slice(0, 25) + '...';
  return ' Received type ' + typeof value + ' (' + shown + ')';
}
function nodeError(Ctor, code, message) {
  var e = new Ctor(message);
  Object.defineProperty(e, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  return e;
}
function nodeTypeError(code, message) { return nodeError(TypeError, code, message); }
function nodeRangeError(code, message) { return nodeError(RangeError, code, message); }
function unavailable(what) {
  return nodeError(Error, 'ERR_UNAVAILABLE', what + ' is not available in this sandbox');
}
function validateFunction(fn, name) {
  if (typeof fn !== 'function') {
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be of type function.' + receivedText(fn));
  }
}

if (typeof Error.captureStackTrace !== 'function') {
  Object.defineProperty(Error, 'captureStackTrace', {
    value: function captureStackTrace(obj) {
      if (obj === null || typeof obj !== 'object') {
        throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "targetObject" argument must be of type object.' + receivedText(obj));
      }
      var stack = new Error().stack;
      var lines = String(stack).split('\n');
      var head = Error.prototype.toString.call(obj);
      lines.splice(0, 2, head);
      Object.defineProperty(obj, 'stack', { value: lines.join('\n'), writable: true, configurable: true, enumerable: false });
    },
    writable: true, configurable: true,
  });
}
if (Error.stackTraceLimit === undefined) Error.stackTraceLimit = 10;

// events
function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}
EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;
EventEmitter.defaultMaxListeners = 10;
EventEmitter.errorMonitor = Symbol('events.errorMonitor');
EventEmitter.captureRejections = false;
EventEmitter.init = function () {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
};
EventEmitter.prototype.setMaxListeners = function (n) { this._maxListeners = n; return this; };
EventEmitter.prototype.getMaxListeners = function () {
  return this._maxListeners === undefined ? EventEmitter.defaultMaxListeners : this._maxListeners;
};
EventEmitter.prototype.emit = function (type) {
  var args = Array.prototype.slice.call(arguments, 1);
  var events = this._events;
  if (type === 'error' && events !== undefined && events[EventEmitter.errorMonitor] !== undefined) {
    this.emit.apply(this, [EventEmitter.errorMonitor].concat(args));
  }
  var handler = events !== undefined ? events[type] : undefined;
  if (handler === undefined) {
    if (type === 'error') {
      var er = args[0];
      if (er instanceof Error) throw er;
      var err = nodeError(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error. (' + inspect(er) + ')');
      err.context = er;
      throw err;
    }
    return false;
  }
  if (typeof handler === 'function') {
    handler.apply(this, args);
  } else {
    var listeners = handler.slice();
    for (var i = 0; i < listeners.length; ++i) listeners[i].apply(this, args);
  }
  return true;
};
function addListener(target, type, listener, prepend) {
  validateFunction(listener, 'listener');
  var events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else if (events.newListener !== undefined) {
    target.emit('newListener', type, listener.listener ? listener.listener : listener);
    events = target._events;
  }
  var existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else if (typeof existing === 'function') {
    events[type] = prepend ? [listener, existing] : [existing, listener];
  } else if (prepend) {
    existing.unshift(listener);
  } else {
    existing.push(listener);
  }
  if (typeof target._onListener === 'function') target._onListener(type);
  return target;
}
EventEmitter.prototype.addListener = function (type, listener) { return addListener(this, type, listener, false); };
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function (type, listener) { return addListener(this, type, listener, true); };
function onceWrapper() {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return this.listener.apply(this.target, arguments);
  }
}
function onceWrap(target, type, listener) {
  var state = { fired: false, wrapFn: undefined, target: target, type: type, listener: listener };
  var wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}
EventEmitter.prototype.once = function (type, listener) {
  validateFunction(listener, 'listener');
  this.on(type, onceWrap(this, type, listener));
  return this;
};
EventEmitter.prototype.prependOnceListener = function (type, listener) {
  validateFunction(listener, 'listener');
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};
EventEmitter.prototype.removeListener = function (type, listener) {
  validateFunction(listener, 'listener');
  var events = this._events;
  if (events === undefined) return this;
  var list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else delete events[type];
    if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
  } else if (typeof list !== 'function') {
    var position = -1;
    for (var i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        position = i;
        break;
      }
    }
    if (position < 0) return this;
    list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
EventEmitter.prototype.removeAllListeners = function (type) {
  if (this._events === undefined) return this;
  if (arguments.length === 0) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  } else if (this._events[type] !== undefined) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else delete this._events[type];
  }
  return this;
};
EventEmitter.prototype.listeners = function (type) {
  var l = this._events !== undefined ? this._events[type] : undefined;
  if (l === undefined) return [];
  if (typeof l === 'function') return [l.listener || l];
  return l.map(function (f) { return f.listener || f; });
};
EventEmitter.prototype.rawListeners = function (type) {
  var l = this._events !== undefined ? this._events[type] : undefined;
  if (l === undefined) return [];
  if (typeof l === 'function') return [l];
  return l.slice();
};
EventEmitter.prototype.listenerCount = function (type) {
  var l = this._events !== undefined ? this._events[type] : undefined;
  if (l === undefined) return 0;
  if (typeof l === 'function') return 1;
  return l.length;
};
EventEmitter.listenerCount = function (emitter, type) { return emitter.listenerCount(type); };
EventEmitter.prototype.eventNames = function () {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};
EventEmitter.once = function (emitter, name) {
  return new Promise(function (resolve, reject) {
    var errorListener = function (err) {
      emitter.removeListener(name, resolver);
      reject(err);
    };
    var resolver = function () {
      if (name !== 'error') emitter.removeListener('error', errorListener);
      resolve(Array.prototype.slice.call(arguments));
    };
    emitter.once(name, resolver);
    if (name !== 'error') emitter.once('error', errorListener);
  });
};
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;

// Buffer
function normalizeEncoding(enc) {
  if (enc === undefined || enc === null || enc === '') return 'utf8';
  var e = String(enc).toLowerCase();
  switch (e) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': case 'base64url': case 'hex': case 'ascii': return e;
  }
  return undefined;
}
function checkEncoding(enc) {
  var e = normalizeEncoding(enc);
  if (e === undefined) throw nodeTypeError('ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + enc);
  return e;
}

class Buffer extends Uint8Array {
  static from(value, encodingOrOffset, length) {
    if (typeof value === 'string') {
      return bufferFromAB(native.encode(value, checkEncoding(encodingOrOffset)));
    }
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
      var off = encodingOrOffset === undefined ? 0 : +encodingOrOffset;
      var len = length === undefined ? value.byteLength - off : +length;
      return new Buffer(value, off, len);
    }
    if (ArrayBuffer.isView(value)) {
      var copy = new Buffer(value.byteLength === undefined ? value.length : value.length);
      if (value instanceof Uint8Array) copy.set(value);
      else for (var i = 0; i < value.length; i++) copy[i] = value[i] & 255;
      return copy;
    }
    if (value !== null && typeof value === 'object') {
      if (value.type === 'Buffer' && Array.isArray(value.data)) return Buffer.from(value.data);
      if (typeof value.length === 'number' || Array.isArray(value)) {
        var b = new Buffer(value.length >>> 0);
        for (var j = 0; j < b.length; j++) b[j] = value[j] & 255;
        return b;
      }
      var prim = value.valueOf && value.valueOf();
      if (prim != null && prim !== value) return Buffer.from(prim, encodingOrOffset, length);
      if (typeof value[Symbol.toPrimitive] === 'function') return Buffer.from(value[Symbol.toPrimitive]('string'), encodingOrOffset, length);
    }
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.' + receivedText(value));
  }
  static alloc(size, fill, encoding) {
    checkSize(size);
    var b = new Buffer(size);
    if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, 0, b.length, encoding);
    return b;
  }
  static allocUnsafe(size) { checkSize(size); return new Buffer(size); }
  static allocUnsafeSlow(size) { checkSize(size); return new Buffer(size); }
  static isBuffer(b) { return b instanceof Buffer; }
  static isEncoding(e) { return typeof e === 'string' && e !== '' && normalizeEncoding(e) !== undefined; }
  static byteLength(s, enc) {
    if (typeof s !== 'string') {
      if (ArrayBuffer.isView(s) || s instanceof ArrayBuffer) return s.byteLength;
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "string" argument must be of type string or an instance of Buffer or ArrayBuffer.' + receivedText(s));
    }
    var e = normalizeEncoding(enc) || 'utf8';
    if (e === 'utf8') return native.utf8Length(s);
    return native.encode(s, e).byteLength;
  }
  static concat(list, totalLength) {
    if (!Array.isArray(list)) {
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "list" argument must be an instance of Array.' + receivedText(list));
    }
    if (totalLength === undefined) {
      totalLength = 0;
      for (var i = 0; i < list.length; i++) totalLength += list[i].length;
    }
    var out = Buffer.alloc(totalLength);
    var pos = 0;
    for (var j = 0; j < list.length && pos < totalLength; j++) {
      var item = list[j];
      if (!(item instanceof Uint8Array)) {
        throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "list[' + j + ']" argument must be an instance of Buffer or Uint8Array.' + receivedText(item));
      }
      var n = Math.min(item.length, totalLength - pos);
      out.set(n === item.length ? item : item.subarray(0, n), pos);
      pos += n;
    }
    return out;
  }
  static compare(a, b) { return a.compare(b); }
  toString(encoding, start, end) {
    if (arguments.length === 0) return native.decode(this, 'utf8');
    start = start === undefined ? 0 : Math.max(0, start | 0);
    end = end === undefined ? this.length : Math.min(this.length, end | 0);
    if (end <= start) return '';
    var view = (start === 0 && end === this.length) ? this : this.subarray(start, end);
    return native.decode(view, checkEncoding(encoding));
  }
  toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }
  toJSON() { return { type: 'Buffer', data: Array.prototype.slice.call(this) }; }
  equals(other) {
    if (!(other instanceof Uint8Array)) {
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "otherBuffer" argument must be an instance of Buffer or Uint8Array.' + receivedText(other));
    }
    return this.compare(other) === 0;
  }
  compare(target, tStart, tEnd, sStart, sEnd) {
    var a = this.subarray(sStart || 0, sEnd === undefined ? this.length : sEnd);
    var b = target.subarray(tStart || 0, tEnd === undefined ? target.length : tEnd);
    var n = Math.min(a.length, b.length);
    for (var i = 0; i < n; i++) {
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return a.length === b.length ? 0 : (a.length < b.length ? -1 : 1);
  }
  subarray(start, end) {
    var s = Uint8Array.prototype.subarray.call(this, start, end);
    Object.setPrototypeOf(s, Buffer.prototype);
    return s;
  }
  slice(start, end) { return this.subarray(start, end); }
  write(string, offset, length, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; length = undefined; }
    else if (typeof length === 'string') { encoding = length; length = undefined; }
    offset = offset === undefined ? 0 : offset >>> 0;
    var bytes = new Uint8Array(native.encode(string, checkEncoding(encoding)));
    var n = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
    if (n > 0) this.set(bytes.subarray(0, n), offset);
    return Math.max(n, 0);
  }
  fill(value, offset, end, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
    if (typeof end === 'string') { encoding = end; end = this.length; }
    offset = offset === undefined ? 0 : offset;
    end = end === undefined ? this.length : end;
    if (typeof value === 'number' || typeof value === 'boolean') {
      Uint8Array.prototype.fill.call(this, value & 255, offset, end);
      return this;
    }
    var bytes = typeof value === 'string' ? new Uint8Array(native.encode(value, checkEncoding(encoding))) : value;
    if (bytes.length === 0) {
      Uint8Array.prototype.fill.call(this, 0, offset, end);
      return this;
    }
    for (var i = offset, j = 0; i < end; i++, j++) this[i] = bytes[j % bytes.length];
    return this;
  }
  indexOf(value, byteOffset, encoding) { return bufferIndexOf(this, value, byteOffset, encoding, false); }
  lastIndexOf(value, byteOffset, encoding) { return bufferIndexOf(this, value, byteOffset, encoding, true); }
  includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }
  copy(target, targetStart, sourceStart, sourceEnd) {
    targetStart = targetStart || 0;
    sourceStart = sourceStart || 0;
    sourceEnd = sourceEnd === undefined ? this.length : sourceEnd;
    var n = Math.min(sourceEnd - sourceStart, target.length - targetStart);
    if (n <= 0) return 0;
    target.set(Uint8Array.prototype.subarray.call(this, sourceStart, sourceStart + n), targetStart);
    return n;
  }
  swap16() { for (var i = 0; i + 1 < this.length; i += 2) { var t = this[i]; this[i] = this[i + 1]; this[i + 1] = t; } return this; }
  reverse() { Uint8Array.prototype.reverse.call(this); return this; }
  [customInspectSymbol](recurseTimes, ctx) {
    var max = 50;
    var n = Math.min(max, this.length);
    var hex = [];
    for (var i = 0; i < n; i++) hex.push((this[i] < 16 ? '0' : '') + this[i].toString(16));
    var str = hex.join(' ');
    var remaining = this.length - max;
    if (remaining > 0) str += ' ... ' + remaining + ' more byte' + (remaining > 1 ? 's' : '');
    return '<' + this.constructor.name + ' ' + str + '>';
  }
}
function checkSize(size) {
  if (typeof size !== 'number') {
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "size" argument must be of type number.' + receivedText(size));
  }
  if (!(size >= 0 && size <= 4294967296)) {
    throw nodeRangeError('ERR_OUT_OF_RANGE', 'The value of "size" is out of range. It must be >= 0 && <= 4294967296. Received ' + size);
  }
}
function bufferFromAB(ab) { return new Buffer(ab, 0, ab.byteLength); }
function bufferIndexOf(buf, value, byteOffset, encoding, last) {
  if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
  var needle;
  if (typeof value === 'number') needle = [value & 255];
  else if (typeof value === 'string') needle = new Uint8Array(native.encode(value, checkEncoding(encoding)));
  else needle = value;
  var len = buf.length;
  var from = byteOffset === undefined ? (last ? len - needle.length : 0) : (byteOffset < 0 ? len + byteOffset : byteOffset);
  if (needle.length === 0) return Math.min(Math.max(from, 0), len);
  var step = last ? -1 : 1;
  if (!last && from < 0) from = 0;
  if (last && from > len - needle.length) from = len - needle.length;
  for (var i = from; last ? i >= 0 : i <= len - needle.length; i += step) {
    var ok = true;
    for (var j = 0; j < needle.length; j++) {
      if (buf[i + j] !== needle[j]) { ok = false; break; }
    }
    if (ok) return i;
  }
  return -1;
}
(function () {
  function dv(b) { return new DataView(b.buffer, b.byteOffset, b.byteLength); }
  function check(b, off, n) {
    if (off === undefined) off = 0;
    if (typeof off !== 'number' || off < 0 || off + n > b.length || off !== Math.floor(off)) {
      throw nodeRangeError('ERR_OUT_OF_RANGE', 'The value of "offset" is out of range. It must be >= 0 and <= ' + (b.length - n) + '. Received ' + off);
    }
    return off;
  }
  var specs = [
    ['UInt8', 1, 'getUint8', 'setUint8'], ['Int8', 1, 'getInt8', 'setInt8'],
    ['UInt16LE', 2, 'getUint16', 'setUint16', true], ['UInt16BE', 2, 'getUint16', 'setUint16', false],
    ['Int16LE', 2, 'getInt16', 'setInt16', true], ['Int16BE', 2, 'getInt16', 'setInt16', false],
    ['UInt32LE', 4, 'getUint32', 'setUint32', true], ['UInt32BE', 4, 'getUint32', 'setUint32', false],
    ['Int32LE', 4, 'getInt32', 'setInt32', true], ['Int32BE', 4, 'getInt32', 'setInt32', false],
    ['FloatLE', 4, 'getFloat32', 'setFloat32', true], ['FloatBE', 4, 'getFloat32', 'setFloat32', false],
    ['DoubleLE', 8, 'getFloat64', 'setFloat64', true], ['DoubleBE', 8, 'getFloat64', 'setFloat64', false],
    ['BigInt64LE', 8, 'getBigInt64', 'setBigInt64', true], ['BigInt64BE', 8, 'getBigInt64', 'setBigInt64', false],
    ['BigUInt64LE', 8, 'getBigUint64', 'setBigUint64', true], ['BigUInt64BE', 8, 'getBigUint64', 'setBigUint64', false],
  ];
  specs.forEach(function (s) {
    var name = s[0], n = s[1], get = s[2], set = s[3], le = s[4];
    var read = function (off) { off = check(this, off, n); return dv(this)[get](off, le); };
    var write = function (value, off) { off = check(this, off, n); dv(this)[set](off, value, le); return off + n; };
    Buffer.prototype['read' + name] = read;
    Buffer.prototype['write' + name] = write;
    if (name.indexOf('UInt') !== -1) {
      Buffer.prototype['read' + name.replace('UInt', 'Uint')] = read;
      Buffer.prototype['write' + name.replace('UInt', 'Uint')] = write;
    }
  });
})();
Buffer.poolSize = 8192;
var kMaxLength = 4294967296;

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input) {
    if (input === undefined) input = '';
    return new Uint8Array(native.encode(String(input), 'utf8'));
  }
  encodeInto(src, dest) {
    var bytes = this.encode(src);
    var n = Math.min(bytes.length, dest.length);
    while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
    dest.set(bytes.subarray(0, n));
    var read = native.decode(bytes.subarray(0, n), 'utf8').length;
    return { read: read, written: n };
  }
}
var textDecoderEncodings = { 'utf-8': 'utf8', utf8: 'utf8', 'unicode-1-1-utf-8': 'utf8', 'utf-16le': 'utf16le', 'utf-16': 'utf16le', latin1: 'latin1', 'iso-8859-1': 'latin1', ascii: 'latin1', 'us-ascii': 'latin1', 'windows-1252': 'latin1' };
class TextDecoder {
  constructor(encoding, options) {
    var label = encoding === undefined ? 'utf-8' : String(encoding).trim().toLowerCase();
    var enc = textDecoderEncodings[label];
    if (enc === undefined) throw nodeRangeError('ERR_ENCODING_NOT_SUPPORTED', 'The "' + encoding + '" encoding is not supported');
    this._enc = enc;
    this._label = enc === 'utf8' ? 'utf-8' : enc === 'utf16le' ? 'utf-16le' : 'windows-1252';
    this._fatal = !!(options && options.fatal);
    this._ignoreBOM = !!(options && options.ignoreBOM);
    this._pending = null;
  }
  get encoding() { return this._label; }
  get fatal() { return this._fatal; }
  get ignoreBOM() { return this._ignoreBOM; }
  decode(input, options) {
    var bytes;
    if (input === undefined) bytes = new Uint8Array(0);
    else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.' + receivedText(input));
    if (this._pending) {
      var joined = new Uint8Array(this._pending.length + bytes.length);
      joined.set(this._pending);
      joined.set(bytes, this._pending.length);
      bytes = joined;
      this._pending = null;
    }
    if (options && options.stream && this._enc === 'utf8') {
      var cut = utf8CompleteLength(bytes);
      if (cut < bytes.length) {
        this._pending = bytes.slice(cut);
        bytes = bytes.subarray(0, cut);
      }
    }
    if (this._fatal && this._enc === 'utf8' && !native.validUTF8(bytes)) {
      throw nodeTypeError('ERR_ENCODING_INVALID_ENCODED_DATA', 'The encoded data was not valid for encoding utf-8');
    }
    var s = native.decode(bytes, this._enc);
    if (!this._ignoreBOM && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    return s;
  }
}
function utf8CompleteLength(bytes) {
  var n = bytes.length;
  for (var back = 1; back <= 3 && back <= n; back++) {
    var b = bytes[n - back];
    if ((b & 0xc0) === 0x80) continue;
    var need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

function atob(s) {
  s = String(s).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
    var e = new Error('The string to be decoded is not correctly encoded.');
    e.name = 'InvalidCharacterError';
    throw e;
  }
  return native.decode(new Uint8Array(native.encode(s, 'base64')), 'latin1');
}
function btoa(s) {
  s = String(s);
  for (var i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 255) {
      var e = new Error('Invalid character');
      e.name = 'InvalidCharacterError';
      throw e;
    }
  }
  return native.decode(new Uint8Array(native.encode(s, 'latin1')), 'base64');
}

// StringDecoder
function StringDecoder(encoding) {
  this.encoding = checkEncoding(encoding);
  this._pending = new Uint8Array(0);
}
StringDecoder.prototype.write = function (buf) {
  if (typeof buf === 'string') return buf;
  var bytes = buf;
  if (this._pending.length) {
    bytes = new Uint8Array(this._pending.length + buf.length);
    bytes.set(this._pending);
    bytes.set(buf, this._pending.length);
  }
  var cut = bytes.length;
  if (this.encoding === 'utf8') cut = utf8CompleteLength(bytes);
  else if (this.encoding === 'utf16le') cut = bytes.length - (bytes.length % 2);
  else if (this.encoding === 'base64') cut = bytes.length - (bytes.length % 3);
  this._pending = bytes.slice(cut);
  return native.decode(bytes.subarray(0, cut), this.encoding);
};
StringDecoder.prototype.end = function (buf) {
  var s = buf === undefined ? '' : this.write(buf);
  if (this._pending.length) {
    s += native.decode(this._pending, this.encoding);
    this._pending = new Uint8Array(0);
  }
  return s;
};
StringDecoder.prototype.text = function (buf, offset) { return this.write(buf.subarray(offset)); };
