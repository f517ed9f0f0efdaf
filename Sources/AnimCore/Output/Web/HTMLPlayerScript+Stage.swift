// HTMLPlayerScript+Stage: the stage of the HTML player's script — the scene's state, `load`
// (decoding a scene's tracks, building its shapes' elements, its steps and lanes), and `draw`
// (frame k's samples onto the shapes' attributes: shadows, gradient paints, outlines, glyphs).

extension HTMLPlayerScript {
    /// The scene's state and the stage: loading a scene and drawing a frame of it.
    static let stage = #"""
      // ---- The scene --------------------------------------------------------------------------
      var D = null, n = 0, shapes = [], order = '', orderDone = false, zFixed = false, barsByLane = [], curves = {};
      // The timeline's geometry (its widths, the lanes' scroll and height in sight), read
      // together once per render before anything is written: a read after a write forces a
      // layout, once per bar and once per frame, with a stage of thousands of shapes.
      var rulerWidth = 0, stripWidth = 0, lanesTop = 0, lanesSeen = 0;
      function measure() {
        rulerWidth = ui.ruler.clientWidth; stripWidth = ui.strip.clientWidth;
        lanesTop = ui.lanesBox.scrollTop; lanesSeen = ui.lanesBox.clientHeight;
      }
      var t = 0, frame = -1, playing = false, stamp = null;
      var view = { a: 0, b: 0, fit: true };           // the visible seconds of the timeline
      var range = { a: null, b: null };               // the in and out markers (seconds), or null
      var hover = { shape: -1, lane: -1 };
      var expects = [];                                // failed expects: [seconds, text]

      function v(s, key, k) { var tr = s.t[key]; return tr === undefined ? 0 : tr.length === 1 ? tr[0] : tr[k]; }

      // Each shape's tracks as the scene sent them (numbers or TrackCode strings): a track the
      // next scene sends unchanged (same shape, same samples' count) keeps its decoded samples,
      // so an edit that moves one shape decodes one shape's tracks, not the stage's.
      var codes = [], shownSteps = null;
      // Whether two of the data's values (numbers, strings, arrays, objects) are the same.
      function equal(a, b) {
        if (a === b) return true;
        if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
        var ka = Object.keys(a), kb = Object.keys(b);
        if (ka.length !== kb.length) return false;
        for (var i = 0; i < ka.length; i++) if (!(ka[i] in b) || !equal(a[ka[i]], b[ka[i]])) return false;
        return true;
      }
      // Takes a scene's data: decodes the tracks, rebuilds the stage, the steps and the lanes.
      // A shape the new scene sends as it was (every track and every other field) keeps the
      // frame it was drawn at (`k`), so that drawing that frame again skips it; when no shape's
      // z was sent otherwise the paint order stays worked out.
      function load(data) {
        var count = data.times.length, old = D && D.times.length === count ? D.shapes : [], oldCodes = codes;
        var unchanged = [], zKept = true;
        codes = data.shapes.map(function (s, i) {
          var was = old[i] && old[i].kind === s.kind ? old[i] : null, sent = oldCodes[i], c = {}, kept = !!was, keys = 0;
          for (var key in s.t) {
            var code = s.t[key], reuse = was && sent[key] === code && was.t[key] !== undefined;
            c[key] = code; keys++;
            if (!reuse) kept = false;
            s.t[key] = reuse ? was.t[key] : decode(code, count, unitOf(key));
          }
          if (!was || sent.z !== c.z) zKept = false;
          if (kept) for (var k in sent) keys--;
          if (kept && keys === 0) for (var f in s) if (f !== 't' && !equal(s[f], was[f])) { kept = false; break; }
          if (kept && keys === 0) for (f in was) if (!(f in s)) { kept = false; break; }
          unchanged[i] = kept && keys === 0;
          //@g (s.gl || []).forEach(function (g) {
          //@g   Object.keys(g.t).forEach(function (key) { g.t[key] = decode(g.t[key], count, key === 'op' ? 10000 : 1000); });
          //@g });
          return c;
        });
        D = data; n = D.times.length; curves = {}; frame = -1;
        zFixed = D.shapes.every(function (s) { return s.t.z.length === 1; });
        var st = D.stage;
        if (st) {
          attr(ui.stage, 'width', st.w); attr(ui.stage, 'height', st.h);
          attr(ui.stage, 'viewBox', '0 0 ' + st.w + ' ' + st.h);
          attr(ui.bg, 'width', st.w); attr(ui.bg, 'height', st.h);
          attr(ui.bg, 'fill', st.bg); attr(ui.bg, 'fill-opacity', st.a);
        }
        // A new scene with the same shapes (an edit of timing or values) keeps the elements.
        var same = shapes.length === D.shapes.length && shapes.every(function (o, i) { return o.s.kind === D.shapes[i].kind && !o.se === !D.shapes[i].sd; });
        //@g if (same) same = shapes.every(function (o, i) { return (o.s.gl || []).length === (D.shapes[i].gl || []).length; });
        if (same) {
          shapes.forEach(function (o, i) { o.s = D.shapes[i]; if (!unchanged[i]) o.k = -1; });
          if (!zKept) orderDone = false;
        } else {
          while (ui.layer.firstChild) ui.layer.removeChild(ui.layer.firstChild);
          order = ''; orderDone = false;
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
            return { s: s, g: g, e: e, se: se, set: {}, k: -1 };
          });
        }
        barsByLane = D.lanes.map(function () { return []; });
        D.bars.forEach(function (b, i) { if (barsByLane[b[0]]) barsByLane[b[0]].push(i); });
        D.shapesLanes = D.shapes.map(function () { return []; });
        D.lanes.forEach(function (l, li) { l.shapes.forEach(function (s) { if (D.shapesLanes[s]) D.shapesLanes[s].push(li); }); });
        // The step list, unless the new scene has the same steps.
        var stepsKey = JSON.stringify(D.steps);
        if (stepsKey === shownSteps) return;
        shownSteps = stepsKey;
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
          // A shape drawn at this frame from the same data is as drawn.
          if (o.k === k) continue;
          o.k = k;
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
    """#
}
