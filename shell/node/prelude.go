package node

// The JavaScript half of the node builtin. nodePreludeProgram compiles these
// parts, in this order, as the body of one function of "native" (the Go
// functions natives makes) that returns the hooks the Go side calls
// (nodeHooks). They are Go raw strings, so they use no template literals (a
// backquote is BACKTICK). util.inspect, util.format and path are ports of
// Node.js v20 code (MIT License, Copyright Node.js contributors and Joyent,
// Inc.); the rest follows Node.js v20's documented behaviour.

// nodeJSInspect is util.inspect and util.format, and the type checks they use.
const nodeJSInspect = `// util.inspect and util.format, ported from Node.js v20's
// lib/internal/util/inspect.js (MIT License, Copyright Node.js contributors
// and Joyent, Inc.), trimmed to what goja can tell apart.
var kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;
var customInspectSymbol = Symbol.for('nodejs.util.inspect.custom');
var hasOwn = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
var isEnumerable = function (o, k) { return Object.prototype.propertyIsEnumerable.call(o, k); };
var inspectDefaultOptions = Object.seal({
  showHidden: false, depth: 2, colors: false, customInspect: true,
  showProxy: false, maxArrayLength: 100, maxStringLength: 10000,
  breakLength: 80, compact: 3, sorted: false, getters: false,
  numericSeparator: false,
});
var builtInObjects = new Set(Object.getOwnPropertyNames(globalThis).filter(function (e) {
  return /^[A-Z][a-zA-Z0-9]+$/.test(e);
}));
var strEscapeSequencesRegExp = /[\x00-\x1f\x27\x5c\x7f-\x9f]/;
var strEscapeSequencesRegExpSingle = /[\x00-\x1f\x5c\x7f-\x9f]/;
var keyStrRegExp = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
var numberRegExp = /^(0|[1-9][0-9]*)$/;
var classRegExp = /^(\s+[^(]*?)\s*{/;
var stripCommentsRegExp = /(\/\/.*?\n)|(\/\*(.|\n)*?\*\/)/g;
var kMinLineLength = 16;
var BACKTICK = '\x60';
var meta = [
  '\\x00', '\\x01', '\\x02', '\\x03', '\\x04', '\\x05', '\\x06', '\\x07',
  '\\b', '\\t', '\\n', '\\x0B', '\\f', '\\r', '\\x0E', '\\x0F',
  '\\x10', '\\x11', '\\x12', '\\x13', '\\x14', '\\x15', '\\x16', '\\x17',
  '\\x18', '\\x19', '\\x1A', '\\x1B', '\\x1C', '\\x1D', '\\x1E', '\\x1F',
  '', '', '', '', '', '', '', "\\'", '', '', '', '', '', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '\\\\', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '',
  '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '\\x7F',
  '\\x80', '\\x81', '\\x82', '\\x83', '\\x84', '\\x85', '\\x86', '\\x87',
  '\\x88', '\\x89', '\\x8A', '\\x8B', '\\x8C', '\\x8D', '\\x8E', '\\x8F',
  '\\x90', '\\x91', '\\x92', '\\x93', '\\x94', '\\x95', '\\x96', '\\x97',
  '\\x98', '\\x99', '\\x9A', '\\x9B', '\\x9C', '\\x9D', '\\x9E', '\\x9F',
];

// Type checks goja can answer.
var classOf = native.classOf;
var typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
var AsyncFunctionPrototype = Object.getPrototypeOf(async function () {});
var GeneratorFunctionPrototype = Object.getPrototypeOf(function* () {});
var MapIteratorPrototype = Object.getPrototypeOf(new Map().entries());
var SetIteratorPrototype = Object.getPrototypeOf(new Set().values());
var GeneratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf((function* () {})()));
function isSet(v) { return classOf(v) === 'Set'; }
function isMap(v) { return classOf(v) === 'Map'; }
function isWeakSet(v) { return v instanceof WeakSet; }
function isWeakMap(v) { return v instanceof WeakMap; }
function isDate(v) { return classOf(v) === 'Date'; }
function isRegExp(v) { return classOf(v) === 'RegExp'; }
function isError(v) { return classOf(v) === 'Error'; }
function isPromise(v) { return classOf(v) === 'Promise'; }
function isArgumentsObject(v) { return classOf(v) === 'Arguments'; }
function isMapIterator(v) { return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === MapIteratorPrototype; }
function isSetIterator(v) { return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === SetIteratorPrototype; }
function isAsyncFunction(v) { return typeof v === 'function' && Object.getPrototypeOf(v) === AsyncFunctionPrototype; }
function isGeneratorFunction(v) { return typeof v === 'function' && Object.getPrototypeOf(v) === GeneratorFunctionPrototype; }
function isGeneratorObject(v) { return v !== null && typeof v === 'object' && GeneratorPrototype.isPrototypeOf(v); }
function isTypedArray(v) { return typedArrayTag.call(v) !== undefined; }
function isArrayBuffer(v) { return classOf(v) === 'ArrayBuffer'; }
function isDataView(v) { return v instanceof DataView; }
function isNumberObject(v) { return classOf(v) === 'Number'; }
function isStringObject(v) { return classOf(v) === 'String'; }
function isBooleanObject(v) { return classOf(v) === 'Boolean'; }
function isBigIntObject(v) { return classOf(v) === 'BigInt'; }
function isSymbolObject(v) { return classOf(v) === 'Symbol'; }
function isBoxedPrimitive(v) {
  var c = classOf(v);
  return c === 'Number' || c === 'String' || c === 'Boolean' || c === 'BigInt' || c === 'Symbol';
}
function isNativeError(v) { return isError(v); }

function getUserOptions(ctx) {
  var ret = {
    stylize: ctx.stylize, showHidden: ctx.showHidden, depth: ctx.depth,
    colors: ctx.colors, customInspect: ctx.customInspect, showProxy: ctx.showProxy,
    maxArrayLength: ctx.maxArrayLength, maxStringLength: ctx.maxStringLength,
    breakLength: ctx.breakLength, compact: ctx.compact, sorted: ctx.sorted,
    getters: ctx.getters, numericSeparator: ctx.numericSeparator,
  };
  return Object.assign(ret, ctx.userOptions);
}

// InspectContext is inspect's state; the options not given are read from
// the defaults through the prototype.
function InspectContext() {
  this.budget = {};
  this.indentationLvl = 0;
  this.seen = [];
  this.currentDepth = 0;
  this.stylize = stylizeNoColor;
}
InspectContext.prototype = inspectDefaultOptions;
var primitiveCtx = {
  indentationLvl: 0, compact: 3, breakLength: 80, maxStringLength: 10000, numericSeparator: false,
};
function inspect(value, opts) {
  if (arguments.length === 1 && typeof value !== 'object' && typeof value !== 'function') {
    primitiveCtx.compact = inspectDefaultOptions.compact;
    primitiveCtx.breakLength = inspectDefaultOptions.breakLength;
    primitiveCtx.maxStringLength = inspectDefaultOptions.maxStringLength;
    primitiveCtx.numericSeparator = inspectDefaultOptions.numericSeparator;
    return formatPrimitive(stylizeNoColor, value, primitiveCtx);
  }
  var ctx = new InspectContext();

  if (arguments.length > 1) {
    if (arguments.length > 2) {
      if (arguments[2] !== undefined) ctx.depth = arguments[2];
      if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
    }
    if (typeof opts === 'boolean') {
      ctx.showHidden = opts;
    } else if (opts) {
      var optKeys = Object.keys(opts);
      for (var i = 0; i < optKeys.length; ++i) {
        var key = optKeys[i];
        if (hasOwn(inspectDefaultOptions, key) || key === 'stylize') {
          ctx[key] = opts[key];
        } else if (ctx.userOptions === undefined) {
          ctx.userOptions = opts;
        }
      }
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspectSymbol;
Object.defineProperty(inspect, 'defaultOptions', {
  get: function () { return inspectDefaultOptions; },
  set: function (options) { return Object.assign(inspectDefaultOptions, options); },
});
var defaultFG = 39, defaultBG = 49;
inspect.colors = Object.assign(Object.create(null), {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24],
  blink: [5, 25], inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29],
  doubleunderline: [21, 24], black: [30, defaultFG], red: [31, defaultFG],
  green: [32, defaultFG], yellow: [33, defaultFG], blue: [34, defaultFG],
  magenta: [35, defaultFG], cyan: [36, defaultFG], white: [37, defaultFG],
  bgBlack: [40, defaultBG], bgRed: [41, defaultBG], bgGreen: [42, defaultBG],
  bgYellow: [43, defaultBG], bgBlue: [44, defaultBG], bgMagenta: [45, defaultBG],
  bgCyan: [46, defaultBG], bgWhite: [47, defaultBG], framed: [51, 54],
  overlined: [53, 55], gray: [90, defaultFG], grey: [90, defaultFG],
  redBright: [91, defaultFG], greenBright: [92, defaultFG],
  yellowBright: [93, defaultFG], blueBright: [94, defaultFG],
  magentaBright: [95, defaultFG], cyanBright: [96, defaultFG],
  whiteBright: [97, defaultFG],
});
inspect.styles = Object.assign(Object.create(null), {
  special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow',
  undefined: 'grey', null: 'bold', string: 'green', symbol: 'green',
  date: 'magenta', regexp: 'red', module: 'underline',
});

function addQuotes(str, quotes) {
  if (quotes === -1) return '"' + str + '"';
  if (quotes === -2) return BACKTICK + str + BACKTICK;
  return "'" + str + "'";
}

function escapeFn(str) {
  var charCode = str.charCodeAt(0);
  return meta.length > charCode ? meta[charCode] : '\\u' + charCode.toString(16);
}

function strEscape(str) {
  var escapeTest = strEscapeSequencesRegExp;
  var singleQuote = 39;
  if (str.indexOf("'") !== -1) {
    if (str.indexOf('"') === -1) {
      singleQuote = -1;
    } else if (str.indexOf(BACKTICK) === -1 && str.indexOf('${') === -1) {
      singleQuote = -2;
    }
    if (singleQuote !== 39) escapeTest = strEscapeSequencesRegExpSingle;
  }
  if (!escapeTest.test(str) && !/[\ud800-\udfff]/.test(str)) return addQuotes(str, singleQuote);
  var result = '';
  var last = 0;
  for (var i = 0; i < str.length; i++) {
    var point = str.charCodeAt(i);
    if (point === singleQuote || point === 92 || point < 32 || (point > 126 && point < 160)) {
      if (last === i) {
        result += meta[point];
      } else {
        result += str.slice(last, i) + meta[point];
      }
      last = i + 1;
    } else if (point >= 0xd800 && point <= 0xdfff) {
      if (point <= 0xdbff && i + 1 < str.length) {
        var next = str.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
      }
      result += str.slice(last, i) + '\\u' + point.toString(16);
      last = i + 1;
    }
  }
  if (last !== str.length) result += str.slice(last);
  return addQuotes(result, singleQuote);
}

function stylizeWithColor(str, styleType) {
  var style = inspect.styles[styleType];
  if (style !== undefined) {
    var color = inspect.colors[style];
    if (color !== undefined) return '\u001b[' + color[0] + 'm' + str + '\u001b[' + color[1] + 'm';
  }
  return str;
}
function stylizeNoColor(str) { return str; }
function getEmptyFormatArray() { return []; }

function isInstanceof(object, proto) {
  try { return object instanceof proto; } catch (e) { return false; }
}

function getConstructorName(obj, ctx, recurseTimes) {
  var firstProto;
  var tmp = obj;
  while (obj) {
    if (obj === Object.prototype && isInstanceof(tmp, Object)) return 'Object';
    if (obj === Function.prototype && isInstanceof(tmp, Function)) return 'Function';
    var descriptor = Object.getOwnPropertyDescriptor(obj, 'constructor');
    if (descriptor !== undefined && typeof descriptor.value === 'function' &&
        descriptor.value.name !== '' && isInstanceof(tmp, descriptor.value)) {
      return String(descriptor.value.name);
    }
    obj = Object.getPrototypeOf(obj);
    if (firstProto === undefined) firstProto = obj;
  }
  if (firstProto === null) return null;
  var res = classOf(tmp);
  if (recurseTimes > ctx.depth && ctx.depth !== null) return res + ' <Complex prototype>';
  var protoConstr = getConstructorName(firstProto, ctx, recurseTimes + 1);
  if (protoConstr === null) {
    return res + ' <' + inspect(firstProto, Object.assign({}, ctx, { customInspect: false, depth: -1 })) + '>';
  }
  return res + ' <' + protoConstr + '>';
}

function getPrefix(constructor, tag, fallback, size) {
  if (size === undefined) size = '';
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return '[' + fallback + size + ': null prototype] [' + tag + '] ';
    return '[' + fallback + size + ': null prototype] ';
  }
  if (tag !== '' && constructor !== tag) return constructor + size + ' [' + tag + '] ';
  return constructor + size + ' ';
}

function getKeys(value, showHidden) {
  var keys;
  var symbols = Object.getOwnPropertySymbols(value);
  if (showHidden) {
    keys = Object.getOwnPropertyNames(value);
    if (symbols.length !== 0) keys.push.apply(keys, symbols);
  } else {
    keys = Object.keys(value);
    if (symbols.length !== 0) {
      keys.push.apply(keys, symbols.filter(function (key) {
        return Object.prototype.propertyIsEnumerable.call(value, key);
      }));
    }
  }
  return keys;
}

function isIndexKey(k) {
  return typeof k === 'string' && numberRegExp.test(k) && +k < 4294967295;
}
function getOwnNonIndexProperties(value, showHidden) {
  return getKeys(value, showHidden).filter(function (k) { return !isIndexKey(k); });
}

function getCtxStyle(value, constructor, tag) {
  var fallback = '';
  if (constructor === null) {
    fallback = classOf(value);
    if (fallback === tag) fallback = 'Object';
  }
  return getPrefix(constructor, tag, fallback);
}

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== 'object' && typeof value !== 'function') {
    return formatPrimitive(ctx.stylize, value, ctx);
  }
  if (value === null) return ctx.stylize('null', 'null');
  var context = value;
  if (ctx.customInspect) {
    var maybeCustom;
    try { maybeCustom = value[customInspectSymbol]; } catch (e) { maybeCustom = undefined; }
    if (typeof maybeCustom === 'function' && maybeCustom !== inspect &&
        !(value.constructor && value.constructor.prototype === value)) {
      var depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      var ret = maybeCustom.call(context, depth, getUserOptions(ctx), inspect);
      if (ret !== context) {
        if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
        return ret.split('\n').join('\n' + ' '.repeat(ctx.indentationLvl));
      }
    }
  }
  if (ctx.seen.indexOf(value) !== -1) {
    var index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map();
      ctx.circular.set(value, index);
    } else {
      index = ctx.circular.get(value);
      if (index === undefined) {
        index = ctx.circular.size + 1;
        ctx.circular.set(value, index);
      }
    }
    return ctx.stylize('[Circular *' + index + ']', 'special');
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function formatRaw(ctx, value, recurseTimes, typedArray) {
  var keys;
  var constructor = getConstructorName(value, ctx, recurseTimes);
  var tag = value[Symbol.toStringTag];
  if (typeof tag !== 'string' ||
      (tag !== '' && (ctx.showHidden ? hasOwn : isEnumerable)(value, Symbol.toStringTag))) {
    tag = '';
  }
  var base = '';
  var formatter = getEmptyFormatArray;
  var braces;
  var noIterator = true;
  var i = 0;
  var extrasType = kObjectType;
  var size, prefix;

  if (Symbol.iterator in value || constructor === null) {
    noIterator = false;
    if (Array.isArray(value)) {
      prefix = (constructor !== 'Array' || tag !== '') ?
        getPrefix(constructor, tag, 'Array', '(' + value.length + ')') : '';
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      braces = [prefix + '[', ']'];
      if (value.length === 0 && keys.length === 0) return braces[0] + ']';
      extrasType = kArrayExtrasType;
      formatter = formatArray;
    } else if (isSet(value)) {
      size = value.size;
      prefix = getPrefix(constructor, tag, 'Set', '(' + size + ')');
      keys = getKeys(value, ctx.showHidden);
      formatter = formatSet.bind(null, value);
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
    } else if (isMap(value)) {
      size = value.size;
      prefix = getPrefix(constructor, tag, 'Map', '(' + size + ')');
      keys = getKeys(value, ctx.showHidden);
      formatter = formatMap.bind(null, value);
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
    } else if (isTypedArray(value)) {
      keys = getOwnNonIndexProperties(value, ctx.showHidden);
      var fallback = '';
      if (constructor === null) fallback = typedArrayTag.call(value);
      size = value.length;
      prefix = getPrefix(constructor, tag, fallback, '(' + size + ')');
      braces = [prefix + '[', ']'];
      if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return braces[0] + ']';
      formatter = formatTypedArray.bind(null, value, size);
      extrasType = kArrayExtrasType;
    } else if (isMapIterator(value)) {
      keys = getKeys(value, ctx.showHidden);
      braces = getIteratorBraces('Map', tag);
      formatter = formatIterator.bind(null, braces);
    } else if (isSetIterator(value)) {
      keys = getKeys(value, ctx.showHidden);
      braces = getIteratorBraces('Set', tag);
      formatter = formatIterator.bind(null, braces);
    } else {
      noIterator = true;
    }
  }
  if (noIterator) {
    keys = getKeys(value, ctx.showHidden);
    braces = ['{', '}'];
    if (typeof value === 'function') {
      base = getFunctionBase(value, constructor, tag);
      if (keys.length === 0) return ctx.stylize(base, 'special');
    } else if (constructor === 'Object') {
      if (isArgumentsObject(value)) {
        braces[0] = '[Arguments] {';
      } else if (tag !== '') {
        braces[0] = getPrefix(constructor, tag, 'Object') + '{';
      }
      if (keys.length === 0) return braces[0] + '}';
    } else if (isRegExp(value)) {
      base = RegExp.prototype.toString.call(constructor !== null ? value : new RegExp(value));
      prefix = getPrefix(constructor, tag, 'RegExp');
      if (prefix !== 'RegExp ') base = prefix + base;
      if (keys.length === 0 || (recurseTimes > ctx.depth && ctx.depth !== null)) {
        return ctx.stylize(base, 'regexp');
      }
    } else if (isDate(value)) {
      base = Number.isNaN(Date.prototype.getTime.call(value)) ?
        Date.prototype.toString.call(value) : Date.prototype.toISOString.call(value);
      prefix = getPrefix(constructor, tag, 'Date');
      if (prefix !== 'Date ') base = prefix + base;
      if (keys.length === 0) return ctx.stylize(base, 'date');
    } else if (isError(value)) {
      base = formatError(value, constructor, tag, ctx, keys);
      if (keys.length === 0) return base;
    } else if (isArrayBuffer(value)) {
      prefix = getPrefix(constructor, tag, 'ArrayBuffer');
      if (typedArray === undefined) {
        formatter = formatArrayBuffer;
      } else if (keys.length === 0) {
        return prefix + '{ byteLength: ' + formatNumber(ctx.stylize, value.byteLength, false) + ' }';
      }
      braces[0] = prefix + '{';
      keys.unshift('byteLength');
    } else if (isDataView(value)) {
      braces[0] = getPrefix(constructor, tag, 'DataView') + '{';
      keys.unshift('byteLength', 'byteOffset', 'buffer');
    } else if (isPromise(value)) {
      braces[0] = getPrefix(constructor, tag, 'Promise') + '{';
      formatter = formatPromise;
    } else if (isWeakSet(value)) {
      braces[0] = getPrefix(constructor, tag, 'WeakSet') + '{';
      formatter = formatWeakCollection;
    } else if (isWeakMap(value)) {
      braces[0] = getPrefix(constructor, tag, 'WeakMap') + '{';
      formatter = formatWeakCollection;
    } else if (isBoxedPrimitive(value)) {
      base = getBoxedBase(value, ctx, keys, constructor, tag);
      if (keys.length === 0) return base;
    } else {
      if (keys.length === 0) return getCtxStyle(value, constructor, tag) + '{}';
      braces[0] = getCtxStyle(value, constructor, tag) + '{';
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    var constructorName = getCtxStyle(value, constructor, tag).slice(0, -1);
    if (constructor !== null) constructorName = '[' + constructorName + ']';
    return ctx.stylize(constructorName, 'special');
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  var output;
  output = formatter(ctx, value, recurseTimes);
  for (i = 0; i < keys.length; i++) {
    output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
  }
  if (ctx.circular !== undefined) {
    var idx = ctx.circular.get(value);
    if (idx !== undefined) {
      var reference = ctx.stylize('<ref *' + idx + '>', 'special');
      if (ctx.compact !== true) {
        base = base === '' ? reference : reference + ' ' + base;
      } else {
        braces[0] = reference + ' ' + braces[0];
      }
    }
  }
  ctx.seen.pop();
  if (ctx.sorted) {
    var comparator = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === kObjectType) {
      output.sort(comparator);
    } else if (keys.length > 1) {
      var sorted = output.slice(output.length - keys.length).sort(comparator);
      sorted.unshift(output.length - keys.length, keys.length);
      Array.prototype.splice.apply(output, sorted);
    }
  }
  var res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
  var budget = ctx.budget[ctx.indentationLvl] || 0;
  var newLength = budget + res.length;
  ctx.budget[ctx.indentationLvl] = newLength;
  if (newLength > Math.pow(2, 27)) ctx.depth = -1;
  return res;
}

function getIteratorBraces(type, tag) {
  if (tag !== type + ' Iterator') {
    if (tag !== '') tag += '] [';
    tag += type + ' Iterator';
  }
  return ['[' + tag + '] {', '}'];
}

function getBoxedBase(value, ctx, keys, constructor, tag) {
  var fn, type;
  if (isNumberObject(value)) { fn = Number.prototype.valueOf; type = 'Number'; }
  else if (isStringObject(value)) { fn = String.prototype.valueOf; type = 'String'; keys.splice(0, value.length); }
  else if (isBooleanObject(value)) { fn = Boolean.prototype.valueOf; type = 'Boolean'; }
  else if (isBigIntObject(value)) { fn = BigInt.prototype.valueOf; type = 'BigInt'; }
  else { fn = Symbol.prototype.valueOf; type = 'Symbol'; }
  var base = '[' + type;
  if (type !== constructor) {
    if (constructor === null) base += ' (null prototype)';
    else base += ' (' + constructor + ')';
  }
  base += ': ' + formatPrimitive(stylizeNoColor, fn.call(value), ctx) + ']';
  if (tag !== '' && tag !== constructor) base += ' [' + tag + ']';
  if (keys.length !== 0 || ctx.stylize === stylizeNoColor) return base;
  return ctx.stylize(base, type.toLowerCase());
}

function getClassBase(value, constructor, tag) {
  var hasName = hasOwn(value, 'name');
  var name = (hasName && value.name) || '(anonymous)';
  var base = 'class ' + name;
  if (constructor !== 'Function' && constructor !== null) base += ' [' + constructor + ']';
  if (tag !== '' && constructor !== tag) base += ' [' + tag + ']';
  if (constructor !== null) {
    var superName = Object.getPrototypeOf(value).name;
    if (superName) base += ' extends ' + superName;
  } else {
    base += ' extends [null prototype]';
  }
  return '[' + base + ']';
}

function getFunctionBase(value, constructor, tag) {
  var stringified = '';
  try { stringified = Function.prototype.toString.call(value); } catch (e) {}
  if (stringified.slice(0, 5) === 'class' && stringified[stringified.length - 1] === '}') {
    var slice = stringified.slice(5, -1);
    var bracketIndex = slice.indexOf('{');
    if (bracketIndex !== -1 &&
        (slice.slice(0, bracketIndex).indexOf('(') === -1 ||
         classRegExp.test(slice.replace(stripCommentsRegExp)))) {
      return getClassBase(value, constructor, tag);
    }
  }
  var type = 'Function';
  if (isGeneratorFunction(value)) type = 'Generator' + type;
  if (isAsyncFunction(value)) type = 'Async' + type;
  var base = '[' + type;
  if (constructor === null) base += ' (null prototype)';
  if (value.name === '') base += ' (anonymous)';
  else base += ': ' + value.name;
  base += ']';
  if (constructor !== type && constructor !== null) base += ' ' + constructor;
  if (tag !== '' && constructor !== tag) base += ' [' + tag + ']';
  return base;
}

// nodeStack is err.stack with goja's frames ("\tat f (file:1:2(3))") in
// node's form ("    at f (file:1:2)").
function nodeStack(stack) {
  if (typeof stack !== 'string' || stack.indexOf('\n\tat ') === -1) return stack;
  var lines = stack.replace(/\n+$/, '').split('\n');
  var out = [];
  var first;
  for (var i = 0; i < lines.length; i++) {
    var l = lines[i];
    if (l.slice(0, 4) !== '\tat ') {
      out.push(l);
      continue;
    }
    l = l.slice(4).replace(/(:\d+:\d+)\(\d+\)/, '$1');
    // goja's own frames and the prelude's anonymous ones say nothing.
    if (/^((call|apply|\S*\.\S*) \()?native\)?$/.test(l) || /^node:internal\//.test(l)) {
      if (first === undefined) first = l;
      continue;
    }
    out.push('    at ' + native.fixFrame(l));
  }
  while (out.length > 1 && /\(node:internal\/[^)]*\)$/.test(out[out.length - 1])) {
    if (first === undefined) first = out[out.length - 1].slice(7);
    out.pop();
  }
  if (first !== undefined && !/\n    at /.test(out.join('\n'))) out.push('    at ' + first);
  return out.join('\n');
}

function getStackString(error) {
  var stack;
  try { stack = error.stack; } catch (e) {}
  return stack ? nodeStack(String(stack)) : Error.prototype.toString.call(error);
}

function improveStack(stack, constructor, name, tag) {
  var len = name.length;
  if (constructor === null ||
      (name.slice(-5) === 'Error' && stack.slice(0, len) === name &&
       (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
    var fallback = 'Error';
    if (constructor === null) {
      var start = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)/.exec(stack) ||
        /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
      fallback = (start && start[1]) || '';
      len = fallback.length;
      fallback = fallback || 'Error';
    }
    var prefix = getPrefix(constructor, tag, fallback).slice(0, -1);
    if (name !== prefix) {
      if (prefix.indexOf(name) !== -1) {
        if (len === 0) stack = prefix + ': ' + stack;
        else stack = prefix + stack.slice(len);
      } else {
        stack = prefix + ' [' + name + ']' + stack.slice(len);
      }
    }
  }
  return stack;
}

function removeDuplicateErrorKeys(ctx, keys, err, stack) {
  if (!ctx.showHidden && keys.length !== 0) {
    ['name', 'message', 'stack'].forEach(function (name) {
      var index = keys.indexOf(name);
      if (index !== -1 && stack.indexOf(err[name]) !== -1) keys.splice(index, 1);
    });
  }
}

function formatError(err, constructor, tag, ctx, keys) {
  var name = err.name != null ? String(err.name) : 'Error';
  var stack = getStackString(err);
  removeDuplicateErrorKeys(ctx, keys, err, stack);
  if ('cause' in err && (keys.length === 0 || keys.indexOf('cause') === -1)) keys.push('cause');
  if (Array.isArray(err.errors) && (keys.length === 0 || keys.indexOf('errors') === -1)) keys.push('errors');
  stack = improveStack(stack, constructor, name, tag);
  var pos = (err.message && stack.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  var stackStart = stack.indexOf('\n    at', pos);
  if (stackStart === -1) {
    stack = '[' + stack + ']';
  }
  if (ctx.indentationLvl !== 0) {
    stack = stack.split('\n').join('\n' + ' '.repeat(ctx.indentationLvl));
  }
  return stack;
}

function groupArrayElements(ctx, output, value) {
  var totalLength = 0;
  var maxLength = 0;
  var i = 0;
  var outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  var separatorSpace = 2;
  var dataLen = new Array(outputLength);
  for (; i < outputLength; i++) {
    var len = getStringWidth(output[i], ctx.colors);
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  var actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    var approxCharHeights = 2.5;
    var averageBias = Math.sqrt(actualMax - totalLength / output.length);
    var biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    var columns = Math.min(
      Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15
    );
    if (columns <= 1) return output;
    var tmp = [];
    var maxLineLength = [];
    for (i = 0; i < columns; i++) {
      var lineLength = 0;
      for (var j = i; j < output.length; j += columns) {
        if (dataLen[j] > lineLength) lineLength = dataLen[j];
      }
      maxLineLength.push(lineLength + separatorSpace);
    }
    var padStart = true;
    if (value !== undefined) {
      for (i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    for (i = 0; i < outputLength; i += columns) {
      var max = Math.min(i + columns, outputLength);
      var str = '';
      var k = i;
      for (; k < max - 1; k++) {
        var padding = maxLineLength[k - i] + output[k].length - dataLen[k];
        str += padStart ? (output[k] + ', ').padStart(padding, ' ') : (output[k] + ', ').padEnd(padding, ' ');
      }
      if (padStart) {
        var pad = maxLineLength[k - i] + output[k].length - dataLen[k] - separatorSpace;
        str += output[k].padStart(pad, ' ');
      } else {
        str += output[k];
      }
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

var remainingText = function (remaining) {
  return '... ' + remaining + ' more item' + (remaining > 1 ? 's' : '');
};

function addNumericSeparator(integerString) {
  var result = '';
  var i = integerString.length;
  var start = integerString[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) result = '_' + integerString.slice(i - 3, i) + result;
  return i === integerString.length ? integerString : integerString.slice(0, i) + result;
}
function addNumericSeparatorEnd(integerString) {
  var result = '';
  var i = 0;
  for (; i < integerString.length - 3; i += 3) result += integerString.slice(i, i + 3) + '_';
  return i === 0 ? integerString : result + integerString.slice(i);
}

function formatNumber(fn, number, numericSeparator) {
  if (!numericSeparator) {
    if (Object.is(number, -0)) return fn('-0', 'number');
    return fn('' + number, 'number');
  }
  var numberString = String(number);
  var integer = Math.trunc(number);
  if (integer === number) {
    if (!Number.isFinite(number) || numberString.indexOf('e') !== -1) return fn(numberString, 'number');
    return fn(addNumericSeparator(numberString), 'number');
  }
  if (Number.isNaN(number)) return fn(numberString, 'number');
  var decimalIndex = numberString.indexOf('.');
  return fn(addNumericSeparator(numberString.slice(0, decimalIndex)) + '.' +
    addNumericSeparatorEnd(numberString.slice(decimalIndex + 1)), 'number');
}

function formatBigInt(fn, bigint, numericSeparator) {
  var string = String(bigint);
  if (!numericSeparator) return fn(string + 'n', 'bigint');
  return fn(addNumericSeparator(string) + 'n', 'bigint');
}

function formatPrimitive(fn, value, ctx) {
  if (typeof value === 'string') {
    var trailer = '';
    if (value.length > ctx.maxStringLength) {
      var remaining = value.length - ctx.maxStringLength;
      value = value.slice(0, ctx.maxStringLength);
      trailer = '... ' + remaining + ' more character' + (remaining > 1 ? 's' : '');
    }
    if (ctx.compact !== true && value.length > kMinLineLength &&
        value.length > ctx.breakLength - ctx.indentationLvl - 4) {
      return value.split(/(?<=\n)/).map(function (line) {
        return fn(strEscape(line), 'string');
      }).join(' +\n' + ' '.repeat(ctx.indentationLvl + 2)) + trailer;
    }
    return fn(strEscape(value), 'string') + trailer;
  }
  if (typeof value === 'number') return formatNumber(fn, value, ctx.numericSeparator);
  if (typeof value === 'bigint') return formatBigInt(fn, value, ctx.numericSeparator);
  if (typeof value === 'boolean') return fn('' + value, 'boolean');
  if (typeof value === 'undefined') return fn('undefined', 'undefined');
  return fn(Symbol.prototype.toString.call(value), 'symbol');
}

function formatSpecialArray(ctx, value, recurseTimes, maxLength, output, i) {
  var keys = Object.keys(value);
  var index = i;
  for (; i < keys.length && output.length < maxLength; i++) {
    var key = keys[i];
    var tmp = +key;
    if (tmp > Math.pow(2, 32) - 2) break;
    if ('' + index !== key) {
      if (!numberRegExp.test(key)) break;
      var emptyItems = tmp - index;
      var ending = emptyItems > 1 ? 's' : '';
      output.push(ctx.stylize('<' + emptyItems + ' empty item' + ending + '>', 'undefined'));
      index = tmp;
      if (output.length === maxLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, kArrayType));
    index++;
  }
  var remaining = value.length - index;
  if (output.length !== maxLength) {
    if (remaining > 0) {
      output.push(ctx.stylize('<' + remaining + ' empty item' + (remaining > 1 ? 's' : '') + '>', 'undefined'));
    }
  } else if (remaining > 0) {
    output.push(remainingText(remaining));
  }
  return output;
}

function formatArrayBuffer(ctx, value) {
  var buffer = new Uint8Array(value);
  var hex = [];
  var n = Math.min(ctx.maxArrayLength, buffer.length);
  for (var i = 0; i < n; i++) hex.push((buffer[i] < 16 ? '0' : '') + buffer[i].toString(16));
  var str = hex.join(' ');
  var remaining = buffer.length - ctx.maxArrayLength;
  if (remaining > 0) str += ' ... ' + remaining + ' more byte' + (remaining > 1 ? 's' : '');
  return [ctx.stylize('[Uint8Contents]', 'special') + ': <' + str + '>'];
}

function formatArray(ctx, value, recurseTimes) {
  var valLen = value.length;
  var len = Math.min(Math.max(0, ctx.maxArrayLength), valLen);
  var remaining = valLen - len;
  var output = [];
  for (var i = 0; i < len; i++) {
    if (!hasOwn(value, i)) return formatSpecialArray(ctx, value, recurseTimes, len, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
  }
  if (remaining > 0) output.push(remainingText(remaining));
  return output;
}

function formatTypedArray(value, length, ctx, ignored, recurseTimes) {
  var maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  var remaining = value.length - maxLength;
  var output = new Array(maxLength);
  var elementFormatter = value.length > 0 && typeof value[0] === 'number' ? formatNumber : formatBigInt;
  for (var i = 0; i < maxLength; ++i) output[i] = elementFormatter(ctx.stylize, value[i], ctx.numericSeparator);
  if (remaining > 0) output[maxLength] = remainingText(remaining);
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer'].forEach(function (key) {
      output.push('[' + key + ']: ' + formatValue(ctx, value[key], recurseTimes, true));
    });
    ctx.indentationLvl -= 2;
  }
  return output;
}

function formatSet(value, ctx, ignored, recurseTimes) {
  var length = value.size;
  var maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  var remaining = length - maxLength;
  var output = [];
  ctx.indentationLvl += 2;
  var i = 0;
  Set.prototype.forEach.call(value, function (v) {
    if (i >= maxLength) return;
    output.push(formatValue(ctx, v, recurseTimes));
    i++;
  });
  if (remaining > 0) output.push(remainingText(remaining));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(value, ctx, ignored, recurseTimes) {
  var length = value.size;
  var maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  var remaining = length - maxLength;
  var output = [];
  ctx.indentationLvl += 2;
  var i = 0;
  Map.prototype.forEach.call(value, function (v, k) {
    if (i >= maxLength) return;
    output.push(formatValue(ctx, k, recurseTimes) + ' => ' + formatValue(ctx, v, recurseTimes));
    i++;
  });
  if (remaining > 0) output.push(remainingText(remaining));
  ctx.indentationLvl -= 2;
  return output;
}

function formatWeakCollection(ctx) {
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatIterator(braces, ctx, value, recurseTimes) {
  return [ctx.stylize('<items unknown>', 'special')];
}

function formatPromise(ctx, value, recurseTimes) {
  var output;
  var details = native.promiseState(value);
  if (details[0] === 0) {
    output = [ctx.stylize('<pending>', 'special')];
  } else {
    ctx.indentationLvl += 2;
    var str = formatValue(ctx, details[1], recurseTimes);
    ctx.indentationLvl -= 2;
    output = [details[0] === 2 ? ctx.stylize('<rejected>', 'special') + ' ' + str : str];
  }
  return output;
}

function formatProperty(ctx, value, recurseTimes, key, type, desc, original) {
  if (original === undefined) original = value;
  var name, str;
  var extra = ' ';
  desc = desc || Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    var diff = (ctx.compact !== true || type !== kObjectType) ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < getStringWidth(str, ctx.colors)) {
      extra = '\n' + ' '.repeat(ctx.indentationLvl);
    }
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    var label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
    var s = ctx.stylize;
    var sp = 'special';
    if (ctx.getters && (ctx.getters === true ||
          (ctx.getters === 'get' && desc.set === undefined) ||
          (ctx.getters === 'set' && desc.set !== undefined))) {
      try {
        var tmp = desc.get.call(original);
        ctx.indentationLvl += 2;
        if (tmp === null) {
          str = s('[' + label + ':', sp) + ' ' + s('null', 'null') + s(']', sp);
        } else if (typeof tmp === 'object') {
          str = s('[' + label + ']', sp) + ' ' + formatValue(ctx, tmp, recurseTimes);
        } else {
          str = s('[' + label + ':', sp) + ' ' + formatPrimitive(s, tmp, ctx) + s(']', sp);
        }
        ctx.indentationLvl -= 2;
      } catch (err) {
        str = s('[' + label + ':', sp) + ' <Inspection threw (' + err.message + ')>' + s(']', sp);
      }
    } else {
      str = ctx.stylize('[' + label + ']', sp);
    }
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (type === kArrayType) return str;
  if (typeof key === 'symbol') {
    name = '[' + ctx.stylize(Symbol.prototype.toString.call(key).replace(/[\x00-\x1f\x27\x5c\x7f-\x9f]/g, escapeFn), 'symbol') + ']';
  } else if (key === '__proto__') {
    name = "['__proto__']";
  } else if (desc.enumerable === false) {
    name = '[' + String(key).replace(/[\x00-\x1f\x27\x5c\x7f-\x9f]/g, escapeFn) + ']';
  } else if (keyStrRegExp.test(key)) {
    name = ctx.stylize(key, 'name');
  } else {
    name = ctx.stylize(strEscape(key), 'string');
  }
  return name + ':' + extra + str;
}

function isBelowBreakLength(ctx, output, start, base) {
  var totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (var i = 0; i < output.length; i++) {
    if (ctx.colors) totalLength += removeColors(output[i]).length;
    else totalLength += output[i].length;
    if (totalLength > ctx.breakLength) return false;
  }
  return base === '' || base.indexOf('\n') === -1;
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      var entries = output.length;
      if (extrasType === kArrayExtrasType && entries > 6) {
        output = groupArrayElements(ctx, output, value);
      }
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        var start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          var joinedOutput = output.join(', ');
          if (joinedOutput.indexOf('\n') === -1) {
            return (base ? base + ' ' : '') + braces[0] + ' ' + joinedOutput + ' ' + braces[1];
          }
        }
      }
    }
    var indentation = '\n' + ' '.repeat(ctx.indentationLvl);
    return (base ? base + ' ' : '') + braces[0] + indentation + '  ' +
      output.join(',' + indentation + '  ') + indentation + braces[1];
  }
  if (isBelowBreakLength(ctx, output, 0, base)) {
    return braces[0] + (base ? ' ' + base : '') + ' ' + output.join(', ') + ' ' + braces[1];
  }
  var ind = ' '.repeat(ctx.indentationLvl);
  var ln = base === '' && braces[0].length === 1 ? ' ' : (base ? ' ' + base : '') + '\n' + ind + '  ';
  return braces[0] + ln + output.join(',\n' + ind + '  ') + ' ' + braces[1];
}

function hasBuiltInToString(value) {
  var hasOwnToString = hasOwn;
  var hasOwnToPrimitive = hasOwn;
  if (typeof value.toString !== 'function') {
    if (typeof value[Symbol.toPrimitive] !== 'function') return true;
    else if (hasOwn(value, Symbol.toPrimitive)) return false;
    hasOwnToString = function () { return false; };
  } else if (hasOwn(value, 'toString')) {
    return false;
  } else if (typeof value[Symbol.toPrimitive] !== 'function') {
    hasOwnToPrimitive = function () { return false; };
  } else if (hasOwn(value, Symbol.toPrimitive)) {
    return false;
  }
  var pointer = value;
  do {
    pointer = Object.getPrototypeOf(pointer);
  } while (pointer !== null && !hasOwnToString(pointer, 'toString') && !hasOwnToPrimitive(pointer, Symbol.toPrimitive));
  if (pointer === null) return true;
  var descriptor = Object.getOwnPropertyDescriptor(pointer, 'constructor');
  return descriptor !== undefined && typeof descriptor.value === 'function' &&
    builtInObjects.has(descriptor.value.name);
}

function tryStringify(arg) {
  try {
    return JSON.stringify(arg);
  } catch (err) {
    if (err && err.name === 'TypeError' && /circular|cyclic/i.test(err.message)) return '[Circular]';
    throw err;
  }
}

function format(...args) {
  return formatWithOptionsInternal(undefined, args);
}
function formatWithOptions(inspectOptions, ...args) {
  return formatWithOptionsInternal(inspectOptions, args);
}

function formatNumberNoColor(number, options) {
  return formatNumber(stylizeNoColor, number,
    (options && options.numericSeparator) || inspectDefaultOptions.numericSeparator);
}
function formatBigIntNoColor(bigint, options) {
  return formatBigInt(stylizeNoColor, bigint,
    (options && options.numericSeparator) || inspectDefaultOptions.numericSeparator);
}

function formatWithOptionsInternal(inspectOptions, args) {
  var first = args[0];
  var a = 0;
  var str = '';
  var join = '';
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    var tempStr;
    var lastPos = 0;
    for (var i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) === 37) {
        var nextChar = first.charCodeAt(++i);
        if (a + 1 !== args.length) {
          switch (nextChar) {
            case 115: {
              var tempArg = args[++a];
              if (typeof tempArg === 'number') tempStr = formatNumberNoColor(tempArg, inspectOptions);
              else if (typeof tempArg === 'bigint') tempStr = formatBigIntNoColor(tempArg, inspectOptions);
              else if (typeof tempArg !== 'object' || tempArg === null || !hasBuiltInToString(tempArg)) tempStr = String(tempArg);
              else tempStr = inspect(tempArg, Object.assign({}, inspectOptions, { compact: 3, colors: false, depth: 0 }));
              break;
            }
            case 106:
              tempStr = tryStringify(args[++a]);
              break;
            case 100: {
              var tempNum = args[++a];
              if (typeof tempNum === 'bigint') tempStr = formatBigIntNoColor(tempNum, inspectOptions);
              else if (typeof tempNum === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumberNoColor(Number(tempNum), inspectOptions);
              break;
            }
            case 79:
              tempStr = inspect(args[++a], inspectOptions);
              break;
            case 111:
              tempStr = inspect(args[++a], Object.assign({}, inspectOptions, { showHidden: true, showProxy: true, depth: 4 }));
              break;
            case 105: {
              var tempInteger = args[++a];
              if (typeof tempInteger === 'bigint') tempStr = formatBigIntNoColor(tempInteger, inspectOptions);
              else if (typeof tempInteger === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumberNoColor(Number.parseInt(tempInteger), inspectOptions);
              break;
            }
            case 102: {
              var tempFloat = args[++a];
              if (typeof tempFloat === 'symbol') tempStr = 'NaN';
              else tempStr = formatNumberNoColor(Number.parseFloat(tempFloat), inspectOptions);
              break;
            }
            case 99:
              a += 1;
              tempStr = '';
              break;
            case 37:
              str += first.slice(lastPos, i);
              lastPos = i + 1;
              continue;
            default:
              continue;
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
        } else if (nextChar === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
        }
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    var value = args[a];
    str += join;
    str += typeof value === 'string' ? value : inspectOptions === undefined ? inspect(value) : inspect(value, inspectOptions);
    join = ' ';
    a++;
  }
  return str;
}

var ansiRegExp = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d\/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d\/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
function stripVTControlCharacters(str) { return str.replace(ansiRegExp, ''); }
function removeColors(str) { return String(str).replace(ansiRegExp, ''); }
function getStringWidth(str, removeControlChars) {
  if (removeControlChars === undefined) removeControlChars = true;
  if (removeControlChars) str = stripVTControlCharacters(str);
  if (/^[\x20-\x7e]*$/.test(str)) return str.length;
  return native.stringWidth(str);
}
`

// nodeJSPath is path (POSIX).
const nodeJSPath = `// path: the POSIX half of Node.js v20's lib/path.js (MIT License,
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
`

// nodeJSCore is errors, events, Buffer, TextEncoder/TextDecoder, atob/btoa, StringDecoder.
const nodeJSCore = `// Errors, events, Buffer, text codecs.
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
`

// nodeJSProcess is process, nextTick, timers, console, performance, structuredClone, fetch, webcrypto.
const nodeJSProcess = `// process, console, timers and the other globals.
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
`

// nodeJSFS is fs, fs/promises and file streams over native.fs.
const nodeJSFS = `// fs over the sandbox's filesystem (native.fs does the work in Go).
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
`

// nodeJSModules is os, util, assert, crypto, url, querystring, readline and the CommonJS loader.
const nodeJSModules = `// os, util, assert, crypto, url, querystring, readline and the CommonJS loader.
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
`

// nodeJSGlobals is AbortController, the globals and the hooks (nodeHooks).
const nodeJSGlobals = `// Globals and the hooks the Go side calls.
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
`
