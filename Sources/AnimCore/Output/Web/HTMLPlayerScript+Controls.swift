// HTMLPlayerScript+Controls: the input of the HTML player's script — its buttons, dragging and
// the wheel on the timeline, hover, resizing and keys; the stage's PNG snapshot; the URL
// fragment (time, range, speed and zoom, read at the start and written back); the live scene
// swap of `anim serve` (`window.animPlayer`); and the start, which closes the script.

extension HTMLPlayerScript {
    /// The controls, keys, snapshot, URL fragment state, live swaps and the start.
    static let controls = #"""
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
        requestAnimationFrame(function () { scrollPending = false; measure(); renderLanes(); placeHead(); });
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
