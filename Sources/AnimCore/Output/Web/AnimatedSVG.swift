public enum AnimatedSVG { public static func render(_ t: Timeline, fps: Int) -> String { "" } }
