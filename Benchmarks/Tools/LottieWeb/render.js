// Draws one frame of a Lottie file with lottie-web's SVG renderer, in Node, and prints the SVG document:
//
//     node render.js LOTTIE_SVG_JS FILE.json FRAME WIDTH HEIGHT > frame.svg
//
// LOTTIE_SVG_JS is lottie-web's build/player/lottie_svg.js (expressions included). lottie-web needs a DOM only to
// hold the elements it makes; the few calls it makes are answered here by plain objects, which are then written
// out as SVG. FRAME is in the file's own numbering.
'use strict';
const fs = require('fs');

class Element {
  constructor(tag) {
    this.tagName = tag; this.attributes = {}; this.children = []; this.style = {}; this.parentNode = null;
    this.textContent = '';
  }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  setAttributeNS(ns, k, v) { this.attributes[k] = String(v); }
  getAttribute(k) { return this.attributes[k]; }
  removeAttribute(k) { delete this.attributes[k]; }
  appendChild(c) { return this.insertBefore(c, null); }
  insertBefore(c, before) {
    if (c.parentNode) c.parentNode.removeChild(c);
    const i = before ? this.children.indexOf(before) : -1;
    if (i < 0) this.children.push(c); else this.children.splice(i, 0, c);
    c.parentNode = this;
    return c;
  }
  removeChild(c) {
    const i = this.children.indexOf(c);
    if (i >= 0) this.children.splice(i, 1);
    c.parentNode = null;
    return c;
  }
  replaceChild(n, o) { this.insertBefore(n, o); return this.removeChild(o); }
  get firstChild() { return this.children[0] || null; }
  get childNodes() { return this.children; }
  get nextSibling() {
    if (!this.parentNode) return null;
    const s = this.parentNode.children;
    return s[s.indexOf(this) + 1] || null;
  }
  addEventListener() {}
  removeEventListener() {}
  getBBox() { return { x: 0, y: 0, width: 0, height: 0 }; }
  getTotalLength() { return 0; }
  // lottie-web measures letters of fonts it has no glyphs for by an SVG text element's length at 100 px.
  getComputedTextLength() {
    const table = widths[this.attributes['font-family']] || {};
    let w = 0;
    for (const c of this.textContent) w += table[c] || 0;
    return w;
  }
  getContext() { return { fillRect() {}, fillStyle: '' }; }  // the image preloader's 1×1 canvas
  cloneNode() { const e = new Element(this.tagName); e.attributes = { ...this.attributes }; return e; }
  get offsetWidth() { return 0; }
  get offsetHeight() { return 0; }
}

// Advances at 100 px of the letters of each font family a file names, measured by the comparing script with the
// font that family resolves to here (LOTTIE_TEXT_WIDTHS names a JSON file: {family: {letter: width}}).
const widths = process.env.LOTTIE_TEXT_WIDTHS ? JSON.parse(fs.readFileSync(process.env.LOTTIE_TEXT_WIDTHS, 'utf8')) : {};

const body = new Element('body');
global.document = {
  createElementNS: (ns, tag) => new Element(tag), createElement: (tag) => new Element(tag),
  createTextNode: (text) => { const e = new Element('#text'); e.textContent = text; return e; },
  getElementsByTagName: () => [body], getElementsByClassName: () => [], querySelectorAll: () => [],
  readyState: 'complete', body, documentElement: body,
};
global.window = global;
global.navigator = { userAgent: 'node' };
global.requestAnimationFrame = () => 0;
global.cancelAnimationFrame = () => {};
global.location = { protocol: 'file:', origin: '' };

const [library, file, frame, width, height] = process.argv.slice(2);
const lottie = require(require('path').resolve(library));
const data = JSON.parse(fs.readFileSync(file, 'utf8'));
const container = new Element('div');
const animation = lottie.loadAnimation({ container, renderer: 'svg', loop: false, autoplay: false,
                                         animationData: data,
                                         rendererSettings: { preserveAspectRatio: 'xMidYMid meet' } });
animation.goToAndStop(Number(frame) - (data.ip || 0), true);

// Control characters (After Effects ends lines with U+000D, older files with U+0003) are not XML text.
function escape(s) {
  return String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
    .replace(/[\u0000-\u001f]/g, ' ');
}
function write(e) {
  if (e.tagName === '#text') return escape(e.textContent);
  if (e.style.display === 'none') return '';
  let attributes = Object.entries(e.attributes).map(([k, v]) => ` ${k}="${escape(v)}"`).join('');
  const style = Object.entries(e.style)
    .filter(([, v]) => v !== '' && v !== undefined && typeof v !== 'function')
    .map(([k, v]) => `${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}:${v}`);
  if (style.length) attributes += ` style="${escape(style.join(';'))}"`;
  const inner = e.children.length ? e.children.map(write).join('') : escape(e.textContent);
  return `<${e.tagName}${attributes}>${inner}</${e.tagName}>`;
}
const svg = container.children[0];
Object.assign(svg.attributes, { width: String(width), height: String(height), xmlns: 'http://www.w3.org/2000/svg',
                                'xmlns:xlink': 'http://www.w3.org/1999/xlink' });
process.stdout.write(write(svg));
