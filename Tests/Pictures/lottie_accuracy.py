"""Measures how far lottie-web's values of an anim Lottie export are from anim's own, at the
frames and between them.

Usage: lottie_accuracy.py --anim ANIM --lottie-web LOTTIE.JS --chromium CHROMIUM
                          [--fps 30] [--steps 32] [--until T] [--by family|shape] [--json]
                          SCRIPT.anim [SHAPE...]

1. `anim export SCRIPT --lottie --fps F` makes the document.
2. `anim run SCRIPT --trace ... --fps F*STEPS --json` gives anim's exact values (to 6 decimals)
   of every shape's center, offset, scale, rotation, alpha and color at STEPS instants per
   frame: times k / (F * STEPS) s, that is Lottie frames k / STEPS.
3. Headless Chromium loads the document into lottie-web (SVG renderer, subframes on) and, for
   each of those instants, calls goToAndStop(k / STEPS, true) and reads what lottie-web computed
   for each layer: the layer transform (finalTransform.mProp: p, s, r, o), the fill's colour and
   the rect's or ellipse's size (for the scale error). These are the values it draws with.
4. The two are compared per shape and property; k % STEPS == 0 are the frame instants.

Errors, in the units of the bounds that the scene-vocabulary issue sets (0.25 px, 0.001 for
alpha, 0.1 degree for rotation):
  position   px, the distance between the two points (center + offset)
  scale      px, how far the box's corner moves: |scale difference| * half the box's diagonal
  rotation   degrees
  alpha      the layer opacity, 0...1 (anim's alpha clamped to 0...1, as any renderer does)
  color      levels of 255, the largest channel difference; anim's trace gives colours to the
             nearest level, so half a level of the error may be the trace's own rounding

A shape's family is its name up to the first '_' (Tests/Pictures/easings.anim names its probes
so); each family's row is the worst of its shapes. Prints a table, or with --json one JSON
object: {"lottie_web", "fps", "steps", "bounds", "shapes": {name: {prop: {"between",
"between_t", "frames", "frames_t"}}}, "families": {family: {prop: worst between, ...,
"within": bool, "worst": "prop"}}, "table": the table as text}. Exit 1 if a tool fails, 2 for a
usage error.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

# The issue's bounds ("within 0.25 px (0.001 for alpha, 0.1 deg for rotation) of anim's at every
# instant"); scale is held to the position bound at the box's corner, and colour to one level.
BOUNDS = {"position": 0.25, "scale": 0.25, "rotation": 0.1, "alpha": 0.001, "color": 1.0}
PROPERTIES = list(BOUNDS)
UNITS = {"position": "px", "scale": "px", "rotation": "deg", "alpha": "", "color": "lv"}
TRACED = ["center", "offset", "scale", "rotation", "alpha", "color"]

# Runs in the page: loads the document, then for every sample frame reads what lottie-web
# computed for the named layers. Writes {"version", "samples": {name: [[px, py, sx, sy, r, o,
# cr, cg, cb, w, h], ...]}} (or {"error"}) into <pre id="out">.
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8">
<style>html,body{margin:0}#stage{width:%(w)dpx;height:%(h)dpx}</style>
<script src="%(lottie)s"></script></head><body><div id="stage"></div><pre id="out"></pre>
<script>
function report(o) { document.getElementById('out').textContent = JSON.stringify(o); }
try {
  var data = %(doc)s, frames = %(frames)s, names = %(names)s;
  var anim = lottie.loadAnimation({container: document.getElementById('stage'), renderer: 'svg',
                                   loop: false, autoplay: false, animationData: data});
  anim.setSubframe(true);
  var sample = function () {
    try {
      // The first layer of each name (z-order copies share their channels).
      var layers = {};
      anim.renderer.elements.forEach(function (el) {
        if (el && el.data && names.indexOf(el.data.nm) >= 0 && !layers[el.data.nm]) layers[el.data.nm] = el;
      });
      var out = {};
      names.forEach(function (n) { out[n] = []; });
      frames.forEach(function (f) {
        anim.goToAndStop(f, true);
        names.forEach(function (n) {
          var el = layers[n];
          if (!el) { out[n].push(null); return; }
          var m = el.finalTransform.mProp, group = el.itemsData[0].it;
          var shape = group[0].sh, fill = group[1];
          // p: px; s: fraction (lottie-web scales percent by 0.01); r: radians; o: 0...1;
          // fill c: 0...255 (lottie-web scales 0...1 by 255).
          out[n].push([m.p.v[0], m.p.v[1], m.s.v[0], m.s.v[1], m.r.v * 180 / Math.PI, m.o.v,
                       fill.c.v[0], fill.c.v[1], fill.c.v[2], shape.s.v[0], shape.s.v[1]]);
        });
      });
      report({version: lottie.version, samples: out});
    } catch (e) { report({error: String(e && e.stack || e)}); }
  };
  if (anim.isLoaded) sample(); else anim.addEventListener('DOMLoaded', sample);
} catch (e) { report({error: String(e && e.stack || e)}); }
</script></body></html>
"""


def run(args, what, timeout=600):
    """Runs a tool to its end (at most `timeout` seconds, so a browser that hangs fails the run)."""
    try:
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"lottie_accuracy: {what} did not finish within {timeout} s")
    if r.returncode != 0:
        sys.exit(f"lottie_accuracy: {what} failed (exit {r.returncode}):\n{r.stderr.strip()}")
    return r.stdout


def parse_color(text):
    """'#rrggbb' or '#rrggbbaa' as (r, g, b) in 0...255."""
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def anim_values(opts, shapes):
    """{shape: {k: (x, y, sx, sy, deg, alpha, (r, g, b))}}: anim's values at frames k / steps."""
    rate = opts.fps * opts.steps
    traced = ",".join(f"{s}.{p}" for s in shapes for p in TRACED)
    cmd = [opts.anim, "run", opts.script, "--trace", traced, "--fps", str(rate), "--json"]
    if opts.until:
        cmd += ["--until", opts.until]
    out = {s: {} for s in shapes}
    for line in run(cmd, "anim run --trace").splitlines():
        event = json.loads(line)
        if event.get("event") != "trace":
            continue
        # Trace instants are FrameGrid(fps: rate) frames, k / rate s to the nanosecond.
        k = round(event["ns"] * rate / 1e9)
        v = event["values"]
        for s in shapes:
            c, o = v.get(f"{s}.center"), v.get(f"{s}.offset")
            if c is None:
                continue
            scale = v.get(f"{s}.scale", [1, 1])
            if not isinstance(scale, list):
                scale = [scale, scale]
            out[s][k] = (c[0] + (o or [0, 0])[0], c[1] + (o or [0, 0])[1], scale[0], scale[1],
                         v.get(f"{s}.rotation", 0), min(1.0, max(0.0, v.get(f"{s}.alpha", 1))),
                         parse_color(v.get(f"{s}.color", "#000000")))
    return out


def lottie_values(opts, doc, shapes, frames):
    """lottie-web's values: {"version", "samples": {shape: [row per frame]}}."""
    with tempfile.TemporaryDirectory(prefix="anim-lottie-accuracy-") as tmp:
        page = os.path.join(tmp, "page.html")
        with open(page, "w") as f:
            f.write(PAGE % {"w": doc["w"], "h": doc["h"], "lottie": "file://" + os.path.abspath(opts.lottie_web),
                            "doc": json.dumps(doc), "frames": json.dumps(frames), "names": json.dumps(shapes)})
        dom = run([opts.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   f"--user-data-dir={tmp}/profile", "--virtual-time-budget=60000", "--dump-dom",
                   "file://" + page], "chromium --dump-dom")
    start, end = dom.find('<pre id="out">'), dom.find("</pre>")
    text = dom[start + len('<pre id="out">'):end] if start >= 0 and end > start else ""
    if not text:
        sys.exit("lottie_accuracy: the page reported nothing (did lottie-web load?)")
    result = json.loads(text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    if "error" in result:
        sys.exit(f"lottie_accuracy: the page failed: {result['error']}")
    return result


def errors(exact, player):
    """Each property's error at one instant."""
    x, y, sx, sy, deg, alpha, rgb = exact
    px, py, psx, psy, pdeg, palpha, pr, pg, pb, w, h = player
    return {
        "position": math.hypot(px - x, py - y),
        "scale": max(abs(psx - sx), abs(psy - sy)) * math.hypot(w, h) / 2,
        "rotation": abs(pdeg - deg),
        "alpha": abs(palpha - alpha),
        "color": max(abs(pr - rgb[0]), abs(pg - rgb[1]), abs(pb - rgb[2])),
    }


def measure(opts):
    with tempfile.TemporaryDirectory(prefix="anim-lottie-export-") as tmp:
        path = os.path.join(tmp, "doc.json")
        cmd = [opts.anim, "export", opts.script, "-o", path, "--lottie", "--fps", str(opts.fps)]
        if opts.until:
            cmd += ["--until", opts.until]
        run(cmd, "anim export")
        with open(path) as f:
            doc = json.load(f)
    # Layers run top first; declaration order is the reverse (the stage is the bottom layer).
    names = []
    for layer in reversed(doc["layers"]):
        if layer.get("nm") != "stage" and layer.get("nm") not in names:
            names.append(layer["nm"])
    shapes = opts.shapes or names
    missing = [s for s in shapes if s not in names]
    if missing:
        sys.exit(f"lottie_accuracy: no layer for {', '.join(missing)} in the export (layers: {', '.join(names)})")
    exact = anim_values(opts, shapes)
    # Every traced instant inside the document's frames 0 ... op - 1.
    last = (doc["op"] - 1) * opts.steps
    ks = sorted({k for s in shapes for k in exact[s] if k <= last})
    player = lottie_values(opts, doc, shapes, [k / opts.steps for k in ks])
    report = {"lottie_web": player["version"], "fps": opts.fps, "steps": opts.steps, "bounds": BOUNDS, "shapes": {}}
    for s in shapes:
        worst = {p: {"between": 0.0, "between_t": None, "frames": 0.0, "frames_t": None} for p in PROPERTIES}
        for k, row in zip(ks, player["samples"][s]):
            if row is None or k not in exact[s]:
                continue
            where = "frames" if k % opts.steps == 0 else "between"
            for p, e in errors(exact[s][k], row).items():
                if e > worst[p][where]:
                    worst[p][where] = e
                    worst[p][where + "_t"] = round(k / (opts.fps * opts.steps), 6)
        report["shapes"][s] = worst
    families = {}
    for s, worst in report["shapes"].items():
        fam = families.setdefault(s.split("_")[0], {p: 0.0 for p in PROPERTIES})
        for p in PROPERTIES:
            fam[p] = max(fam[p], worst[p]["between"], worst[p]["frames"])
    for fam in families.values():
        over = [p for p in PROPERTIES if fam[p] > BOUNDS[p]]
        fam["within"] = not over
        fam["worst"] = max(PROPERTIES, key=lambda p: fam[p] / BOUNDS[p])
    report["families"] = families
    return report


def table(report, by="family"):
    """The worst errors per family (or per shape), with the verdict against BOUNDS."""
    lines = [f"lottie-web {report['lottie_web']}, export at {report['fps']} fps, {report['steps']} instants per frame; "
             "worst error over all instants (at frames only in parentheses)",
             ""]
    head = [by] + [f"{p} ({UNITS[p] or '0-1'}, <= {BOUNDS[p]:g})" for p in PROPERTIES] + ["verdict"]
    groups = {}
    for s in report["shapes"]:
        groups.setdefault(s.split("_")[0] if by == "family" else s, []).append(s)
    rows = []
    for name, shapes in groups.items():
        worst = {p: max(max(report["shapes"][s][p]["between"], report["shapes"][s][p]["frames"]) for s in shapes)
                 for p in PROPERTIES}
        cells = [name]
        for p in PROPERTIES:
            at_frames = max(report["shapes"][s][p]["frames"] for s in shapes)
            cells.append(f"{worst[p]:.4g} ({at_frames:.2g})")
        over = max(PROPERTIES, key=lambda p: worst[p] / BOUNDS[p])
        cells.append("within" if worst[over] <= BOUNDS[over] else f"over ({over} {worst[over] / BOUNDS[over]:.3g}x)")
        rows.append(cells)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    for r in [head] + rows:
        lines.append("  ".join(c.ljust(widths[i]) for i, c in enumerate(r)).rstrip())
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--anim", required=True)
    ap.add_argument("--lottie-web", required=True, help="lottie.min.js")
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--fps", type=int, default=30, help="the export's frame rate (default 30)")
    ap.add_argument("--steps", type=int, default=32, help="instants per frame (default 32)")
    ap.add_argument("--until", help="passed to anim export and anim run")
    ap.add_argument("--by", choices=["family", "shape"], default="family", help="the table's rows (default: family)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON (with the table in 'table')")
    ap.add_argument("script")
    ap.add_argument("shapes", nargs="*", help="the shapes to measure (default: all)")
    opts = ap.parse_args()
    if opts.fps < 1 or opts.steps < 1 or opts.fps * opts.steps > 10000:
        ap.error("--fps and --steps must be at least 1, and fps * steps at most 10000 (anim's trace limit)")
    report = measure(opts)
    report["table"] = table(report, opts.by)
    print(json.dumps(report) if opts.json else report["table"])


if __name__ == "__main__":
    main()
