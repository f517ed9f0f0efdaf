// EventQueue: a binary min-heap of timed events. Ties at one instant break by graph order:
// instance creation order, then the node's pre-order index, then scheduling order.

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
    /// A tween's delay is over: it reads its start values and begins.
    case begin(Int32)
    /// A timed node (tween, wait) ends.
    case end(Int32)
}

/// A priority queue of events.
struct EventQueue {
    private var keys: [EventKey] = []
    private var actions: [EventAction] = []
    private var seq: UInt64 = 0

    var isEmpty: Bool { keys.isEmpty }
    var count: Int { keys.count }

    /// The earliest event's time.
    var nextTime: Time? { keys.first?.time }

    mutating func push(_ time: Time, instance: Int32, node: Int32, _ action: EventAction) {
        seq &+= 1
        keys.append(EventKey(time: time, instance: instance, node: node, seq: seq))
        actions.append(action)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if keys[i] < keys[p] { keys.swapAt(i, p); actions.swapAt(i, p); i = p } else { break }
        }
    }

    mutating func pop() -> (EventKey, EventAction)? {
        guard !keys.isEmpty else { return nil }
        let top = (keys[0], actions[0])
        let lastK = keys.removeLast(), lastA = actions.removeLast()
        if !keys.isEmpty {
            keys[0] = lastK; actions[0] = lastA
            var i = 0
            let n = keys.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n && keys[l] < keys[m] { m = l }
                if r < n && keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(i, m); actions.swapAt(i, m); i = m
            }
        }
        return top
    }

    /// Removes every event for which `drop` is true.
    mutating func removeAll(where drop: (EventAction) -> Bool) {
        var ks: [EventKey] = [], as_: [EventAction] = []
        for (k, a) in zip(keys, actions) where !drop(a) { ks.append(k); as_.append(a) }
        keys = []; actions = []
        for (k, a) in zip(ks, as_) { push(k.time, instance: k.instance, node: k.node, a) }
    }
}
