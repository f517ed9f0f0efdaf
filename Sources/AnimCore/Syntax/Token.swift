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

extension Keyword {
    /// Whether the keyword starts a step (`animate`, `print`, `pause`, …).
    public var startsStep: Bool {
        switch self {
        case .animate, .spring, .wait, .print, .set, .expect, .repeat, .stagger, .play, .after, .with,
             .pause, .resume, .seek, .reverse, .interrupt, .save, .restore, .speed:
            true
        case .stage, .rect, .circle, .text, .group, .let, .seed, .define, .forever, .yoyo, .for, .in, .from,
             .then, .as, .reversed, .at, .on, .delay, .ease, .within, .true, .false:
            false
        }
    }

    /// Whether the keyword starts a statement that is not a step: a declaration, `at` or `on`.
    public var startsStatement: Bool {
        switch self {
        case .stage, .rect, .circle, .text, .group, .let, .seed, .define, .at, .on: true
        default: false
        }
    }
}

/// The unit written directly after a number (`1.5s`, `90deg`, `25%`).
public enum NumberUnit: UInt8, Hashable, Sendable {
    case none, s, ms, deg, rad, turn
    /// `%`: only a stop position of the easing `linear(...)` takes it (CSS Easing Level 2).
    case percent

    /// The unit for a suffix, if it is one.
    init?(suffix: some Collection<UInt8>) {
        switch suffix.count {
        case 1 where suffix.elementsEqual("s".utf8): self = .s
        case 2 where suffix.elementsEqual("ms".utf8): self = .ms
        case 3 where suffix.elementsEqual("deg".utf8): self = .deg
        case 3 where suffix.elementsEqual("rad".utf8): self = .rad
        case 4 where suffix.elementsEqual("turn".utf8): self = .turn
        default: return nil
        }
    }

    /// The length of the suffix in bytes.
    var suffixLength: Int {
        switch self {
        case .none: 0
        case .s, .percent: 1
        case .ms: 2
        case .deg, .rad: 3
        case .turn: 4
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
        case .percent: "%"
        }
    }
}

/// One token: 16 bytes, so a 6 MB script's two million tokens take 32 MB.
public struct Token: Hashable, Sendable {
    /// The bytes it covers.
    public var span: Span
    /// The kind.
    public var kind: TokenKind
    /// For `.keyword`, which one.
    public var keyword: Keyword?
    /// For `.number`, the unit suffix; the span covers the digits and the suffix.
    public var unit: NumberUnit = .none
    /// Whether whitespace or a line break came directly before this token.
    public var spaceBefore: Bool = false

    /// Creates a token.
    public init(kind: TokenKind, span: Span, keyword: Keyword? = nil, unit: NumberUnit = .none) {
        self.span = span
        self.kind = kind
        self.keyword = keyword
        self.unit = unit
    }

    /// For `.number`, where the digits end (the unit suffix starts).
    public var digitsEnd: UInt32 { span.end - UInt32(unit.suffixLength) }

    /// Whether this token starts a step: a step keyword or a block's `<`.
    public var startsStep: Bool { kind == .lt || kind == .keyword && keyword!.startsStep }

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
