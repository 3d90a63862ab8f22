// path: the POSIX half of Node.js v20's lib/path.js (MIT License,
// Copyright Node.js contributors and Joyent, Inc.).
function validateString(value, name) {
  if (typeof value !== 'string') {
    throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "' + name + '" argument must be of type string.' + receivedText(value));
  }
}

function normalizeString(path, allowAboveRoot) {
  var res = '';
  var lastSegmentLength = 0;
  var lastSlash = -1;
  var dots = 0;
  var code = 0;
  for (var i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (code === 47) break;
    else code = 47;
    if (code === 47) {
      if (lastSlash === i - 1 || dots === 1) {
        // NOOP
      } else if (dots === 2) {
        if (res.length < 2 || lastSegmentLength !== 2 ||
            res.charCodeAt(res.length - 1) !== 46 ||
            res.charCodeAt(res.length - 2) !== 46) {
          if (res.length > 2) {
            var lastSlashIndex = res.lastIndexOf('/');
            if (lastSlashIndex === -1) {
              res = '';
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, lastSlashIndex);
              lastSegmentLength = res.length - 1 - res.lastIndexOf('/');
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = '';
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? '/..' : '..';
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += '/' + path.slice(lastSlash + 1, i);
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === 46 && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function formatExt(ext) {
  return ext ? (ext[0] === '.' ? '' : '.') + ext : '';
}

var pathPosix = {
  resolve: function () {
    var resolvedPath = '';
    var resolvedAbsolute = false;
    for (var i = arguments.length - 1; i >= 0 && !resolvedAbsolute; i--) {
      var p = arguments[i];
      validateString(p, 'paths[' + i + ']');
      if (p.length === 0) continue;
      resolvedPath = p + '/' + resolvedPath;
      resolvedAbsolute = p.charCodeAt(0) === 47;
    }
    if (!resolvedAbsolute) {
      var cwd = native.cwd();
      resolvedPath = cwd + '/' + resolvedPath;
      resolvedAbsolute = cwd.charCodeAt(0) === 47;
    }
    resolvedPath = normalizeString(resolvedPath, !resolvedAbsolute);
    if (resolvedAbsolute) return '/' + resolvedPath;
    return resolvedPath.length > 0 ? resolvedPath : '.';
  },
  normalize: function (p) {
    validateString(p, 'path');
    if (p.length === 0) return '.';
    var isAbsolute = p.charCodeAt(0) === 47;
    var trailingSeparator = p.charCodeAt(p.length - 1) === 47;
    p = normalizeString(p, !isAbsolute);
    if (p.length === 0) {
      if (isAbsolute) return '/';
      return trailingSeparator ? './' : '.';
    }
    if (trailingSeparator) p += '/';
    return isAbsolute ? '/' + p : p;
  },
  isAbsolute: function (p) {
    validateString(p, 'path');
    return p.length > 0 && p.charCodeAt(0) === 47;
  },
  join: function () {
    if (arguments.length === 0) return '.';
    var parts = [];
    for (var i = 0; i < arguments.length; ++i) {
      var arg = arguments[i];
      validateString(arg, 'path');
      if (arg.length > 0) parts.push(arg);
    }
    if (parts.length === 0) return '.';
    return pathPosix.normalize(parts.join('/'));
  },
  relative: function (from, to) {
    validateString(from, 'from');
    validateString(to, 'to');
    if (from === to) return '';
    from = pathPosix.resolve(from);
    to = pathPosix.resolve(to);
    if (from === to) return '';
    var fromStart = 1;
    var fromEnd = from.length;
    var fromLen = fromEnd - fromStart;
    var toStart = 1;
    var toLen = to.length - toStart;
    var length = (fromLen < toLen ? fromLen : toLen);
    var lastCommonSep = -1;
    var i = 0;
    for (; i < length; i++) {
      var fromCode = from.charCodeAt(fromStart + i);
      if (fromCode !== to.charCodeAt(toStart + i)) break;
      else if (fromCode === 47) lastCommonSep = i;
    }
    if (i === length) {
      if (toLen > length) {
        if (to.charCodeAt(toStart + i) === 47) return to.slice(toStart + i + 1);
        if (i === 0) return to.slice(toStart + i);
      } else if (fromLen > length) {
        if (from.charCodeAt(fromStart + i) === 47) lastCommonSep = i;
        else if (i === 0) lastCommonSep = 0;
      }
    }
    var out = '';
    for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
      if (i === fromEnd || from.charCodeAt(i) === 47) out += out.length === 0 ? '..' : '/..';
    }
    return out + to.slice(toStart + lastCommonSep);
  },
  toNamespacedPath: function (p) { return p; },
  dirname: function (p) {
    validateString(p, 'path');
    if (p.length === 0) return '.';
    var hasRoot = p.charCodeAt(0) === 47;
    var end = -1;
    var matchedSlash = true;
    for (var i = p.length - 1; i >= 1; --i) {
      if (p.charCodeAt(i) === 47) {
        if (!matchedSlash) {
          end = i;
          break;
        }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return hasRoot ? '/' : '.';
    if (hasRoot && end === 1) return '//';
    return p.slice(0, end);
  },
  basename: function (p, suffix) {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(p, 'path');
    var start = 0;
    var end = -1;
    var matchedSlash = true;
    var i;
    if (suffix !== undefined && suffix.length > 0 && suffix.length <= p.length) {
      if (suffix === p) return '';
      var extIdx = suffix.length - 1;
      var firstNonSlashEnd = -1;
      for (i = p.length - 1; i >= 0; --i) {
        var code = p.charCodeAt(i);
        if (code === 47) {
          if (!matchedSlash) {
            start = i + 1;
            break;
          }
        } else {
          if (firstNonSlashEnd === -1) {
            matchedSlash = false;
            firstNonSlashEnd = i + 1;
          }
          if (extIdx >= 0) {
            if (code === suffix.charCodeAt(extIdx)) {
              if (--extIdx === -1) end = i;
            } else {
              extIdx = -1;
              end = firstNonSlashEnd;
            }
          }
        }
      }
      if (start === end) end = firstNonSlashEnd;
      else if (end === -1) end = p.length;
      return p.slice(start, end);
    }
    for (i = p.length - 1; i >= 0; --i) {
      if (p.charCodeAt(i) === 47) {
        if (!matchedSlash) {
          start = i + 1;
          break;
        }
      } else if (end === -1) {
        matchedSlash = false;
        end = i + 1;
      }
    }
    if (end === -1) return '';
    return p.slice(start, end);
  },
  extname: function (p) {
    validateString(p, 'path');
    var startDot = -1;
    var startPart = 0;
    var end = -1;
    var matchedSlash = true;
    var preDotState = 0;
    for (var i = p.length - 1; i >= 0; --i) {
      var ch = p[i];
      if (ch === '/') {
        if (!matchedSlash) {
          startPart = i + 1;
          break;
        }
        continue;
      }
      if (end === -1) {
        matchedSlash = false;
        end = i + 1;
      }
      if (ch === '.') {
        if (startDot === -1) startDot = i;
        else if (preDotState !== 1) preDotState = 1;
      } else if (startDot !== -1) {
        preDotState = -1;
      }
    }
    if (startDot === -1 || end === -1 || preDotState === 0 ||
        (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) {
      return '';
    }
    return p.slice(startDot, end);
  },
  format: function (pathObject) {
    if (pathObject === null || typeof pathObject !== 'object') {
      throw nodeTypeError('ERR_INVALID_ARG_TYPE', 'The "pathObject" argument must be of type object.' + receivedText(pathObject));
    }
    var dir = pathObject.dir || pathObject.root;
    var base = pathObject.base || ((pathObject.name || '') + formatExt(pathObject.ext));
    if (!dir) return base;
    return dir === pathObject.root ? dir + base : dir + '/' + base;
  },
  parse: function (p) {
    validateString(p, 'path');
    var ret = { root: '', dir: '', base: '', ext: '', name: '' };
    if (p.length === 0) return ret;
    var isAbsolute = p.charCodeAt(0) === 47;
    var start;
    if (isAbsolute) {
      ret.root = '/';
      start = 1;
    } else {
      start = 0;
    }
    var startDot = -1;
    var startPart = 0;
    var end = -1;
    var matchedSlash = true;
    var i = p.length - 1;
    var preDotState = 0;
    for (; i >= start; --i) {
      var code = p.charCodeAt(i);
      if (code === 47) {
        if (!matchedSlash) {
          startPart = i + 1;
          break;
        }
        continue;
      }
      if (end === -1) {
        matchedSlash = false;
        end = i + 1;
      }
      if (code === 46) {
        if (startDot === -1) startDot = i;
        else if (preDotState !== 1) preDotState = 1;
      } else if (startDot !== -1) {
        preDotState = -1;
      }
    }
    if (end !== -1) {
      var s = startPart === 0 && isAbsolute ? 1 : startPart;
      if (startDot === -1 || preDotState === 0 ||
          (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1)) {
        ret.base = ret.name = p.slice(s, end);
      } else {
        ret.name = p.slice(s, startDot);
        ret.base = p.slice(s, end);
        ret.ext = p.slice(startDot, end);
      }
    }
    if (startPart > 0) ret.dir = p.slice(0, startPart - 1);
    else if (isAbsolute) ret.dir = '/';
    return ret;
  },
  sep: '/',
  delimiter: ':',
  win32: null,
  posix: null,
};
pathPosix.posix = pathPosix;
pathPosix.win32 = pathPosix;
pathPosix._makeLong = pathPosix.toNamespacedPath;
