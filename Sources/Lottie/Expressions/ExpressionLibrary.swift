/// The After Effects expression vocabulary, in JavaScript, run once in each file's heap before its expressions are
/// compiled. Semantics follow After Effects' expression reference, and lottie-web's player where the two agree
/// (docs/reference.md §8, "Expressions", lists where they do not and which one is followed).
///
/// Natives provided by `ExpressionEngine`: `__raw(id, frame)` a property's keyframed value, `__rawPath(id, frame)` a
/// path's, `__value(id, frame)` a value after its own expression, `__keyCount(id)`, `__keyTime(id, i)`,
/// `__keyValue(id, i)`, `__layerPoint(composition, layer, frame, x, y, inverse)`, `__inTime()` and
/// `__bezier(x1, y1, x2, y2, t)`. `__fr` is the file's frame rate, `__result` the numbers an expression gives back,
/// both set by the engine; `__now` is the frame being evaluated.
enum ExpressionLibrary {
    static let source = #"""
var __now = 0;
// The budget check, kept out of the expressions' reach: neither it nor the clock it reads can be replaced.
Object.defineProperty(this, '__tick', { writable: false, configurable: false, value: (function () {
  var n = 0, inTime = __inTime;
  return function () {
    n += 1;
    if ((n & 1023) === 0 && !inTime()) { throw new RangeError('ran past its time budget'); }
    return true;
  };
})() });
String.prototype.match = String.prototype.search = function () {
  throw new Error('regular expressions are not run');
};
RegExp = undefined;

function __isNumber(a) { return typeof a === 'number' || a instanceof Number || typeof a === 'boolean'; }
function __isArray(a) { return a instanceof Array || a instanceof Float64Array; }

// A path: vertices `v`, in and out tangents `i` and `o` relative to them, closed or not, as Bodymovin writes one.
function __Path(v, i, o, c) { this.v = v; this.i = i; this.o = o; this.c = !!c; }
__Path.prototype = {
  // The point a fraction `perc` of the way along the path, by length (64 steps a segment).
  pointOnPath: function (perc) { return this.__along(perc).point; },
  tangentOnPath: function (perc) { return this.__along(perc).tangent; },
  normalOnPath: function (perc) { var t = this.__along(perc).tangent; return [t[1], -t[0]]; },
  __along: function (perc) {
    var n = this.v.length, segments = this.c ? n : n - 1, pts = [], total = 0, k, j;
    if (n === 0) { return { point: [0, 0], tangent: [1, 0] }; }
    pts.push([this.v[0][0], this.v[0][1], 0]);
    for (k = 0; k < segments; k += 1) {
      var a = this.v[k], b = this.v[(k + 1) % n], o = this.o[k] || [0, 0], i = this.i[(k + 1) % n] || [0, 0];
      for (j = 1; j <= 64; j += 1) {
        var t = j / 64, u = 1 - t;
        var x = u * u * u * a[0] + 3 * u * u * t * (a[0] + o[0]) + 3 * u * t * t * (b[0] + i[0]) + t * t * t * b[0];
        var y = u * u * u * a[1] + 3 * u * u * t * (a[1] + o[1]) + 3 * u * t * t * (b[1] + i[1]) + t * t * t * b[1];
        var last = pts[pts.length - 1];
        total += Math.sqrt((x - last[0]) * (x - last[0]) + (y - last[1]) * (y - last[1]));
        pts.push([x, y, total]);
      }
    }
    var target = Math.min(Math.max(+perc, 0), 1) * total;
    for (k = 1; k < pts.length; k += 1) {
      if (pts[k][2] >= target || k === pts.length - 1) {
        var p = pts[k - 1], q = pts[k], span = q[2] - p[2], f = span > 0 ? (target - p[2]) / span : 0;
        var dx = q[0] - p[0], dy = q[1] - p[1], len = Math.sqrt(dx * dx + dy * dy) || 1;
        return { point: [p[0] + dx * f, p[1] + dy * f], tangent: [dx / len, dy / len] };
      }
    }
    return { point: [pts[0][0], pts[0][1]], tangent: [1, 0] };
  },
  points: function () { return this.v.map(function (p) { return [p[0], p[1]]; }); },
  inTangents: function () { return this.i.map(function (p) { return [p[0], p[1]]; }); },
  outTangents: function () { return this.o.map(function (p) { return [p[0], p[1]]; }); },
  isClosed: function () { return this.c; }
};
function createPath(points, inTangents, outTangents, closed) {
  var zero = function () { return [0, 0]; };
  return new __Path(points, inTangents || points.map(zero), outTangents || points.map(zero), closed === undefined ? true : closed);
}

// The value an expression leaves in $bm_rt, copied into __result; the count of numbers. A path is written as
// closed (0 or 1), its vertex count, then each vertex with its in and out tangents.
function __out(r, isPath) {
  if (r === undefined || r === null) { throw new Error('the expression sets no value ($bm_rt)'); }
  if (r instanceof __Property) { r = r.value; }
  if (isPath) {
    if (!(r instanceof __Path)) { throw new TypeError("a path's expression should give a path (createPath)"); }
    var count = r.v.length;
    if (2 + 6 * count > __result.length) { throw new RangeError('a path of ' + count + ' vertices is too long'); }
    __result[0] = r.c ? 1 : 0; __result[1] = count;
    for (var k = 0; k < count; k += 1) {
      var at = 2 + 6 * k, vi = r.i[k] || [0, 0], vo = r.o[k] || [0, 0];
      __result[at] = +r.v[k][0]; __result[at + 1] = +r.v[k][1];
      __result[at + 2] = +vi[0]; __result[at + 3] = +vi[1]; __result[at + 4] = +vo[0]; __result[at + 5] = +vo[1];
    }
    return 2 + 6 * count;
  }
  if (__isArray(r)) {
    var n = Math.min(r.length, __result.length);
    for (var i = 0; i < n; i += 1) {
      var v = +r[i];
      if (v !== v) { throw new TypeError('component ' + i + ' of the result is not a number'); }
      __result[i] = v;
    }
    return n;
  }
  var x = +r;
  if (x !== x) { throw new TypeError('the result is not a number: ' + String(r).slice(0, 40)); }
  __result[0] = x;
  return 1;
}

// Vector arithmetic, as Bodymovin rewrites + - * / % and unary minus.
function sum(a, b) {
  var ta = typeof a, tb = typeof b;
  if ((__isNumber(a) && __isNumber(b)) || ta === 'string' || tb === 'string') { return a + b; }
  var r, i;
  if (__isArray(a) && __isNumber(b)) { r = Array.prototype.slice.call(a); r[0] += +b; return r; }
  if (__isNumber(a) && __isArray(b)) { r = Array.prototype.slice.call(b); r[0] = +a + r[0]; return r; }
  if (__isArray(a) && __isArray(b)) {
    r = [];
    for (i = 0; i < a.length || i < b.length; i += 1) {
      if (i < a.length && i < b.length) { r[i] = a[i] + b[i]; } else { r[i] = i < a.length ? a[i] : b[i]; }
    }
    return r;
  }
  return 0;
}
function sub(a, b) {
  if (typeof a === 'string') { a = parseInt(a, 10); }
  if (typeof b === 'string') { b = parseInt(b, 10); }
  var r, i;
  if (__isNumber(a) && __isNumber(b)) { return a - b; }
  if (__isArray(a) && __isNumber(b)) { r = Array.prototype.slice.call(a); r[0] -= b; return r; }
  if (__isNumber(a) && __isArray(b)) { r = Array.prototype.slice.call(b); r[0] = a - r[0]; return r; }
  if (__isArray(a) && __isArray(b)) {
    r = [];
    for (i = 0; i < a.length || i < b.length; i += 1) {
      if (i < a.length && i < b.length) { r[i] = a[i] - b[i]; } else { r[i] = i < a.length ? a[i] : -b[i]; }
    }
    return r;
  }
  return 0;
}
function __elementwise(a, b, f) {
  var r = [], i;
  if (__isNumber(a) && __isNumber(b)) { return f(+a, +b); }
  if (__isArray(a) && __isNumber(b)) { for (i = 0; i < a.length; i += 1) { r[i] = f(a[i], +b); } return r; }
  if (__isNumber(a) && __isArray(b)) { for (i = 0; i < b.length; i += 1) { r[i] = f(+a, b[i]); } return r; }
  return 0;
}
function mul(a, b) { return __elementwise(a, b, function (x, y) { return x * y; }); }
function div(a, b) { return __elementwise(a, b, function (x, y) { return x / y; }); }
var add = sum;
var $bm_sum = sum, $bm_sub = sub, $bm_mul = mul, $bm_div = div;
function $bm_mod(a, b) {
  if (typeof a === 'string') { a = parseInt(a, 10); }
  if (typeof b === 'string') { b = parseInt(b, 10); }
  return a % b;
}
function $bm_neg(a) {
  if (__isArray(a)) { var r = []; for (var i = 0; i < a.length; i += 1) { r[i] = -a[i]; } return r; }
  return -a;
}

function clamp(v, lo, hi) {
  if (__isArray(v)) {
    var r = [];
    for (var i = 0; i < v.length; i += 1) {
      r[i] = clamp(v[i], __isArray(lo) ? lo[i] : lo, __isArray(hi) ? hi[i] : hi);
    }
    return r;
  }
  if (lo > hi) { var t = lo; lo = hi; hi = t; }
  return Math.min(Math.max(v, lo), hi);
}
function length(a, b) {
  if (__isNumber(a)) { return Math.abs(a - (b || 0)); }
  var s = 0, n = b ? Math.min(a.length, b.length) : a.length;
  for (var i = 0; i < n; i += 1) { var d = a[i] - (b ? b[i] : 0); s += d * d; }
  return Math.sqrt(s);
}
function normalize(v) { return div(v, length(v)); }
function dot(a, b) { var s = 0; for (var i = 0; i < Math.min(a.length, b.length); i += 1) { s += a[i] * b[i]; } return s; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function degreesToRadians(d) { return d * Math.PI / 180; }
function radiansToDegrees(r) { return r * 180 / Math.PI; }
var degrees_to_radians = degreesToRadians, radians_to_degrees = radiansToDegrees;
function lookAt(from, to) {
  var v = [to[0] - from[0], to[1] - from[1], (to[2] || 0) - (from[2] || 0)];
  var pitch = Math.atan2(v[0], Math.sqrt(v[1] * v[1] + v[2] * v[2])) * 180 / Math.PI;
  return [-Math.atan2(v[1], v[2]) * 180 / Math.PI, pitch, 0];
}
function rgbToHsl(c) {
  var r = c[0], g = c[1], b = c[2], max = Math.max(r, g, b), min = Math.min(r, g, b), h = 0, s = 0, l = (max + min) / 2;
  if (max !== min) {
    var d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) { h = (g - b) / d + (g < b ? 6 : 0); } else if (max === g) { h = (b - r) / d + 2; } else { h = (r - g) / d + 4; }
    h /= 6;
  }
  return [h, s, l, c[3]];
}
function __hue(p, q, t) {
  if (t < 0) { t += 1; }
  if (t > 1) { t -= 1; }
  if (t < 1 / 6) { return p + (q - p) * 6 * t; }
  if (t < 1 / 2) { return q; }
  if (t < 2 / 3) { return p + (q - p) * (2 / 3 - t) * 6; }
  return p;
}
function hslToRgb(c) {
  var h = c[0], s = c[1], l = c[2];
  if (s === 0) { return [l, l, l, c[3]]; }
  var q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q;
  return [__hue(p, q, h + 1 / 3), __hue(p, q, h), __hue(p, q, h - 1 / 3), c[3]];
}
function framesToTime(f, fps) { return f / (fps || __fr); }
function timeToFrames(t, fps) { return (t === undefined ? __now / __fr : t) * (fps || __fr); }

// Interpolation: linear, and After Effects' three eases (lottie-web's curves).
function __interpolate(e, t, tMin, tMax, v1, v2) {
  if (v1 === undefined || v2 === undefined) { v1 = tMin; v2 = tMax; tMin = 0; tMax = 1; }
  if (tMax < tMin) { var s = tMin; tMin = tMax; tMax = s; }
  var p = t <= tMin ? 0 : t >= tMax ? 1 : (tMax === tMin ? 0 : (t - tMin) / (tMax - tMin));
  p = e ? __bezier(e[0], e[1], e[2], e[3], p) : p;
  if (!__isArray(v1)) { return v1 + (v2 - v1) * p; }
  var r = [];
  for (var i = 0; i < v1.length; i += 1) { r[i] = v1[i] + (v2[i] - v1[i]) * p; }
  return r;
}
function linear(t, a, b, c, d) { return __interpolate(null, t, a, b, c, d); }
function ease(t, a, b, c, d) { return __interpolate([0.33, 0, 0.667, 1], t, a, b, c, d); }
function easeIn(t, a, b, c, d) { return __interpolate([0.333, 0, 0.833, 0.833], t, a, b, c, d); }
function easeOut(t, a, b, c, d) { return __interpolate([0.167, 0.167, 0.667, 1], t, a, b, c, d); }

// Seeded randomness: a 32-bit hash, so that a frame's numbers depend on the property, the seed and the time only.
function __mix(h, x) {
  h = (h ^ (x | 0)) >>> 0;
  h = ((h & 0xffff) * 0x85eb + (((h >>> 16) * 0x85eb & 0xffff) << 16)) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = ((h & 0xffff) * 0xc2b2 + (((h >>> 16) * 0xc2b2 & 0xffff) << 16)) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
// Smooth noise in [-1, 1]: random heights at whole x, eased between.
function __noise(seed, x) {
  var i = Math.floor(x), f = x - i;
  var a = __mix(seed, i) / 2147483647.5 - 1, b = __mix(seed, i + 1) / 2147483647.5 - 1;
  f = f * f * (3 - 2 * f);
  return a + (b - a) * f;
}

// After Effects' random and gaussRandom: a number in [0, 1), [0, max) or [min, max), each component of a vector
// drawn apart; gaussRandom's numbers fall in the range 90 % of the time (a normal distribution of σ = range / 3.29).
function __random(p, a, b, gauss) {
  function draw() {
    if (!gauss) { return p.random(); }
    var u = p.random() || 1e-12, v = p.random();
    return 0.5 + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v) / 3.2897;
  }
  if (a === undefined) { return draw(); }
  if (b === undefined) { b = a; a = 0; }
  if (!__isArray(b)) { return +a + draw() * (b - a); }
  var r = [];
  for (var i = 0; i < b.length; i += 1) { var lo = __isArray(a) ? a[i] : +a; r[i] = lo + draw() * (b[i] - lo); }
  return r;
}

// A property: its keyframes and its expression's helpers.
function __Property(id, name, index, layer, group) {
  this.id = id; this.name = name; this.propertyIndex = index; this.layer = layer; this.__group = group;
  this.__seed = 0; this.__timeless = false; this.__state = 1;
}
__Property.prototype = {
  get value() { return this.__wrap(__value(this.id, __now)); },
  get numKeys() { return __keyCount(this.id); },
  raw: function (frame) { return this.isPath ? this.__wrap(__rawPath(this.id, frame)) : __raw(this.id, frame); },
  __wrap: function (v) { return this.isPath ? new __Path(v.v, v.i, v.o, v.c) : v; },
  points: function (t) { return this.__at(t).points(); },
  inTangents: function (t) { return this.__at(t).inTangents(); },
  outTangents: function (t) { return this.__at(t).outTangents(); },
  isClosed: function () { return this.__at().isClosed(); },
  pointOnPath: function (perc, t) { return this.__at(t).pointOnPath(perc); },
  tangentOnPath: function (perc, t) { return this.__at(t).tangentOnPath(perc); },
  normalOnPath: function (perc, t) { return this.__at(t).normalOnPath(perc); },
  get path() { return this; },
  __at: function (t) { return t === undefined ? this.value : this.__wrap(__value(this.id, t * __fr)); },
  valueAtTime: function (t) { return this.__wrap(__value(this.id, t * __fr)); },
  velocityAtTime: function (t) {
    var a = __value(this.id, t * __fr), b = __value(this.id, (t - 0.001) * __fr);
    if (!__isArray(a)) { return (a - b) / 0.001; }
    var r = [];
    for (var i = 0; i < a.length; i += 1) { r[i] = (a[i] - b[i]) / 0.001; }
    return r;
  },
  speedAtTime: function (t) { return length(this.velocityAtTime(t)); },
  key: function (i) {
    var n = __keyCount(this.id);
    if (n === 0 || i < 1 || i > n) { throw new RangeError('key(' + i + '): the property has ' + n + ' keyframes'); }
    var v = __keyValue(this.id, i - 1), k = { index: i, time: __keyTime(this.id, i - 1) / __fr, value: v };
    if (__isArray(v)) { for (var j = 0; j < v.length; j += 1) { k[j] = v[j]; } }
    return k;
  },
  nearestKey: function (t) {
    var n = __keyCount(this.id), best = 1, f = t * __fr;
    if (n === 0) { throw new RangeError('nearestKey: the property has no keyframes'); }
    for (var i = 1; i < n; i += 1) {
      if (Math.abs(__keyTime(this.id, i) - f) < Math.abs(__keyTime(this.id, best - 1) - f)) { best = i + 1; }
    }
    return this.key(best);
  },
  // After Effects' loopOut and loopIn: `count` keyframes from the end (or start) repeat; 0 means all of them.
  __loop: function (out, type, count, seconds) {
    var n = __keyCount(this.id), now = __now;
    if (n < 2) { return this.raw(now); }
    type = type ? String(type).toLowerCase() : 'cycle';
    var first = __keyTime(this.id, 0), last = __keyTime(this.id, n - 1);
    if (out ? now <= last : now >= first) { return this.raw(now); }
    var start, end;
    if (seconds === undefined) {
      count = count > 0 && count <= n - 1 ? Math.floor(count) : n - 1;
      if (out) { start = __keyTime(this.id, n - 1 - count); end = last; } else { start = first; end = __keyTime(this.id, count); }
    } else if (out) {
      start = seconds > 0 ? Math.max(first, last - seconds * __fr) : first; end = last;
    } else {
      start = first; end = seconds > 0 ? Math.min(last, first + seconds * __fr) : last;
    }
    var span = end - start;
    if (!(span > 0)) { return this.raw(now); }
    var past = out ? now - end : start - now, cycles = Math.floor(past / span), into = past - cycles * span;
    if (type === 'continue') {
      var edge = out ? end : start, v = this.raw(edge), w = this.raw(out ? edge - 0.001 : edge + 0.001);
      return sum(v, mul(sub(v, w), past / 0.001));
    }
    if (type === 'offset') {
      var delta = sub(this.raw(end), this.raw(start)), at = out ? start + into : end - into;
      return sum(this.raw(at), mul(delta, out ? cycles + 1 : -(cycles + 1)));
    }
    if (type === 'pingpong' && cycles % 2 === 0) { return this.raw(out ? end - into : start + into); }
    return this.raw(out ? start + into : end - into);
  },
  loopOut: function (type, count) { return this.__loop(true, type, count); },
  loopIn: function (type, count) { return this.__loop(false, type, count); },
  loopOutDuration: function (type, seconds) { return this.__loop(true, type, 0, seconds || 0); },
  loopInDuration: function (type, seconds) { return this.__loop(false, type, 0, seconds || 0); },
  __reseed: function (frame) {
    this.__state = __mix(__mix(this.id * 7919 + 1, this.__seed * 104729), this.__timeless ? 0 : Math.round(frame * 4096)) || 1;
  },
  random: function () {
    var s = this.__state;
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    this.__state = s || 1;
    return s / 4294967296;
  },
  // After Effects' wiggle: smooth noise of `freq` changes a second and amplitude `amp`, octaves adding detail.
  wiggle: function (freq, amp, octaves, ampMult, t) {
    octaves = octaves === undefined ? 1 : Math.max(1, Math.floor(octaves));
    ampMult = ampMult === undefined ? 0.5 : ampMult;
    var v = this.raw(t * __fr), n = __isArray(v) ? v.length : 1, r = __isArray(v) ? [] : 0;
    for (var d = 0; d < n; d += 1) {
      var offset = 0, a = amp, f = freq;
      for (var k = 0; k < octaves; k += 1) {
        offset += a * __noise(__mix(__mix(this.id + 1, this.__seed), d * 31 + k), t * f);
        a *= ampMult; f *= 2;
      }
      if (__isArray(v)) { r[d] = v[d] + offset; } else { r = v + offset; }
    }
    return r;
  },
  propertyGroup: function (n) {
    var g = this.__group;
    for (var i = 1; i < (n === undefined ? 1 : n) && g; i += 1) { g = g.parentGroup; }
    if (!g) { throw new RangeError('propertyGroup(' + n + '): no group that far up'); }
    return g;
  }
};

// A property's value as other expressions read it: a number or an array that still answers as the property.
var __NumberValue = Object.create(Number.prototype), __ArrayValue = Object.create(Array.prototype);
['valueAtTime', 'velocityAtTime', 'speedAtTime', 'key', 'nearestKey', 'loopOut', 'loopIn', 'propertyGroup'].forEach(function (m) {
  __NumberValue[m] = __ArrayValue[m] = function () { return this.__property[m].apply(this.__property, arguments); };
});
['numKeys', 'propertyIndex', 'name'].forEach(function (m) {
  var get = function () { return this.__property[m]; };
  Object.defineProperty(__NumberValue, m, { get: get });
  Object.defineProperty(__ArrayValue, m, { get: get });
});
Object.defineProperty(__NumberValue, 'value', { get: function () { return this.valueOf(); } });
Object.defineProperty(__ArrayValue, 'value', { get: function () { return Array.prototype.slice.call(this); } });
function __read(property) {
  var v = property.value, r;
  if (__isArray(v)) { r = Array.prototype.slice.call(v); Object.setPrototypeOf(r, __ArrayValue); } else {
    r = new Number(v); Object.setPrototypeOf(r, __NumberValue);
  }
  Object.defineProperty(r, '__property', { value: property });
  return r;
}

// A group of properties (a transform, an effect): its members by name, as getters, and called by name or index.
function __group(name, index, parentGroup, members) {
  var g = function (key) {
    for (var i = 0; i < members.length; i += 1) {
      var m = members[i];
      if (m.name === key || m.matchName === key || m.propertyIndex === key || i + 1 === key) {
        // A layer control's value is a layer's index; it answers as that layer.
        if (m.__type === 10) { return m.layer.comp.layer(+m.value); }
        return m instanceof __Property ? __read(m) : m;
      }
    }
    throw new ReferenceError('no property ' + JSON.stringify(key) + ' in ' + name);
  };
  g.propertyIndex = index; g.parentGroup = parentGroup; g.numProperties = members.length;
  Object.defineProperty(g, 'name', { value: name });
  g.propertyGroup = function (n) {
    var p = g;
    for (var i = 0; i < (n === undefined ? 1 : n) && p; i += 1) { p = p.parentGroup; }
    if (!p) { throw new RangeError('propertyGroup(' + n + '): no group that far up'); }
    return p;
  };
  return g;
}

// A shape layer's group or item: called with a child's or a property's name, internal name or index.
function __content(d, parentGroup, layer) {
  var children = [], props = [];
  var g = function (key) {
    if (key === 'ADBE Vectors Group' || key === 'Contents') { return g; }
    for (var i = 0; i < children.length; i += 1) {
      var c = children[i];
      if (c.name === key || c.matchName === key || i + 1 === key) { return c; }
    }
    for (var j = 0; j < props.length; j += 1) {
      var p = props[j];
      if (p.name === key || p.matchName === key || p.__key === key) { return p.isPath ? p : __read(p); }
    }
    throw new ReferenceError('no ' + JSON.stringify(key) + ' in ' + d.name);
  };
  Object.defineProperty(g, 'name', { value: d.name });
  g.matchName = d.matchName; g.propertyIndex = d.index; g.parentGroup = parentGroup; g.content = g;
  g.propertyGroup = function (n) {
    var q = g;
    for (var i = 0; i < (n === undefined ? 1 : n) && q; i += 1) { q = q.parentGroup; }
    if (!q) { throw new RangeError('propertyGroup(' + n + '): no group that far up'); }
    return q;
  };
  d.props.forEach(function (q) {
    var p = __properties[q.id] || new __Property(q.id, q.name, q.index, layer, g);
    p.isPath = q.isPath; p.matchName = q.matchName;
    p.__key = q.name.charAt(0).toLowerCase() + q.name.slice(1).replace(/ ([a-zA-Z])/g, function (m, c) { return c.toUpperCase(); });
    __properties[p.id] = p;
    props.push(p);
    Object.defineProperty(g, p.__key, { get: function () { return p.isPath ? p : __read(p); } });
  });
  d.children.forEach(function (c) {
    var child = __content(c, g, layer);
    children.push(child);
    if (c.matchName === 'ADBE Vector Transform Group' || c.name === 'Transform') {
      Object.defineProperty(g, 'transform', { get: function () { return child; } });
    }
  });
  g.numProperties = children.length + props.length;
  return g;
}

// The compositions, described by the engine: layers with their transforms and effects.
var __properties = [];
function __defineCompositions(comps) {
  var result = {};
  Object.keys(comps).forEach(function (key) {
    var c = comps[key], layers = [];
    var comp = function (x) {
      for (var i = 0; i < layers.length; i += 1) { if (layers[i].name === x || layers[i].index === x) { return layers[i]; } }
      if (typeof x === 'number' && x >= 1 && x <= layers.length) { return layers[x - 1]; }
      throw new ReferenceError('thisComp.layer(' + JSON.stringify(x) + '): no such layer');
    };
    comp.layer = comp; comp.width = c.width; comp.height = c.height; comp.frameDuration = 1 / __fr;
    comp.numLayers = c.layers.length; comp.pixelAspect = 1; comp.displayStartTime = 0;
    Object.defineProperty(comp, 'name', { value: c.name });
    c.layers.forEach(function (d) {
      // A layer called with a group's name gives that group, as After Effects' property tree does.
      var layer = function (x) {
        if (x === 'ADBE Root Vectors Group' || x === 'Contents' || x === 2) { return layer.content; }
        if (x === 'ADBE Effect Parade' || x === 'Effects' || x === 4) { return layer.effect; }
        if (x === 'ADBE Transform Group' || x === 'Transform' || x === 1) { return layer.transform; }
        return layer.transform(x);
      };
      layer.comp = comp; layer.index = d.index; layer.width = d.width; layer.height = d.height;
      layer.inPoint = d.inPoint / __fr; layer.outPoint = d.outPoint / __fr; layer.startTime = d.startTime / __fr;
      Object.defineProperty(layer, 'name', { value: d.name });
      layer.propertyGroup = function () { return comp; };
      var transform = [], t = d.transform;
      Object.keys(t).forEach(function (k) {
        var p = __properties[t[k].id] || new __Property(t[k].id, t[k].name, t[k].index, layer, null);
        __properties[p.id] = p;
        transform.push(p);
      });
      layer.transform = __group('Transform', 1, layer, transform);
      transform.forEach(function (p) { p.__group = layer.transform; });
      var names = { 'Anchor Point': 'anchorPoint', 'Position': 'position', 'X Position': 'xPosition',
                    'Y Position': 'yPosition', 'Scale': 'scale', 'Rotation': 'rotation', 'Opacity': 'opacity',
                    'Skew': 'skew', 'Skew Axis': 'skewAxis' };
      transform.forEach(function (p) {
        Object.defineProperty(layer.transform, names[p.name], { get: function () { return __read(p); } });
      });
      if (!t.position && t.xPosition) {
        Object.defineProperty(layer.transform, 'position', { get: function () {
          return [__properties[t.xPosition.id].value, __properties[t.yPosition.id].value];
        } });
      }
      var effects = [];
      var effectGroup = __group('Effects', 4, layer, effects);
      d.effects.forEach(function (e) {
        var params = [];
        var g = __group(e.name, e.index, effectGroup, params);
        g.matchName = e.matchName;
        e.params.forEach(function (q) {
          var p = __properties[q.id] || new __Property(q.id, q.name, q.index, layer, g);
          p.matchName = q.matchName; p.__type = q.type;
          __properties[p.id] = p;
          params.push(p);
        });
        effects.push(g);
      });
      layer.effect = effectGroup;
      layer.content = d.content ? __content(d.content, layer, layer) :
        function (x) { throw new ReferenceError('content(' + JSON.stringify(x) + '): the layer has no shapes'); };
      ['anchorPoint', 'position', 'scale', 'rotation', 'opacity'].forEach(function (m) {
        Object.defineProperty(layer, m, { get: function () { return layer.transform[m]; } });
      });
      // Points between the layer's space and its composition's (through its parents), at time t or now.
      var place = comps[key].layers.indexOf(d);
      var mapPoint = function (inverse) {
        return function (p, t) {
          var q = __layerPoint(c.number, place, t === undefined ? __now : t * __fr, p[0], p[1], inverse);
          return p.length > 2 ? [q[0], q[1], p[2]] : q;
        };
      };
      layer.toComp = layer.toWorld = mapPoint(false);
      layer.fromComp = layer.fromWorld = mapPoint(true);
      layer.__parent = d.parent;
      layers.push(layer);
    });
    layers.forEach(function (l) {
      var p = null;
      if (l.__parent !== null) { for (var i = 0; i < layers.length; i += 1) { if (layers[i].index === l.__parent) { p = layers[i]; } } }
      l.hasParent = p !== null; l.parent = p;
    });
    comp.__layers = layers;
    result[key] = comp;
  });
  return result;
}
"""#
}
