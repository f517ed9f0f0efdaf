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

/// A priority queue of events.
struct EventQueue {
    private var heap: [QueuedEvent] = []
    private var seq: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The earliest event's time.
    var nextTime: Time? { heap.first?.key.time }

    mutating func push(_ time: Time, instance: Int32, node: Int32, local: Time, _ action: EventAction) {
        seq &+= 1
        heap.append(QueuedEvent(key: EventKey(time: time, instance: instance, node: node, seq: seq), action: action, local: local))
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if heap[i].key < heap[p].key { heap.swapAt(i, p); i = p } else { break }
        }
    }

    mutating func pop() -> QueuedEvent? {
        guard !heap.isEmpty else { return nil }
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        let n = heap.count
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n && heap[l].key < heap[m].key { m = l }
            if r < n && heap[r].key < heap[m].key { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    /// Removes and returns every event for which `take` is true.
    mutating func extract(where take: (QueuedEvent) -> Bool) -> [QueuedEvent] {
        var taken: [QueuedEvent] = [], kept: [QueuedEvent] = []
        for e in heap { if take(e) { taken.append(e) } else { kept.append(e) } }
        guard !taken.isEmpty else { return [] }
        heap = kept
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        return taken.sorted { $0.key < $1.key }
    }

    /// Puts back an event extracted earlier, at a new time, keeping its order key.
    mutating func reinsert(_ e: QueuedEvent, at time: Time) {
        var x = e
        x.key.time = time
        heap.append(x)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if heap[i].key < heap[p].key { heap.swapAt(i, p); i = p } else { break }
        }
    }
}
