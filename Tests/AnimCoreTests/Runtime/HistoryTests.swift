// The recorded history (what renderers and the sampler read) must agree with the interpreter,
// sample for sample, at every frame of every golden script and example.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("History agrees with the interpreter")
struct HistoryTests {
    @Test("every property at every frame", arguments: ScriptSuiteTests.files)
    func agrees(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let expect = ScriptExpectations(text: String(decoding: bytes, as: UTF8.self))
        var options = (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions()
        options.fps = 30
        let session = Session(options: options, output: CapturedOutput())
        session.interpreter.recordHistory()
        var mismatches: [String] = []
        var samples = 0
        session.frameHook = { t in
            let interp = session.interpreter!
            for (s, shape) in interp.scene.shapes.enumerated() {
                for p in shape.values.indices where shape.values[p] != nil {
                    let id = ShapeID(s), prop = PropertyID(p)
                    let live = interp.currentValue(id, prop)
                    let recorded = interp.history!.value(PropertyKey(id, prop), at: t)
                    samples += 1
                    if let a = live, let b = recorded, Interpreter.approximatelyEqual(a, b, tolerance: 1e-9) { continue }
                    if mismatches.count < 5 {
                        mismatches.append("\(shape.name).\(interp.propertyName(prop)) at \(t.eventStamp): live \(String(describing: live)), history \(String(describing: recorded))")
                    }
                }
            }
        }
        session.run(name: path, bytes: bytes)
        #expect(mismatches.isEmpty, Comment(rawValue: path + "\n" + mismatches.joined(separator: "\n")))
    }
}
