// Diagnostic: what went wrong and where, as data. Every pass appends diagnostics to a
// DiagnosticBag and keeps going; DiagnosticRenderer turns them into text.
// Invariant: messages are lowercase, end without a period, and quote names in single quotes.

/// How serious a diagnostic is.
public enum Severity: String, Hashable, Sendable {
    case error
    case warning
    case note
}

/// One finding: a message at a primary span, with optional labels, notes and help.
public struct Diagnostic: Hashable, Sendable {
    /// A secondary location with a short label, drawn with `-` under the span.
    public struct Label: Hashable, Sendable {
        /// Where the label points.
        public var span: Span
        /// The label text.
        public var text: String
        /// Creates a label.
        public init(span: Span, text: String) { self.span = span; self.text = text }
    }

    /// Error, warning or note.
    public var severity: Severity
    /// The message on the first line.
    public var message: String
    /// The primary span, underlined with `^`.
    public var span: Span
    /// Text written after the carets, if any.
    public var label: String?
    /// Secondary locations.
    public var secondary: [Label]
    /// `= note:` lines.
    public var notes: [String]
    /// A `help:` line saying how to fix the problem.
    public var help: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at span: Span, label: String? = nil,
                secondary: [Label] = [], notes: [String] = [], help: String? = nil) {
        self.severity = severity
        self.message = message
        self.span = span
        self.label = label
        self.secondary = secondary
        self.notes = notes
        self.help = help
    }

    /// An error diagnostic.
    public static func error(_ message: String, at span: Span, label: String? = nil,
                             notes: [String] = [], help: String? = nil) -> Diagnostic {
        Diagnostic(.error, message, at: span, label: label, notes: notes, help: help)
    }

    /// A warning diagnostic.
    public static func warning(_ message: String, at span: Span, label: String? = nil,
                               notes: [String] = [], help: String? = nil) -> Diagnostic {
        Diagnostic(.warning, message, at: span, label: label, notes: notes, help: help)
    }
}

/// Collects diagnostics in the order they are found.
public struct DiagnosticBag: Sendable {
    /// Everything reported so far.
    public private(set) var all: [Diagnostic] = []

    /// An empty bag.
    public init() {}

    /// Whether any error (not warning) was reported.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// The number of errors.
    public var errorCount: Int { all.filter { $0.severity == .error }.count }

    /// Appends a diagnostic.
    public mutating func report(_ d: Diagnostic) { all.append(d) }

    /// Appends an error.
    public mutating func error(_ message: String, at span: Span, label: String? = nil,
                               notes: [String] = [], help: String? = nil) {
        all.append(.error(message, at: span, label: label, notes: notes, help: help))
    }

    /// Appends a warning.
    public mutating func warning(_ message: String, at span: Span, label: String? = nil,
                                 notes: [String] = [], help: String? = nil) {
        all.append(.warning(message, at: span, label: label, notes: notes, help: help))
    }

    /// Appends everything from another bag.
    public mutating func append(contentsOf other: DiagnosticBag) { all.append(contentsOf: other.all) }

    /// Changes the most recent diagnostic (to add a label or note after reporting it).
    public mutating func amendLast(_ change: (inout Diagnostic) -> Void) {
        guard !all.isEmpty else { return }
        change(&all[all.count - 1])
    }

    /// Removes everything.
    public mutating func removeAll() { all.removeAll() }
}
