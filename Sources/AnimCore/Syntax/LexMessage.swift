// LexMessage: every message the lexer can give, in one catalogue (as _RegexParser does), with
// the label and help that go with it. Messages state the problem; the help says how to fix it.

/// The lexer's messages.
enum LexMessage {
    /// `!` alone (anim has `!=` only).
    case loneBang
    /// `&&` or `||`, from C-family languages.
    case foreignLogic(String)
    /// A number with a suffix that is no unit (`1sec`), and the unit it is closest to.
    case unknownUnit(String, suggestion: String?)
    /// A string holding bytes that are not UTF-8.
    case invalidUTF8InString(UInt8)
    /// A string whose line ends before its closing quote.
    case unterminatedString
    /// A character outside the language's alphabet, decoded.
    case unexpectedCharacter(String)
    /// A byte that does not start a UTF-8 sequence.
    case invalidUTF8(UInt8)
    /// An ASCII character or control character the language does not use.
    case unexpectedByte(UInt8)

    /// The units a number may carry, for the did-you-mean of `unknownUnit`.
    static let units = ["s", "ms", "deg", "rad", "turn"]

    /// The first line of the diagnostic.
    var message: String {
        switch self {
        case .loneBang: "unexpected character '!'"
        case .foreignLogic(let op): "unexpected '\(op)'"
        case .unknownUnit(let suffix, let s): "unknown unit '\(suffix)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .invalidUTF8InString(let b): "invalid UTF-8 byte 0x\(String(b, radix: 16)) in a string"
        case .unterminatedString: "unterminated string"
        case .unexpectedCharacter(let s): "unexpected character '\(s)'"
        case .invalidUTF8(let b): "invalid UTF-8 byte 0x\(String(b, radix: 16))"
        case .unexpectedByte(let c):
            if c == 0 { "unexpected NUL" } else if c < 0x20 || c == 0x7F { "unexpected control character 0x\(String(c, radix: 16))" } else {
                "unexpected character '\(Character(Unicode.Scalar(c)))'"
            }
        }
    }

    /// The text after the carets.
    var label: String? {
        switch self {
        case .unterminatedString: "this string has no closing '\"'"
        default: nil
        }
    }

    /// How to fix it.
    var help: String? {
        switch self {
        case .loneBang: "'!=' compares for inequality; 'not' negates a bool"
        case .foreignLogic(let op): "write '\(op == "&&" ? "and" : "or")'"
        case .unknownUnit: "units are s, ms, deg, rad and turn"
        case .invalidUTF8InString: "anim reads scripts as UTF-8; save the file in that encoding"
        case .unexpectedCharacter: "names use ASCII letters, digits and '_'"
        case .unterminatedString, .invalidUTF8, .unexpectedByte: nil
        }
    }
}
