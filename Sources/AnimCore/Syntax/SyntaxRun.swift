// SyntaxRun: a growable run of plain values, the storage of a SyntaxTree's nodes and lists.
// The parser appends to it without the copy-on-write checks an array makes at every append
// (a tenth of the parser's instructions): a run has one owner while it grows, the parser, and
// is only read once the tree is handed on, so sharing it is safe.

/// A growable run of plain values: appended to by one parser, then only read.
final class SyntaxRun<Element: BitwiseCopyable>: @unchecked Sendable {
    /// The values, `count` of them, in room for `capacity`.
    private(set) var base: UnsafeMutablePointer<Element>
    /// How many values there are.
    private(set) var count = 0
    private var capacity: Int

    /// An empty run with room for `capacity` values (pages not written stay out of memory).
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// A run holding a copy of some values.
    convenience init(_ values: UnsafeBufferPointer<Element>) {
        self.init(capacity: values.count)
        base.initialize(from: values.baseAddress!, count: values.count)
        count = values.count
    }

    deinit { base.deallocate() }

    /// Appends a value.
    @inline(__always) func append(_ x: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: x)
        count &+= 1
    }

    /// Appends values.
    func append(contentsOf values: UnsafeBufferPointer<Element>) {
        while count + values.count > capacity { grow() }
        (base + count).initialize(from: values.baseAddress!, count: values.count)
        count += values.count
    }

    /// The value at `i` (which must be below `count`).
    @inline(__always) subscript(i: Int) -> Element {
        assert(i >= 0 && i < count, "index \(i) out of a run of \(count)")
        return base[i]
    }

    /// Drops the last `n` values.
    @inline(__always) func removeLast(_ n: Int) {
        assert(n <= count)
        count &-= n
    }

    /// The values in `range`, as a buffer valid while the run lives.
    func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Bytes it holds room for.
    var byteCount: Int { capacity * MemoryLayout<Element>.stride }

    @inline(never) private func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.initialize(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}
