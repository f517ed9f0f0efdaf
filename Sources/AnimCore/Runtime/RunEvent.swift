// RunEvent: the interpreter's output port — what a run reports as it goes: printed messages,
// failed expectations, run-time errors and trace samples, in time order. Front ends format
// them (Output/EventFormatter).

/// One reported event.
public enum RunEvent: Sendable {
    /// `print`: a message at an instant.
    case print(time: Time, text: String)
    /// A failed `expect`.
    case expectFailed(time: Time, diagnostic: Diagnostic)
    /// An error that stopped a graph or the run.
    case runtimeError(time: Time, diagnostic: Diagnostic)
    /// One frame of `--trace`: each traced expression's text and value (nil before it exists).
    case trace(time: Time, values: [(String, Value?)])
}

/// Receives events as a run produces them.
public protocol RunEventSink: AnyObject {
    /// Handles one event.
    func emit(_ event: RunEvent)
}
