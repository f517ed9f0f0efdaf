// HTMLPlayerScript: the JavaScript of the HTML player. It only looks samples up: frame k shows
// the values baked at frame k (BakedFrames), so nothing is eased or interpolated here; the curve
// drawn in a tween's bar is those same samples, scaled from the bar's first value to its last.
// The clock is the page's requestAnimationFrame time scaled by the speed; the frame shown is the
// last one at or before the playhead. The samples are the frames before the run's end and the
// end itself, so the playhead's range, and the readout, end where the run does.
//
// The timeline is drawn here from the data (lanes, bars, prints), on one time scale with the
// slider above it: `view` is the visible stretch of seconds (zoom and pan), `range` the in and
// out markers. Only the lanes in sight are drawn, so a script with thousands of lanes stays
// quick. `window.animPlayer` is what the live script of `anim serve` (LivePage) drives: `swap`
// takes a new scene's data in place, keeping the playhead, playing, range, speed and zoom.

enum HTMLPlayerScript {
    /// The script for pages whose data has no glyphed text (`marked` without its `//@g` lines:
    /// such pages are the bytes they were before glyphs).
    static let source = script(glyphs: false)
    /// The script that also draws a text's glyphs (`"gl"`, BakedFrames.Glyph) one path each.
    static let withGlyphs = script(glyphs: true)

    /// `marked` with its glyph lines (those starting `//@g `) kept, unmarked, or left out.
    static func script(glyphs: Bool) -> String {
        var lines: [Substring] = []
        for line in marked.split(separator: "\n", omittingEmptySubsequences: false) {
            let body = line.drop { $0 == " " }
            guard body.hasPrefix("//@g ") else { lines.append(line); continue }
            if glyphs { lines.append(line.prefix(line.count - body.count) + body.dropFirst("//@g ".count)) }
        }
        return lines.joined(separator: "\n")
    }

    /// The script, its glyph-drawing lines marked `//@g ` (`script(glyphs:)`).
    static let marked = #"""
    (function () {
      'use strict';
      var NS = 'http://www.w3.org/2000/svg';
      function $(id) { return document.getElementById(id); }
      function el(name, attrs, parent) {
        var e = document.createElementNS(NS, name);
        for (var k in attrs) e.setAttribute(k, attrs[k]);
        if (parent) parent.appendChild(e);
        return e;
      }
      // Each track is a number (constant) or a TrackCode string (TrackCode.swift): Base64 VLQ
      // second differences of the samples in 1/1000 units (opacity 1/10000), `*m` repeating
      // the value before m more times. Decoded once into the samples' own numbers (a typed
      // array: a scene has thousands of tracks of hundreds of samples).
      // The digits' values by character code (-1: not a digit).
      var B64 = new Int8Array(128).fill(-1);
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach(function (c, i) { B64[c.charCodeAt(0)] = i; });
      var STAR = 42;  // '*'
      function decode(code, count, unit) {
        if (typeof code === 'number') return [code];
        var out = new Float64Array(count), length = code.length, i = 0, k = 0, q = 0, d = 0, e = 0;
        while (i < length && k < count) {
          var star = code.charCodeAt(i) === STAR;
          if (star) i++;
          // One VLQ from position i (arithmetic, not bit operations: values pass 2^31).
          var z = 0, scale = 1, digit;
          do { digit = B64[code.charCodeAt(i++) & 127]; z += (digit & 31) * scale; scale *= 32; } while ((digit & 32) && i < length);
          z = z % 2 ? -(z - 1) / 2 : z / 2;
          var repeats = 1;
          if (star) repeats = z; else e = z;
          for (; repeats > 0 && k < count; repeats--) { d += e; q += d; out[k++] = q / unit; }
        }
        return out;
      }
      function unitOf(key) { return key === 'op' || key === 'sha' ? 10000 : 1000; }
      var ui = {
        stage: $('stage'), bg: $('stage-bg'), layer: $('shapes'), play: $('play'), prev: $('prev'), next: $('next'),
        scrub: $('scrub'), time: $('time'), frameno: $('frameno'), speed: $('speed'), loop: $('loop'), ruler: $('ruler'),
        strip: $('strip'), lanesBox: $('lanes-box'), log: $('log'), note: $('note'), steps: $('steps'),
        markIn: $('mark-in'), markOut: $('mark-out'), markClear: $('mark-clear'), zoomIn: $('zoom-in'), zoomOut: $('zoom-out'),
        zoomFit: $('zoom-fit'), snap: $('snap'), title: $('title')
      };
      // Geometry of the timeline: the lane names' column, the right margin, rows.
      var G = { label: 150, right: 14, axis: 30, row: 14, lane: 24 };
      var FONT = '10px Helvetica, Arial, sans-serif';
      var PALETTE = ['#4a90d9', '#e67e22', '#27ae60', '#8e44ad', '#c0392b', '#16a085', '#d35400', '#5b6b82'];
      var measureContext = document.createElement('canvas').getContext('2d');
      measureContext.font = FONT;
      // An upper estimate of a label's width (the canvas measures with the page's own fonts).
      function width(text) { return Math.ceil(measureContext.measureText(text).width) + 1; }
      // The text cut to `room` pixels with an ellipsis; '' when not even that fits.
      function fit(text, room) {
        if (width(text) <= room) return text;
        var lo = 0, hi = text.length;
        while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (width(text.slice(0, mid) + '…') <= room) lo = mid; else hi = mid - 1; }
        return lo > 0 ? text.slice(0, lo) + '…' : '';
      }
      // Text in a nested viewport that clips it to its box.
      function clipped(parent, x, y, w, h, text, attrs) {
        var v = el('svg', { x: x, y: y, width: Math.max(0, w), height: h, overflow: 'hidden' }, parent);
        var t = el('text', attrs || { x: 0, y: h - 3.5 }, v);
        t.textContent = text;
        return t;
      }

      // ---- The scene --------------------------------------------------------------------------
      var D = null, n = 0, shapes = [], order = '', orderDone = false, zFixed = false, barsByLane = [], curves = {};
      // The timeline's widths, read once per render (reading them between writes forces a layout
      // each time: once per bar and once per frame, with a stage of thousands of shapes).
      var rulerWidth = 0, stripWidth = 0;
      function measure() { rulerWidth = ui.ruler.clientWidth; }
      var t = 0, frame = -1, playing = false, stamp = null;
      var view = { a: 0, b: 0, fit: true };           // the visible seconds of the timeline
      var range = { a: null, b: null };               // the in and out markers (seconds), or null
      var hover = { shape: -1, lane: -1 };
      var expects = [];                                // failed expects: [seconds, text]

      function v(s, key, k) { var tr = s.t[key]; return tr === undefined ? 0 : tr.length === 1 ? tr[0] : tr[k]; }

      // Each shape's tracks as the scene sent them (numbers or TrackCode strings): a track the
      // next scene sends unchanged (same shape, same samples' count) keeps its decoded samples,
      // so an edit that moves one shape decodes one shape's tracks, not the stage's.
      var codes = [];
      // Takes a scene's data: decodes the tracks, rebuilds the stage, the steps and the lanes.
      function load(data) {
        var count = data.times.length, old = D && D.times.length === count ? D.shapes : [], oldCodes = codes;
        codes = data.shapes.map(function (s, i) {
          var was = old[i] && old[i].kind === s.kind ? old[i] : null, sent = oldCodes[i], c = {};
          for (var key in s.t) {
            var code = s.t[key];
            c[key] = code;
            s.t[key] = was && sent[key] === code && was.t[key] !== undefined ? was.t[key] : decode(code, count, unitOf(key));
          }
          //@g (s.gl || []).forEach(function (g) {
          //@g   Object.keys(g.t).forEach(function (key) { g.t[key] = decode(g.t[key], count, key === 'op' ? 10000 : 1000); });
          //@g });
          return c;
        });
        D = data; n = D.times.length; curves = {}; frame = -1; orderDone = false;
        zFixed = D.shapes.every(function (s) { return s.t.z.length === 1; });
        var st = D.stage;
        if (st) {
          ui.stage.setAttribute('width', st.w); ui.stage.setAttribute('height', st.h);
          ui.stage.setAttribute('viewBox', '0 0 ' + st.w + ' ' + st.h);
          ui.bg.setAttribute('width', st.w); ui.bg.setAttribute('height', st.h);
          ui.bg.setAttribute('fill', st.bg); ui.bg.setAttribute('fill-opacity', st.a);
        }
        // A new scene with the same shapes (an edit of timing or values) keeps the elements.
        var same = shapes.length === D.shapes.length && shapes.every(function (o, i) { return o.s.kind === D.shapes[i].kind && !o.se === !D.shapes[i].sd; });
        //@g if (same) same = shapes.every(function (o, i) { return (o.s.gl || []).length === (D.shapes[i].gl || []).length; });
        if (same) {
          shapes.forEach(function (o, i) { o.s = D.shapes[i]; });
        } else {
          while (ui.layer.firstChild) ui.layer.removeChild(ui.layer.firstChild);
          order = '';
          shapes = D.shapes.map(function (s, i) {
            var tag = s.kind === 'circle' || s.kind === 'text' || s.kind === 'rect' || s.kind === 'ellipse' || s.kind === 'image' ? s.kind : 'path';
            //@g // A text with glyphs: a group of one path per laid-out glyph (BakedFrames.Glyph).
            //@g if (s.gl) tag = 'g';
            var g = el('g', {}), e = el(tag, {}, g);
            //@g if (s.gl) e.glyphs = s.gl.map(function () { return el('path', {}, e); });
            if (s.kind === 'text') { e.setAttribute('text-anchor', 'middle'); e.setAttribute('dominant-baseline', 'central'); }
            // An image: its PNG embedded once (a data URI), stretched into its box.
            if (s.kind === 'image') e.setAttribute('preserveAspectRatio', 'none');
            // A dashed or trimmed stroke: the pieces the vector layer cut, drawn over the fill.
            var se = s.sd ? el('path', { fill: 'none' }, g) : null;
            g.setAttribute('data-shape', i);
            ui.layer.appendChild(g);
            return { s: s, g: g, e: e, se: se, set: {} };
          });
        }
        barsByLane = D.lanes.map(function () { return []; });
        D.bars.forEach(function (b, i) { if (barsByLane[b[0]]) barsByLane[b[0]].push(i); });
        D.shapesLanes = D.shapes.map(function () { return []; });
        D.lanes.forEach(function (l, li) { l.shapes.forEach(function (s) { if (D.shapesLanes[s]) D.shapesLanes[s].push(li); }); });
        ui.steps.textContent = '';
        D.steps.forEach(function (s, i) {
          var li = document.createElement('li'), b = document.createElement('button');
          b.type = 'button'; b.setAttribute('data-step', i);
          b.title = 'Jump to ' + s[0] + ' (' + s[1].toFixed(3) + ' s)';
          var name = document.createElement('span'); name.textContent = s[0];
          var span = document.createElement('span'); span.className = 'span'; span.textContent = s[1].toFixed(2) + '–' + s[2].toFixed(2) + ' s';
          b.appendChild(name); b.appendChild(span); li.appendChild(b); ui.steps.appendChild(li);
          b.addEventListener('click', function () { setPlaying(false); seek(s[1]); });
        });
      }

      // Sets an attribute of a shape's element unless it already has that value (most of a
      // stage's attributes are the same from one frame, or one scene, to the next).
      function put(o, e, key, name, value) {
        var text = String(value);
        if (o.set[key] !== text) { o.set[key] = text; e.setAttribute(name, text); }
      }
      // The drop shadow (sha > 0): an feDropShadow filter in the element's own units, CSS's
      // blur radius B as stdDeviation B/2, its region the box grown by the offset and 3σ.
      function shadow(o, i, k, ax, ay, hw, hh) {
        var s = o.s, a = v(s, 'sha', k);
        if (!(a > 0)) { if (o.f) { put(o, o.e, 'filter', 'filter', 'none'); if (o.se) put(o, o.se, 'sfilter', 'filter', 'none'); } return; }
        if (!o.f) {
          o.f = el('filter', { id: 'anim-shadow-' + i, filterUnits: 'userSpaceOnUse', 'color-interpolation-filters': 'sRGB' });
          o.d = el('feDropShadow', {}, o.f);
          o.g.insertBefore(o.f, o.e);
        }
        // The margin: the blur's reach, and a stroke's (miter joins reach 2 widths out at most).
        var dx = v(s, 'shx', k), dy = v(s, 'shy', k), blur = v(s, 'shblur', k), m = 1.5 * blur + 2 + 2 * v(s, 'sw', k);
        put(o, o.f, 'fx', 'x', ax - hw - m + Math.min(0, dx)); put(o, o.f, 'fy', 'y', ay - hh - m + Math.min(0, dy));
        put(o, o.f, 'fw', 'width', 2 * hw + 2 * m + Math.abs(dx)); put(o, o.f, 'fh', 'height', 2 * hh + 2 * m + Math.abs(dy));
        put(o, o.d, 'dx', 'dx', dx); put(o, o.d, 'dy', 'dy', dy); put(o, o.d, 'sd', 'stdDeviation', blur / 2);
        put(o, o.d, 'fc', 'flood-color', 'rgb(' + Math.round(v(s, 'shr', k)) + ',' + Math.round(v(s, 'shg', k)) + ',' + Math.round(v(s, 'shb', k)) + ')');
        put(o, o.d, 'fo', 'flood-opacity', a);
        put(o, o.e, 'filter', 'filter', 'url(#anim-shadow-' + i + ')');
        // A dashed or trimmed stroke's pieces cast their own shadow.
        if (o.se) put(o, o.se, 'sfilter', 'filter', 'url(#anim-shadow-' + i + ')');
      }
      // A gradient paint (BakedFrames.Geometry.gr, sg) over the box of center (cx, cy) and half
      // extents hw × hh (or the box after '|', a text's), in the element's user space: CSS's
      // gradient line for a linear one (through the center, |w sin θ| + |h cos θ| long), CSS's
      // farthest-corner ellipse at the center for a radial one (radii √2 · the half extents),
      // as the vector layer paints them. Its element is kept in `st` (one per paint); the paint
      // named `id` is returned.
      function gradient(o, st, id, spec, cx, cy, hw, hh) {
        var boxed = spec.split('|');
        if (boxed.length > 1) { var bx = boxed[1].split(' '); cx = +bx[0]; cy = +bx[1]; hw = +bx[2]; hh = +bx[3]; spec = boxed[0]; }
        var parts = spec.split(';'), head = parts[0].split(' '), tag = head[0] === 'L' ? 'linearGradient' : 'radialGradient';
        if (!st.gd || st.gdTag !== tag) {
          if (st.gd) o.g.removeChild(st.gd);
          st.gd = el(tag, { id: id, gradientUnits: 'userSpaceOnUse' });
          st.gdTag = tag; st.gs = [];
          o.g.insertBefore(st.gd, o.g.firstChild);
        }
        var g = st.gd;
        if (tag === 'linearGradient') {
          var t = Number(head[1]) * Math.PI / 180, dx = Math.sin(t), dy = -Math.cos(t);
          var half = Math.abs(hw * dx) + Math.abs(hh * dy);
          g.setAttribute('x1', cx - dx * half); g.setAttribute('y1', cy - dy * half);
          g.setAttribute('x2', cx + dx * half); g.setAttribute('y2', cy + dy * half);
        } else {
          var rx = hw * Math.SQRT2, ry = hh * Math.SQRT2;
          g.setAttribute('cx', cx); g.setAttribute('cy', cy); g.setAttribute('r', rx > 0 ? rx : 0);
          g.setAttribute('gradientTransform', rx > 0 ? 'translate(' + cx + ' ' + cy + ') scale(1 ' + ry / rx + ') translate(' + -cx + ' ' + -cy + ')' : '');
        }
        var n = parts.length - 1;
        while (st.gs.length < n) st.gs.push(el('stop', {}, g));
        while (st.gs.length > n) g.removeChild(st.gs.pop());
        for (var j = 0; j < n; j++) {
          var c = parts[j + 1].split(' '), sp = st.gs[j];
          sp.setAttribute('offset', c[4]);
          sp.setAttribute('stop-color', 'rgb(' + Math.round(c[0]) + ',' + Math.round(c[1]) + ',' + Math.round(c[2]) + ')');
          sp.setAttribute('stop-opacity', c[3]);
        }
        return 'url(#' + id + ')';
      }
      // Sample k of a string track (one string: constant).
      function str(t, k) { return t.length === 1 ? t[0] : t[k]; }
      // An outlined shape's paints (BakedFrames.Geometry): the fill's own alpha, and the stroke
      // on the element, or on the cut pieces (`se`) at samples where it is dashed or trimmed.
      // A gradient stroke (`sg`) spans the fill's box (cx, cy, hw, hh).
      function outline(o, s, e, k, i, cx, cy, hw, hh) {
        put(o, e, 'fill-opacity', 'fill-opacity', v(s, 'fa', k));
        var sa = v(s, 'sa', k), cut = s.sd ? str(s.sd, k) : '', ls = str(s.ls, k).split(' ');
        var sgrad = s.sg ? str(s.sg, k) : '';
        var paint = sgrad ? gradient(o, o.sgs || (o.sgs = {}), 'anim-sgrad-' + i, sgrad, cx, cy, hw, hh)
          : 'rgb(' + Math.round(v(s, 'sr', k)) + ',' + Math.round(v(s, 'sg', k)) + ',' + Math.round(v(s, 'sb', k)) + ')';
        [[e, 'e', cut ? 0 : sa], [o.se, 's', cut ? sa : 0]].forEach(function (p) {
          if (!p[0]) return;
          put(o, p[0], p[1] + 'stroke', 'stroke', paint);
          put(o, p[0], p[1] + 'sw', 'stroke-width', v(s, 'sw', k));
          put(o, p[0], p[1] + 'so', 'stroke-opacity', p[2]);
          put(o, p[0], p[1] + 'lc', 'stroke-linecap', ls[0]);
          put(o, p[0], p[1] + 'lj', 'stroke-linejoin', ls[1]);
        });
        if (o.se) put(o, o.se, 'sd', 'd', cut || 'M 0 0');
      }
      function draw(k) {
        for (var i = 0; i < shapes.length; i++) {
          var o = shapes[i], s = o.s, e = o.e;
          put(o, o.g, 'transform', 'transform', 'translate(' + v(s, 'x', k) + ' ' + v(s, 'y', k) + ') rotate(' + v(s, 'rot', k) +
            ') scale(' + v(s, 'sx', k) + ' ' + v(s, 'sy', k) + ')');
          put(o, o.g, 'opacity', 'opacity', v(s, 'op', k));
          // A text's gradient spans its layout box (after '|' in `gr`).
          var grad = s.gr ? str(s.gr, k) : '';
          if (!grad) put(o, e, 'fill', 'fill', 'rgb(' + Math.round(v(s, 'r', k)) + ',' + Math.round(v(s, 'g', k)) + ',' + Math.round(v(s, 'b', k)) + ')');
          // The anchor's shift: the element's box center relative to the pivot (x, y).
          var ax = v(s, 'ax', k), ay = v(s, 'ay', k), hw, hh;
          if (s.kind === 'rect') {
            var w = v(s, 'w', k), h = v(s, 'h', k), r = v(s, 'rad', k);
            put(o, e, 'x', 'x', ax - w / 2); put(o, e, 'y', 'y', ay - h / 2);
            put(o, e, 'width', 'width', w); put(o, e, 'height', 'height', h);
            put(o, e, 'rx', 'rx', r); put(o, e, 'ry', 'ry', r);
            hw = w / 2; hh = h / 2;
          } else if (s.kind === 'image') {
            var iw = v(s, 'w', k), ih = v(s, 'h', k);
            put(o, e, 'href', 'href', s.img || '');
            put(o, e, 'x', 'x', ax - iw / 2); put(o, e, 'y', 'y', ay - ih / 2);
            put(o, e, 'width', 'width', iw); put(o, e, 'height', 'height', ih);
            hw = iw / 2; hh = ih / 2;
          } else if (s.kind === 'circle') {
            var rad = v(s, 'rad', k);
            put(o, e, 'r', 'r', rad); put(o, e, 'cx', 'cx', ax); put(o, e, 'cy', 'cy', ay);
            hw = rad; hh = rad;
          } else if (s.kind === 'ellipse') {
            hw = v(s, 'w', k) / 2; hh = v(s, 'h', k) / 2;
            put(o, e, 'rx', 'rx', hw); put(o, e, 'ry', 'ry', hh); put(o, e, 'cx', 'cx', ax); put(o, e, 'cy', 'cy', ay);
          } else if (s.kind !== 'text') {
            put(o, e, 'd', 'd', str(s.d, k));
            // Path data is in the shape's own coordinates, centred on its points' box (w × h).
            var shift = 'translate(' + ax + ' ' + ay + ')';
            put(o, e, 'tr', 'transform', shift);
            if (o.se) put(o, o.se, 'str', 'transform', shift);
            hw = v(s, 'w', k) / 2; hh = v(s, 'h', k) / 2;
          //@g } else if (s.gl) {
            //@g // Each glyph where anim placed it, turned and scaled about its box's centre.
            //@g s.gl.forEach(function (gl, j) {
              //@g var p = e.glyphs[j];
              //@g put(o, p, 'gt' + j, 'transform', 'translate(' + v(gl, 'x', k) + ' ' + v(gl, 'y', k) + ') rotate(' + v(gl, 'rot', k) +
                //@g ') scale(' + v(gl, 'sx', k) + ' ' + v(gl, 'sy', k) + ')');
              //@g put(o, p, 'gd' + j, 'd', str(gl.d, k));
              //@g put(o, p, 'go' + j, 'opacity', v(gl, 'op', k));
              //@g // The text's gradient over its box in the glyph's coordinates, unless it has its own colour.
              //@g var ggrad = gl.gr ? str(gl.gr, k) : '';
              //@g put(o, p, 'gf' + j, 'fill', ggrad ? gradient(o, (o.ggs || (o.ggs = []))[j] || (o.ggs[j] = {}), 'anim-grad-' + i + '-' + j, ggrad, 0, 0, 0, 0)
                //@g : 'rgb(' + Math.round(v(gl, 'r', k)) + ',' + Math.round(v(gl, 'g', k)) + ',' + Math.round(v(gl, 'b', k)) + ')');
            //@g });
            //@g var gf = v(s, 'font', k), gtext = s.text.length === 1 ? s.text[0] : s.text[k];
            //@g hw = gf * gtext.length * 0.7 + 2; hh = gf;
          } else {
            var font = v(s, 'font', k);
            put(o, e, 'font-size', 'font-size', font); put(o, e, 'x', 'x', ax); put(o, e, 'y', 'y', ay);
            var text = s.text.length === 1 ? s.text[0] : s.text[k];
            if (e.textContent !== text) e.textContent = text;
            // Its font: 'WEIGHT ANCHOR[ FAMILIES]' (BakedFrames.textStyle).
            if (s.tf) {
              var tf = /^(\S+) (\S+) ?(.*)$/.exec(str(s.tf, k));
              put(o, e, 'fw', 'font-weight', tf[1]); put(o, e, 'ta', 'text-anchor', tf[2]);
              if (tf[3]) put(o, e, 'ff', 'font-family', tf[3]); else if (o.set.ff) { o.set.ff = ''; e.removeAttribute('font-family'); }
            }
            hw = font * text.length * 0.7 + 2; hh = font;
          }
          // Outlines' path data is centred on their box in the element's own coordinates.
          var boxed = s.kind === 'rect' || s.kind === 'circle' || s.kind === 'ellipse';
          if (s.ls) outline(o, s, e, k, i, boxed ? ax : 0, boxed ? ay : 0, hw, hh);
          //@g if (!s.gl)
          if (grad) put(o, e, 'fill', 'fill', gradient(o, o.fgs || (o.fgs = {}), 'anim-grad-' + i, grad, boxed ? ax : 0, boxed ? ay : 0, hw, hh));
          shadow(o, i, k, ax, ay, hw, hh);
        }
        // Paint order: by z, then declaration order; re-append only when it changes (and work
        // it out once per scene when no z moves).
        if (zFixed && orderDone) return;
        orderDone = true;
        var idx = shapes.map(function (_, i) { return i; });
        idx.sort(function (a, b) { var za = v(shapes[a].s, 'z', k), zb = v(shapes[b].s, 'z', k); return za !== zb ? za - zb : a - b; });
        var key = idx.join(',');
        if (key !== order) { order = key; idx.forEach(function (i) { ui.layer.appendChild(shapes[i].g); }); }
      }

      // ---- Time ---------------------------------------------------------------------------------
      // The last sample at or before `time` (seconds).
      function frameAt(time) {
        var lo = 0, hi = n - 1;
        while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (D.times[mid] <= time + 1e-9) lo = mid; else hi = mid - 1; }
        return lo;
      }
      function lastFrame() { return n - 1; }
      // The innermost run of a named step at `time`: [index, its name's run number], or null.
      function stepAt(data, time) {
        var best = -1;
        data.steps.forEach(function (s, i) {
          // A run holds the times from its start to just before its end (an instant step, its instant).
      var holds = s[1] <= time + 1e-9 && (time < s[2] - 1e-9 || (s[2] - s[1] < 1e-9 && time <= s[2] + 1e-9));
      if (holds && (best < 0 || s[2] - s[1] < data.steps[best][2] - data.steps[best][1])) best = i;
        });
        if (best < 0) return null;
        var run = 0;
        for (var i = 0; i < best; i++) if (data.steps[i][0] === data.steps[best][0]) run++;
        return [best, run];
      }
      var shownLog = '';
      function show(k) {
        if (k !== frame) { frame = k; draw(k); }
        var tk = D.times[k];
        ui.time.textContent = tk.toFixed(3) + ' s / ' + D.end.toFixed(3) + ' s';
        ui.frameno.textContent = 'frame ' + k + ' / ' + lastFrame() + ' · ' + D.fps + ' fps';
        syncScrub();
        placeHead();
        var lines = [];
        D.prints.forEach(function (p) { if (p[0] <= tk + 1e-9) lines.push('[' + p[0].toFixed(3) + '] ' + p[1]); });
        var text = lines.join('\n');
        if (shownLog !== text) { shownLog = text; ui.log.textContent = text; ui.log.scrollTop = ui.log.scrollHeight; }
        var current = stepAt(D, t);
        Array.prototype.forEach.call(ui.steps.querySelectorAll('button'), function (b) {
          b.classList.toggle('current', current !== null && +b.getAttribute('data-step') === current[0]);
        });
        document.documentElement.setAttribute('data-frame', String(k));
        saveHash();
      }
      function seek(time) {
        if (!isFinite(time)) return;
        t = Math.max(0, Math.min(D.end, time));
        show(frameAt(t));
      }
      function loopStart() { return range.a !== null ? range.a : 0; }
      function loopEnd() { return range.b !== null ? range.b : D.end; }
      function setPlaying(p) {
        playing = p; stamp = null;
        ui.play.classList.toggle('playing', p);
        if (p) {
          if (t >= loopEnd() - 1e-9 || t < loopStart() - 1e-9) t = loopStart();
          requestAnimationFrame(tick);
        }
        saveHash();
      }
      function speed() { var s = parseFloat(ui.speed.value); return isFinite(s) && s > 0 ? s : 1; }
      function tick(now) {
        if (!playing) return;
        if (stamp !== null) t += (now - stamp) / 1000 * speed();
        stamp = now;
        var a = loopStart(), b = loopEnd();
        if (t >= b) {
          if (ui.loop.checked && b > a) { t = a + (t - b) % (b - a); } else { seek(b); setPlaying(false); return; }
        }
        show(frameAt(t));
        requestAnimationFrame(tick);
      }
      function step(d) { setPlaying(false); seek(D.times[Math.max(0, Math.min(n - 1, frame + d))]); }

      // ---- The timeline ------------------------------------------------------------------------
      function spanWidth() { return Math.max(40, rulerWidth - G.label - G.right); }
      function X(time) { return G.label + (view.b > view.a ? (time - view.a) / (view.b - view.a) : 0) * spanWidth(); }
      function T(x) { return view.a + (x - G.label) / spanWidth() * (view.b - view.a); }
      function fitView() { view.a = 0; view.b = D.end > 0 ? D.end : 1; view.fit = true; }
      function setView(a, b) {
        var total = D.end > 0 ? D.end : 1, minimum = Math.min(total, 4 / D.fps);
        var w = Math.max(minimum, Math.min(total, b - a));
        a = Math.max(0, Math.min(total - w, a));
        view.a = a; view.b = a + w; view.fit = a <= 0 && w >= total;
        render(); saveHash();
      }
      function zoom(factor, at) {
        var c = at === undefined ? t : at;
        setView(c - (c - view.a) * factor, c + (view.b - c) * factor);
      }
      // A tick step on a 1-2-5 scale at least 70 px apart.
      function tickStep() {
        var span = view.b - view.a, px = spanWidth();
        if (!(span > 0)) return 1;
        var raw = span / px * 70, p = Math.pow(10, Math.floor(Math.log10(raw)));
        var steps = [1, 2, 5, 10];
        for (var i = 0; i < steps.length; i++) if (steps[i] * p >= raw) return steps[i] * p;
        return 10 * p;
      }
      // Printed messages in up to three rows, no two labels overlapping (a label that fits nowhere
      // is shortened, down to its flag alone; the full text stays in its tooltip).
      function layoutMessages() {
        var groups = [];
        D.prints.forEach(function (p) {
          var last = groups[groups.length - 1];
          if (last && last.time === p[0]) last.texts.push(p[1]); else groups.push({ time: p[0], texts: [p[1]] });
        });
        var out = [], rowEnd = [], limit = rulerWidth - 2, gap = 6;
        groups.forEach(function (g) {
          var x = X(g.time);
          if (x < G.label - 1 || x > limit) return;
          var full = g.texts[0] + (g.texts.length > 1 ? ' +' + (g.texts.length - 1) : '');
          var w = width(full), m = { x: x, row: -1, text: full, left: false, tip: g.texts.map(function (s) { return g.time.toFixed(3) + 's ' + s; }).join('\n') };
          for (var r = 0; r < 3 && m.row < 0; r++) {
            var end = rowEnd[r] || 0;
            if (end <= x - 1 && x + 9 + w <= limit) m.row = r;
            else if (end <= x - 3 - w && x - 3 - w >= G.label && x + 9 + w > limit) { m.row = r; m.left = true; }
          }
          if (m.row < 0) {
            var best = 0;
            for (r = 1; r < 3; r++) if ((rowEnd[r] || 0) < (rowEnd[best] || 0)) best = r;
            m.row = best;
            m.text = fit(full, Math.max(0, limit - (x + 9)));
            // Anything already in that row and reaching past this flag is cut back.
            out.forEach(function (o) {
              if (o.row === best && !o.left && o.x + 9 + width(o.text) > x - gap) o.text = fit(o.text, Math.max(0, x - gap - 1 - (o.x + 9)));
              if (o.row === best && o.left && o.x + 7 > x - 1) o.text = '';
            });
          }
          var tw = m.text ? width(m.text) : 0;
          rowEnd[m.row] = (m.left ? x + 7 : Math.max(x + 9 + tw, x + 7)) + gap;
          out.push(m);
        });
        return out;
      }
      var rows = 1;
      function renderRuler() {
        var svg = ui.ruler, W = rulerWidth || 640;
        var messages = layoutMessages();
        rows = 1;
        messages.forEach(function (m) { rows = Math.max(rows, m.row + 1); });
        var H = G.axis + 6 + rows * G.row;
        svg.setAttribute('height', H); svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
        while (svg.firstChild) svg.removeChild(svg.firstChild);
        // Axis: times, and frame numbers under them.
        var axis = el('g', { class: 'axis', 'font-size': 10 }, svg);
        var s = tickStep(), first = Math.ceil(view.a / s - 1e-9);
        for (var k = first; k * s <= view.b + 1e-9; k++) {
          var tt = k * s, x = X(tt);
          el('line', { x1: x, y1: 22, x2: x, y2: H }, axis);
          var label = el('text', { x: x, y: 11, 'text-anchor': 'middle' }, axis);
          label.textContent = (+tt.toFixed(6)) + 's';
          var f = el('text', { x: x, y: 21, 'text-anchor': 'middle', class: 'frame' }, axis);
          f.textContent = 'f' + Math.round(tt * D.fps);
        }
        // Messages, as flags at their instants.
        var g = el('g', { class: 'messages', 'font-size': 10 }, svg);
        var head = el('text', { x: 8, y: G.axis + 13 }, g); head.textContent = 'print'; head.setAttribute('fill', 'currentColor');
        head.setAttribute('class', 'muted');
        messages.forEach(function (m) {
          var top = G.axis + 2 + m.row * G.row, fg = el('g', {}, g);
          el('title', {}, fg).textContent = m.tip;
          el('path', { d: 'M' + m.x + ' ' + top + 'v' + (G.row + 1), stroke: '#b8860b', 'stroke-width': 1.5 }, fg);
          el('path', { d: 'M' + m.x + ' ' + top + 'h7l-2 3 2 3h-7z', fill: '#f1c40f' }, fg);
          if (m.text) {
            var w = width(m.text);
            if (m.left) clipped(fg, m.x - 3 - w, top - 1, w, G.row, m.text, { x: w, y: 10, fill: '#b8860b', 'text-anchor': 'end' });
            else clipped(fg, m.x + 9, top - 1, w, G.row, m.text, { x: 0, y: 10, fill: '#b8860b' });
          }
        });
        // Failed expects, at their instants on the axis.
        expects.forEach(function (e) {
          var x = X(e[0]);
          if (x < G.label - 1 || x > W) return;
          var m = el('g', { class: 'expect-fail' }, svg);
          el('title', {}, m).textContent = e[1];
          el('path', { d: 'M' + x + ' 23l5 7h-10z' }, m);
        });
        drawRange(svg, H, true);
        el('line', { class: 'playhead', x1: 0, y1: 0, x2: 0, y2: H, id: 'playhead' }, svg);
        el('path', { class: 'playhead-cap', d: 'M-5 22h10l-5 7z', id: 'playhead-cap' }, svg);
        // The slider spans the same time scale: its thumb's centre travels from x(a) to x(b).
        ui.scrub.style.left = (G.label - 8) + 'px';
        ui.scrub.style.width = (spanWidth() + 16) + 'px';
      }
      // Shading outside the in/out range, and the markers.
      function drawRange(svg, H, flags) {
        if (range.a === null && range.b === null) return;
        var a = range.a !== null ? X(range.a) : G.label, b = range.b !== null ? X(range.b) : X(D.end);
        var left = G.label, right = (svg === ui.ruler ? rulerWidth : stripWidth) - G.right;
        if (a > left) el('rect', { class: 'outside', x: left, y: 0, width: Math.min(a, right) - left, height: H }, svg);
        if (b < right) el('rect', { class: 'outside', x: Math.max(b, left), y: 0, width: right - Math.max(b, left), height: H }, svg);
        if (flags) {
          if (range.a !== null) el('path', { class: 'marker', id: 'marker-in', d: 'M' + a + ' 0v' + H + 'h2v-' + (H - 8) + 'l6-4-6-4z' }, svg);
          if (range.b !== null) el('path', { class: 'marker', id: 'marker-out', d: 'M' + b + ' 0v' + H + 'h-2v-' + (H - 8) + 'l-6-4 6-4z' }, svg);
        }
      }
      // The curve a tween drew, from the samples of what it moved: progress from its first
      // to its last value, for the track that changed most. Null if nothing moved.
      function curve(i) {
        if (i in curves) return curves[i];
        var b = D.bars[i], pairs = b[8], k0 = frameAt(b[2]), k1 = frameAt(b[3]), best = null, most = 0;
        for (var p = 0; p + 1 < pairs.length; p += 2) {
          var s = D.shapes[pairs[p]], tr = s && s.t[pairs[p + 1]];
          if (!tr || tr.length === 1) continue;
          var lo = Infinity, hi = -Infinity;
          for (var k = k0; k <= k1; k++) { lo = Math.min(lo, tr[k]); hi = Math.max(hi, tr[k]); }
          var delta = Math.abs(tr[k1] - tr[k0]), scale = Math.max(Math.abs(tr[k0]), Math.abs(tr[k1]), 1e-9);
          if (delta / scale > most) { most = delta / scale; best = tr; }
        }
        var out = null;
        if (best && k1 > k0) {
          out = [];
          var from = best[k0], to = best[k1];
          for (k = k0; k <= k1; k++) out.push([D.times[k], (best[k] - from) / (to - from)]);
        }
        curves[i] = out;
        return out;
      }
      function renderLanes() {
        stripWidth = ui.strip.clientWidth;
        var svg = ui.strip, W = stripWidth || 640, total = D.lanes.length;
        var H = Math.max(1, total) * G.lane + 6;
        svg.setAttribute('height', H); svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
        var defs = svg.firstChild;
        if (!defs || defs.tagName !== 'defs') {
          while (svg.firstChild) svg.removeChild(svg.firstChild);
          defs = el('defs', {}, svg);
          var pat = el('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
          el('rect', { width: 6, height: 6, fill: 'transparent' }, pat);
          el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#9aa3af', 'stroke-width': 2 }, pat);
        }
        // The lanes drawn last time, by what they show: a lane in sight that would be drawn the
        // same (its place, bars, curves and the time scale) keeps its elements, so a save that
        // changes one lane, or none, redraws that lane alone.
        var drawn = {};
        for (var c = defs.nextSibling; c; c = c.nextSibling) if (c.laneKey !== undefined) drawn[c.laneKey] = c;
        var at = defs.nextSibling;
        // Only the lanes in sight (a script with thousands of lanes stays quick).
        var top = ui.lanesBox.scrollTop, seen = ui.lanesBox.clientHeight || 400;
        var l0 = Math.max(0, Math.floor(top / G.lane) - 4), l1 = Math.min(total - 1, Math.ceil((top + seen) / G.lane) + 4);
        var left = G.label, right = W - G.right;
        for (var l = l0; l <= l1; l++) {
          var y = l * G.lane, lane = D.lanes[l], color = PALETTE[l % PALETTE.length];
          var key = JSON.stringify([l, W, G.label, rulerWidth, view.a, view.b, lane.label, barsByLane[l].map(function (i) {
            var b = D.bars[i];
            return b[3] < view.a || b[2] > view.b ? i : [i, b, curve(i)];
          })]);
          var g = drawn[key];
          if (g) {
            delete drawn[key];
            g.firstChild.classList.toggle('hl', laneLit(l));
            if (g === at) at = at.nextSibling; else svg.insertBefore(g, at);
            continue;
          }
          g = el('g', { class: 'lane', 'font-size': 10, 'data-lane': l });
          g.laneKey = key;
          svg.insertBefore(g, at);
          el('rect', { class: 'lane-bg' + (l % 2 === 0 ? ' alt' : '') + (laneLit(l) ? ' hl' : ''), x: 0, y: y, width: W, height: G.lane }, g);
          var name = el('g', { class: 'lane-label' }, g);
          el('title', {}, name).textContent = lane.label;
          clipped(name, 8, y + 4, G.label - 14, 16, fit(lane.label, G.label - 14), { x: 0, y: 11 });
          var bars = el('svg', { x: left, y: y, width: Math.max(0, right - left), height: G.lane, overflow: 'hidden' }, g);
          barsByLane[l].forEach(function (i) {
            var b = D.bars[i];
            if (b[3] < view.a || b[2] > view.b) return;
            var x0 = X(b[2]) - left, x1 = X(b[3]) - left, bg = el('g', { class: 'bar ' + b[1], 'data-bar': i }, bars);
            el('title', {}, bg).textContent = b[6];
            if (b[1] === 'tween' || b[1] === 'spring') {
              if (b[4] !== null) {
                var xd = X(b[4]) - left;
                el('line', { class: 'delay', x1: xd, y1: 12, x2: x0, y2: 12 }, bg);
                el('line', { class: 'delay', x1: xd, y1: 8, x2: xd, y2: 16, 'stroke-dasharray': 'none' }, bg);
              }
              var w = Math.max(1.5, x1 - x0);
              el('rect', { x: x0, y: 4, width: w, height: G.lane - 8, rx: 3, fill: color, 'fill-opacity': b[1] === 'spring' ? 0.75 : 0.92 }, bg);
              var c = w >= 6 ? curve(i) : null;
              if (c) {
                var pts = [], ymid = 12, amp = (G.lane - 12) / 2;
                var stride = Math.max(1, Math.floor(c.length / Math.max(2, w / 2)));
                for (var j = 0; j < c.length; j += stride) pts.push((X(c[j][0]) - left).toFixed(1) + ',' + (ymid + amp - Math.max(-0.4, Math.min(1.4, c[j][1])) * 2 * amp).toFixed(1));
                var lastPoint = c[c.length - 1];
                pts.push((X(lastPoint[0]) - left).toFixed(1) + ',' + (ymid + amp - Math.max(-0.4, Math.min(1.4, lastPoint[1])) * 2 * amp).toFixed(1));
                el('polyline', { class: 'curve', points: pts.join(' ') }, bg);
              }
              var tx = x0 + 4;
              if (b[7] && w >= 10) { el('path', { d: 'M' + (x0 + 3) + ' 12l5-4v8z', fill: '#fff' }, bg); tx += 7; }
              var room = Math.min(x0 + w, right - left) - 3 - Math.max(tx, 2), text = room > 8 ? fit(b[5], room) : '';
              if (text) clipped(bg, Math.max(tx, 2), 4, room, G.lane - 8, text, { x: 0, y: 11.5, fill: '#fff' });
            } else if (b[1] === 'wait') {
              el('rect', { x: x0, y: 9, width: Math.max(0, x1 - x0), height: 6, rx: 1 }, bg);
            } else {
              el('path', { d: 'M' + x0 + ' 5l4 7-4 7-4-7z', fill: '#b8860b' }, bg);
            }
          });
        }
        // What follows the lanes in sight (lanes no longer drawn, the range, the playhead) goes.
        while (at) { var after = at.nextSibling; svg.removeChild(at); at = after; }
        drawRange(svg, H, false);
        el('line', { class: 'playhead', x1: 0, y1: 0, x2: 0, y2: H, id: 'playhead-lanes' }, svg);
      }
      function laneLit(l) { return hover.lane === l || (hover.shape >= 0 && D.shapesLanes[hover.shape] && D.shapesLanes[hover.shape].indexOf(l) >= 0); }
      function render() {
        // A narrower column of lane names on a phone.
        measure();
        G.label = (rulerWidth || 640) < 560 ? 96 : 150;
        if (view.fit) fitView();
        renderRuler(); renderLanes(); placeHead();
        if (frame >= 0) syncScrub();
      }
      function placeHead() {
        var x = X(D.times[frame] !== undefined ? D.times[frame] : t), inside = x >= G.label - 0.5 && x <= rulerWidth - G.right + 0.5;
        ['playhead', 'playhead-lanes'].forEach(function (id) {
          var line = $(id);
          if (line) { line.setAttribute('x1', x); line.setAttribute('x2', x); line.style.display = inside ? '' : 'none'; }
        });
        var cap = $('playhead-cap');
        if (cap) { cap.setAttribute('transform', 'translate(' + x + ' 0)'); cap.style.display = inside ? '' : 'none'; }
      }
      function syncScrub() {
        var k0 = frameAt(view.a), k1 = Math.max(k0 + 1, frameAt(view.b + 1e-9));
        if (view.fit) { k0 = 0; k1 = n - 1; }
        ui.scrub.min = k0; ui.scrub.max = Math.min(n - 1, k1);
        ui.scrub.value = frame;
      }
      function highlight() {
        var lit = {};
        if (hover.lane >= 0 && D.lanes[hover.lane]) D.lanes[hover.lane].shapes.forEach(function (s) { lit[s] = true; });
        if (hover.shape >= 0) lit[hover.shape] = true;
        shapes.forEach(function (o, i) { o.g.classList.toggle('hl', !!lit[i]); });
        Array.prototype.forEach.call(ui.strip.querySelectorAll('.lane'), function (g) {
          var bg = g.firstChild;
          if (bg) bg.classList.toggle('hl', laneLit(+g.getAttribute('data-lane')));
        });
      }

      // ---- Input ---------------------------------------------------------------------------------
      ui.play.addEventListener('click', function () { setPlaying(!playing); });
      ui.prev.addEventListener('click', function (ev) { step(ev.shiftKey ? -10 : -1); });
      ui.next.addEventListener('click', function (ev) { step(ev.shiftKey ? 10 : 1); });
      ui.scrub.addEventListener('input', function () { setPlaying(false); seek(D.times[parseInt(ui.scrub.value, 10)]); });
      ui.speed.addEventListener('change', saveHash);
      ui.markIn.addEventListener('click', function () { mark('a'); });
      ui.markOut.addEventListener('click', function () { mark('b'); });
      ui.markClear.addEventListener('click', function () { range.a = range.b = null; render(); saveHash(); });
      ui.zoomIn.addEventListener('click', function () { zoom(0.5); });
      ui.zoomOut.addEventListener('click', function () { zoom(2); });
      ui.zoomFit.addEventListener('click', function () { view.fit = true; render(); saveHash(); });
      ui.snap.addEventListener('click', function () {
        snapshot().then(function (url) {
          var a = document.createElement('a');
          a.href = url; a.download = (document.title.replace(/^anim — /, '').replace(/\.anim$/, '') || 'anim') + '-' + D.times[frame].toFixed(3) + 's.png';
          document.body.appendChild(a); a.click(); a.remove();
        });
      });
      // I and O put the in and out markers at the playhead (the other one moves if they would cross).
      function mark(which) {
        var time = D.times[frame];
        if (which === 'a') { range.a = time; if (range.b !== null && range.b <= time) range.b = null; }
        else { range.b = time; if (range.a !== null && range.a >= time) range.a = null; }
        render(); saveHash();
      }
      // Dragging on the timeline moves the playhead; pressing on a bar jumps to its start.
      var dragging = false;
      function pointerTime(ev) {
        var box = ui.ruler.getBoundingClientRect();
        return T(ev.clientX - box.left);
      }
      [ui.ruler, ui.strip].forEach(function (svg) {
        svg.addEventListener('pointerdown', function (ev) {
          if (ev.button !== 0) return;
          var box = svg.getBoundingClientRect();
          if (ev.clientX - box.left < G.label) return;
          setPlaying(false);
          var bar = ev.target.closest && ev.target.closest('.bar');
          if (bar && svg === ui.strip) { seek(D.bars[+bar.getAttribute('data-bar')][2]); return; }
          dragging = true;
          try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer */ }
          seek(pointerTime(ev));
          ev.preventDefault();
        });
        svg.addEventListener('pointermove', function (ev) { if (dragging) seek(pointerTime(ev)); });
        svg.addEventListener('pointerup', function () { dragging = false; });
        svg.addEventListener('pointercancel', function () { dragging = false; });
      });
      // Wheel: with Ctrl (a pinch on a trackpad) or over the axis it zooms around the pointer;
      // sideways (or with Shift) it pans; otherwise the lanes scroll.
      document.getElementById('timeline').addEventListener('wheel', function (ev) {
        var box = ui.ruler.getBoundingClientRect(), x = ev.clientX - box.left;
        var overAxis = ev.clientY < box.bottom;
        var dx = ev.shiftKey ? ev.deltaY : ev.deltaX;
        if (ev.ctrlKey || ev.metaKey || (overAxis && Math.abs(ev.deltaY) > Math.abs(ev.deltaX) && !ev.shiftKey)) {
          ev.preventDefault();
          zoom(Math.exp(Math.max(-1, Math.min(1, ev.deltaY * 0.01))), x >= G.label ? T(x) : t);
        } else if (Math.abs(dx) > 0) {
          ev.preventDefault();
          var shift = dx / spanWidth() * (view.b - view.a);
          setView(view.a + shift, view.b + shift);
        }
      }, { passive: false });
      var scrollPending = false;
      ui.lanesBox.addEventListener('scroll', function () {
        if (scrollPending) return;
        scrollPending = true;
        requestAnimationFrame(function () { scrollPending = false; renderLanes(); placeHead(); });
      });
      // Hover a lane: its shapes light up on stage; hover a shape: its lanes light up.
      ui.strip.addEventListener('mouseover', function (ev) {
        var g = ev.target.closest && ev.target.closest('.lane');
        var l = g ? +g.getAttribute('data-lane') : -1;
        if (l !== hover.lane) { hover.lane = l; highlight(); }
      });
      ui.strip.addEventListener('mouseleave', function () { hover.lane = -1; highlight(); });
      ui.layer.addEventListener('mouseover', function (ev) {
        var g = ev.target.closest && ev.target.closest('#shapes > g');
        var s = g ? +g.getAttribute('data-shape') : -1;
        if (s !== hover.shape) { hover.shape = s; highlight(); }
      });
      ui.layer.addEventListener('mouseleave', function () { hover.shape = -1; highlight(); });
      var resizePending = false;
      addEventListener('resize', function () {
        if (resizePending) return;
        resizePending = true;
        requestAnimationFrame(function () { resizePending = false; render(); });
      });
      // Keys act once wherever the focus is (the speed menu keeps its own keys): the focused
      // control's own reaction (the slider moving, a button or the checkbox toggling) is
      // prevented, or the key would count twice.
      function ours(ev) { return !(ev.target && ev.target.tagName === 'SELECT') && !ev.altKey && !ev.ctrlKey && !ev.metaKey; }
      document.addEventListener('keydown', function (ev) {
        if (!ours(ev)) return;
        var key = ev.key, handled = true;
        if (key === ' ') { if (!ev.repeat) setPlaying(!playing); }
        else if (key === 'ArrowLeft') step(ev.shiftKey ? -10 : -1);
        else if (key === 'ArrowRight') step(ev.shiftKey ? 10 : 1);
        else if (key === 'Home') { setPlaying(false); seek(loopStart()); }
        else if (key === 'End') { setPlaying(false); seek(loopEnd()); }
        else if (key === 'i' || key === 'I') mark('a');
        else if (key === 'o' || key === 'O') mark('b');
        else if (key === 'x' || key === 'X') { range.a = range.b = null; render(); saveHash(); }
        else if (key === '+' || key === '=') zoom(0.5);
        else if (key === '-' || key === '_') zoom(2);
        else if (key === '0') { view.fit = true; render(); saveHash(); }
        else handled = false;
        if (handled) ev.preventDefault();
      });
      document.addEventListener('keyup', function (ev) { if (ours(ev) && ev.key === ' ') ev.preventDefault(); });

      // The stage at the current time as a PNG (a data URL).
      function snapshot() {
        var st = D.stage || { w: +ui.stage.getAttribute('width'), h: +ui.stage.getAttribute('height') };
        var copy = ui.stage.cloneNode(true);
        copy.setAttribute('width', st.w); copy.setAttribute('height', st.h);
        Array.prototype.forEach.call(copy.querySelectorAll('.hl'), function (g) { g.classList.remove('hl'); });
        var text = new XMLSerializer().serializeToString(copy);
        return new Promise(function (resolve, reject) {
          var img = new Image();
          img.onload = function () {
            var c = document.createElement('canvas');
            c.width = Math.max(1, Math.round(st.w)); c.height = Math.max(1, Math.round(st.h));
            c.getContext('2d').drawImage(img, 0, 0, c.width, c.height);
            resolve(c.toDataURL('image/png'));
          };
          img.onerror = function () { reject(new Error('the stage could not be drawn')); };
          img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
        });
      }

      // ---- The URL fragment ---------------------------------------------------------------------
      // A time: seconds, optionally with a unit (1.5, 1.5s, 1500ms); null if not one.
      function parseTime(text) {
        var m = /^\s*(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?\s*(s|ms)?\s*$/i.exec(text);
        if (!m) return null;
        var x = parseFloat(m[1] + (m[2] || ''));
        if (!isFinite(x)) return null;
        return m[3] && m[3].toLowerCase() === 'ms' ? x / 1000 : x;
      }
      function readHash() {
        var hash = {};
        location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
          if (!kv) return;
          var at = kv.indexOf('='), key = at < 0 ? kv : kv.slice(0, at), value = at < 0 ? '' : kv.slice(at + 1);
          try { value = decodeURIComponent(value); } catch (e) { /* keep it as written */ }
          hash[key] = value;
        });
        return hash;
      }
      var hashReady = false, hashTimer = null, lastHash = null;
      // Writes time, range, speed and zoom to the fragment (at most every 250 ms: browsers
      // throttle history updates); a #shot stays one.
      function saveHash() {
        if (!hashReady || hashTimer !== null) return;
        hashTimer = setTimeout(function () {
          hashTimer = null;
          var parts = [];
          parts.push('t=' + +D.times[frame].toFixed(3));
          if (range.a !== null) parts.push('in=' + +range.a.toFixed(3));
          if (range.b !== null) parts.push('out=' + +range.b.toFixed(3));
          if (ui.speed.value !== '1') parts.push('speed=' + ui.speed.value);
          if (!view.fit) parts.push('zoom=' + +view.a.toFixed(3) + ',' + +view.b.toFixed(3));
          if (document.body.className === 'shot') parts.push('shot');
          var text = '#' + parts.join('&');
          if (text === lastHash || text === location.hash) { lastHash = text; return; }
          lastHash = text;
          try { history.replaceState(history.state, '', text); } catch (e) { /* a page that may not change its URL */ }
        }, 250);
      }

      // ---- Live scenes (anim serve) ------------------------------------------------------------
      // Swaps in a new scene without reloading: the playhead stays at the same time, or at the
      // same place inside the run of the named step that contained it when the new scene has
      // that run; playing stays playing, and the range, speed and zoom stay.
      function swap(data) {
        var old = D, time = t, was = playing, inside = stepAt(old, time);
        var target = time;
        if (inside) {
          var s = old.steps[inside[0]], run = 0, found = null;
          data.steps.forEach(function (x) { if (x[0] === s[0]) { if (run === inside[1]) found = x; run++; } });
          if (found) target = s[2] > s[1] ? found[1] + (time - s[1]) / (s[2] - s[1]) * (found[2] - found[1]) : found[1];
        }
        load(data);
        if (range.a !== null && range.a > D.end) range.a = null;
        if (range.b !== null && range.b > D.end) range.b = D.end;
        if (range.a !== null && range.b !== null && range.b <= range.a) range.a = range.b = null;
        if (!view.fit) setView(view.a, view.b); else render();
        t = Math.max(0, Math.min(D.end, target));
        show(frameAt(t));
        if (was && !playing) setPlaying(true);
        return t;
      }
      function setExpects(list) { expects = Array.isArray(list) ? list : []; renderRuler(); placeHead(); }

      // ---- Start ---------------------------------------------------------------------------------
      load(JSON.parse($('anim-data').textContent));
      var hash = readHash(), notes = [];
      if ('shot' in hash) document.body.className = 'shot';
      if ('speed' in hash) {
        var options = Array.prototype.map.call(ui.speed.options, function (o) { return o.value; });
        var sp = parseFloat(hash.speed);
        var match = options.filter(function (o) { return parseFloat(o) === sp; })[0];
        if (match !== undefined && /^\s*[\d.]+\s*x?\s*$/i.test(hash.speed)) ui.speed.value = match;
        else notes.push('#speed=' + hash.speed + ' is not one of ' + options.join(', ') + ': playing at 1×.');
      }
      function hashRange(key) {
        if (!(key in hash)) return null;
        var x = parseTime(hash[key]);
        if (x === null || x > D.end) { notes.push('#' + key + '=' + hash[key] + ' is not a time in the run: no ' + key + ' marker.'); return null; }
        return x;
      }
      range.a = hashRange('in'); range.b = hashRange('out');
      if (range.a !== null && range.b !== null && range.b <= range.a) { notes.push('#out= is not after #in=: no loop range.'); range.a = range.b = null; }
      fitView();
      if ('zoom' in hash) {
        var z = String(hash.zoom).split(','), za = parseTime(z[0] || ''), zb = parseTime(z[1] || '');
        if (z.length === 2 && za !== null && zb !== null && zb > za) { view.fit = false; view.a = za; view.b = zb; }
        else notes.push('#zoom=' + hash.zoom + ' is not two times (write #zoom=0.5,2): showing the whole run.');
      }
      var startPlaying = false;
      if ('t' in hash) {
        var start = parseTime(hash.t);
        if (start === null) {
          notes.push('#t=' + hash.t + ' is not a time (write #t=1.5, #t=1.5s or #t=1500ms): showing 0 s.');
          start = 0;
        }
        t = Math.max(0, Math.min(D.end, start));
      } else { t = range.a !== null ? range.a : 0; startPlaying = true; }
      ui.note.textContent = notes.join(' ');
      if (!view.fit) setView(view.a, view.b); else render();
      show(frameAt(t));
      hashReady = true;
      if (startPlaying) setPlaying(true);
      window.animPlayer = {
        get data() { return D; }, get time() { return t; }, get frame() { return frame; }, get playing() { return playing; },
        get range() { return { a: range.a, b: range.b }; }, get view() { return { a: view.a, b: view.b, fit: view.fit }; },
        swap: swap, seek: function (x) { setPlaying(false); seek(x); }, play: setPlaying, snapshot: snapshot, setExpects: setExpects,
        stageBox: $('stage-box'), x: X
      };
      document.documentElement.setAttribute('data-ready', String(frame));
    })();
    """#
}
