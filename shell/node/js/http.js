// fetch, http, https.
function Headers(init) {
  if (!(this instanceof Headers)) throw new TypeError("Class constructor Headers cannot be invoked without 'new'");
  this._list = [];
  var self = this;
  if (init instanceof Headers) init.forEach(function (v, k) { self.append(k, v); });
  else if (Array.isArray(init)) init.forEach(function (p) { self.append(p[0], p[1]); });
  else if (init && typeof init === 'object') Object.keys(init).forEach(function (k) { self.append(k, init[k]); });
}
Headers.prototype.append = function (k, v) { this._list.push([String(k).toLowerCase(), String(v)]); };
Headers.prototype.set = function (k, v) { this.delete(k); this.append(k, v); };
Headers.prototype.delete = function (k) { k = String(k).toLowerCase(); this._list = this._list.filter(function (p) { return p[0] !== k; }); };
Headers.prototype.get = function (k) {
  k = String(k).toLowerCase();
  var vs = this._list.filter(function (p) { return p[0] === k; }).map(function (p) { return p[1]; });
  return vs.length ? vs.join(', ') : null;
};
Headers.prototype.has = function (k) { return this.get(k) !== null; };
Headers.prototype.entries = function () {
  var seen = {}, out = [], self = this;
  this._list.map(function (p) { return p[0]; }).sort().forEach(function (k) { if (!seen[k]) { seen[k] = 1; out.push([k, self.get(k)]); } });
  return out[Symbol.iterator]();
};
Headers.prototype.keys = function () { return Array.from(this.entries(), function (p) { return p[0]; })[Symbol.iterator](); };
Headers.prototype.values = function () { return Array.from(this.entries(), function (p) { return p[1]; })[Symbol.iterator](); };
Headers.prototype.forEach = function (fn, thisArg) { for (var p of this.entries()) fn.call(thisArg, p[1], p[0], this); };
Headers.prototype[Symbol.iterator] = Headers.prototype.entries;

function Response(body, init) {
  init = init || {};
  this.status = init.status === undefined ? 200 : init.status;
  this.statusText = init.statusText || '';
  this.headers = new Headers(init.headers);
  this.ok = this.status >= 200 && this.status < 300;
  this.url = init.url || '';
  this.redirected = !!init.redirected;
  this.type = 'basic';
  this._body = body === undefined || body === null ? new ArrayBuffer(0) :
    typeof body === 'string' ? Buffer.from(body).buffer.slice(0) : body;
  this.bodyUsed = false;
}
Response.prototype._take = function () {
  if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
  this.bodyUsed = true;
  return Promise.resolve(this._body);
};
Response.prototype.arrayBuffer = function () { return this._take(); };
Response.prototype.bytes = function () { return this._take().then(function (b) { return new Uint8Array(b); }); };
Response.prototype.text = function () { return this._take().then(function (b) { return Buffer.from(b).toString('utf8'); }); };
Response.prototype.json = function () { return this.text().then(JSON.parse); };
Response.prototype.clone = function () { var r = new Response(this._body.slice(0), this); r.headers = new Headers(this.headers); return r; };

function fetchFailed(res) {
  var cause = new Error(res.error);
  cause.code = res.code;
  var e = new TypeError('fetch failed');
  e.cause = cause;
  return e;
}

function fetch(input, init) {
  init = init || {};
  return new Promise(function (resolve, reject) {
    var url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    try { url = new URL(url).href; } catch (e) { return reject(new TypeError('Failed to parse URL from ' + url)); }
    var method = (init.method || 'GET').toUpperCase();
    var headers = new Headers(init.headers);
    var body = init.body;
    if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    if (body instanceof URLSearchParams) { body = body.toString(); if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8'); }
    if (!headers.has('accept')) headers.set('accept', '*/*');
    if (!headers.has('user-agent')) headers.set('user-agent', 'node');
    var redirected = false;
    for (var hops = 0; ; hops++) {
      var res = native.httpRequest(method, url, headers._list, body);
      if (res.error) return reject(fetchFailed(res));
      var loc = null;
      res.headers.forEach(function (p) { if (p[0] === 'location') loc = p[1]; });
      if (loc && [301, 302, 303, 307, 308].indexOf(res.status) >= 0 && init.redirect !== 'manual') {
        if (init.redirect === 'error') return reject(fetchFailed({ error: 'unexpected redirect', code: 'UND_ERR' }));
        if (hops >= 20) return reject(fetchFailed({ error: 'redirect count exceeded', code: 'UND_ERR' }));
        url = new URL(loc, url).href;
        redirected = true;
        if (res.status === 303 && method !== 'HEAD' || (res.status === 301 || res.status === 302) && method === 'POST') {
          method = 'GET'; body = undefined; headers.delete('content-type'); headers.delete('content-length');
        }
        continue;
      }
      return resolve(new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers, url: url, redirected: redirected }));
    }
  });
}

function IncomingMessage(res) {
  EventEmitter.call(this);
  this.statusCode = res.status;
  this.statusMessage = res.statusText;
  this.httpVersion = '1.1';
  this.headers = {};
  this.rawHeaders = [];
  var self = this;
  res.headers.forEach(function (p) {
    self.rawHeaders.push(p[0], p[1]);
    if (p[0] in self.headers) self.headers[p[0]] += (p[0] === 'set-cookie' ? '\n' : ', ') + p[1];
    else self.headers[p[0]] = p[1];
  });
  this._body = Buffer.from(res.body);
  this._encoding = null;
  this.complete = false;
}
Object.setPrototypeOf(IncomingMessage.prototype, EventEmitter.prototype);
IncomingMessage.prototype.setEncoding = function (enc) { this._encoding = enc; return this; };
IncomingMessage.prototype.resume = function () { return this; };
IncomingMessage.prototype.pipe = function (dest) {
  this.on('data', function (c) { dest.write(c); });
  this.on('end', function () { if (dest !== process.stdout && dest !== process.stderr && dest.end) dest.end(); });
  return dest;
};
IncomingMessage.prototype[Symbol.asyncIterator] = function () {
  var self = this, done = false;
  return { next: function () {
    if (done) return Promise.resolve({ done: true, value: undefined });
    done = true;
    return Promise.resolve({ done: false, value: self._encoding ? self._body.toString(self._encoding) : self._body });
  } };
};

function ClientRequest(proto, opts, cb) {
  EventEmitter.call(this);
  this._proto = proto;
  this._opts = opts;
  this.method = (opts.method || 'GET').toUpperCase();
  this.path = opts.path || '/';
  this._headers = [];
  var self = this;
  var h = opts.headers || {};
  Object.keys(h).forEach(function (k) { self.setHeader(k, h[k]); });
  this._chunks = [];
  if (cb) this.once('response', cb);
}
Object.setPrototypeOf(ClientRequest.prototype, EventEmitter.prototype);
ClientRequest.prototype.setHeader = function (k, v) { this.removeHeader(k); this._headers.push([k, String(v)]); return this; };
ClientRequest.prototype.getHeader = function (k) {
  k = k.toLowerCase();
  for (var p of this._headers) if (p[0].toLowerCase() === k) return p[1];
};
ClientRequest.prototype.removeHeader = function (k) {
  k = k.toLowerCase();
  this._headers = this._headers.filter(function (p) { return p[0].toLowerCase() !== k; });
};
ClientRequest.prototype.setTimeout = function (ms, cb) { if (cb) this.once('timeout', cb); return this; };
ClientRequest.prototype.write = function (chunk, enc, cb) {
  this._chunks.push(Buffer.from(chunk, typeof enc === 'string' ? enc : undefined));
  if (typeof enc === 'function') enc();
  else if (cb) cb();
  return true;
};
ClientRequest.prototype.abort = ClientRequest.prototype.destroy = function () { this._aborted = true; return this; };
ClientRequest.prototype.end = function (chunk, enc, cb) {
  if (typeof chunk === 'function') { cb = chunk; chunk = undefined; }
  if (chunk !== undefined && chunk !== null) this.write(chunk, enc);
  var self = this;
  if (cb) process.nextTick(cb);
  setTimeout(function () {
    if (self._aborted) return;
    var o = self._opts;
    var host = o.hostname || (o.host || 'localhost').replace(/:\d+$/, '');
    var port = o.port || (self._proto === 'https:' ? 443 : 80);
    var url = self._proto + '//' + (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + port + self.path;
    var headers = self._headers.slice();
    if (!self.getHeader('host')) headers.unshift(['Host', host + ((self._proto === 'https:' ? port == 443 : port == 80) ? '' : ':' + port)]);
    if (!self.getHeader('connection')) headers.push(['Connection', 'close']);
    if (o.auth && !self.getHeader('authorization')) headers.push(['Authorization', 'Basic ' + Buffer.from(o.auth).toString('base64')]);
    var body = self._chunks.length ? Buffer.concat(self._chunks) : undefined;
    var res = native.httpRequest(self.method, url, headers, body);
    if (res.error) {
      var e = new Error(res.error);
      e.code = res.code;
      e.syscall = 'connect';
      self.emit('error', e);
      return;
    }
    var msg = new IncomingMessage(res);
    self.emit('response', msg);
    setTimeout(function () {
      if (msg._body.length) msg.emit('data', msg._encoding ? msg._body.toString(msg._encoding) : msg._body);
      msg.complete = true;
      msg.emit('end');
      msg.emit('close');
      self.emit('close');
    }, 0);
  }, 0);
  return this;
};

function httpModule(proto) {
  function args(a, b, c) {
    var opts = {}, cb;
    if (typeof a === 'string' || a instanceof URL) {
      var u = new URL(String(a));
      opts = { protocol: u.protocol, hostname: u.hostname.replace(/^\[|\]$/g, ''), port: u.port, path: u.pathname + u.search,
        auth: u.username ? decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password) : undefined };
      if (typeof b === 'function') cb = b;
      else { Object.assign(opts, b || {}); cb = c; }
    } else { opts = Object.assign({}, a); cb = b; }
    var p = opts.protocol || proto;
    if (p !== proto) throw nodeTypeError('ERR_INVALID_PROTOCOL', 'Protocol "' + p + '" not supported. Expected "' + proto + '"');
    return [opts, cb];
  }
  var m = {
    request: function (a, b, c) { var x = args(a, b, c); return new ClientRequest(proto, x[0], x[1]); },
    get: function (a, b, c) { var r = m.request(a, b, c); r.end(); return r; },
    METHODS: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'],
    STATUS_CODES: { 200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
      400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' },
    Agent: function Agent() {},
    ClientRequest: ClientRequest,
    IncomingMessage: IncomingMessage,
    createServer: function () { throw unavailable(proto.slice(0, -1) + '.createServer (a sandbox cannot listen)'); },
  };
  m.globalAgent = new m.Agent();
  return m;
}
var http = httpModule('http:');
var https = httpModule('https:');
