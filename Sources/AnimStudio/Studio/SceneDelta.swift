// SceneDelta: what an open page needs to turn the scene it shows into the next one, when most of
// the scene's JSON is unchanged (an edit moves a few shapes: the rest of a 2 MB scene is the
// same bytes). The JSON is cut into pieces where the player's data has its parts — each key of
// the top object, and each element of its arrays of objects or arrays (a shape, a lane, a bar,
// a step, a print) — and each piece of the new scene is either a run of the old scene's text or
// new text. The page (LivePage) joins the old text's runs and the new text, and parses the
// result as it would parse `/scene.json`: the text is the same, so the data is the same. The
// runs are counted in UTF-16 code units, as the page's strings are.
//
// A delta is sent only when it is small against the scene (`maximumShare`); otherwise the page
// fetches the scene as before.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AnimCore

/// A scene's JSON cut into pieces.
struct ScenePieces: Sendable {
    /// The JSON's bytes.
    let bytes: [UInt8]
    /// Where each piece starts in `bytes`, and then `bytes.count`.
    let cuts: [Int]
    /// Where each piece starts in UTF-16 code units, and then the whole text's length.
    let units: [Int]

    /// How many pieces.
    var count: Int { cuts.count - 1 }

    /// Cuts `json` (the player's data, well-formed: written by HTMLPlayer) before each
    /// bracket opened at depth 1 or 2 and after each comma at depth 1.
    init(_ json: [UInt8]) {
        bytes = json
        var cuts = [0], units = [0]
        // This runs over every byte of a 2 MB scene per save, most of them inside the tracks'
        // strings: those are skipped in a tight loop, which looks only for their end, escapes
        // and bytes beyond ASCII. A byte's UTF-16 offset is its own plus `extra`: −1 for each
        // UTF-8 continuation byte before it, +1 for each 4-byte lead (a surrogate pair).
        json.withUnsafeBufferPointer { p in
            let n = p.count
            var k = 0, depth = 0, extra = 0
            while k < n {
                let c = p[k]
                if c == UInt8(ascii: "\"") {
                    k += 1
                    while k < n {
                        let s = p[k]
                        if s == UInt8(ascii: "\"") { break }
                        if s == UInt8(ascii: "\\") { k += 2; continue }
                        if s >= 0x80 { extra += s & 0xC0 == 0x80 ? -1 : s >= 0xF0 ? 1 : 0 }
                        k += 1
                    }
                    k += 1
                    continue
                }
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth == 1 || depth == 2, cuts.last != k { cuts.append(k); units.append(k + extra) }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                case UInt8(ascii: ","):
                    if depth == 1 { cuts.append(k + 1); units.append(k + 1 + extra) }
                default: break
                }
                k += 1
            }
            if cuts.last != n { cuts.append(n); units.append(n + extra) }
        }
        self.cuts = cuts
        self.units = units
    }

    /// The bytes of piece `i`.
    func piece(_ i: Int) -> ArraySlice<UInt8> { bytes[cuts[i]..<cuts[i + 1]] }

    /// Whether piece `i` has the bytes of `other`'s piece `j` (compared as memory, not byte by byte).
    func same(_ i: Int, as other: ScenePieces, _ j: Int) -> Bool {
        let a = cuts[i], length = cuts[i + 1] - a, b = other.cuts[j]
        guard length == other.cuts[j + 1] - b else { return false }
        guard length > 0 else { return true }
        return bytes.withUnsafeBytes { x in other.bytes.withUnsafeBytes { y in memcmp(x.baseAddress! + a, y.baseAddress! + b, length) == 0 } }
    }
}

/// The new scene as runs of the old one's text and new text.
struct SceneDelta: Sendable, Equatable {
    /// One step of the join.
    enum Part: Sendable, Equatable {
        /// The old text's code units `start ..< start + length`.
        case old(start: Int, length: Int)
        /// New text (UTF-8 bytes of JSON).
        case new([UInt8])
    }

    /// The parts, in order.
    var parts: [Part]
    /// The new text's length in UTF-16 code units (the page checks its join against it).
    var length: Int

    /// The largest share of the new scene's bytes a delta may carry as new text: above it the
    /// page fetches the whole scene (the event would be nearly as large, and the join no cheaper).
    static let maximumShare = 0.25

    /// The delta from `old` to `new`, or nil when it would not be small (`maximumShare`).
    ///
    /// Pieces are matched in order: the old piece after the last one matched, else (a piece
    /// replaced) new text when the next pieces match again, else (pieces inserted or removed)
    /// the old piece with the same bytes anywhere, looked up in a table made only then.
    static func between(_ old: ScenePieces, _ new: ScenePieces) -> SceneDelta? {
        var parts: [Part] = []
        // New text not yet in `parts` (consecutive new pieces become one part).
        var pending: [UInt8] = []
        var newBytes = 0
        let budget = Int(Double(new.bytes.count) * maximumShare)
        var table: [ArraySlice<UInt8>: Int]?
        var expected = 0
        func addOld(_ i: Int) {
            if !pending.isEmpty { parts.append(.new(pending)); pending = [] }
            let start = old.units[i], length = old.units[i + 1] - start
            if case .old(let s, let l)? = parts.last, s + l == start {
                parts[parts.count - 1] = .old(start: s, length: l + length)
            } else {
                parts.append(.old(start: start, length: length))
            }
        }
        func addNew(_ bytes: ArraySlice<UInt8>) {
            newBytes += bytes.count
            pending += bytes
        }
        for j in 0..<new.count {
            let piece = new.piece(j)
            if expected < old.count, new.same(j, as: old, expected) {
                addOld(expected)
                expected += 1
                continue
            }
            // Replaced: the pieces after it match again.
            if expected + 1 < old.count, j + 1 < new.count, new.same(j + 1, as: old, expected + 1) {
                addNew(piece)
                expected += 1
            } else {
                if table == nil {
                    var t: [ArraySlice<UInt8>: Int] = [:]
                    t.reserveCapacity(old.count)
                    for i in 0..<old.count where t[old.piece(i)] == nil { t[old.piece(i)] = i }
                    table = t
                }
                if let i = table![piece] {
                    addOld(i)
                    expected = i + 1
                } else {
                    addNew(piece)
                }
            }
            if newBytes > budget { return nil }
        }
        if !pending.isEmpty { parts.append(.new(pending)) }
        return SceneDelta(parts: parts, length: new.units[new.count])
    }

    /// The delta as the `scene` event carries it: `{"base":N,"length":L,"parts":[[start,length] or "new text",…]}`.
    func json(base: Int) -> String {
        var o = "{\"base\":\(base),\"length\":\(length),\"parts\":["
        for (k, part) in parts.enumerated() {
            if k > 0 { o += "," }
            switch part {
            case .old(let start, let length): o += "[\(start),\(length)]"
            case .new(let bytes): o += quote(String(decoding: bytes, as: UTF8.self), htmlSafe: true)
            }
        }
        return o + "]}"
    }

    /// The new text, from the old one's (what the page does, for the tests).
    func applied(to old: String) -> String {
        let units = Array(old.utf16)
        var out: [UInt16] = []
        for part in parts {
            switch part {
            case .old(let start, let length): out += units[start..<(start + length)]
            case .new(let bytes): out += String(decoding: bytes, as: UTF8.self).utf16
            }
        }
        return String(decoding: out, as: UTF16.self)
    }
}
