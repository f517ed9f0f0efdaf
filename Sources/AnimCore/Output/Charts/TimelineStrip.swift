public enum TimelineStrip { public static func standaloneSVG(_ t: Timeline) -> String { "" } }
