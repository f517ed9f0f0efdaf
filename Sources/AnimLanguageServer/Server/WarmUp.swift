// WarmUp: the core run once over a small script when `anim lsp` starts, before the editor's
// first document arrives, so that the first analysis finds the prelude made, the code paged in,
// the dynamic linker's symbols bound and the runtime's type metadata made: work a process does
// once, on the first use of each, which the first `initialize` → diagnostics otherwise waited
// for (see README, "Speed", for the figures).
import AnimCore

extension LanguageServer {
    /// A script of every kind of statement an editor's document has: shapes of each kind, an
    /// array and a group, a `let`, a `define` played, tweens with easings, a spring, keyframes,
    /// `after`/`with`, `stagger`, `repeat`, `at` with an interpolated print, waits and a `set`.
    /// (It checks and runs clean: `WarmUpTests`.)
    static let warmUpScript = """
stage 400 x 300 color navy
rect box center (60, 60) size (40, 40) color #3366ff radius 4 glow 0
circle dot center (200, 150) radius 12 color orange
text label center (200, 40) text "warm" font 18 color white
rect card[4] center (60 + 80 * i, 240) size (30, 30) color red
group pair = [box, dot]
let gap = 12
define hop(s, h) = animate 0.2 ease ease-out < s.offset = (0, -h) > then animate 0.2 ease ease-in < s.offset = (0, 0) >
animate 0.5 ease ease-in-out < box.center = (300, 60) > then animate 0.25 < box.alpha = 0.5 > as slide
spring response 0.4 damping-ratio 0.7 < dot.size = (30, 30) >
after slide + 0.1 < animate 0.3 < box.scale = 1.5 > >
with slide < play hop(dot, gap) >
animate 1 ease steps(4) < dot.z = 2 ; box.radius = 8 ; box.glow = 1 >
animate 0.8 < box.rotation = [0deg, 90deg at 0.3, 45deg ease ease-out] >
stagger 0.1 from center for c in card < animate 0.3 ease cubic-bezier(0.2, 0, 0, 1) < c.center.y = 200 > >
repeat 2 yoyo < animate 0.1 < label.color = red > >
at 0.25 < print "box at {box.center.x}, {box.center.y}" >
wait 0.05
stagger 0 for s in pair < animate 0.4 < s.alpha = 0.8 > >
wait
set dot.color = hsl(120, 0.5, 0.5)
print "done {gap * 2}"
"""

    /// Analyses `warmUpScript` as a document's first version is (diagnostics, names, step
    /// times), and lets it go.
    public static func warmUp() {
        let analysis = Session.analyze(name: "warm-up.anim", bytes: Array(warmUpScript.utf8))
        _ = analysis.symbols
        _ = analysis.stepTimes
    }
}
