// SyntaxTree: where the parser puts the syntax tree — flat arrays with indices instead of a
// heap object per node. A node is 16 bytes (a kind, a byte of flags, its span as a start and a
// length, two 32-bit fields); what does not fit goes to `extra`, a run of Int32 holding lists
// (a count, then the items) and small records. Handles (ExprID, StepID, …) are node indices, so
// reading a node costs no reference counting, and the whole tree is a few arrays, freed in one
// go. Names are not stored: a name is the text of its span, interned by the pass that reads it.
// The typed views the passes switch over are in AST.swift, decoded in SyntaxTree+Views.swift.

// MARK: - Handles

/// A handle to one node of a `SyntaxTree`.
public protocol SyntaxID: Hashable, Sendable {
    /// The node's index.
    var raw: Int32 { get }
    /// A handle from a node index.
    init(raw: Int32)
}

/// An expression.
public struct ExprID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A step of a chain.
public struct StepID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A chain.
public struct ChainID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A top-level statement.
public struct StmtID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A property assignment in a tween block or a `set`.
public struct AssignmentID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A keyframe.
public struct KeyframeID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// An easing as written.
public struct EasingID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// One argument of an easing.
public struct EasingArgumentID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A tween option.
public struct OptionID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A `key value` pair: a declaration's property or a spring's parameter.
public struct PropertyInitID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }
/// A name on its own (a define's parameter).
public struct IdentifierID: SyntaxID { public let raw: Int32; public init(raw: Int32) { self.raw = raw } }

/// A list of nodes in a tree: where it starts in the tree's `extra` (0 is the empty list).
public struct SyntaxList<Element: SyntaxID>: Hashable, Sendable {
    let offset: Int32
    /// The empty list.
    public static var empty: SyntaxList { SyntaxList(offset: 0) }
}

/// The items of a list, in order.
public struct SyntaxItems<Element: SyntaxID>: RandomAccessCollection {
    let extra: SyntaxRun<Int32>?
    let first: Int
    /// How many items.
    public let count: Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    @inline(__always) public subscript(i: Int) -> Element { Element(raw: extra.unsafelyUnwrapped[first + i]) }
}

// MARK: - Storage

/// What a node is.
enum SyntaxKind: UInt8 {
    case number, string, color, bool, name, member, index, call, pair, list, unary, binary, not
    case animate, spring, wait, print, set, expect, block, `repeat`, stagger, play, relative, control, conditional, select
    case chain, assignment, keyframe, easing, easingNumber, easingWord, option, property, identifier
    case stage, shape, group, `let`, seed, define, topWait, at, onChange, topChain
}

/// One node: 16 bytes.
struct SyntaxNode {
    var kind: SyntaxKind
    /// Small facts: an operator, a unit, a verb, `yoyo`, `reversed` …
    var flags: UInt8
    /// The span's length, or `SyntaxNode.long` when it is in `SyntaxTree.longEnds`.
    var length: UInt16
    /// The span's first byte.
    var start: UInt32
    /// Kind-specific fields: child indices, list or record offsets in `extra`, byte offsets.
    var a: Int32
    var b: Int32

    /// The length that says "the end is stored apart": spans of 64 KiB and more (a long block).
    static let long: UInt16 = .max
}

extension SyntaxTree {
    /// The flag of a block node the parser made around a step named mid-chain (`a as n then b`):
    /// written without `< >`, it is otherwise the block `< a as n >`.
    static let implicitBlock: UInt8 = 1
}

/// A parsed source: its nodes and the top-level statements.
public struct SyntaxTree: Sendable {
    /// The source the spans point into.
    public let file: SourceFile
    var nodes: SyntaxRun<SyntaxNode>
    /// Lists (count, then items) and records; `extra[0]` is the empty list.
    var extra: SyntaxRun<Int32>
    var colors: [Color] = []
    var strings: [String] = []
    /// The ends of spans too long for `SyntaxNode.length`, by node.
    var longEnds: [Int32: UInt32] = [:]
    /// For a subtree copied out of a larger tree: the index its arrays start at in that tree
    /// (handles keep their values).
    var nodeBase: Int32 = 0, extraBase: Int32 = 0, colorBase: Int32 = 0, stringBase: Int32 = 0
    /// Where each top-level statement's nodes begin (they end with the statement's own node).
    var statementStarts: [Mark] = []
    /// The top-level statements, in order.
    public internal(set) var statements: SyntaxList<StmtID> = .empty

    /// Positions in the arrays, taken before a statement is parsed.
    struct Mark: Sendable {
        var node: Int32, extra: Int32, color: Int32, string: Int32
    }

    /// An empty tree for a source, with room for about `nodes` nodes and `extra` list items.
    init(file: SourceFile, nodes: Int = 0, extra: Int = 0) {
        self.file = file
        self.nodes = SyntaxRun(capacity: nodes)
        self.extra = SyntaxRun(capacity: extra)
        self.extra.append(0)
    }

    // MARK: Reading

    /// The items of a list.
    public subscript<T>(list: SyntaxList<T>) -> SyntaxItems<T> {
        guard list.offset != 0 else { return SyntaxItems(extra: nil, first: 0, count: 0) }
        let at = Int(list.offset &- extraBase)
        return SyntaxItems(extra: extra, first: at &+ 1, count: Int(extra[at]))
    }

    /// The number of items in a list.
    public func count<T>(_ list: SyntaxList<T>) -> Int {
        list.offset == 0 ? 0 : Int(extra[Int(list.offset &- extraBase)])
    }

    @inline(__always) func node(_ raw: Int32) -> SyntaxNode { nodes[Int(raw &- nodeBase)] }

    /// The `k`th Int32 of a record.
    @inline(__always) func field(_ record: Int32, _ k: Int) -> Int32 { extra[Int(record &- extraBase) &+ k] }

    /// The span of any node.
    @inline(__always) public func span(_ id: some SyntaxID) -> Span { span(ofNode: id.raw) }

    @inline(__always) func span(ofNode raw: Int32) -> Span {
        let n = node(raw)
        guard n.length != SyntaxNode.long else { return Span(source: file.id, start: n.start, end: longEnds[raw]!) }
        return Span(source: file.id, start: n.start, end: n.start &+ UInt32(n.length))
    }

    /// A span from two offsets kept in a record (`start` < 0: none).
    func span(_ start: Int32, _ end: Int32) -> Span? {
        start < 0 ? nil : Span(source: file.id, start: Int(start), end: Int(end))
    }

    /// The source text of a span.
    public func text(_ span: Span) -> String { file.text(of: span) }

    /// An optional handle kept as an Int32 (-1: none).
    @inline(__always) func optional<T: SyntaxID>(_ raw: Int32) -> T? { raw < 0 ? nil : T(raw: raw) }

    // MARK: Building (the parser's side)

    /// Appends a node and returns its index.
    @inline(__always) mutating func add(_ kind: SyntaxKind, _ span: Span, flags: UInt8 = 0, _ a: Int32 = -1, _ b: Int32 = -1) -> Int32 {
        let raw = Int32(nodes.count)
        let length = span.end - span.start
        var n = SyntaxNode(kind: kind, flags: flags, length: UInt16(truncatingIfNeeded: length), start: span.start, a: a, b: b)
        if length >= UInt32(SyntaxNode.long) {
            n.length = SyntaxNode.long
            longEnds[raw] = span.end
        }
        nodes.append(n)
        return raw
    }

    /// Appends a record of Int32 fields and returns its offset.
    @inline(__always) func record(_ a: Int32, _ b: Int32) -> Int32 {
        let at = Int32(extra.count)
        extra.append(a); extra.append(b)
        return at
    }

    @inline(__always) func record(_ a: Int32, _ b: Int32, _ c: Int32) -> Int32 {
        let at = record(a, b)
        extra.append(c)
        return at
    }

    @inline(__always) func record(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> Int32 {
        let at = record(a, b)
        extra.append(c); extra.append(d)
        return at
    }

    func record(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32, _ e: Int32, _ f: Int32, _ g: Int32) -> Int32 {
        let at = record(a, b, c, d)
        extra.append(e); extra.append(f); extra.append(g)
        return at
    }

    /// Appends a record of any number of Int32 fields and returns its offset.
    func record(fields: [Int32]) -> Int32 {
        let at = Int32(extra.count)
        for f in fields { extra.append(f) }
        return at
    }

    /// Moves the items pushed on `scratch` since `mark` into a list.
    @inline(__always) func list<T>(_ scratch: SyntaxRun<Int32>, from mark: Int) -> SyntaxList<T> {
        let n = scratch.count &- mark
        guard n > 0 else { return .empty }
        let at = Int32(extra.count)
        extra.append(Int32(n))
        if n == 1 { extra.append(scratch[mark]) } else { extra.append(contentsOf: scratch.buffer(mark..<scratch.count)) }
        scratch.removeLast(n)
        return SyntaxList(offset: at)
    }

    /// A list of the given items.
    func list<T>(_ items: [T]) -> SyntaxList<T> {
        guard !items.isEmpty else { return .empty }
        let at = Int32(extra.count)
        extra.append(Int32(items.count))
        for i in items { extra.append(i.raw) }
        return SyntaxList(offset: at)
    }

    /// A list of the values of some keyframes (each keyframe node's `a`), made from the
    /// keyframes' list in the tree, with no array of them on the way (one allocation per
    /// keyframe list before).
    func list(valuesOf frames: SyntaxList<KeyframeID>) -> SyntaxList<ExprID> {
        let at = Int(frames.offset &- extraBase)
        let n = frames.offset == 0 ? 0 : Int(extra[at])
        guard n > 0 else { return .empty }
        let offset = Int32(extra.count)
        extra.append(Int32(n))
        for k in 1...n { extra.append(node(extra[at + k]).a) }
        return SyntaxList(offset: offset)
    }

    /// Where the arrays end now: the start of the next statement.
    var mark: Mark { Mark(node: Int32(nodes.count), extra: Int32(extra.count), color: Int32(colors.count), string: Int32(strings.count)) }

    // MARK: Subtrees

    /// A copy of the nodes of the top-level statement `stmt` alone (a define kept for later
    /// checks), so that the rest of the tree can go. Handles into it keep their values.
    public func subtree(of stmt: StmtID) -> SyntaxTree {
        guard nodeBase == 0, let k = statementStarts.lastIndex(where: { $0.node <= stmt.raw }) else { return self }
        let from = statementStarts[k]
        var t = SyntaxTree(file: file)
        t.nodes = SyntaxRun(nodes.buffer(Int(from.node)..<(Int(stmt.raw) + 1)))
        let extraEnd = k + 1 < statementStarts.count ? Int(statementStarts[k + 1].extra) : extra.count
        t.extra = SyntaxRun(extra.buffer(Int(from.extra)..<extraEnd))
        let colorEnd = k + 1 < statementStarts.count ? Int(statementStarts[k + 1].color) : colors.count
        t.colors = Array(colors[Int(from.color)..<colorEnd])
        let stringEnd = k + 1 < statementStarts.count ? Int(statementStarts[k + 1].string) : strings.count
        t.strings = Array(strings[Int(from.string)..<stringEnd])
        t.longEnds = longEnds.filter { $0.key >= from.node && $0.key <= stmt.raw }
        t.nodeBase = from.node
        t.extraBase = from.extra
        t.colorBase = from.color
        t.stringBase = from.string
        return t
    }

    /// Bytes the tree's arrays hold (for `anim bench`).
    public var byteCount: Int {
        nodes.byteCount + extra.byteCount + colors.capacity * MemoryLayout<Color>.stride
            + strings.capacity * MemoryLayout<String>.stride
    }
}
