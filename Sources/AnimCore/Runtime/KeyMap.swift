// KeyMap: a hash map from property keys to values, for the interpreter's per-property tables
// (who writes a property, who wrote it last) and the log's rows. Open
// addressing with linear probing, a multiplicative hash and backward-shift deletion: a lookup
// is a multiply and a few compares, where Dictionary runs a seeded SipHash. Iteration follows
// the table, so it is the same from run to run.

/// A map from property keys to values.
struct KeyMap<Value>: Sequence {
    /// The packed key in each slot (`PropertyKey.packed`); `empty` marks a free slot.
    private var keys: [Int64]
    private var values: [Value?]
    /// How many entries there are.
    private(set) var count = 0
    private var mask: Int

    /// The packed key no entry may have (it marks free slots): shape index −2³¹.
    static var empty: Int64 { .min }

    /// An empty map. Its table is made at the first insertion, not here: most logs are a
    /// named step's recording, made for every named run whether it records much or not, and
    /// two arrays of 16 for each cost 0.7 M instructions of the run of lsp-5000 (450
    /// recordings; callgrind). Until then every probe is skipped (`count == 0`).
    init() {
        keys = []
        values = []
        mask = -1
    }

    var isEmpty: Bool { count == 0 }

    /// Fibonacci hashing: the key times 2⁶⁴/φ, top bits first.
    @inline(__always)
    private func home(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot holding `key`, or the free slot where it would go.
    @inline(__always)
    private func slot(of key: Int64) -> Int {
        var i = home(key)
        while true {
            let k = keys[i]
            if k == key || k == KeyMap.empty { return i }
            i = (i + 1) & mask
        }
    }

    subscript(key: PropertyKey) -> Value? {
        get { count == 0 ? nil : values[slot(of: key.packed)] }
        set {
            if let v = newValue { insert(key, v) } else { removeValue(forKey: key) }
        }
    }

    private mutating func insert(_ key: PropertyKey, _ value: Value) {
        _ = updateValue(value, forKey: key)
    }

    /// Sets the value for a key and returns the one it replaces, in one probe.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey k: PropertyKey) -> Value? {
        let key = k.packed
        if keys.isEmpty { grow() }
        var i = slot(of: key)
        if keys[i] == KeyMap.empty {
            // Keep the load at most 1/2 so probes stay short.
            if (count + 1) * 2 > keys.count {
                grow()
                i = slot(of: key)
            }
            keys[i] = key
            count += 1
        }
        let old = values[i]
        values[i] = value
        return old
    }

    /// Removes an entry if its value passes `test`; returns whether it did.
    mutating func removeValue(forKey key: PropertyKey, if test: (Value) -> Bool) -> Bool {
        guard count > 0 else { return false }
        let i = slot(of: key.packed)
        guard keys[i] != KeyMap.empty, let v = values[i], test(v) else { return false }
        removeValue(forKey: key)
        return true
    }

    /// Removes an entry, moving later entries of its probe run back into the hole.
    @discardableResult
    mutating func removeValue(forKey key: PropertyKey) -> Value? {
        guard count > 0 else { return nil }
        var i = slot(of: key.packed)
        guard keys[i] != KeyMap.empty else { return nil }
        let old = values[i]
        count -= 1
        var j = i
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k == KeyMap.empty { break }
            // Entry j may move to i unless its home lies cyclically in (i, j].
            let h = home(k)
            let stays = i <= j ? (i < h && h <= j) : (i < h || h <= j)
            if stays { continue }
            keys[i] = k
            values[i] = values[j]
            i = j
        }
        keys[i] = KeyMap.empty
        values[i] = nil
        return old
    }

    /// Doubles the table (the first makes it, with 16 slots).
    private mutating func grow() {
        if keys.isEmpty {
            keys = [Int64](repeating: KeyMap.empty, count: 16)
            values = [Value?](repeating: nil, count: 16)
            mask = 15
            return
        }
        let oldKeys = keys, oldValues = values
        keys = [Int64](repeating: KeyMap.empty, count: oldKeys.count * 2)
        values = [Value?](repeating: nil, count: oldKeys.count * 2)
        mask = keys.count - 1
        for (k, v) in zip(oldKeys, oldValues) where k != KeyMap.empty {
            let i = slot(of: k)
            keys[i] = k
            values[i] = v
        }
    }

    /// Removes every entry (keeping the table's size).
    mutating func removeAll() {
        for i in keys.indices { keys[i] = KeyMap.empty; values[i] = nil }
        count = 0
    }

    func makeIterator() -> AnyIterator<(key: PropertyKey, value: Value)> {
        var i = 0
        let keys = keys, values = values
        return AnyIterator {
            while i < keys.count {
                defer { i += 1 }
                if keys[i] != KeyMap.empty, let v = values[i] { return (PropertyKey(packed: keys[i]), v) }
            }
            return nil
        }
    }
}

extension KeyMap: Sendable where Value: Sendable {}
