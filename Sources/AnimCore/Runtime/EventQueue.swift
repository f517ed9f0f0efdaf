// EventQueue: a binary min-heap of timed events. Ties at one instant break by graph order:
// instance creation order, then the node's pre-order index, then scheduling order. Each event
// also keeps the local time it was scheduled for, so an instance whose clock changes (pause,
// speed, reverse) can be rescheduled exactly.

/// When an event fires and how it is ordered against others at the same instant.
struct EventKey: Comparable {
    var time: Time
    var instance: Int32
    var node: Int32
    var seq: UInt64

    @inline(__always)
    static func < (a: EventKey, b: EventKey) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.instance != b.instance { return a.instance < b.instance }
        if a.node != b.node { return a.node < b.node }
        return a.seq < b.seq
    }
}

/// What happens when an event fires.
enum EventAction {
    /// A node activation starts.
    case start(Int32)
    /// A tween's or spring's delay is over: it reads its start values and begins.
    case begin(Int32)
    /// A timed node (tween, spring, wait) ends.
    case end(Int32)
    /// A tween with an end delay lands before its step ends (`Interpreter.landTimed`).
    case land(Int32)
    /// A yoyo repeat's `repeat-delay` is over: its next pass starts (by the repeat's frame).
    case nextPass(Int32)
    /// A replaying instance crosses a recorded action (index into its recording).
    case replayAction(Int32, Int32)
    /// A replaying instance reaches its start (reversed) or its frontier (forward).
    case replayLimit(Int32)
}

/// One queued event.
struct QueuedEvent {
    var key: EventKey
    var action: EventAction
    /// The instance-local time it was scheduled for.
    var local: Time
}

/// A priority queue of events: a binary min-heap, with two short cuts in front of it.
/// - One slot for an event known to come before everything else. Playing a chain, each step's
///   end schedules the next step's start at the same instant, which is almost always the next
///   event of all; the slot hands it straight back.
/// - A run: events pushed in increasing order, each after the last one in the run, kept in a
///   first-in first-out array. The steps that start together at one instant schedule their
///   ends in graph order, which is event order, so a wave of ten thousand tween ends passes
///   through the run at O(1) each instead of through a heap ten thousand deep.
/// The next event is the least of the slot, the run's first and the heap's top.
struct EventQueue {
    private var heap: [QueuedEvent] = []
    /// An event earlier than every event in the heap and the run, if any.
    private var front: QueuedEvent?
    /// Events in increasing order from `runHead` (those before it are spent).
    private var run: [QueuedEvent] = []
    private var runHead = 0
    private var seq: UInt64 = 0

    var isEmpty: Bool { front == nil && heap.isEmpty && runHead == run.count }
    var count: Int { heap.count + (run.count - runHead) + (front == nil ? 0 : 1) }

    /// The earliest event's time.
    var nextTime: Time? {
        if let f = front { return f.key.time }
        if runHead < run.count {
            let r = run[runHead].key.time
            if let h = heap.first?.key.time, h < r { return h }
            return r
        }
        return heap.first?.key.time
    }

    mutating func push(_ time: Time, instance: Int32, node: Int32, local: Time, _ action: EventAction) {
        seq &+= 1
        insert(QueuedEvent(key: EventKey(time: time, instance: instance, node: node, seq: seq), action: action, local: local))
    }

    private mutating func insert(_ e: QueuedEvent) {
        if let f = front {
            guard e.key < f.key else { return place(e) }
            place(f)
            front = e
        } else if (heap.isEmpty || e.key < heap[0].key) && (runHead == run.count || e.key < run[runHead].key) {
            front = e
        } else {
            place(e)
        }
    }

    /// Puts an event in the run if it comes after the run's last, else in the heap.
    private mutating func place(_ e: QueuedEvent) {
        if runHead == run.count {
            run.removeAll(keepingCapacity: true)
            runHead = 0
            run.append(e)
        } else if run[run.count - 1].key < e.key {
            run.append(e)
        } else {
            heapPush(e)
        }
    }

    mutating func pop() -> QueuedEvent? {
        if let f = front {
            front = nil
            return f
        }
        if runHead < run.count && (heap.isEmpty || run[runHead].key < heap[0].key) {
            let e = run[runHead]
            runHead += 1
            // Drop the spent prefix once it is most of the array (amortized O(1)).
            if runHead >= 1024 && runHead * 2 >= run.count {
                run.removeFirst(runHead)
                runHead = 0
            }
            return e
        }
        guard !heap.isEmpty else { return nil }
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty { siftDown(last, from: 0) }
        return top
    }

    private mutating func heapPush(_ e: QueuedEvent) {
        heap.append(e)
        heap.withUnsafeMutableBufferPointer { h in
            // Move parents down into the hole until e fits.
            var i = h.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                guard e.key < h[p].key else { break }
                h[i] = h[p]
                i = p
            }
            h[i] = e
        }
    }

    /// Places `x` at `start` or below, moving smaller children up into the hole.
    private mutating func siftDown(_ x: QueuedEvent, from start: Int) {
        heap.withUnsafeMutableBufferPointer { h in
            let n = h.count
            var i = start
            while true {
                let l = 2 * i + 1
                guard l < n else { break }
                let r = l + 1
                let m = r < n && h[r].key < h[l].key ? r : l
                guard h[m].key < x.key else { break }
                h[i] = h[m]
                i = m
            }
            h[i] = x
        }
    }

    /// Whether every queued event satisfies `test`.
    func allSatisfy(_ test: (QueuedEvent) -> Bool) -> Bool {
        if let f = front, !test(f) { return false }
        return run[runHead...].allSatisfy(test) && heap.allSatisfy(test)
    }

    /// Removes and returns every event for which `take` is true.
    mutating func extract(where take: (QueuedEvent) -> Bool) -> [QueuedEvent] {
        var taken: [QueuedEvent] = [], kept: [QueuedEvent] = []
        if let f = front { heap.append(f); front = nil }
        heap.append(contentsOf: run[runHead...])
        run.removeAll()
        runHead = 0
        for e in heap { if take(e) { taken.append(e) } else { kept.append(e) } }
        heap = kept
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(heap[i], from: i) }
        return taken.sorted { $0.key < $1.key }
    }

    /// Puts back an event extracted earlier, at a new time, keeping its order key.
    mutating func reinsert(_ e: QueuedEvent, at time: Time) {
        var x = e
        x.key.time = time
        insert(x)
    }
}
