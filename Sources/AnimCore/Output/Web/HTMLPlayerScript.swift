// HTMLPlayerScript: the JavaScript of the HTML player. It only looks samples up: frame k shows
// the values baked at frame k (BakedFrames), so nothing is eased or interpolated here. The
// clock is the page's requestAnimationFrame time scaled by the speed; the frame shown is the
// last one at or before the playhead. The samples are the frames before the run's end and the
// end itself, so the playhead's range, and the readout, end where the run does.

enum HTMLPlayerScript {
    static let source = #"""
    (function () {
      'use strict';
      var D = JSON.parse(document.getElementById('anim-data').textContent);
      // Each track is a number (constant) or a TrackCode string (TrackCode.swift): Base64 VLQ
      // second differences of the samples in 1/1000 units (opacity 1/10000), `*m` repeating
      // the value before m more times. Decoded once into the samples' own numbers.
      var B64 = {};
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach(function (c, i) { B64[c] = i; });
      function decode(code, count, unit) {
        if (typeof code === 'number') return [code];
        var out = new Array(count), i = 0, k = 0, q = 0, d = 0, e = 0;
        // One VLQ from position i (arithmetic, not bit operations: values pass 2^31).
        function vlq() {
          var z = 0, scale = 1, digit;
          do { digit = B64[code.charAt(i++)]; z += (digit & 31) * scale; scale *= 32; } while (digit & 32);
          return z % 2 ? -(z - 1) / 2 : z / 2;
        }
        while (i < code.length && k < count) {
          var repeats = 1;
          if (code.charAt(i) === '*') { i++; repeats = vlq(); } else { e = vlq(); }
          for (; repeats > 0 && k < count; repeats--) { d += e; q += d; out[k++] = q / unit; }
        }
        return out;
      }
      D.shapes.forEach(function (s) {
        Object.keys(s.t).forEach(function (key) { s.t[key] = decode(s.t[key], D.times.length, key === 'op' ? 10000 : 1000); });
      });
      var NS = 'http://www.w3.org/2000/svg';
      var layer = document.getElementById('shapes');
      var n = D.times.length, last = D.end;
      var ui = {
        play: document.getElementById('play'), prev: document.getElementById('prev'),
        next: document.getElementById('next'), scrub: document.getElementById('scrub'),
        time: document.getElementById('time'), speed: document.getElementById('speed'),
        loop: document.getElementById('loop'), strip: document.getElementById('strip'),
        head: document.getElementById('playhead'), log: document.getElementById('log'),
        note: document.getElementById('note')
      };
      var shapes = D.shapes.map(function (s) {
        var g = document.createElementNS(NS, 'g');
        var e = document.createElementNS(NS, s.kind === 'circle' ? 'circle' : s.kind === 'text' ? 'text' : 'rect');
        if (s.kind === 'text') {
          e.setAttribute('text-anchor', 'middle');
          e.setAttribute('dominant-baseline', 'central');
        }
        g.appendChild(e);
        layer.appendChild(g);
        return { s: s, g: g, e: e };
      });
      function v(s, key, k) { var t = s.t[key]; return t.length === 1 ? t[0] : t[k]; }
      var order = '';
      function draw(k) {
        shapes.forEach(function (o) {
          var s = o.s, e = o.e;
          o.g.setAttribute('transform', 'translate(' + v(s, 'x', k) + ' ' + v(s, 'y', k) + ') rotate(' + v(s, 'rot', k) +
            ') scale(' + v(s, 'sx', k) + ' ' + v(s, 'sy', k) + ')');
          o.g.setAttribute('opacity', v(s, 'op', k));
          e.setAttribute('fill', 'rgb(' + Math.round(v(s, 'r', k)) + ',' + Math.round(v(s, 'g', k)) + ',' + Math.round(v(s, 'b', k)) + ')');
          if (s.kind === 'rect') {
            var w = v(s, 'w', k), h = v(s, 'h', k), r = v(s, 'rad', k);
            e.setAttribute('x', -w / 2); e.setAttribute('y', -h / 2);
            e.setAttribute('width', w); e.setAttribute('height', h);
            e.setAttribute('rx', r); e.setAttribute('ry', r);
          } else if (s.kind === 'circle') {
            e.setAttribute('r', v(s, 'rad', k));
          } else {
            e.setAttribute('font-size', v(s, 'font', k));
            var text = s.text.length === 1 ? s.text[0] : s.text[k];
            if (e.textContent !== text) e.textContent = text;
          }
        });
        // Paint order: by z, then declaration order; re-append only when it changes.
        var idx = shapes.map(function (_, i) { return i; });
        idx.sort(function (a, b) { var za = v(shapes[a].s, 'z', k), zb = v(shapes[b].s, 'z', k); return za !== zb ? za - zb : a - b; });
        var key = idx.join(',');
        if (key !== order) { order = key; idx.forEach(function (i) { layer.appendChild(shapes[i].g); }); }
      }
      var t = 0, frame = -1, playing = false, stamp = null;
      // The last sample at or before `time` (seconds).
      function frameAt(time) {
        var lo = 0, hi = n - 1;
        while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (D.times[mid] <= time + 1e-9) lo = mid; else hi = mid - 1; }
        return lo;
      }
      function show(k) {
        if (k !== frame) { frame = k; draw(k); }
        ui.scrub.value = k;
        ui.time.textContent = D.times[k].toFixed(3) + ' s / ' + last.toFixed(3) + ' s';
        var x = D.strip.x0 + (D.end > 0 ? Math.min(1, D.times[k] / D.end) : 0) * (D.strip.x1 - D.strip.x0);
        ui.head.setAttribute('x1', x); ui.head.setAttribute('x2', x);
        var lines = [];
        D.prints.forEach(function (p) { if (p[0] <= D.times[k] + 1e-9) lines.push('[' + p[0].toFixed(3) + '] ' + p[1]); });
        var text = lines.join('\n');
        if (ui.log.textContent !== text) { ui.log.textContent = text; ui.log.scrollTop = ui.log.scrollHeight; }
      }
      function seek(time) { t = Math.max(0, Math.min(last, time)); show(frameAt(t)); }
      function setPlaying(p) {
        playing = p; stamp = null;
        ui.play.classList.toggle('playing', p);
        if (p) { if (t >= last) t = 0; requestAnimationFrame(tick); }
      }
      function tick(now) {
        if (!playing) return;
        if (stamp !== null) t += (now - stamp) / 1000 * parseFloat(ui.speed.value);
        stamp = now;
        if (t >= last) {
          if (ui.loop.checked && last > 0) { t = t % last; } else { seek(last); setPlaying(false); return; }
        }
        show(frameAt(t));
        requestAnimationFrame(tick);
      }
      function step(d) { setPlaying(false); seek(D.times[Math.max(0, Math.min(n - 1, frame + d))]); }
      ui.play.addEventListener('click', function () { setPlaying(!playing); });
      ui.prev.addEventListener('click', function () { step(-1); });
      ui.next.addEventListener('click', function () { step(1); });
      ui.scrub.addEventListener('input', function () { setPlaying(false); seek(D.times[parseInt(ui.scrub.value, 10)]); });
      ui.strip.addEventListener('click', function (ev) {
        var box = ui.strip.getBoundingClientRect();
        var x = (ev.clientX - box.left) * (ui.strip.viewBox.baseVal.width / box.width);
        setPlaying(false);
        seek((x - D.strip.x0) / (D.strip.x1 - D.strip.x0) * D.end);
      });
      // Space, ← and → act once wherever the focus is (the speed menu keeps its own keys):
      // the focused control's own reaction (the slider moving, a button or the checkbox
      // toggling) is prevented, or the key would count twice.
      function ours(ev) { return !(ev.target && ev.target.tagName === 'SELECT') && !ev.altKey && !ev.ctrlKey && !ev.metaKey; }
      document.addEventListener('keydown', function (ev) {
        if (!ours(ev)) return;
        if (ev.key === ' ') { ev.preventDefault(); if (!ev.repeat) setPlaying(!playing); }
        else if (ev.key === 'ArrowLeft') { ev.preventDefault(); step(-1); }
        else if (ev.key === 'ArrowRight') { ev.preventDefault(); step(1); }
      });
      document.addEventListener('keyup', function (ev) { if (ours(ev) && ev.key === ' ') ev.preventDefault(); });
      // A time in the fragment: seconds, optionally with a unit (1.5, 1.5s, 1500ms); null if not one.
      function parseTime(text) {
        var m = /^\s*(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?\s*(s|ms)?\s*$/i.exec(text);
        if (!m) return null;
        var x = parseFloat(m[1] + (m[2] || ''));
        if (!isFinite(x)) return null;
        return m[3] && m[3].toLowerCase() === 'ms' ? x / 1000 : x;
      }
      // #t=1.5 opens paused at that time; #shot shows only the stage.
      var hash = {};
      location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
        if (!kv) return;
        var at = kv.indexOf('='), key = at < 0 ? kv : kv.slice(0, at), value = at < 0 ? '' : kv.slice(at + 1);
        try { value = decodeURIComponent(value); } catch (e) { /* keep it as written */ }
        hash[key] = value;
      });
      if ('shot' in hash) document.body.className = 'shot';
      if ('t' in hash) {
        var start = parseTime(hash.t);
        if (start === null) {
          ui.note.textContent = '#t=' + hash.t + ' is not a time (write #t=1.5, #t=1.5s or #t=1500ms): showing 0 s.';
          start = 0;
        }
        seek(start);
      } else { seek(0); setPlaying(true); }
      document.documentElement.setAttribute('data-ready', String(frame));
    })();
    """#
}
