// HTMLPlayerScript+Timeline: the clock and the timeline of the HTML player's script — the
// frame at a time, showing a frame, seeking, playing and the requestAnimationFrame tick; then
// the timeline drawn from the data on the view's time scale: the ruler with its ticks, printed
// messages and failed expects, the in/out range, the lanes with their bars and curves, the
// playhead, and the highlighting of lanes and shapes.

extension HTMLPlayerScript {
    /// The clock (frame lookup, seek, play) and the timeline's drawing.
    static let timeline = #"""
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
        // (Unchanged text and attributes are not written again: a swap shows the same frame.)
        var readout = tk.toFixed(3) + ' s / ' + D.end.toFixed(3) + ' s', count = 'frame ' + k + ' / ' + lastFrame() + ' · ' + D.fps + ' fps';
        if (ui.time.textContent !== readout) ui.time.textContent = readout;
        if (ui.frameno.textContent !== count) ui.frameno.textContent = count;
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
        attr(document.documentElement, 'data-frame', k);
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
      // The ruler is drawn anew only when what it shows changes (`rulerKey`): the time scale,
      // the run's length, the prints, the failed expects and the range.
      var rows = 1, rulerKey = null;
      function renderRuler() {
        var svg = ui.ruler, W = rulerWidth || 640;
        var key = JSON.stringify([W, G.label, view.a, view.b, D.fps, D.end, D.prints, expects, range.a, range.b]);
        if (key !== rulerKey || !svg.firstChild) {
          rulerKey = key;
          drawRuler(svg, W);
        }
        // The slider spans the same time scale: its thumb's centre travels from x(a) to x(b).
        ui.scrub.style.left = (G.label - 8) + 'px';
        ui.scrub.style.width = (spanWidth() + 16) + 'px';
      }
      function drawRuler(svg, W) {
        var messages = layoutMessages();
        rows = 1;
        messages.forEach(function (m) { rows = Math.max(rows, m.row + 1); });
        var H = G.axis + 6 + rows * G.row;
        attr(svg, 'height', H); attr(svg, 'viewBox', '0 0 ' + W + ' ' + H);
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
        var svg = ui.strip, W = stripWidth || 640, total = D.lanes.length;
        var H = Math.max(1, total) * G.lane + 6;
        // A scene of another lane count: the scroll and the height in sight may change with the
        // strip's height (read them again).
        var resized = svg.getAttribute('height') !== String(H);
        attr(svg, 'height', H); attr(svg, 'viewBox', '0 0 ' + W + ' ' + H);
        if (resized) { lanesTop = ui.lanesBox.scrollTop; lanesSeen = ui.lanesBox.clientHeight; }
        var defs = svg.firstChild;
        if (!defs || defs.tagName !== 'defs') {
          while (svg.firstChild) svg.removeChild(svg.firstChild);
          defs = el('defs', {}, svg);
          var pat = el('pattern', { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
          el('rect', { width: 6, height: 6, fill: 'transparent' }, pat);
          el('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#9aa3af', 'stroke-width': 2 }, pat);
        }
        // Only the lanes in sight are drawn (a script with thousands of lanes stays quick), each
        // keyed by what it shows: a lane that would be drawn as it was (its place, bars, curves
        // and the time scale) keeps its elements, so a save that changes one lane, or none,
        // redraws that lane alone.
        var top = lanesTop, seen = lanesSeen || 400;
        var l0 = Math.max(0, Math.floor(top / G.lane) - 4), l1 = Math.min(total - 1, Math.ceil((top + seen) / G.lane) + 4);
        var left = G.label, right = W - G.right, keys = [], wanted = {};
        for (var l = l0; l <= l1; l++) {
          var key = JSON.stringify([l, W, G.label, rulerWidth, view.a, view.b, D.lanes[l].label, barsByLane[l].map(function (i) {
            var b = D.bars[i];
            return b[3] < view.a || b[2] > view.b ? i : [i, b, curve(i)];
          })]);
          keys[l - l0] = key; wanted[key] = true;
        }
        // What is not kept (lanes redrawn or out of sight, the range, the playhead) goes first, so
        // the lanes kept stay where they are in the strip: moving one (inserting it before a lane
        // about to go) makes the browser style, lay out and paint it anew.
        var drawn = {};
        for (var c = defs.nextSibling; c; ) {
          var next = c.nextSibling;
          if (c.laneKey !== undefined && wanted[c.laneKey] === true) drawn[c.laneKey] = c; else svg.removeChild(c);
          c = next;
        }
        var at = defs.nextSibling;
        for (l = l0; l <= l1; l++) {
          var y = l * G.lane, lane = D.lanes[l], color = PALETTE[l % PALETTE.length];
          key = keys[l - l0];
          var g = drawn[key];
          if (g) {
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
          if (line) { attr(line, 'x1', x); attr(line, 'x2', x); line.style.display = inside ? '' : 'none'; }
        });
        var cap = $('playhead-cap');
        if (cap) { attr(cap, 'transform', 'translate(' + x + ' 0)'); cap.style.display = inside ? '' : 'none'; }
      }
      function syncScrub() {
        var k0 = frameAt(view.a), k1 = Math.max(k0 + 1, frameAt(view.b + 1e-9));
        if (view.fit) { k0 = 0; k1 = n - 1; }
        attr(ui.scrub, 'min', k0); attr(ui.scrub, 'max', Math.min(n - 1, k1));
        if (ui.scrub.value !== String(frame)) ui.scrub.value = frame;
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
    """#
}
