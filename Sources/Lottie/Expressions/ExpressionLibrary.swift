/// The After Effects expression vocabulary, in JavaScript, run once in each file's heap before its expressions are
/// compiled. Semantics follow After Effects' expression reference, and lottie-web's player where the two agree
/// (docs/reference.md §8, "Expressions", lists where they do not and which one is followed).
///
/// `bootstrap` comes first and defines the one global the guarded code needs, `__tick`. `source` is then one
/// function, called by the engine with the natives (`ExpressionEngine`'s C functions), the global object, the frame
/// rate and the clock's start: it puts the vocabulary on the global object, replaces what would let one expression
/// reach another or give different numbers in different runs, freezes every built-in, and returns the kernel, which
/// only the engine holds (in Duktape's stash): expressions never see the natives, the caches or the state of the
/// evaluations under way. The layers expressions read are made on demand, when an expression first reads them,
/// from descriptions the natives give, so that a file's size does not fill the heap.
enum ExpressionLibrary {
    /// Defines `__tick`, the budget check every loop and function body calls (`ExpressionGuard`): every 16th call
    /// asks the engine whether the evaluation is still in time, and once it is not, every call does and throws, so
    /// that an expression catching the error cannot go on. `charge(n)` counts `n` calls at once, for library
    /// functions that walk arrays. Not itself guarded: it is the guard.
    static let bootstrap = #"""
(function (G, inTime) {
  var n = 0, next = 16, late = false;
  function check() {
    if (!inTime()) { late = true; throw new RangeError('ran past its time budget'); }
    late = false;
    next = n + 16;
  }
  Object.defineProperty(G, '__tick', { writable: false, configurable: false, enumerable: false, value: function () {
    n += 1;
    if (n >= next || late) { check(); }
    return true;
  } });
  return function charge(k) { n += k; if (n >= next || late) { check(); } };
})
"""#

    /// The library: a function of the natives, the global object, the bootstrap's `charge`, the frame rate, the
    /// clock's start (milliseconds since 1970 at frame 0) and the result's capacity, returning the kernel.
    static let source = #"""
(function (N, G, charge, fr, epoch, resultCapacity) {
'use strict';
var freeze = Object.freeze, define = Object.defineProperty, getNames = Object.getOwnPropertyNames;
var isArray = Array.isArray, AP = Array.prototype, M = Math, JS = JSON, RawDate = G.Date;
var rawEval = G.eval, RawFunction = G.Function, rawSlice = AP.slice;
var result = new Float64Array(resultCapacity);
// The most elements a library function or array method walks: a method over more is an error, not a stall.
var maxArray = 65536;

// The evaluations under way, innermost last: each one's property, frame and random numbers.
var contexts = [], depth = 0;
function Context() { this.id = 0; this.frame = 0; this.seed = 0; this.timeless = false; this.state = 1; this.math = 1; }
function now() { return depth > 0 ? contexts[depth - 1].frame : 0; }
function current() { return depth > 0 ? contexts[depth - 1] : null; }

// Seeded randomness: a 32-bit hash, so that a frame's numbers depend on the property, the seed and the time only.
function mix(h, x) {
  h = (h ^ (x | 0)) >>> 0;
  h = ((h & 0xffff) * 0x85eb + (((h >>> 16) * 0x85eb & 0xffff) << 16)) >>> 0;
  h = (h ^ (h >>> 13)) >>> 0;
  h = ((h & 0xffff) * 0xc2b2 + (((h >>> 16) * 0xc2b2 & 0xffff) << 16)) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}
function xorshift(s) { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) || 1; }
function reseed(c) {
  c.state = mix(mix(c.id * 7919 + 1, c.seed * 104729), c.timeless ? 0 : M.round(c.frame * 4096)) || 1;
}
function enter(id, frame) {
  if (depth === contexts.length) { contexts.push(new Context()); }
  var c = contexts[depth];
  depth += 1;
  c.id = id; c.frame = frame; c.seed = 0; c.timeless = false;
  reseed(c);
  c.math = mix(mix(id * 7919 + 1, 0x2545f491), M.round(frame * 4096)) || 1;
}
function leave() { depth -= 1; }
function draw(c) { c.state = xorshift(c.state); return c.state / 4294967296; }
// Smooth noise in [-1, 1]: random heights at whole x, eased between.
function noise(seed, x) {
  var i = M.floor(x), f = x - i;
  var a = mix(seed, i) / 2147483647.5 - 1, b = mix(seed, i + 1) / 2147483647.5 - 1;
  f = f * f * (3 - 2 * f);
  return a + (b - a) * f;
}

function isNumber(a) { return typeof a === 'number' || a instanceof Number || typeof a === 'boolean'; }
// An array whose length a loop may walk: a real array of at most maxArray elements.
function isVector(a) {
  if (!isArray(a)) { return false; }
  if (a.length > maxArray) { throw new RangeError('an array of ' + a.length + ' elements; expressions walk at most ' + maxArray); }
  charge(a.length >> 6);
  return true;
}

// ---- After Effects' functions of values

// A path: vertices `v`, in and out tangents `i` and `o` relative to them, closed or not, as Bodymovin writes one.
function Path(v, i, o, c) { this.v = v; this.i = i; this.o = o; this.c = !!c; }
Path.prototype = {
  // The point a fraction `perc` of the way along the path, by length (64 steps a segment).
  pointOnPath: function (perc) { return this.along(perc).point; },
  tangentOnPath: function (perc) { return this.along(perc).tangent; },
  normalOnPath: function (perc) { var t = this.along(perc).tangent; return [t[1], -t[0]]; },
  along: function (perc) {
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
        total += M.sqrt((x - last[0]) * (x - last[0]) + (y - last[1]) * (y - last[1]));
        pts.push([x, y, total]);
      }
    }
    var target = M.min(M.max(+perc, 0), 1) * total;
    for (k = 1; k < pts.length; k += 1) {
      if (pts[k][2] >= target || k === pts.length - 1) {
        var p = pts[k - 1], q = pts[k], span = q[2] - p[2], f = span > 0 ? (target - p[2]) / span : 0;
        var dx = q[0] - p[0], dy = q[1] - p[1], len = M.sqrt(dx * dx + dy * dy) || 1;
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
  return new Path(points, inTangents || points.map(zero), outTangents || points.map(zero), closed === undefined ? true : closed);
}

// The value an expression leaves in $bm_rt, copied into the result; the count of numbers. A path is written as
// closed (0 or 1), its vertex count, then each vertex with its in and out tangents.
function out(r, isPath) {
  if (r === undefined || r === null) { throw new Error('the expression sets no value ($bm_rt)'); }
  if (r instanceof Property) { r = r.value; }
  if (isPath) {
    if (!(r instanceof Path)) { throw new TypeError("a path's expression should give a path (createPath)"); }
    var count = r.v.length;
    if (!(2 + 6 * count <= result.length)) { throw new RangeError('a path of ' + count + ' vertices is too long'); }
    result[0] = r.c ? 1 : 0; result[1] = count;
    for (var k = 0; k < count; k += 1) {
      var at = 2 + 6 * k, vi = r.i[k] || [0, 0], vo = r.o[k] || [0, 0];
      result[at] = +r.v[k][0]; result[at + 1] = +r.v[k][1];
      result[at + 2] = +vi[0]; result[at + 3] = +vi[1]; result[at + 4] = +vo[0]; result[at + 5] = +vo[1];
    }
    return 2 + 6 * count;
  }
  if (isVector(r)) {
    var n = M.min(r.length, result.length);
    for (var i = 0; i < n; i += 1) {
      var v = +r[i];
      if (v !== v) { throw new TypeError('component ' + i + ' of the result is not a number'); }
      result[i] = v;
    }
    return n;
  }
  var x = +r;
  if (x !== x) { throw new TypeError('the result is not a number: ' + String(r).slice(0, 40)); }
  result[0] = x;
  return 1;
}

// Vector arithmetic, as Bodymovin rewrites + - * / % and unary minus.
function sum(a, b) {
  var ta = typeof a, tb = typeof b;
  if ((isNumber(a) && isNumber(b)) || ta === 'string' || tb === 'string') { return a + b; }
  var r, i;
  if (isVector(a) && isNumber(b)) { r = rawSlice.call(a); r[0] += +b; return r; }
  if (isNumber(a) && isVector(b)) { r = rawSlice.call(b); r[0] = +a + r[0]; return r; }
  if (isVector(a) && isVector(b)) {
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
  if (isNumber(a) && isNumber(b)) { return a - b; }
  if (isVector(a) && isNumber(b)) { r = rawSlice.call(a); r[0] -= b; return r; }
  if (isNumber(a) && isVector(b)) { r = rawSlice.call(b); r[0] = a - r[0]; return r; }
  if (isVector(a) && isVector(b)) {
    r = [];
    for (i = 0; i < a.length || i < b.length; i += 1) {
      if (i < a.length && i < b.length) { r[i] = a[i] - b[i]; } else { r[i] = i < a.length ? a[i] : -b[i]; }
    }
    return r;
  }
  return 0;
}
function elementwise(a, b, f) {
  var r = [], i;
  if (isNumber(a) && isNumber(b)) { return f(+a, +b); }
  if (isVector(a) && isNumber(b)) { for (i = 0; i < a.length; i += 1) { r[i] = f(a[i], +b); } return r; }
  if (isNumber(a) && isVector(b)) { for (i = 0; i < b.length; i += 1) { r[i] = f(+a, b[i]); } return r; }
  return 0;
}
function mul(a, b) { return elementwise(a, b, function (x, y) { return x * y; }); }
function div(a, b) { return elementwise(a, b, function (x, y) { return x / y; }); }
function mod(a, b) {
  if (typeof a === 'string') { a = parseInt(a, 10); }
  if (typeof b === 'string') { b = parseInt(b, 10); }
  return a % b;
}
function neg(a) {
  if (isVector(a)) { var r = []; for (var i = 0; i < a.length; i += 1) { r[i] = -a[i]; } return r; }
  return -a;
}
function clamp(v, lo, hi) {
  if (isVector(v)) {
    var r = [];
    for (var i = 0; i < v.length; i += 1) {
      r[i] = clamp(v[i], isArray(lo) ? lo[i] : lo, isArray(hi) ? hi[i] : hi);
    }
    return r;
  }
  if (lo > hi) { var t = lo; lo = hi; hi = t; }
  return M.min(M.max(v, lo), hi);
}
function length(a, b) {
  if (isNumber(a)) { return M.abs(a - (b || 0)); }
  if (!isVector(a) || (b && !isVector(b))) { return NaN; }
  var s = 0, n = b ? M.min(a.length, b.length) : a.length;
  for (var i = 0; i < n; i += 1) { var d = a[i] - (b ? b[i] : 0); s += d * d; }
  return M.sqrt(s);
}
function normalize(v) { return div(v, length(v)); }
function dot(a, b) {
  if (!isVector(a) || !isVector(b)) { return NaN; }
  var s = 0;
  for (var i = 0; i < M.min(a.length, b.length); i += 1) { s += a[i] * b[i]; }
  return s;
}
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function degreesToRadians(d) { return d * M.PI / 180; }
function radiansToDegrees(r) { return r * 180 / M.PI; }
function lookAt(from, to) {
  var v = [to[0] - from[0], to[1] - from[1], (to[2] || 0) - (from[2] || 0)];
  var pitch = M.atan2(v[0], M.sqrt(v[1] * v[1] + v[2] * v[2])) * 180 / M.PI;
  return [-M.atan2(v[1], v[2]) * 180 / M.PI, pitch, 0];
}
function rgbToHsl(c) {
  var r = c[0], g = c[1], b = c[2], max = M.max(r, g, b), min = M.min(r, g, b), h = 0, s = 0, l = (max + min) / 2;
  if (max !== min) {
    var d = max - min;
    s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
    if (max === r) { h = (g - b) / d + (g < b ? 6 : 0); } else if (max === g) { h = (b - r) / d + 2; } else { h = (r - g) / d + 4; }
    h /= 6;
  }
  return [h, s, l, c[3]];
}
function hue(p, q, t) {
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
  return [hue(p, q, h + 1 / 3), hue(p, q, h), hue(p, q, h - 1 / 3), c[3]];
}
function framesToTime(f, fps) { return f / (fps || fr); }
function timeToFrames(t, fps) { return (t === undefined ? now() / fr : t) * (fps || fr); }

// Interpolation: linear, and After Effects' three eases (lottie-web's curves).
function interpolate(e, t, tMin, tMax, v1, v2) {
  if (v1 === undefined || v2 === undefined) { v1 = tMin; v2 = tMax; tMin = 0; tMax = 1; }
  if (tMax < tMin) { var s = tMin; tMin = tMax; tMax = s; }
  var p = t <= tMin ? 0 : t >= tMax ? 1 : (tMax === tMin ? 0 : (t - tMin) / (tMax - tMin));
  p = e ? N.bezier(e[0], e[1], e[2], e[3], p) : p;
  if (!isVector(v1)) { return v1 + (v2 - v1) * p; }
  var r = [];
  for (var i = 0; i < v1.length; i += 1) { r[i] = v1[i] + (v2[i] - v1[i]) * p; }
  return r;
}
function linear(t, a, b, c, d) { return interpolate(null, t, a, b, c, d); }
function ease(t, a, b, c, d) { return interpolate([0.33, 0, 0.667, 1], t, a, b, c, d); }
function easeIn(t, a, b, c, d) { return interpolate([0.333, 0, 0.833, 0.833], t, a, b, c, d); }
function easeOut(t, a, b, c, d) { return interpolate([0.167, 0.167, 0.667, 1], t, a, b, c, d); }

// After Effects' random and gaussRandom: a number in [0, 1), [0, max) or [min, max), each component of a vector
// drawn apart; gaussRandom's numbers fall in the range 90 % of the time (a normal distribution of σ = range / 3.29).
function random(a, b, gauss) {
  var c = current();
  if (!c) { return 0; }
  function one() {
    if (!gauss) { return draw(c); }
    var u = draw(c) || 1e-12, v = draw(c);
    return 0.5 + M.sqrt(-2 * M.log(u)) * M.cos(2 * M.PI * v) / 3.2897;
  }
  if (a === undefined) { return one(); }
  if (b === undefined) { b = a; a = 0; }
  if (!isVector(b)) { return +a + one() * (b - a); }
  var r = [];
  for (var i = 0; i < b.length; i += 1) { var lo = isArray(a) ? a[i] : +a; r[i] = lo + one() * (b[i] - lo); }
  return r;
}
function seedRandom(s, timeless) {
  var c = current();
  if (!c) { return; }
  c.seed = M.floor(+s) || 0; c.timeless = !!timeless;
  reseed(c);
}

// ---- The layers, made when first read

var comps = [], layers = [], properties = [];
// Runs `make`, whose memory the engine counts as the model's, not as the expressions' own (ExpressionArena).
function modelled(make) {
  N.modelBegin();
  try { return make(); } finally { N.modelEnd(); }
}
// A function handed to expressions as an object of the model, answering as `proto` does, frozen with its
// prototype object: no expression can change what another reads.
function callable(f, proto) {
  if (proto) { Object.setPrototypeOf(f, proto); }
  if (f.prototype) { freeze(f.prototype); }
  return f;
}
// After Effects' property name in camel case, as `content('Group').rectanglePath` reads it.
function camel(name) {
  var r = name.charAt(0).toLowerCase();
  for (var i = 1; i < name.length; i += 1) {
    var ch = name.charAt(i), next = name.charAt(i + 1);
    if (ch === ' ' && ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))) { r += next.toUpperCase(); i += 1; } else { r += ch; }
  }
  return r;
}

// A property: its keyframes and its expression's helpers.
function Property(d) {
  this.id = d.id; this.name = d.name; this.propertyIndex = d.index; this.matchName = d.matchName;
  this.isPath = d.isPath; this.__type = d.type; this.__comp = d.comp; this.__layer = d.layer; this.__key = camel(d.name);
}
Property.prototype = {
  get layer() { return layerAt(this.__comp, this.__layer); },
  get value() { return this.__wrap(N.value(this.id, now())); },
  get numKeys() { return N.keyCount(this.id); },
  raw: function (frame) { return this.isPath ? this.__wrap(N.rawPath(this.id, frame)) : N.raw(this.id, frame); },
  __wrap: function (v) { return this.isPath && v ? new Path(v.v, v.i, v.o, v.c) : v; },
  points: function (t) { return this.__at(t).points(); },
  inTangents: function (t) { return this.__at(t).inTangents(); },
  outTangents: function (t) { return this.__at(t).outTangents(); },
  isClosed: function () { return this.__at().isClosed(); },
  pointOnPath: function (perc, t) { return this.__at(t).pointOnPath(perc); },
  tangentOnPath: function (perc, t) { return this.__at(t).tangentOnPath(perc); },
  normalOnPath: function (perc, t) { return this.__at(t).normalOnPath(perc); },
  get path() { return this; },
  __at: function (t) { return t === undefined ? this.value : this.__wrap(N.value(this.id, t * fr)); },
  valueAtTime: function (t) { return this.__wrap(N.value(this.id, t * fr)); },
  velocityAtTime: function (t) {
    var a = N.value(this.id, t * fr), b = N.value(this.id, (t - 0.001) * fr);
    if (!isVector(a)) { return (a - b) / 0.001; }
    var r = [];
    for (var i = 0; i < a.length; i += 1) { r[i] = (a[i] - b[i]) / 0.001; }
    return r;
  },
  speedAtTime: function (t) { return length(this.velocityAtTime(t)); },
  key: function (i) {
    var n = N.keyCount(this.id);
    if (n === 0 || i < 1 || i > n) { throw new RangeError('key(' + i + '): the property has ' + n + ' keyframes'); }
    var v = N.keyValue(this.id, i - 1), k = { index: i, time: N.keyTime(this.id, i - 1) / fr, value: v };
    if (isVector(v)) { for (var j = 0; j < v.length; j += 1) { k[j] = v[j]; } }
    return k;
  },
  nearestKey: function (t) {
    var n = N.keyCount(this.id), best = 1, f = t * fr;
    if (n === 0) { throw new RangeError('nearestKey: the property has no keyframes'); }
    for (var i = 1; i < n; i += 1) {
      if (M.abs(N.keyTime(this.id, i) - f) < M.abs(N.keyTime(this.id, best - 1) - f)) { best = i + 1; }
    }
    return this.key(best);
  },
  // After Effects' loopOut and loopIn: `count` keyframes from the end (or start) repeat; 0 means all of them.
  __loop: function (isOut, type, count, seconds) {
    var n = N.keyCount(this.id), at = now();
    if (n < 2) { return this.raw(at); }
    type = type ? String(type).toLowerCase() : 'cycle';
    var first = N.keyTime(this.id, 0), last = N.keyTime(this.id, n - 1);
    if (isOut ? at <= last : at >= first) { return this.raw(at); }
    var start, end;
    if (seconds === undefined) {
      count = count > 0 && count <= n - 1 ? M.floor(count) : n - 1;
      if (isOut) { start = N.keyTime(this.id, n - 1 - count); end = last; } else { start = first; end = N.keyTime(this.id, count); }
    } else if (isOut) {
      start = seconds > 0 ? M.max(first, last - seconds * fr) : first; end = last;
    } else {
      start = first; end = seconds > 0 ? M.min(last, first + seconds * fr) : last;
    }
    var span = end - start;
    if (!(span > 0)) { return this.raw(at); }
    var past = isOut ? at - end : start - at, cycles = M.floor(past / span), into = past - cycles * span;
    if (type === 'continue') {
      var edge = isOut ? end : start, v = this.raw(edge), w = this.raw(isOut ? edge - 0.001 : edge + 0.001);
      return sum(v, mul(sub(v, w), past / 0.001));
    }
    if (type === 'offset') {
      var delta = sub(this.raw(end), this.raw(start)), from = isOut ? start + into : end - into;
      return sum(this.raw(from), mul(delta, isOut ? cycles + 1 : -(cycles + 1)));
    }
    if (type === 'pingpong' && cycles % 2 === 0) { return this.raw(isOut ? end - into : start + into); }
    return this.raw(isOut ? start + into : end - into);
  },
  loopOut: function (type, count) { return this.__loop(true, type, count); },
  loopIn: function (type, count) { return this.__loop(false, type, count); },
  loopOutDuration: function (type, seconds) { return this.__loop(true, type, 0, seconds || 0); },
  loopInDuration: function (type, seconds) { return this.__loop(false, type, 0, seconds || 0); },
  // After Effects' wiggle: smooth noise of `freq` changes a second and amplitude `amp`, octaves adding detail; the
  // seed is the one the evaluating expression chose (seedRandom) when it wiggles its own property.
  wiggle: function (freq, amp, octaves, ampMult, t) {
    var c = current(), seed = c && c.id === this.id ? c.seed : 0;
    if (t === undefined) { t = now() / fr; }
    octaves = octaves === undefined ? 1 : M.min(M.max(1, M.floor(octaves)), 64);
    ampMult = ampMult === undefined ? 0.5 : ampMult;
    var v = this.raw(t * fr), vector = isVector(v), n = vector ? v.length : 1, r = vector ? [] : 0;
    for (var d = 0; d < n; d += 1) {
      var offset = 0, a = amp, f = freq;
      for (var k = 0; k < octaves; k += 1) {
        offset += a * noise(mix(mix(this.id + 1, seed), d * 31 + k), t * f);
        a *= ampMult; f *= 2;
      }
      if (vector) { r[d] = v[d] + offset; } else { r = v + offset; }
    }
    return r;
  },
  propertyGroup: function (n) { return up(groupOf(this), n === undefined ? 1 : n, 1); }
};

// A property's value as other expressions read it: a number or an array that still answers as the property.
var NumberValue = Object.create(Number.prototype), ArrayValue = Object.create(Array.prototype);
['valueAtTime', 'velocityAtTime', 'speedAtTime', 'key', 'nearestKey', 'loopOut', 'loopIn', 'propertyGroup'].forEach(function (m) {
  NumberValue[m] = ArrayValue[m] = function () { return this.__property[m].apply(this.__property, arguments); };
});
['numKeys', 'propertyIndex', 'name'].forEach(function (m) {
  var get = function () { return this.__property[m]; };
  define(NumberValue, m, { get: get });
  define(ArrayValue, m, { get: get });
});
define(NumberValue, 'value', { get: function () { return this.valueOf(); } });
define(ArrayValue, 'value', { get: function () { return rawSlice.call(this); } });
function read(property) {
  var v = property.value, r;
  if (isVector(v)) { r = rawSlice.call(v); Object.setPrototypeOf(r, ArrayValue); } else {
    r = new Number(v); Object.setPrototypeOf(r, NumberValue);
  }
  define(r, '__property', { value: property });
  return r;
}

function propertyAt(id) {
  return properties[id] || (properties[id] = modelled(function () { return freeze(new Property(JS.parse(N.property(id)))); }));
}

// `n` groups up from `g`, counting `g` as the first.
function up(g, n, from) {
  for (var i = from; i < n && g; i += 1) { g = g.parentGroup; }
  if (!g) { throw new RangeError('propertyGroup(' + n + '): no group that far up'); }
  return g;
}

// Called with a member's name, internal name or index, a group gives that member (a property as its value).
function findMember(g, key) {
  var members = g.__members;
  for (var i = 0; i < members.length; i += 1) {
    var m = members[i];
    if (m.name === key || m.matchName === key || m.propertyIndex === key || i + 1 === key) {
      // A layer control's value is a layer's index; it answers as that layer.
      if (m.__type === 10) { return m.layer.comp.layer(+m.value); }
      return m instanceof Property ? read(m) : m;
    }
  }
  throw new ReferenceError('no property ' + JS.stringify(key) + ' in ' + g.name);
}
// What every group answers; a transform also answers by its properties' names.
var GroupProto = Object.create(Function.prototype);
GroupProto.propertyGroup = function (n) { return up(this, n === undefined ? 1 : n, 0); };
define(GroupProto, 'numProperties', { get: function () { return this.__members.length + (this.__children || []).length; } });
var TransformProto = Object.create(GroupProto);
var transformNames = { 'Anchor Point': 'anchorPoint', 'Position': 'position', 'X Position': 'xPosition',
                       'Y Position': 'yPosition', 'Scale': 'scale', 'Rotation': 'rotation', 'Opacity': 'opacity',
                       'Skew': 'skew', 'Skew Axis': 'skewAxis' };
Object.keys(transformNames).forEach(function (name) {
  var key = transformNames[name];
  define(TransformProto, key, { get: function () {
    var members = this.__members;
    for (var i = 0; i < members.length; i += 1) { if (members[i].name === name) { return read(members[i]); } }
    if (key === 'position') { return [this.xPosition.value, this.yPosition.value]; }
    throw new ReferenceError('no ' + key + ' in Transform');
  } });
});

// A group of properties (a transform, an effect): a function answering by name or index, on `proto`.
function group(name, index, parentGroup, members, proto) {
  var g = callable(function (key) { return findMember(g, key); }, proto || GroupProto);
  define(g, 'name', { value: name });
  g.propertyIndex = index; g.parentGroup = parentGroup; g.__members = members;
  return g;
}

// A shape layer's group or item: called with a child's or a property's name, internal name or index.
function content(d, parentGroup) {
  var children = [], props = [];
  var g = function (key) {
    if (key === 'ADBE Vectors Group' || key === 'Contents') { return g; }
    for (var i = 0; i < children.length; i += 1) {
      var c = children[i];
      if (c.name === key || c.matchName === key || i + 1 === key) { return c; }
    }
    for (var j = 0; j < props.length; j += 1) {
      var p = props[j];
      if (p.name === key || p.matchName === key || p.__key === key) { return p.isPath ? p : read(p); }
    }
    throw new ReferenceError('no ' + JS.stringify(key) + ' in ' + d.name);
  };
  callable(g, GroupProto);
  define(g, 'name', { value: d.name });
  g.matchName = d.matchName; g.propertyIndex = d.index; g.parentGroup = parentGroup; g.content = g;
  g.__members = props; g.__children = children;
  d.props.forEach(function (id) {
    var p = propertyAt(id);
    props.push(p);
    define(g, p.__key, { get: function () { return p.isPath ? p : read(p); } });
  });
  d.children.forEach(function (c) {
    var child = content(c, g);
    children.push(child);
    if (c.matchName === 'ADBE Vector Transform Group' || c.name === 'Transform') {
      define(g, 'transform', { get: function () { return child; } });
    }
  });
  freeze(children); freeze(props);
  return freeze(g);
}

// The group holding a property: its layer's transform, one of its effects, or a group of its contents.
function groupOf(p) {
  var layer = p.layer;
  function within(g) {
    if (g.__members.indexOf(p) >= 0) { return g; }
    var kids = g.__children || [];
    for (var i = 0; i < kids.length; i += 1) { var found = within(kids[i]); if (found) { return found; } }
    return null;
  }
  var found = within(layer.transform);
  var effects = layer.effect.__members;
  for (var i = 0; !found && i < effects.length; i += 1) { found = within(effects[i]); }
  if (!found && layer.__hasContent) { found = within(layer.content); }
  if (!found) { throw new RangeError('propertyGroup: the property is in no group expressions read'); }
  return found;
}

function compAt(c) {
  return comps[c] || (comps[c] = modelled(function () { return makeComp(c); }));
}
function makeComp(c) {
  var d = JS.parse(N.composition(c));
  var comp = function (x) {
    var at = N.findLayer(c, x);
    if (at < 0) { throw new ReferenceError('thisComp.layer(' + JS.stringify(x) + '): no such layer'); }
    return layerAt(c, at);
  };
  callable(comp);
  comp.layer = comp; comp.width = d.width; comp.height = d.height; comp.frameDuration = 1 / fr;
  comp.numLayers = d.layers; comp.pixelAspect = 1; comp.displayStartTime = 0;
  define(comp, 'name', { value: d.name });
  return freeze(comp);
}

// Each layer's description and the groups made from it, out of the expressions' reach.
var records = [];
function recordOf(layer) { return records[layer.__c][layer.__at]; }
// What every layer answers, made when first asked.
var LayerProto = Object.create(Function.prototype);
function layerGetter(name, get) { define(LayerProto, name, { get: function () { return get(this, recordOf(this)); } }); }
layerGetter('parent', function (l, r) { return r.d.parent === null ? null : layerAt(l.__c, r.d.parent); });
layerGetter('transform', function (l, r) {
  return r.transform || (r.transform = modelled(function () {
    return freeze(group('Transform', 1, l, freeze(r.d.transform.map(propertyAt)), TransformProto));
  }));
});
layerGetter('effect', function (l, r) {
  return r.effect || (r.effect = modelled(function () {
    // The effects' group is made first, so that each effect names it as its parent; its members come after.
    var effects = [], g = group('Effects', 4, l, effects);
    r.d.effects.forEach(function (e) {
      var eg = group(e.name, e.index, g, freeze(e.params.map(propertyAt)));
      eg.matchName = e.matchName;
      effects.push(freeze(eg));
    });
    freeze(effects);
    return freeze(g);
  }));
});
layerGetter('content', function (l, r) {
  return r.content || (r.content = modelled(function () {
    var tree = JS.parse(N.content(l.__c, l.__at));
    if (tree) { return content(tree, l); }
    return freeze(callable(function (x) {
      throw new ReferenceError('content(' + JS.stringify(x) + '): the layer has no shapes');
    }));
  }));
});
['anchorPoint', 'position', 'scale', 'rotation', 'opacity'].forEach(function (m) {
  layerGetter(m, function (l) { return l.transform[m]; });
});
LayerProto.propertyGroup = function () { return this.comp; };
// Points between the layer's space and its composition's (through its parents), at time t or now.
function mapPoint(layer, p, t, inverse) {
  var q = N.layerPoint(layer.__c, layer.__at, t === undefined ? now() : t * fr, p[0], p[1], inverse);
  return p.length > 2 ? [q[0], q[1], p[2]] : q;
}
// Made when first read, so that `var f = thisLayer.toComp; f(p)` maps through its layer too.
function mapper(inverse) {
  return function (l, r) {
    var key = inverse ? 'fromComp' : 'toComp';
    return r[key] || (r[key] = freeze(callable(function (p, t) { return mapPoint(l, p, t, inverse); })));
  };
}
layerGetter('toComp', mapper(false));
layerGetter('toWorld', mapper(false));
layerGetter('fromComp', mapper(true));
layerGetter('fromWorld', mapper(true));
// A layer called with a group's name gives that group, as After Effects' property tree does.
function callLayer(c, at, x) {
  var l = layerAt(c, at);
  if (x === 'ADBE Root Vectors Group' || x === 'Contents' || x === 2) { return l.content; }
  if (x === 'ADBE Effect Parade' || x === 'Effects' || x === 4) { return l.effect; }
  if (x === 'ADBE Transform Group' || x === 'Transform' || x === 1) { return l.transform; }
  return l.transform(x);
}

function layerAt(c, at) {
  var row = layers[c] || (layers[c] = []);
  return row[at] || (row[at] = modelled(function () { return makeLayer(c, at); }));
}
function makeLayer(c, at) {
  var d = JS.parse(N.layer(c, at));
  // Bound, a layer has no prototype object of its own to freeze.
  var layer = callable(callLayer.bind(null, c, at), LayerProto);
  (records[c] || (records[c] = []))[at] = { d: d };
  layer.__c = c; layer.__at = at; layer.__hasContent = d.hasContent;
  layer.comp = compAt(c); layer.index = d.index; layer.width = d.width; layer.height = d.height;
  layer.inPoint = d.inPoint / fr; layer.outPoint = d.outPoint / fr; layer.startTime = d.startTime / fr;
  layer.hasParent = d.parent !== null;
  define(layer, 'name', { value: d.name });
  return freeze(layer);
}

// ---- What would let one expression reach another, or a run differ from the next

// Code made at run time passes the same guard as the expressions: `eval` runs it as strict, indirect code (it
// reads no local names; what it declares stays in it), `Function` takes parameter names only.
function guarded(source, mode) {
  var r = N.guard(String(source), mode);
  if (r[0] === null) { throw new SyntaxError(r[1]); }
  return r[0];
}
var guardedEval = function (x) { return typeof x === 'string' ? rawEval(guarded(x, 0)) : x; };
var GuardedFunction = function Function() {
  var n = arguments.length, names = [];
  for (var i = 0; i < n - 1; i += 1) { names.push(String(arguments[i])); }
  var list = names.join(',');
  guarded(list, 2);
  return RawFunction(list, n > 0 ? guarded(arguments[n - 1], 1) : '');
};
GuardedFunction.prototype = RawFunction.prototype;
RawFunction.prototype.constructor = GuardedFunction;

// The expressions' clock: its time at frame 0 is `epoch`, in UTC on every machine, and it moves with the frame
// being evaluated, so that `Date` gives the same value for the same frame in every run.
function clock() { return epoch + now() / fr * 1000; }
var FixedDate = function Date(a, b, c, d, e, f, g) {
  var n = arguments.length;
  if (!(this instanceof FixedDate)) { return new RawDate(clock()).toUTCString(); }
  if (n === 0) { return new RawDate(clock()); }
  if (n === 1) { return new RawDate(a instanceof RawDate ? a.getTime() : a); }
  return new RawDate(RawDate.UTC(a, b, n > 2 ? c : 1, n > 3 ? d : 0, n > 4 ? e : 0, n > 5 ? f : 0, n > 6 ? g : 0));
};
FixedDate.prototype = RawDate.prototype;
FixedDate.now = clock; FixedDate.UTC = RawDate.UTC; FixedDate.parse = RawDate.parse;
var DP = RawDate.prototype;
DP.constructor = FixedDate;
['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'].forEach(function (m) {
  DP['get' + m] = DP['getUTC' + m];
  if (DP['setUTC' + m]) { DP['set' + m] = DP['setUTC' + m]; }
});
DP.getTimezoneOffset = function () { return 0; };
DP.toString = DP.toLocaleString = DP.toUTCString;
DP.toDateString = DP.toLocaleDateString = function () { return this.toISOString().slice(0, 10); };
DP.toTimeString = DP.toLocaleTimeString = function () { return this.toISOString().slice(11, 19) + ' UTC'; };

// Math.random draws from the evaluating expression's own sequence, seeded from its property and frame.
M.random = function () {
  var c = current();
  if (!c) { return 0; }
  c.math = xorshift(c.math);
  return c.math / 4294967296;
};

// Array methods that walk an array natively, where no loop check can stop them: over a real array of at most
// maxArray elements (an array-like object is copied into one first, its length read once), or refused.
function snapshot(o, name) {
  if (isArray(o)) {
    if (o.length > maxArray) { throw new RangeError(name + ': an array of ' + o.length + ' elements; expressions walk at most ' + maxArray); }
    charge(o.length >> 6);
    return o;
  }
  var obj = Object(o), n = obj.length >>> 0, copy = [];
  if (n > maxArray) { throw new RangeError(name + ': ' + n + ' elements; expressions walk at most ' + maxArray); }
  for (var i = 0; i < n; i += 1) { if (i in obj) { copy[i] = obj[i]; } }
  copy.length = n;
  return copy;
}
['indexOf', 'lastIndexOf', 'every', 'some', 'forEach', 'map', 'filter', 'reduce', 'reduceRight', 'join',
 'toString', 'toLocaleString', 'slice'].forEach(function (name) {
  var raw = AP[name];
  AP[name] = function () { return raw.apply(snapshot(this, name), arguments); };
});
['reverse', 'shift', 'unshift', 'splice'].forEach(function (name) {
  var raw = AP[name];
  AP[name] = function () {
    if (!isArray(this)) { throw new TypeError(name + ' is run on arrays only in expressions'); }
    return raw.apply(snapshot(this, name), arguments);
  };
});
// concat and sort in JavaScript: the native ones read a spreading flag and compare as often as they please.
AP.concat = function () {
  var r = [], n = 0;
  function add(x) {
    if (isArray(x) || (x !== null && typeof x === 'object' && x[Symbol.isConcatSpreadable])) {
      var s = snapshot(x, 'concat');
      for (var i = 0; i < s.length; i += 1) { if (i in s) { r[n] = s[i]; } n += 1; }
    } else {
      r[n] = x; n += 1;
    }
    if (n > maxArray) { throw new RangeError('concat: more than ' + maxArray + ' elements'); }
  }
  add(Object(this));
  for (var k = 0; k < arguments.length; k += 1) { add(arguments[k]); }
  r.length = n;
  return r;
};
AP.sort = function (compare) {
  if (!isArray(this)) { throw new TypeError('sort is run on arrays only in expressions'); }
  var a = snapshot(this, 'sort'), n = a.length, values = [], holes = 0, undef = 0, i;
  for (i = 0; i < n; i += 1) {
    if (!(i in a)) { holes += 1; } else if (a[i] === undefined) { undef += 1; } else { values.push(a[i]); }
  }
  var before = compare === undefined ? function (x, y) {
    var s = String(x), t = String(y);
    return s < t ? -1 : s > t ? 1 : 0;
  } : function (x, y) { return +compare(x, y) || 0; };
  // A merge sort: at most n log n comparisons, whatever the comparison answers.
  var buffer = [];
  for (var width = 1; width < values.length; width *= 2) {
    for (var lo = 0; lo < values.length; lo += 2 * width) {
      var mid = M.min(lo + width, values.length), hi = M.min(lo + 2 * width, values.length), p = lo, q = mid, k2 = lo;
      while (p < mid && q < hi) { buffer[k2++] = before(values[q], values[p]) < 0 ? values[q++] : values[p++]; }
      while (p < mid) { buffer[k2++] = values[p++]; }
      while (q < hi) { buffer[k2++] = values[q++]; }
      for (var w = lo; w < hi; w += 1) { values[w] = buffer[w]; }
    }
  }
  for (i = 0; i < values.length; i += 1) { a[i] = values[i]; }
  for (; i < values.length + undef; i += 1) { a[i] = undefined; }
  for (; i < n; i += 1) { delete a[i]; }
  return a;
};

// Globals After Effects' expressions do not use, taken away: the engine's own object (coroutines, hooks that see
// every error), proxies (an array whose length changes between two reads), a real clock, and binary buffers.
['Duktape', 'Proxy', 'performance', 'CBOR', 'Buffer', 'ArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array',
 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array',
 'TextEncoder', 'TextDecoder', 'RegExp'].forEach(function (name) { delete G[name]; });
String.prototype.match = String.prototype.search = function () { throw new Error('regular expressions are not run'); };

// The vocabulary, on the global object.
var vocabulary = {
  createPath: createPath, sum: sum, add: sum, sub: sub, mul: mul, div: div,
  $bm_sum: sum, $bm_sub: sub, $bm_mul: mul, $bm_div: div, $bm_mod: mod, $bm_neg: neg,
  clamp: clamp, length: length, normalize: normalize, dot: dot, cross: cross,
  degreesToRadians: degreesToRadians, radiansToDegrees: radiansToDegrees,
  degrees_to_radians: degreesToRadians, radians_to_degrees: radiansToDegrees,
  lookAt: lookAt, rgbToHsl: rgbToHsl, hslToRgb: hslToRgb, framesToTime: framesToTime, timeToFrames: timeToFrames,
  linear: linear, ease: ease, easeIn: easeIn, easeOut: easeOut,
  eval: guardedEval, Function: GuardedFunction, Date: FixedDate
};
Object.keys(vocabulary).forEach(function (name) {
  define(G, name, { value: vocabulary[name], writable: false, configurable: false, enumerable: false });
});

// Every built-in frozen, and the global object with it. Setting a frozen prototype's toString, valueOf,
// constructor, name or message on an object of one's own still works, as it would unfrozen: those are kept as a
// getter and a setter that defines the property on the object itself.
var overridable = ['toString', 'valueOf', 'constructor', 'name', 'message'];
function overrides(proto) {
  overridable.forEach(function (name) {
    var d = Object.getOwnPropertyDescriptor(proto, name);
    if (!d || !('value' in d) || !d.configurable) { return; }
    var v = d.value;
    define(proto, name, { configurable: false, enumerable: d.enumerable, get: function () { return v; },
      set: function (x) {
        if (this === proto) { throw new TypeError('the built-in ' + name + ' cannot be changed'); }
        if (Object(this) === this) { define(this, name, { value: x, writable: true, enumerable: true, configurable: true }); }
      } });
  });
}
// Freezes `root` and everything reachable from it (a list of objects to visit, not recursion: Duktape limits how
// deep native calls may nest).
function deepFreeze(root) {
  var todo = [root];
  while (todo.length > 0) {
    var o = todo.pop();
    if ((typeof o !== 'object' && typeof o !== 'function') || o === null || Object.isFrozen(o)) { continue; }
    freeze(o);
    var keys = Reflect.ownKeys(o);
    for (var k = 0; k < keys.length; k += 1) {
      var d = Object.getOwnPropertyDescriptor(o, keys[k]);
      if (d) { todo.push(d.value, d.get, d.set); }
    }
    todo.push(Object.getPrototypeOf(o));
  }
}
[Object, RawFunction, Array, String, Number, Boolean, RawDate, Error, EvalError, RangeError, ReferenceError,
 SyntaxError, TypeError, URIError, Symbol].forEach(function (c) { overrides(c.prototype); });
[Path.prototype, Property.prototype, NumberValue, ArrayValue, GroupProto, TransformProto, LayerProto].forEach(deepFreeze);
deepFreeze(G);

// The kernel: what the engine and the expressions' wrappers call, and no expression can reach.
return {
  result: result, fr: fr, enter: enter, leave: leave, out: out, now: now, property: propertyAt, comp: compAt,
  random: random, seedRandom: seedRandom,
  // Makes an expression's evaluator: its compiled wrapper called with the kernel and its property.
  make: function (wrapper, id) { var k = this; return modelled(function () { return wrapper(k, propertyAt(id)); }); },
  // Names on the global object, which an expression's own assignments must not shadow.
  globals: function () { return getNames(G).join(' '); }
};
})
"""#
}
