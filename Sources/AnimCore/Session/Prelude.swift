// Prelude: the standard library, written in anim itself and loaded into every session: the
// effects of the seed libraries as `define`d sequences, and the four directions `slideIn`
// takes. A script may declare any of these names again; its own declaration wins.

/// The prelude's source text.
public enum Prelude {
    /// The text, shown by Grammar.md and `anim check --dump`.
    public static let source = """
    # Directions for slideIn: where the shape comes from.
    let top = (0, -1)
    let bottom = (0, 1)
    let left = (-1, 0)
    let right = (1, 0)

    # Fade from transparent to opaque, and back.
    define fadeIn(s) = set s.alpha = 0 then animate 0.3 ease ease-out < s.alpha = 1 >
    define fadeOut(s) = animate 0.3 ease ease-in < s.alpha = 0 >

    # Slide in from a direction (top, bottom, left, right) over a distance, fading in.
    define slideIn(s, dir, distance) = set s.offset = dir * distance then set s.alpha = 0
        then animate 0.5 ease ease-out < s.offset = (0, 0); s.alpha = 1 >

    # Grow from a scale to full size with a little overshoot.
    define zoomIn(s, scale) = set s.scale = scale then animate 0.4 ease back-out < s.scale = 1 >

    # Turn in by an angle to the shape's rotation.
    define rotateIn(s, angle) = set s.rotation -= angle then set s.alpha = 0
        then animate 0.5 ease ease-out < s.rotation += angle; s.alpha = 1 >

    # Beat once.
    define pulse(s) = animate 0.15 ease ease-out < s.scale = 1.1 > then animate 0.15 ease ease-in < s.scale = 1 >

    # Shake sideways and settle.
    define shake(s) = animate 0.5 ease linear < s.offset = [(-10, 0), (10, 0), (-8, 0), (8, 0), (-4, 0), (4, 0), (0, 0)] >

    # Arrive from a random place (seeded: the same every run), fading in.
    define randomEntrance(s) = set s.offset = (random(-200, 200), random(-200, 200)) then set s.alpha = 0
        then animate 0.6 ease ease-out < s.offset = (0, 0); s.alpha = 1 >
    """
}
