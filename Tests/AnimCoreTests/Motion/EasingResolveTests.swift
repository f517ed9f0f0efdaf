// EasingResolveTests: easing names, parameters and messages, and the checker passing word
// arguments through (`ease steps(4, jump-start)`). The name list is the language brief's §5
// (CSS keywords, cubic-bezier, steps, and the Penner families × -in/-out/-in-out) plus the CSS
// keywords step-start and step-end (CSS Easing Level 1).

import Testing
@testable import AnimCore

/// Collects what a session writes.
private final class Capture: SessionOutput {
    var out = "", err = ""
    func standardOutput(_ text: String) { out += text }
    func standardError(_ text: String) { err += text }
}

private func run(_ script: String) -> Capture {
    let capture = Capture()
    let session = Session(output: capture)
    session.run(name: "test.anim", bytes: Array(script.utf8))
    return capture
}

@Suite("easing names")
struct EasingResolveTests {
    @Test("allNames lists every name of the brief exactly once, and each resolves")
    func names() throws {
        let families = ["sine", "quad", "cubic", "quart", "quint", "expo", "circ", "back", "elastic", "bounce"]
        var expected = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end",
                        "cubic-bezier", "steps"]
        for f in families { expected += ["\(f)-in", "\(f)-out", "\(f)-in-out"] }
        // GSAP's power0 … power4 (issue 12).
        expected += ["power0"]
        for n in 0...4 { expected += ["power\(n)-in", "power\(n)-out", "power\(n)-in-out"] }
        #expect(Easing.allNames.sorted() == expected.sorted())
        #expect(Set(Easing.allNames).count == Easing.allNames.count)
        for name in Easing.allNames {
            let args: [EasingArgument]? = switch name {
            case "cubic-bezier": [.number(0.1), .number(0.2), .number(0.3), .number(0.4)]
            case "steps": [.number(3)]
            default: nil
            }
            let easing = try Easing.resolve(name: name, arguments: args).get()
            // The description writes it back in a form that resolves to the same easing.
            if case .penner(let family, let mode) = easing, !name.hasPrefix("power") {
                #expect("\(family.name)-\(mode.rawValue)" == name)
            }
        }
    }

    @Test("did-you-mean and the other messages")
    func messages() {
        func message(_ name: String, _ args: [EasingArgument]? = nil) -> String? {
            if case .failure(let e) = Easing.resolve(name: name, arguments: args) { return e.message }
            return nil
        }
        #expect(message("cubic-in-ot") == "unknown easing 'cubic-in-ot'; did you mean 'cubic-in-out'?")
        #expect(message("eas-in") == "unknown easing 'eas-in'; did you mean 'ease-in'?")
        #expect(message("bounce-inn") == "unknown easing 'bounce-inn'; did you mean 'bounce-in'?")
        #expect(message("wobble") == "unknown easing 'wobble'")
        #expect(message("linear", []) == "easing 'linear' takes at least 2 parameters, not 0")
        #expect(message("ease", []) == "easing 'ease' takes no parameters")
        #expect(message("cubic-bezier", [.number(1.1), .number(0), .number(1), .number(1)])
                == "bad parameters for 'cubic-bezier': x1 must be between 0 and 1, not 1.1")
        #expect(message("cubic-bezier", [.number(0), .number(0), .number(-0.1), .number(1)])
                == "bad parameters for 'cubic-bezier': x2 must be between 0 and 1, not -0.1")
        #expect(message("cubic-bezier", [.number(0), .number(0), .number(1)]) == "easing 'cubic-bezier' takes 4 parameters, not 3")
        #expect(message("cubic-bezier", [.number(0), .word("a"), .number(1), .number(1)]) == "easing 'cubic-bezier' takes numbers, not 'a'")
    }

    @Test("the index of the argument at fault")
    func argumentIndex() {
        func index(_ name: String, _ args: [EasingArgument]?) -> Int? {
            if case .failure(let e) = Easing.resolve(name: name, arguments: args) { return e.argumentIndex }
            return -1
        }
        #expect(index("steps", [.number(3), .word("jump-stat")]) == 1)
        #expect(index("cubic-bezier", [.number(0), .number(0), .number(2), .number(1)]) == 2)
        #expect(index("elastic-out", [.number(1), .number(0)]) == 1)
        #expect(index("nope", nil) == nil)
    }

    @Test("descriptions spell every parameter")
    func descriptions() throws {
        #expect(Easing.easeInOut.description == "cubic-bezier(0.42, 0, 0.58, 1)")
        #expect(try Easing.resolve(name: "steps", arguments: [.number(4), .word("start")]).get().description == "steps(4, jump-start)")
        #expect(try Easing.resolve(name: "back-out", arguments: nil).get().description == "back-out(1.70158)")
        #expect(try Easing.resolve(name: "elastic-in-out", arguments: nil).get().description == "elastic-in-out(1, 0.45)")
        #expect(try Easing.resolve(name: "quad-in", arguments: nil).get().description == "quad-in")
    }

    /// Through the checker: words reach `resolve`, and errors point at the argument at fault.
    @Test("the checker passes word arguments through")
    func checkerWords() {
        let ok = run("""
            rect sq center (0,0)
            animate 1 ease steps(4, jump-start) < sq.center = (100,0) >
            at 0.1 < print sq.center.x >
            at 0.5 < print sq.center.x >
            """)
        #expect(ok.err == "")
        #expect(ok.out == "[0.100] 25\n[0.500] 75\n")
        let bad = run("""
            rect sq center (0,0)
            animate 1 ease steps(4, jump-stat) < sq.center = (100,0) >
            """)
        #expect(bad.err.hasPrefix("test.anim:2:25: error: unknown step position 'jump-stat'; did you mean 'jump-start'?"))
        let word = run("""
            rect sq center (0,0)
            animate 1 ease cubic-bezier(0, big, 1, 1) < sq.center = (100,0) >
            """)
        #expect(word.err.hasPrefix("test.anim:2:32: error: easing 'cubic-bezier' takes numbers, not 'big'"))
    }
}
