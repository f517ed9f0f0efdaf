// The file watcher against real files, saved the way editors save them: a temporary file in
// the same directory, renamed over the old one. Each test drives the watcher's event loop on
// its own thread (`pump`), so what was reported is known exactly. Every test runs both with
// the native monitor (inotify here) and with polling (`--poll`).
//
// "Exactly once" is checked as FileWatcher defines it: every save followed by a quiet spell
// longer than the debounce interval is reported once, with its bytes; no report repeats the
// bytes of the one before; saves inside one window are one report of the last bytes.
@testable import AnimStudio
import Foundation
import Testing

/// A watcher on a scratch directory, pumped by hand.
final class WatchProbe {
    let loop: EventLoop
    var watcher: FileWatcher!
    let dir: URL
    /// Every batch reported, in order.
    var batches: [[FileWatcher.Change]] = []
    private var saves = 0

    init(mode: FileWatcher.Mode, debounce: Int64 = 3_000_000, pollInterval: Int64 = 3_000_000) throws {
        loop = try EventLoop()
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-watch-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        watcher = try FileWatcher(loop: loop, debounce: debounce, mode: mode, pollInterval: pollInterval) { [unowned self] in
            batches.append($0)
        }
    }

    deinit {
        watcher.close()
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Every change reported, flattened.
    var changes: [FileWatcher.Change] { batches.flatMap { $0 } }

    /// Saves as an editor does: a temporary file beside the target, renamed over it.
    func save(_ name: String, _ text: String) {
        saves += 1
        let temp = path(".\(name).tmp-\(saves)")
        write(temp, text)
        #expect(rename(temp, path(name)) == 0)
    }

    /// Writes a file in place (truncate, write).
    func write(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Runs the loop until `condition` holds or `timeout` seconds pass; whether it holds.
    @discardableResult
    func pump(timeout: Double = 5, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { return false }
            loop.runOnce(timeout: 5_000_000)
        }
        return true
    }

    /// Runs the loop for `seconds`.
    func pump(for seconds: Double) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end { loop.runOnce(timeout: 2_000_000) }
    }

    /// The text of a change's bytes.
    static func text(_ c: FileWatcher.Change) -> String? { c.contents.map { String(decoding: $0, as: UTF8.self) } }
}

@Suite("File watcher")
struct FileWatcherTests {
    static let modes: [FileWatcher.Mode] = [.native, .polling]

    @Test(arguments: modes) func aRenameOverSaveIsSeen(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        p.save("a.anim", "one")
        p.watcher.watch(files: [p.path("a.anim")])
        #expect(p.watcher.contents(of: p.path("a.anim")) == Array("one".utf8))
        p.save("a.anim", "two")
        #expect(p.pump { p.changes.count == 1 })
        #expect(p.changes.map(WatchProbe.text) == ["two"])
        #expect(p.changes.first?.path == p.path("a.anim"))
        #expect(p.watcher.contents(of: p.path("a.anim")) == Array("two".utf8))
    }

    /// 1,000 rename-over saves, each followed by quiet: each is reported once, in order.
    @Test(arguments: modes) func aThousandSavesAreEachSeenExactlyOnce(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("s.anim")
        p.save("s.anim", "save 0\n")
        p.watcher.watch(files: [file])
        for k in 1...1000 {
            p.save("s.anim", "save \(k)\n")
            guard p.pump(until: { p.changes.count >= k }) else {
                Issue.record("save \(k) was not seen (\(p.changes.count) changes)")
                return
            }
        }
        p.pump(for: 0.1)  // nothing more may come
        let texts = p.changes.map(WatchProbe.text)
        #expect(texts.count == 1000)
        #expect(texts == (1...1000).map { "save \($0)\n" })
        #expect(p.batches.allSatisfy { $0.count == 1 })
    }

    /// 1,000 saves with no pause: fewer reports (saves in one window merge), each with newer
    /// bytes than the last, none repeated, and the last save always among them.
    @Test(arguments: modes) func aBurstOfSavesEndsWithTheLastOneAndNoDoubles(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("b.anim")
        p.save("b.anim", "0")
        p.watcher.watch(files: [file])
        for k in 1...1000 {
            p.save("b.anim", "\(k)")
            p.loop.runOnce(timeout: 0)  // the watcher sees events while the saves go on
        }
        #expect(p.pump { p.changes.last.flatMap(WatchProbe.text) == "1000" })
        p.pump(for: 0.1)
        let numbers = p.changes.compactMap { WatchProbe.text($0).flatMap { Int($0) } }
        #expect(numbers.count == p.changes.count)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count, "\(numbers)")
        #expect(numbers.last == 1000)
        print("\(mode): 1,000 saves in a burst gave \(numbers.count) reports")
    }

    @Test(arguments: modes) func aSaveThatKeepsTheBytesReportsNothing(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("u.anim")
        p.save("u.anim", "same")
        p.watcher.watch(files: [file])
        for _ in 0..<20 {
            p.save("u.anim", "same")
            p.pump(for: 0.01)
        }
        // Touching and changing the mode keep the bytes too.
        utimes(file, nil)
        chmod(file, 0o600)
        p.pump(for: 0.2)
        #expect(p.changes.isEmpty)
        // And a real change after all that is still seen.
        p.save("u.anim", "different")
        #expect(p.pump { p.changes.count == 1 })
    }

    @Test(arguments: modes) func aDeletedFileThatComesBackIsPickedUp(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("d.anim")
        p.save("d.anim", "v1")
        p.watcher.watch(files: [file])
        unlink(file)
        #expect(p.pump { p.changes.count == 1 })
        #expect(p.changes[0].contents == nil)
        p.save("d.anim", "v1")  // the same bytes as before it went: still a change from "missing"
        #expect(p.pump { p.changes.count == 2 })
        #expect(WatchProbe.text(p.changes[1]) == "v1")
        // Deleted and recreated inside one window with the same bytes: nothing happened.
        unlink(file)
        p.save("d.anim", "v1")
        p.pump(for: 0.2)
        #expect(p.changes.count == 2)
        // ... with other bytes: one change.
        unlink(file)
        p.write(file, "v2")
        #expect(p.pump { p.changes.count == 3 })
        #expect(WatchProbe.text(p.changes[2]) == "v2")
    }

    @Test(arguments: modes) func aWriteInPlaceIsSeen(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("w.anim")
        p.write(file, "a")
        p.watcher.watch(files: [file])
        p.write(file, "bb")
        #expect(p.pump { p.changes.count == 1 })
        #expect(WatchProbe.text(p.changes[0]) == "bb")
    }

    @Test(arguments: modes) func otherFilesInTheDirectoryAreIgnored(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let file = p.path("x.anim")
        p.save("x.anim", "x")
        p.watcher.watch(files: [file])
        for k in 0..<20 {
            p.write(p.path(".x.anim.swp"), "swap \(k)")
            p.write(p.path("notes.txt"), "note \(k)")
            p.save("other.anim", "\(k)")
        }
        p.pump(for: 0.2)
        #expect(p.changes.isEmpty)
    }

    @Test(arguments: modes) func aDirectoryThatGoesAndComesBackIsWatchedAgain(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let sub = p.path("sub")
        mkdir(sub, 0o755)
        let file = sub + "/s.anim"
        p.write(file, "first")
        p.watcher.watch(files: [file])
        unlink(file)
        rmdir(sub)
        #expect(p.pump { p.changes.count == 1 })
        #expect(p.changes[0].contents == nil)
        mkdir(sub, 0o755)
        p.write(file, "second")
        // inotify tries a lost directory again every half second.
        #expect(p.pump(timeout: 5) { p.changes.count == 2 })
        #expect(p.changes.last.flatMap(WatchProbe.text) == "second")
        p.write(file, "third")
        #expect(p.pump { p.changes.count == 3 })
    }

    @Test(arguments: modes) func scriptsBelowATreeComeAndGo(mode: FileWatcher.Mode) throws {
        let p = try WatchProbe(mode: mode)
        let root = p.path("tests")
        mkdir(root, 0o755)
        mkdir(root + "/inner", 0o755)
        p.write(root + "/a.anim", "a")
        p.write(root + "/inner/b.anim", "b")
        p.watcher.watch(files: [], trees: [root])
        #expect(p.watcher.files == [root + "/a.anim", root + "/inner/b.anim"])
        p.write(root + "/inner/b.anim", "b2")
        #expect(p.pump { p.changes.count == 1 })
        p.write(root + "/c.anim", "c")
        #expect(p.pump { p.changes.count == 2 })
        #expect(p.changes[1].path == root + "/c.anim" && WatchProbe.text(p.changes[1]) == "c")
        mkdir(root + "/new", 0o755)
        p.pump(for: 0.05)
        p.write(root + "/new/d.anim", "d")
        #expect(p.pump { p.changes.count == 3 })
        #expect(p.changes[2].path == root + "/new/d.anim")
        unlink(root + "/a.anim")
        #expect(p.pump { p.changes.count == 4 })
        #expect(p.changes[3].path == root + "/a.anim" && p.changes[3].contents == nil)
        p.write(root + "/readme.txt", "not a script")
        p.pump(for: 0.1)
        #expect(p.changes.count == 4)
        #expect(p.watcher.files == [root + "/c.anim", root + "/inner/b.anim", root + "/new/d.anim"])
    }

    @Test func theModeIsTheOneAskedFor() throws {
        #expect(try WatchProbe(mode: .native).watcher.mode == .native)
        #expect(try WatchProbe(mode: .polling).watcher.mode == .polling)
    }
}
