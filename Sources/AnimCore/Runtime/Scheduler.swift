// Scheduler: when things happen. Events wait in one queue in global time (EventQueue); those of
// instances whose clock is stopped (a pause) or whose live play waits while they replay sit
// apart, parked, with their local times, until a clock change requeues them. It also counts
// the events of the current instant, so a loop that does not advance time is stopped, and the
// work left before the interpreter next asks whether to stop.

/// The interpreter's events and the counts that bound its clock loop.
struct Scheduler {
    /// Events due, in global time.
    var queue = EventQueue()
    /// Events of paused or replaying instances, with their local times.
    var parked: [QueuedEvent] = []
    /// How many events fired at the instant being processed.
    var eventsThisInstant = 0
    /// Events and clock moves left before `Interpreter.shouldStop` is asked again.
    var untilStopCheck = 0
}
