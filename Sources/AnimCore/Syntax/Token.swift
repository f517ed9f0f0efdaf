// Token: what the lexer produces. A token is a kind plus a byte span into its source; the text
// is read back from the source when needed. Keywords are identifiers whose text is reserved.

/// The kinds of token.
public enum TokenKind: UInt8, Hashable, Sendable {
    case identifier, keyword, number, string, color
    case lparen, rparen, lbracket, rbracket, lt, gt
    case comma, semicolon, dot, colon
    case plus, minus, star, slash
    case equal, plusEqual, minusEqual, equalEqual, bangEqual, lessEqual, greaterEqual
    case newline, eof
    /// A lexical error; the lexer has already reported it.
    case error
}

/// Reserved words. They start statements or clauses, so they cannot name shapes or bindings;
/// after a `.` and as a declaration key they are ordinary property names (`title.text`).
public enum Keyword: String, CaseIterable, Hashable, Sendable {
    case stage, rect, circle, text, group, `let`, seed, define
    case animate, spring, wait, print, set, expect
    case `repeat`, forever, yoyo, stagger, `for`, `in`, from, then, `as`, after, with, play, reversed, at, on
    case pause, resume, seek, reverse, interrupt, save, restore
    case delay, ease, speed, within, `true`, `false`
}

/// The unit written directly after a number (`1.5s`, `90deg`).
public enum NumberUnit: UInt8, Hashable, Sendable {
    case none, s, ms, deg, rad, turn

    /// The unit for a suffix, if it is one.
    init?(suffix: String) {
        switch suffix {
        case "s": self = .s
        case "ms": self = .ms
        case "deg": self = .deg
        case "rad": self = .rad
        case "turn": self = .turn
        default: return nil
        }
    }

    /// The suffix text.
    public var suffix: String {
        switch self {
        case .none: ""
        case .s: "s"
        case .ms: "ms"
        case .deg: "deg"
        case .rad: "rad"
        case .turn: "turn"
        }
    }
}

/// One token.
public struct Token: Hashable, Sendable {
    /// The kind.
    public var kind: TokenKind
    /// The bytes it covers.
    public var span: Span
    /// For `.keyword`, which one.
    public var keyword: Keyword?
    /// For `.number`, the unit suffix; the span covers the digits and the suffix.
    public var unit: NumberUnit = .none
    /// For `.number`, where the digits end (the suffix starts).
    public var digitsEnd: UInt32 = 0
    /// Whether whitespace or a line break came directly before this token.
    public var spaceBefore: Bool = false

    /// Whether this token is the given keyword.
    @inline(__always) public func `is`(_ k: Keyword) -> Bool { kind == .keyword && keyword == k }
}

extension TokenKind {
    /// How the token kind is named in messages.
    public var display: String {
        switch self {
        case .identifier: "name"
        case .keyword: "keyword"
        case .number: "number"
        case .string: "string"
        case .color: "color"
        case .lparen: "'('"
        case .rparen: "')'"
        case .lbracket: "'['"
        case .rbracket: "']'"
        case .lt: "'<'"
        case .gt: "'>'"
        case .comma: "','"
        case .semicolon: "';'"
        case .dot: "'.'"
        case .colon: "':'"
        case .plus: "'+'"
        case .minus: "'-'"
        case .star: "'*'"
        case .slash: "'/'"
        case .equal: "'='"
        case .plusEqual: "'+='"
        case .minusEqual: "'-='"
        case .equalEqual: "'=='"
        case .bangEqual: "'!='"
        case .lessEqual: "'<='"
        case .greaterEqual: "'>='"
        case .newline: "end of line"
        case .eof: "end of input"
        case .error: "invalid token"
        }
    }
}
