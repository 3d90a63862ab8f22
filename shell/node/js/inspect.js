// util.inspect and util.format, ported from Node.js v20's
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
