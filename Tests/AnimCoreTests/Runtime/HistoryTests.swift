// The recorded history (what renderers and the sampler read) must agree with the interpreter,
// sample for sample, at every frame of every golden script and example; and a recording, read
// back at the local times it was played at, must give what the live run showed.
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
        var live: [(Time, PropertyKey, Value?)] = []
        session.frameHook = { t in
            let interp = session.interpreter!
            for (s, shape) in interp.scene.shapes.enumerated() {
                for p in 0..<Int(shape.propertyCount) where interp.scene.base(ShapeID(s), PropertyID(p)) != nil {
                    let id = ShapeID(s), prop = PropertyID(p)
                    live.append((t, PropertyKey(id, prop), interp.currentValue(id, prop)))
                }
            }
        }
        session.run(name: path, bytes: bytes)
        let history = try #require(session.interpreter.history)
        var mismatches: [String] = []
        for (t, key, value) in live where history.value(key, at: t) != value && mismatches.count < 5 {
            let interp = session.interpreter!
            mismatches.append("\(interp.scene.shapes[Int(key.shape.index)].name).\(interp.propertyName(key.property)) at "
                              + "\(t.eventStamp): live \(String(describing: value)), history \(String(describing: history.value(key, at: t)))")
        }
        #expect(mismatches.isEmpty, Comment(rawValue: path + " (\(live.count) samples)\n" + mismatches.joined(separator: "\n")))
    }

    /// A named step's recording, read at the local times it played at, gives what the live run
    /// showed then, bit for bit: a replay shows what was played.
    @Test("a recording read back equals the live run it recorded", arguments: 0..<40)
    func recordingReplaysTheRun(seed: Int) throws {
        var g = ScriptGenerator(seed: UInt64(5000 + seed))
        let text = InvariantTests.header + g.chain() + " as s\n"
        let session = Session(options: SessionOptions(), output: CapturedOutput())
        var live: [(local: Time, values: [PropertyKey: Value])] = []
        session.frameHook = { _ in
            let interp = session.interpreter!
            guard let i = interp.instances.firstIndex(where: { $0.recording >= 0 }), interp.instances[i].running else { return }
            var values: [PropertyKey: Value] = [:]
            for (s, shape) in interp.scene.shapes.enumerated() {
                for p in 0..<Int(shape.propertyCount) where interp.scene.base(ShapeID(s), PropertyID(p)) != nil {
                    values[PropertyKey(ShapeID(s), PropertyID(p))] = interp.currentValue(ShapeID(s), PropertyID(p))
                }
            }
            live.append((interp.localTime(Int32(i)), values))
        }
        session.run(name: "gen.anim", bytes: Array(text.utf8))
        let interp = session.interpreter!
        let i = try #require(interp.instances.firstIndex { $0.recording >= 0 })
        let log = interp.recordings[Int(interp.instances[i].recording)].log.indexedCopy()
        #expect(!live.isEmpty && log.pieceCount > 0, Comment(rawValue: text))
        var mismatches: [String] = []
        for (u, values) in live {
            for key in log.keys {
                let replayed = log.value(key, at: u, tables: interp.pool.tables)
                if replayed != values[key] && mismatches.count < 5 {
                    mismatches.append("\(key) at \(u.eventStamp): live \(String(describing: values[key])), recorded \(String(describing: replayed))")
                }
            }
        }
        #expect(mismatches.isEmpty, Comment(rawValue: text + "\n" + mismatches.joined(separator: "\n")))
    }
}
