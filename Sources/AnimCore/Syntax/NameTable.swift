// NameTable: names interned once. A name is a run of bytes (an identifier, a hyphenated word
// such as `cubic-in-out`); interning it gives a dense Int32 id, the same for the same bytes, so
// the passes after the parser compare and look up names as integers. The bytes of every name
// live in one array and the table is open addressing over ids: interning a name that is already
// there allocates nothing.

/// A name's id in a `NameTable`.
public struct NameID: Hashable, Comparable, Sendable {
    /// The dense index (the order of first interning).
    public var raw: Int32
    /// Creates an id.
    public init(_ raw: Int32) { self.raw = raw }
    public static func < (a: NameID, b: NameID) -> Bool { a.raw < b.raw }
}

/// Names by id and ids by name.
public struct NameTable: Sendable {
    /// Every name's bytes, one after the other.
    private var bytes: [UInt8] = []
    /// Name `k` is `bytes[ends[k - 1] ..< ends[k]]` (`ends[-1]` being 0).
    private var ends: [UInt32] = []
    /// Open addressing: each slot holds a name's hash (high 32 bits) and its id + 1 (low 32
    /// bits), or 0 when empty, so one load tells a probe whether to compare bytes. The size is
    /// a power of two kept at least twice the number of names, so a probe ends quickly.
    private var slots: [UInt64] = []

    /// An empty table.
    public init() {}

    /// How many names there are.
    public var count: Int { ends.count }

    /// The id of the name spelled by `name`, adding it if it is new.
    public mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> NameID {
        let h = NameTable.hash(name)
        if slots.isEmpty { grow() }
        if let id = find(name, hash: h) { return id }
        let id = Int32(ends.count)
        bytes.append(contentsOf: name)
        ends.append(UInt32(bytes.count))
        if ends.count * 2 > slots.count { grow() }
        insert(id, hash: h)
        return NameID(id)
    }

    /// The id of a name given as a string, adding it if it is new.
    public mutating func intern(_ name: String) -> NameID {
        var s = name
        return s.withUTF8 { intern($0) }
    }

    /// The id of a name, if it has been interned.
    public func id(of name: String) -> NameID? {
        guard !slots.isEmpty else { return nil }
        var s = name
        return s.withUTF8 { find($0, hash: NameTable.hash($0)) }
    }

    /// The text of a name.
    public subscript(id: NameID) -> String {
        let k = Int(id.raw)
        let start = k == 0 ? 0 : Int(ends[k - 1])
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<Int(ends[k])]), as: UTF8.self) }
    }

    /// The length of a name in bytes.
    public func byteCount(_ id: NameID) -> Int {
        let k = Int(id.raw)
        return Int(ends[k]) - (k == 0 ? 0 : Int(ends[k - 1]))
    }

    /// The id of a name with hash `h`, if it is in the table.
    private func find(_ name: UnsafeBufferPointer<UInt8>, hash h: UInt32) -> NameID? {
        slots.withUnsafeBufferPointer { sl in
            bytes.withUnsafeBufferPointer { by in
                ends.withUnsafeBufferPointer { en in
                    let mask = sl.count &- 1
                    var i = Int(h) & mask
                    while true {
                        let s = sl[i]
                        if s == 0 { return nil }
                        if UInt32(truncatingIfNeeded: s >> 32) == h {
                            let k = Int(UInt32(truncatingIfNeeded: s)) &- 1
                            let start = k == 0 ? 0 : Int(en[k &- 1])
                            if Int(en[k]) &- start == name.count {
                                var same = true
                                for j in 0..<name.count where by[start &+ j] != name[j] { same = false; break }
                                if same { return NameID(Int32(k)) }
                            }
                        }
                        i = (i &+ 1) & mask
                    }
                }
            }
        }
    }

    /// Puts an id in the first free slot for its hash.
    private mutating func insert(_ id: Int32, hash h: UInt32) {
        let mask = slots.count - 1
        var i = Int(h) & mask
        while slots[i] != 0 { i = (i + 1) & mask }
        slots[i] = UInt64(h) << 32 | UInt64(UInt32(id + 1))
    }

    /// Doubles the slots (at least 64) and puts every id back.
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: max(64, slots.count * 2))
        for s in old where s != 0 { insert(Int32(UInt32(truncatingIfNeeded: s)) - 1, hash: UInt32(truncatingIfNeeded: s >> 32)) }
    }

    /// FNV-1a over the bytes (Fowler, Noll and Vo; the 32-bit offset basis and prime), then
    /// one multiply-xorshift round so that the low bits, which pick the slot, depend on every
    /// byte. Names are short, so the byte loop is a few steps.
    static func hash(_ p: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for c in p { h = (h ^ UInt32(c)) &* 16_777_619 }
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 12
        return h
    }
}
