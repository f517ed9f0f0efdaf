public enum LottieExporter { public static func export(_ t: Timeline, fps: Int) -> String { "" } }
