public enum HTMLPlayer { public static func render(_ t: Timeline, fps: Int) -> String { "" } }
