// LivePage: the page `anim serve` sends — the HTML player exactly as `anim render x.html`
// writes it, with one small script added before `</body>` that listens to `/events`:
//
// - `scene` for a scene other than the one shown: when the event carries a delta from the scene
//   shown (SceneDelta), join it with that scene's text (kept: at first the page's embedded data),
//   else fetch `/scene.json`; parse the text and hand it to the
//   player (`animPlayer.swap`), which swaps the scene in place — no reload, no flash — keeping
//   the playhead (the same time, or the same place inside the named step that held it), playing
//   or paused, the loop range, speed and zoom. The diagnostics the event carries (failed
//   expects) are shown over the stage, and each failed expect is marked at its time on the
//   timeline; a scene without any clears them;
// - `diagnostics`: show them over the stage, exactly as sent (text, never HTML), the last good
//   scene staying on stage; the next good scene clears them.
//
// Scenes that arrive while one is being fetched wait, and only the newest is fetched next, so a
// burst of saves ends on the last one. `window.animSwaps` lists [scene, when its first frame had
// been painted (wall-clock milliseconds), the page's phases, how it came: 'delta' or 'fetch']
// for every swap, for the tests and Scripts/studio-latency. Before the first good scene there is
// no player to show: the page is then a plain one with the same script, showing the diagnostics
// until a scene arrives, which reloads it into the player.
import AnimCore

/// The served page.
public enum LivePage {
    /// The player page with the live script added; `scene` is the number of the scene it shows.
    public static func page(player: String, scene: Int) -> String {
        let script = "<script>\n\(source(scene: scene))\n</script>\n"
        guard let end = player.ranges(of: "</body>").last else { return player + script }
        return player[..<end.lowerBound] + script + player[end.lowerBound...]
    }

    /// The page shown while the script has never run without errors.
    public static func waitingPage(file: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>anim — \(escaped(FileSystem.baseName(of: file)))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <style>body { margin: 16px; font: 13px system-ui, Helvetica, Arial, sans-serif; color: #222; background: #eceef1; }
        @media (prefers-color-scheme: dark) { body { color: #e7e9ec; background: #0f1115; } }
        #anim-diagnostics { margin: 12px 0 0; padding: 12px 14px; background: rgba(22,22,26,.95); color: #f4f4f5; border-left: 4px solid #e5484d;
          border-radius: 6px; font: 12px/1.45 ui-monospace, Menlo, Consolas, monospace; white-space: pre; overflow: auto; }</style>
        </head>
        <body>
        <p id="waiting">Waiting for \(escaped(file)) to run without errors…</p>
        <script>
        \(source(scene: 0))
        </script>
        </body>
        </html>

        """
    }

    /// The live script for a page showing scene `scene` (0: none).
    static func source(scene: Int) -> String {
        #"""
        (function () {
          'use strict';
          var shown = \#(scene), wanted = shown, fetching = false;
          var root = document.documentElement, box = null;
          root.setAttribute('data-scene', String(shown));
          window.animSwaps = [];
          function player() { return window.animPlayer || null; }
          function show(text) {
            if (!box) {
              box = document.createElement('pre');
              box.id = 'anim-diagnostics';
              box.setAttribute('role', 'alert');
              var p = player();
              (p && p.stageBox ? p.stageBox : document.body).appendChild(box);
            }
            box.textContent = text;
          }
          function clear() { if (box) { box.remove(); box = null; } }
          // Failed expects, from the event: each at its time on the timeline.
          function expects(d) { var p = player(); if (p) p.setExpects(d.expects || []); }
          function report(d) { if (d.diagnostics) show(d.diagnostics); else clear(); expects(d); }
          var latest = null;
          // The text of the scene shown, which a delta is joined with: at first the page's own data.
          var embedded = document.getElementById('anim-data'), text = embedded ? embedded.textContent : null;
          // The new scene's text from a delta: runs of the shown text and new text; null when the
          // join is not the length the server says (then the page fetches the scene).
          function joined(delta) {
            if (text === null || !delta || !Array.isArray(delta.parts)) return null;
            var out = [];
            for (var i = 0; i < delta.parts.length; i++) {
              var p = delta.parts[i];
              if (typeof p === 'string') { out.push(p); continue; }
              if (!Array.isArray(p) || p[0] < 0 || p[0] + p[1] > text.length) return null;
              out.push(text.substring(p[0], p[0] + p[1]));
            }
            var s = out.join('');
            return s.length === delta.length ? s : null;
          }
          // Puts scene `scene` (its text and its parsed data) on stage; `at` holds the phases' ends
          // so far (asked, text, parsed).
          function put(sceneText, data, scene, at, via) {
            player().swap(data);
            at.push(performance.now());
            text = sceneText;
            shown = scene;
            if (wanted < shown) wanted = shown;
            root.setAttribute('data-scene', String(shown));
            root.setAttribute('data-swaps', String((parseInt(root.getAttribute('data-swaps') || '0', 10)) + 1));
            // When the new scene's first frame has been painted (wall-clock milliseconds):
            // Scripts/studio-latency measures save → painted with this. A message posted
            // from the next animation frame's callback is handled after that frame's style,
            // layout and paint, so the time read then includes them (the callback's own
            // timestamp is the frame's start, which can be earlier than the swap's end). The
            // third entry is the page's phases: when it asked for the scene (wall-clock
            // milliseconds), then in milliseconds fetch (or the delta's join), parse, swap, and
            // from the swap's end to the painted frame.
            var swapped = shown;
            requestAnimationFrame(function () {
              var channel = new MessageChannel();
              channel.port1.onmessage = function () {
                var now = performance.now();
                window.animSwaps.push([swapped, performance.timeOrigin + now, { asked: performance.timeOrigin + at[0], fetch: at[1] - at[0], parse: at[2] - at[1], swap: at[3] - at[2], frame: now - at[3] }, via]);
              };
              channel.port2.postMessage(0);
            });
            if (latest && latest.scene === shown) report(latest);
          }
          // Swaps in the event's scene from its delta; false when it cannot (then it is fetched).
          function fromDelta(d) {
            if (fetching || !d.delta || d.delta.base !== shown || d.scene <= shown) return false;
            var at = [performance.now()], s = joined(d.delta), data;
            if (s === null) return false;
            at.push(performance.now());
            try { data = JSON.parse(s); } catch (e) { return false; }
            at.push(performance.now());
            put(s, data, d.scene, at, 'delta');
            return true;
          }
          function fetchScene() {
            if (fetching || wanted === shown) return;
            fetching = true;
            var asked = wanted;
            // The phases' ends (performance.now()): asked, body fetched, parsed, swapped.
            var at = [performance.now()];
            fetch('/scene.json', { cache: 'no-store' }).then(function (r) {
              var tag = parseInt((r.headers.get('ETag') || '').replace(/"/g, ''), 10);
              if (!r.ok) throw new Error('/scene.json: ' + r.status);
              return r.text().then(function (body) {
                at.push(performance.now());
                var data = JSON.parse(body);
                at.push(performance.now());
                return { text: body, data: data, scene: isFinite(tag) ? tag : asked };
              });
            }).then(function (got) {
              fetching = false;
              if (got.scene >= shown) put(got.text, got.data, got.scene, at, 'fetch');
              fetchScene();
            }, function () { fetching = false; setTimeout(fetchScene, 200); });
          }
          if (typeof EventSource !== 'function') return;
          var events = new EventSource('/events');
          events.addEventListener('open', function () {
            root.setAttribute('data-live', 'connected');
            var live = document.getElementById('live');
            if (live) { live.className = 'connected'; live.textContent = 'live'; }
          });
          events.addEventListener('error', function () {
            root.setAttribute('data-live', 'reconnecting');
            var live = document.getElementById('live');
            if (live) { live.className = ''; live.textContent = 'reconnecting…'; }
          });
          events.addEventListener('scene', function (e) {
            var d = JSON.parse(e.data);
            latest = d;
            if (d.scene === shown) { report(d); return; }
            if (!player()) { location.reload(); return; }
            if (d.scene > wanted) wanted = d.scene;
            if (fromDelta(d)) return;
            fetchScene();
          });
          events.addEventListener('diagnostics', function (e) {
            var d = JSON.parse(e.data);
            latest = null;
            show(d.diagnostics);
            if (d.scene > wanted && player()) { wanted = d.scene; fetchScene(); }
            else if (d.scene !== shown && !player()) location.reload();
          });
        })();
        """#
    }

    /// Text for HTML: `&`, `<`, `>` and `"` escaped.
    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
