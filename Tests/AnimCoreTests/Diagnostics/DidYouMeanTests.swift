// DidYouMean: the closest name in scope by edit distance (optimal string alignment, so an
// adjacent transposition costs 1), within a limit that grows with the name's length.
@testable import AnimCore
import Testing

@Suite("Did you mean")
struct DidYouMeanTests {
    static let distanceCases: [(String, String, Int)] = [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("abc", "abc", 0), ("kitten", "sitting", 3),
        ("centre", "center", 1), ("sqaure", "square", 1), ("ab", "ba", 1), ("dleay", "delay", 1),
        ("ca", "abc", 3),  // optimal string alignment, not full Damerau-Levenshtein (which gives 2)
    ]

    @Test("distance", arguments: distanceCases)
    func distance(a: String, b: String, d: Int) {
        #expect(DidYouMean.distance(a, b) == d)
        #expect(DidYouMean.distance(b, a) == d)
    }

    static let suggestionCases: [(String, [String], String?)] = [
        ("centre", ["center", "size", "scale"], "center"),
        ("sqaure", ["square", "dot"], "square"),
        ("animat", ["animate", "at"], "animate"),
        ("Center", ["center"], "center"),          // a case-only difference always matches
        ("rde", ["red", "blue"], "red"),
        ("xyzzy", ["center", "size"], nil),
        ("a", ["at", "b"], "at"),                   // the limit is at least 1
        ("x", ["z", "size"], nil),                  // replacing every character is no misspelling
        ("xs", ["x", "z"], "x"),
        ("rotaton", ["rotation"], "rotation"),
        ("rtoaton", ["rotation"], "rotation"),      // 2 edits in 7 letters: within 7 / 3
        ("rtoatn", ["rotation"], nil),              // 3 edits: too far
        ("glow", ["glow"], nil),                    // the same name is not a suggestion
    ]

    @Test("suggestions", arguments: suggestionCases)
    func suggestions(name: String, candidates: [String], expected: String?) {
        #expect(DidYouMean.suggest(name, from: candidates) == expected)
    }

    @Test func tiesGoToTheFirstCandidate() {
        #expect(DidYouMean.suggest("xs", from: ["s", "ms"]) == "s")  // both 1 edit away
        #expect(DidYouMean.suggest("bat", from: ["cat", "hat"]) == "cat")
        #expect(DidYouMean.suggest("bat", from: ["hat", "cat"]) == "hat")
        // A closer candidate wins even when listed later.
        #expect(DidYouMean.suggest("colr", from: ["cool", "color"]) == "color")
    }

    @Test func suffix() {
        #expect(DidYouMean.suffix("centre", from: ["center"]) == "; did you mean 'center'?")
        #expect(DidYouMean.suffix("zzz", from: ["center"]) == "")
    }
}
