// LivePage: the page `anim serve` sends — the HTML player exactly as `anim render x.html`
// writes it, with one small script added before `</body>` that listens to `/events`:
//
// - `scene` for a scene other than the one shown: reload the page at the time it shows
//   (`#t=`, so it opens paused there). This is the interim behaviour until the player can swap
//   a scene in place and keep playing;
// - `diagnostics`: show them over the stage, exactly as sent (text, never HTML); a later good
//   scene reloads the page, which clears them.
//
// Before the first good scene there is no player to show: the page is then a plain one with
// the same script, showing the diagnostics until a scene arrives.
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
        <style>body { margin: 16px; font: 13px Helvetica, Arial, sans-serif; color: #222; background: #eceef1; }</style>
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
          var shown = \#(scene);
          var box = null;
          function show(text) {
            if (!box) {
              box = document.createElement('pre');
              box.id = 'anim-diagnostics';
              box.setAttribute('role', 'alert');
              box.style.cssText = 'position:fixed;left:12px;right:12px;top:12px;max-height:70vh;overflow:auto;margin:0;' +
                'padding:12px 14px;background:rgba(24,24,28,.94);color:#f4f4f5;border-left:4px solid #e5484d;' +
                'font:12px/1.45 ui-monospace,Menlo,Consolas,monospace;white-space:pre;z-index:10;border-radius:4px;';
              document.body.appendChild(box);
            }
            box.textContent = text;
          }
          function clear() { if (box) { box.remove(); box = null; } }
          function reload() {
            var time = document.getElementById('time');
            var t = time ? parseFloat(time.textContent) : NaN;
            var rest = location.hash.replace(/^#/, '').split('&').filter(function (kv) { return kv && kv.split('=')[0] !== 't'; });
            if (isFinite(t)) rest.unshift('t=' + t.toFixed(3));
            location.replace(location.pathname + location.search + (rest.length ? '#' + rest.join('&') : ''));
            location.reload();
          }
          if (typeof EventSource !== 'function') return;
          var events = new EventSource('/events');
          events.addEventListener('open', function () { document.documentElement.setAttribute('data-live', 'connected'); });
          events.addEventListener('scene', function (e) {
            var d = JSON.parse(e.data);
            if (d.scene !== shown) { reload(); return; }
            if (d.diagnostics) show(d.diagnostics); else clear();
          });
          events.addEventListener('diagnostics', function (e) {
            var d = JSON.parse(e.data);
            if (d.scene !== shown) { reload(); return; }
            show(d.diagnostics);
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
