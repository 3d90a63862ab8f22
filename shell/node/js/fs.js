// fs over the sandbox's filesystem (native.fs does the work in Go).
var nfs = native.fs;
var fsConstants = {
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_NOCTTY: 256,
  O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536, O_NOFOLLOW: 131072, O_SYNC: 1052672,
  O_DSYNC: 4096, O_NONBLOCK: 2048,
  S_IFMT: 61440, S_IFREG: 32768, S_IFDIR: 16384, S_IFCHR: 8192, S_IFBLK: 24576,
  S_IFIFO: 4096, S_IFLNK: 40960, S_IFSOCK: 49152,
  S_IRWXU: 448, S_IRUSR: 256, S_IWUSR: 128, S_IXUSR: 64,
  S_IRWXG: 56, S_IRGRP: 32, S_IWGRP: 16, S_IXGRP: 8,
  S_IRWXO: 7, S_IROTH: 4, S_IWOTH: 2, S_IXOTH: 1,
  COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  UV_FS_COPYFILE_EXCL: 1,
};

function toPath(p, name) {
  if (typeof p === 'string') {
    if (p.indexOf('\u0000') !== -1) {
      throw nodeTypeError('ERR_INVALID_ARG_VALUE', "The argument '" + (name || 'path') + "' must be a string, Uint8Array, or URL without null bytes. Received " + inspect(p));
    }
    return p;
  }
  if (p instanceof Uint8Array) return Buffer.prototype.toString.call(p);
  if (p instanceof URL) {
    if (p.protocol !== 'file:') throw nodeTypeError('ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
    return decodeURIComponent(p.pathname);
  }
  throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "' + (name || 'path') + '" argument must be of type string or an instance of Buffer or URL.' + receivedText(p));
}
function toPathOrFd(p, name) {
  if (typeof p === 'number') return p;
  return toPath(p, name);
}
function getOptions(options, defaults) {
  if (options === undefined || options === null || typeof options === 'function') return defaults;
  if (typeof options === 'string') return Object.assign({}, defaults, { encoding: options });
  if (typeof options !== 'object') {
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "options" argument must be one of type string or an instance of Object.' + receivedText(options));
  }
  return Object.assign({}, defaults, options);
}
function toData(data, encoding, name) {
  if (typeof data === 'string') {
    var enc = checkEncoding(encoding);
    return enc === 'utf8' ? data : new Uint8Array(native.encode(data, enc));
  }
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "' + (name || 'data') + '" argument must be of type string or an instance of Buffer, TypedArray, or DataView.' + receivedText(data));
}
function encodeResult(ab, encoding) {
  var buf = bufferFromAB(ab);
  if (encoding && encoding !== 'buffer') return buf.toString(encoding);
  return buf;
}
function modeOf(mode, def) {
  if (mode === undefined || mode === null) return def;
  if (typeof mode === 'string') return parseInt(mode, 8);
  return mode;
}

class Stats {
  constructor(s) {
    this.dev = s.dev; this.mode = s.mode; this.nlink = s.nlink; this.uid = s.uid;
    this.gid = s.gid; this.rdev = 0; this.blksize = 4096; this.ino = s.ino;
    this.size = s.size; this.blocks = Math.ceil(s.size / 512);
    this.atimeMs = s.mtimeMs; this.mtimeMs = s.mtimeMs; this.ctimeMs = s.mtimeMs; this.birthtimeMs = s.mtimeMs;
    this.atime = new Date(s.mtimeMs); this.mtime = new Date(s.mtimeMs);
    this.ctime = new Date(s.mtimeMs); this.birthtime = new Date(s.mtimeMs);
  }
  isFile() { return (this.mode & 61440) === 32768; }
  isDirectory() { return (this.mode & 61440) === 16384; }
  isSymbolicLink() { return (this.mode & 61440) === 40960; }
  isBlockDevice() { return (this.mode & 61440) === 24576; }
  isCharacterDevice() { return (this.mode & 61440) === 8192; }
  isFIFO() { return (this.mode & 61440) === 4096; }
  isSocket() { return (this.mode & 61440) === 49152; }
}
class Dirent {
  constructor(name, kind, dir) {
    this.name = name;
    this.parentPath = dir;
    this.path = dir;
    Object.defineProperty(this, '_kind', { value: kind, enumerable: false });
  }
  isFile() { return this._kind === 'file'; }
  isDirectory() { return this._kind === 'dir'; }
  isSymbolicLink() { return this._kind === 'link'; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return this._kind === 'char'; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

var fs = {
  constants: fsConstants,
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  Stats: Stats,
  Dirent: Dirent,
  existsSync: function (p) {
    try { p = toPath(p); } catch (e) { return false; }
    return nfs.exists(p);
  },
  accessSync: function (p, mode) { nfs.access(toPath(p), mode === undefined ? 0 : mode); },
  readFileSync: function (p, options) {
    var o = getOptions(options, { encoding: null, flag: 'r' });
    if (o.encoding) checkEncoding(o.encoding);
    return encodeResult(nfs.readFile(toPathOrFd(p), o.flag), o.encoding);
  },
  writeFileSync: function (p, data, options) {
    var o = getOptions(options, { encoding: 'utf8', mode: 438, flag: 'w' });
    nfs.writeFile(toPathOrFd(p, 'file'), toData(data, o.encoding), o.flag, modeOf(o.mode, 438));
  },
  appendFileSync: function (p, data, options) {
    var o = getOptions(options, { encoding: 'utf8', mode: 438, flag: 'a' });
    nfs.writeFile(toPathOrFd(p, 'file'), toData(data, o.encoding), o.flag, modeOf(o.mode, 438));
  },
  statSync: function (p, options) {
    var s = nfs.stat(toPath(p), false, !(options && options.throwIfNoEntry === false));
    return s === undefined ? undefined : new Stats(s);
  },
  lstatSync: function (p, options) {
    var s = nfs.stat(toPath(p), true, !(options && options.throwIfNoEntry === false));
    return s === undefined ? undefined : new Stats(s);
  },
  fstatSync: function (fd) { return new Stats(nfs.fstat(fd)); },
  readdirSync: function (p, options) {
    var o = getOptions(options, { encoding: 'utf8', withFileTypes: false, recursive: false });
    var dir = toPath(p);
    var out = [];
    var queue = [[dir, '']];
    while (queue.length) {
      var item = queue.shift();
      var d = item[0], prefix = item[1];
      var entries = nfs.readdir(d);
      for (var i = 0; i < entries.length; i++) {
        var name = entries[i][0], kind = entries[i][1];
        if (o.withFileTypes) out.push(new Dirent(name, kind, d));
        else out.push(prefix + name);
        if (o.recursive && kind === 'dir') queue.push([pathPosix.join(d, name), prefix + name + '/']);
      }
    }
    if (o.encoding === 'buffer' && !o.withFileTypes) return out.map(function (n) { return Buffer.from(n); });
    return out;
  },
  mkdirSync: function (p, options) {
    var o = typeof options === 'number' || typeof options === 'string' ? { mode: options } : getOptions(options, {});
    return nfs.mkdir(toPath(p), !!o.recursive, modeOf(o.mode, 511));
  },
  mkdtempSync: function (prefix) { return nfs.mkdtemp(toPath(prefix, 'prefix')); },
  rmdirSync: function (p, options) { nfs.rmdir(toPath(p), !!(options && options.recursive)); },
  rmSync: function (p, options) {
    var o = getOptions(options, {});
    nfs.rm(toPath(p), !!o.recursive, !!o.force);
  },
  unlinkSync: function (p) { nfs.unlink(toPath(p)); },
  renameSync: function (a, b) { nfs.rename(toPath(a, 'oldPath'), toPath(b, 'newPath')); },
  copyFileSync: function (a, b, mode) { nfs.copyFile(toPath(a, 'src'), toPath(b, 'dest'), ((mode || 0) & 1) !== 0); },
  cpSync: function (src, dest, options) {
    var o = getOptions(options, { recursive: false, force: true, errorOnExist: false });
    src = toPath(src, 'src');
    dest = toPath(dest, 'dest');
    var copy = function (s, d) {
      var st = nfs.stat(s, false, true);
      if ((st.mode & 61440) === 16384) {
        if (!o.recursive) {
          throw nodeError(Error, 'ERR_FS_EISDIR', 'Recursive option is required to copy a directory: ' + s);
        }
        nfs.mkdir(d, true, 511);
        var entries = nfs.readdir(s);
        for (var i = 0; i < entries.length; i++) {
          var child = pathPosix.join(s, entries[i][0]);
          if (typeof o.filter === 'function' && !o.filter(child, pathPosix.join(d, entries[i][0]))) continue;
          copy(child, pathPosix.join(d, entries[i][0]));
        }
        return;
      }
      if (nfs.exists(d)) {
        if (o.errorOnExist && !o.force) throw nodeError(Error, 'ERR_FS_CP_EEXIST', 'Target already exists: cp returned EEXIST (' + d + ' already exists)');
        if (!o.force) return;
      }
      nfs.copyFile(s, d, false);
    };
    copy(src, dest);
  },
  realpathSync: function (p) { return nfs.realpath(toPath(p)); },
  readlinkSync: function (p) { return nfs.readlink(toPath(p)); },
  symlinkSync: function (target, p) { nfs.symlink(toPath(target, 'target'), toPath(p)); },
  linkSync: function (a, b) { nfs.copyFile(toPath(a, 'existingPath'), toPath(b, 'newPath'), true); },
  chmodSync: function (p, mode) { nfs.chmod(toPath(p), modeOf(mode)); },
  lchmodSync: function (p, mode) { nfs.chmod(toPath(p), modeOf(mode)); },
  chownSync: function () {},
  lchownSync: function () {},
  fchownSync: function () {},
  fchmodSync: function () {},
  utimesSync: function (p, atime, mtime) { nfs.utimes(toPath(p), timeOf(atime), timeOf(mtime)); },
  lutimesSync: function (p, atime, mtime) { nfs.utimes(toPath(p), timeOf(atime), timeOf(mtime)); },
  futimesSync: function () {},
  truncateSync: function (p, len) { nfs.truncate(toPathOrFd(p), len || 0); },
  ftruncateSync: function (fd, len) { nfs.truncate(fd, len || 0); },
  openSync: function (p, flags, mode) {
    return nfs.open(toPath(p), flags === undefined ? 'r' : flags, modeOf(mode, 438));
  },
  closeSync: function (fd) { nfs.close(fd); },
  fsyncSync: function () {},
  fdatasyncSync: function () {},
  readSync: function (fd, buffer, offset, length, position) {
    if (offset !== null && typeof offset === 'object') {
      var o = offset;
      offset = o.offset; length = o.length; position = o.position;
    }
    offset = offset || 0;
    length = length === undefined ? buffer.byteLength - offset : length;
    var view = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
    return nfs.read(fd, view, position === undefined || position === null ? -1 : Number(position));
  },
  writeSync: function (fd, data, offsetOrPos, lengthOrEnc, position) {
    if (typeof data === 'string') {
      return nfs.write(fd, toData(data, typeof lengthOrEnc === 'string' ? lengthOrEnc : 'utf8'),
        offsetOrPos === undefined || offsetOrPos === null ? -1 : offsetOrPos);
    }
    var bytes = toData(data);
    var off = offsetOrPos || 0;
    var len = lengthOrEnc === undefined ? bytes.length - off : lengthOrEnc;
    return nfs.write(fd, bytes.subarray(off, off + len), position === undefined || position === null ? -1 : position);
  },
  opendirSync: function (p) {
    var dir = toPath(p);
    var entries = fs.readdirSync(dir, { withFileTypes: true });
    var i = 0;
    return {
      path: dir,
      readSync: function () { return i < entries.length ? entries[i++] : null; },
      read: function (cb) {
        var e = i < entries.length ? entries[i++] : null;
        if (cb) { setImmediate(cb, null, e); return undefined; }
        return Promise.resolve(e);
      },
      closeSync: function () {},
      close: function (cb) { if (cb) setImmediate(cb, null); else return Promise.resolve(); },
      [Symbol.iterator]: function () { return entries[Symbol.iterator](); },
    };
  },
  watch: function () { throw unavailable('fs.watch'); },
  watchFile: function () { throw unavailable('fs.watchFile'); },
  unwatchFile: function () {},
};
function timeOf(t) {
  if (t instanceof Date) return t.getTime() / 1000;
  if (typeof t === 'string') return Number(t);
  return t;
}

// Callback and promise forms of the synchronous functions.
var fsAsyncNames = ['access', 'readFile', 'writeFile', 'appendFile', 'stat', 'lstat', 'fstat',
  'readdir', 'mkdir', 'mkdtemp', 'rmdir', 'rm', 'unlink', 'rename', 'copyFile', 'cp', 'realpath',
  'readlink', 'symlink', 'link', 'chmod', 'lchmod', 'chown', 'lchown', 'fchown', 'fchmod', 'utimes', 'lutimes',
  'futimes', 'truncate', 'ftruncate', 'open', 'close', 'fsync', 'fdatasync', 'opendir'];
fsAsyncNames.forEach(function (name) {
  var sync = fs[name + 'Sync'];
  fs[name] = function () {
    var args = Array.prototype.slice.call(arguments);
    var cb = args.pop();
    validateFunction(cb, 'cb');
    var result, error = null;
    try {
      result = sync.apply(fs, args);
    } catch (e) {
      error = e;
    }
    setImmediate(function () {
      if (error) cb(error);
      else cb(null, result);
    });
  };
});
fs.read = function (fd, buffer, offset, length, position, cb) {
  var args = Array.prototype.slice.call(arguments);
  cb = args.pop();
  var n, error = null;
  try { n = fs.readSync.apply(fs, args); } catch (e) { error = e; }
  setImmediate(function () { if (error) cb(error); else cb(null, n, buffer); });
};
fs.write = function (fd, data) {
  var args = Array.prototype.slice.call(arguments);
  var cb = args.pop();
  var n, error = null;
  try { n = fs.writeSync.apply(fs, args); } catch (e) { error = e; }
  setImmediate(function () { if (error) cb(error); else cb(null, n, data); });
};
fs.exists = function (p, cb) {
  var r = fs.existsSync(p);
  setImmediate(function () { cb(r); });
};
fs.realpathSync.native = fs.realpathSync;
fs.realpath.native = fs.realpath;

class FileHandle {
  constructor(fd) { this.fd = fd; }
  readFile(options) { var fd = this.fd; return fsPromise(function () { return fs.readFileSync(fd, options); }); }
  writeFile(data, options) { var fd = this.fd; return fsPromise(function () { return fs.writeFileSync(fd, data, options); }); }
  appendFile(data, options) { var fd = this.fd; return fsPromise(function () { return fs.writeFileSync(fd, data, options); }); }
  read(buffer, offset, length, position) {
    var fd = this.fd;
    return fsPromise(function () {
      if (buffer === undefined) buffer = Buffer.alloc(16384);
      var n = fs.readSync(fd, buffer, offset, length, position);
      return { bytesRead: n, buffer: buffer };
    });
  }
  write(data, a, b, c) {
    var fd = this.fd;
    return fsPromise(function () {
      var n = fs.writeSync(fd, data, a, b, c);
      return { bytesWritten: n, buffer: data };
    });
  }
  stat() { var fd = this.fd; return fsPromise(function () { return fs.fstatSync(fd); }); }
  truncate(len) { var fd = this.fd; return fsPromise(function () { return fs.ftruncateSync(fd, len); }); }
  sync() { return Promise.resolve(); }
  datasync() { return Promise.resolve(); }
  close() { var fd = this.fd; return fsPromise(function () { return fs.closeSync(fd); }); }
}
function fsPromise(fn) {
  return new Promise(function (resolve, reject) {
    var result, error, failed = false;
    try { result = fn(); } catch (e) { error = e; failed = true; }
    setImmediate(function () { if (failed) reject(error); else resolve(result); });
  });
}
var fsPromises = { constants: fsConstants };
fsAsyncNames.forEach(function (name) {
  var sync = fs[name + 'Sync'];
  fsPromises[name] = function () {
    var args = arguments;
    return fsPromise(function () { return sync.apply(fs, args); });
  };
});
fsPromises.open = function (p, flags, mode) {
  return fsPromise(function () { return new FileHandle(fs.openSync(p, flags, mode)); });
};
fsPromises.opendir = function (p) { return fsPromise(function () { return fs.opendirSync(p); }); };
delete fsPromises.close;
delete fsPromises.fstat;
delete fsPromises.ftruncate;
delete fsPromises.fsync;
delete fsPromises.fdatasync;
delete fsPromises.fchown;
delete fsPromises.fchmod;
delete fsPromises.futimes;
fsPromises.watch = function () { throw unavailable('fs.promises.watch'); };
fs.promises = fsPromises;

// Streams: a file is read in one go and handed out in chunks.
function ReadStream(p, options) {
  EventEmitter.call(this);
  var o = getOptions(options, { encoding: null, start: 0, end: Infinity, highWaterMark: 65536, flags: 'r' });
  this.path = typeof p === 'number' ? undefined : toPath(p);
  this.fd = typeof p === 'number' ? p : (o.fd === undefined ? null : o.fd);
  this.bytesRead = 0;
  this.readable = true;
  this.destroyed = false;
  this._encoding = o.encoding;
  this._opts = o;
  this._started = false;
  this._paused = false;
  var self = this;
  setImmediate(function () { self.emit('open', 0); self.emit('ready'); });
}
ReadStream.prototype = Object.create(EventEmitter.prototype);
ReadStream.prototype.constructor = ReadStream;
ReadStream.prototype._onListener = function (type) {
  if (type === 'data' || type === 'end' || type === 'readable') this._start();
};
ReadStream.prototype._start = function () {
  if (this._started) return;
  this._started = true;
  var self = this;
  setImmediate(function () {
    var data;
    try {
      data = bufferFromAB(nfs.readFile(self.fd !== null ? self.fd : self.path, self._opts.flags));
    } catch (e) {
      self.destroyed = true;
      self.emit('error', e);
      self.emit('close');
      return;
    }
    var end = Math.min(data.length, self._opts.end === Infinity ? data.length : self._opts.end + 1);
    data = data.subarray(self._opts.start || 0, end);
    var hwm = self._opts.highWaterMark || 65536;
    var decoder = self._encoding ? new StringDecoder(self._encoding) : null;
    for (var i = 0; i < data.length && !self.destroyed; i += hwm) {
      var chunk = data.subarray(i, i + hwm);
      self.bytesRead += chunk.length;
      self.emit('data', decoder ? decoder.write(chunk) : chunk);
    }
    if (self.destroyed) return;
    self.readable = false;
    self.emit('end');
    self.emit('close');
  });
};
ReadStream.prototype.setEncoding = function (enc) { this._encoding = checkEncoding(enc); return this; };
ReadStream.prototype.pause = function () { this._paused = true; return this; };
ReadStream.prototype.resume = function () { this._paused = false; this._start(); return this; };
ReadStream.prototype.isPaused = function () { return this._paused; };
ReadStream.prototype.destroy = function (err) {
  this.destroyed = true;
  if (err) this.emit('error', err);
  this.emit('close');
  return this;
};
ReadStream.prototype.close = function (cb) { this.destroy(); if (cb) setImmediate(cb); };
ReadStream.prototype.pipe = function (dest, opts) {
  this.on('data', function (d) { dest.write(d); });
  this.on('end', function () {
    if ((!opts || opts.end !== false) && !dest._isStdio && typeof dest.end === 'function') dest.end();
  });
  return dest;
};

function WriteStream(p, options) {
  EventEmitter.call(this);
  var o = getOptions(options, { encoding: 'utf8', flags: 'w', mode: 438 });
  this.path = typeof p === 'number' ? undefined : toPath(p);
  this.bytesWritten = 0;
  this.writable = true;
  this.destroyed = false;
  this.pending = false;
  this._encoding = o.encoding;
  this._ended = false;
  var self = this;
  try {
    this.fd = typeof p === 'number' ? p : nfs.open(this.path, o.flags, modeOf(o.mode, 438));
  } catch (e) {
    this.fd = null;
    this.destroyed = true;
    setImmediate(function () { self.emit('error', e); self.emit('close'); });
    return;
  }
  setImmediate(function () { if (!self.destroyed) { self.emit('open', self.fd); self.emit('ready'); } });
}
WriteStream.prototype = Object.create(EventEmitter.prototype);
WriteStream.prototype.constructor = WriteStream;
WriteStream.prototype.write = function (chunk, encoding, cb) {
  if (typeof encoding === 'function') { cb = encoding; encoding = undefined; }
  var self = this;
  if (this._ended) {
    var err = nodeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end');
    setImmediate(function () { if (cb) cb(err); self.emit('error', err); });
    return false;
  }
  if (this.fd === null) return false;
  var n = nfs.write(this.fd, toData(chunk, encoding || this._encoding, 'chunk'), -1);
  this.bytesWritten += n;
  if (cb) setImmediate(cb, null);
  return true;
};
WriteStream.prototype.end = function (chunk, encoding, cb) {
  if (typeof chunk === 'function') { cb = chunk; chunk = undefined; }
  if (typeof encoding === 'function') { cb = encoding; encoding = undefined; }
  if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
  if (this._ended) return this;
  this._ended = true;
  this.writable = false;
  var self = this;
  if (this.fd !== null) {
    try { nfs.close(this.fd); } catch (e) {}
  }
  setImmediate(function () {
    self.emit('finish');
    if (cb) cb();
    self.emit('close');
  });
  return this;
};
WriteStream.prototype.close = function (cb) { this.end(cb); };
WriteStream.prototype.destroy = function (err) {
  if (!this._ended && this.fd !== null) { try { nfs.close(this.fd); } catch (e) {} }
  this._ended = true;
  this.destroyed = true;
  var self = this;
  setImmediate(function () { if (err) self.emit('error', err); self.emit('close'); });
  return this;
};
WriteStream.prototype.cork = WriteStream.prototype.uncork = function () {};
WriteStream.prototype.setDefaultEncoding = function (enc) { this._encoding = enc; return this; };
fs.ReadStream = ReadStream;
fs.WriteStream = WriteStream;
fs.createReadStream = function (p, options) { return new ReadStream(p, options); };
fs.createWriteStream = function (p, options) { return new WriteStream(p, options); };
