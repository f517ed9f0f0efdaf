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
//
// The script is written in four pieces, one job each, joined here into the one function it is:
// this file's setup (track decoding, the page's controls, the timeline's geometry and text
// measuring), the stage (HTMLPlayerScript+Stage), the clock and the timeline
// (HTMLPlayerScript+Timeline), and the controls, keys, URL fragment and start
// (HTMLPlayerScript+Controls).

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

    /// The script, its glyph-drawing lines marked `//@g ` (`script(glyphs:)`): its pieces in
    /// order, a blank line between them as between the script's other sections.
    static let marked = [setup, stage, timeline, controls].joined(separator: "\n\n")

    /// The script's opening: the helpers every piece uses, the tracks' decoding, the page's
    /// elements (`ui`), and the timeline's geometry, font and text measuring.
    static let setup = #"""
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
      // Sets an attribute unless it already has that value: writing even the same value makes
      // the browser lay out and repaint what depends on it (the stage's size: all its shapes).
      function attr(e, name, value) {
        var text = String(value);
        if (e.getAttribute(name) !== text) e.setAttribute(name, text);
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
    """#
}
