// `anim lsp` as a process: frames over real pipes, resynchronising after bad frames, exit
// codes, and the command line.
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Testing

/// A request frame.
func requestFrame(_ id: Int, _ method: String, _ params: JSON = [:]) -> [UInt8] {
    Framing.frame(["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": params])
}

func notificationFrame(_ method: String, _ params: JSON = [:]) -> [UInt8] {
    Framing.frame(["jsonrpc": "2.0", "method": .string(method), "params": params])
}

let initializeFrame = requestFrame(1, "initialize", ["processId": .null, "capabilities": [:]])

/// Runs `anim lsp` with `input` on standard input (then closed) and returns the messages it
/// wrote and its exit code. (The bytes go as they are: invalid UTF-8 too.)
func runServer(_ input: [UInt8]) throws -> (messages: [JSON], exitCode: Int32, stderr: String) {
    let p = Process()
    p.executableURL = TestPaths.animBinary
    p.arguments = ["lsp"]
    let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
    p.standardInput = inPipe
    p.standardOutput = outPipe
    p.standardError = errPipe
    try p.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let out = Box(), err = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { out.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { err.data = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    inPipe.fileHandleForWriting.write(Data(input))
    try inPipe.fileHandleForWriting.close()
    group.wait()
    p.waitUntilExit()
    var reader = MessageReader()
    reader.append(Array(out.data))
    var messages: [JSON] = []
    while let f = reader.next() {
        guard case .message(let m) = f else { Issue.record("the server wrote a bad frame: \(f)"); continue }
        messages.append(m)
    }
    #expect(reader.finish() == nil, "the server's output ends inside a frame")
    return (messages, p.terminationStatus, String(decoding: err.data, as: UTF8.self))
}

@Suite("anim lsp over stdio", .serialized)
struct StdioTests {
    @Test("initialize, shutdown, exit: answers in order and exit code 0")
    func cleanSession() throws {
        let r = try runServer(initializeFrame + notificationFrame("initialized") + requestFrame(2, "shutdown") + notificationFrame("exit"))
        #expect(r.exitCode == 0)
        #expect(r.messages.count == 2)
        #expect(r.messages.first?["id"] == 1)
        #expect(r.messages.first?["result"]?["capabilities"]?["textDocumentSync"]?["change"] == 2)
        #expect(r.messages.last?["id"] == 2)
        #expect(r.messages.last?["result"] == .null)
    }

    @Test("exit without shutdown ends with 1; so does the end of the input")
    func exitCodes() throws {
        #expect(try runServer(initializeFrame + notificationFrame("exit")).exitCode == 1)
        #expect(try runServer(notificationFrame("exit")).exitCode == 1)
        #expect(try runServer(initializeFrame).exitCode == 1)
        #expect(try runServer([]).exitCode == 1)
        #expect(try runServer(initializeFrame + requestFrame(2, "shutdown")).exitCode == 0)
    }

    @Test("after a wrong Content-Length, a missing header, invalid JSON and invalid UTF-8, every later request is answered")
    func resynchronises() throws {
        let body = #"{"jsonrpc":"2.0","id":10,"method":"a/b"}"#
        var input = initializeFrame
        // Too long by 12: the next frame's header is inside the stated body.
        input += Array("Content-Length: \(body.utf8.count + 12)\r\n\r\n\(body)".utf8)
        input += requestFrame(11, "c/d")
        // Too short by 4.
        input += Array("Content-Length: \(body.utf8.count - 4)\r\n\r\n\(body.replacingOccurrences(of: "10", with: "12"))".utf8)
        input += requestFrame(13, "e/f")
        // No Content-Length at all, a length that is not a number, junk.
        input += Array("Content-Type: application/vscode-jsonrpc\r\n\r\n{}".utf8)
        input += Array("Content-Length: lots\r\n\r\n{}".utf8)
        input += Array("hello there".utf8)
        input += requestFrame(14, "g/h")
        // Invalid JSON and invalid UTF-8 in correctly framed bodies.
        input += Array("Content-Length: 5\r\n\r\n{\"a\":".utf8)
        let bad: [UInt8] = Array(#"{"jsonrpc":"2.0","id":99,"method":"x"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        input += Array("Content-Length: \(bad.count)\r\n\r\n".utf8) + bad
        input += requestFrame(15, "i/j") + requestFrame(16, "shutdown") + notificationFrame("exit")
        let r = try runServer(input)
        #expect(r.exitCode == 0)
        let answered = r.messages.compactMap { $0["id"]?.int }
        #expect(answered == [1, 10, 11, 12, 13, 14, 15, 16], "\(r.messages.map(\.serialized))")
        for id in [10, 11, 12, 13, 14, 15] {
            #expect(r.messages.first { $0["id"]?.int == id }?.errorCode == -32601)
        }
        let parseErrors = r.messages.filter { $0.errorCode == -32700 }
        #expect(parseErrors.count >= 4)
        #expect(parseErrors.allSatisfy { $0["id"] == .null })
        #expect(r.stderr.contains("Content-Length"))
    }

    @Test("a request before initialize is -32002, after shutdown -32600")
    func lifecycleOverPipes() throws {
        let r = try runServer(requestFrame(1, "textDocument/hover") + initializeFrame + requestFrame(2, "shutdown")
                                  + requestFrame(3, "textDocument/hover") + notificationFrame("exit"))
        #expect(r.messages.map(\.errorCode) == [-32002, nil, nil, -32600])
        #expect(r.exitCode == 0)
    }

    @Test("diagnostics are published over the pipe")
    func diagnosticsOverPipes() throws {
        // Diagnostics come from the analysis thread: read them from a live process, then end it.
        let p = Process()
        p.executableURL = TestPaths.animBinary
        p.arguments = ["lsp"]
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = FileHandle.nullDevice
        try p.run()
        let open = notificationFrame("textDocument/didOpen", ["textDocument": ["uri": "file:///x.anim", "languageId": "anim", "version": 1,
                                                                              "text": "rect a\nrect a\n"]])
        input.fileHandleForWriting.write(Data(initializeFrame + open))
        var reader = MessageReader()
        var messages: [JSON] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !messages.contains(where: { $0["method"] == "textDocument/publishDiagnostics" }) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            reader.append(Array(chunk))
            while case .message(let m)? = reader.next() { messages.append(m) }
        }
        input.fileHandleForWriting.write(Data(requestFrame(2, "shutdown") + notificationFrame("exit")))
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let published = messages.first { $0["method"] == "textDocument/publishDiagnostics" }
        #expect(published?["params"]?["uri"] == "file:///x.anim")
        #expect(published?["params"]?["diagnostics"]?.array?.first?["message"] == "'a' is already declared as a rect")
    }

    @Test("anim lsp --help, and a usage error for an argument")
    func commandLine() throws {
        let help = try runAnim(["lsp", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("USAGE: anim lsp"))
        #expect(try runAnim(["help", "lsp"]).stdout == help.stdout)
        #expect(try runAnim(["--help"]).stdout.contains("lsp"))
        let stdio = try runAnim(["lsp", "--stdio"], stdin: String(decoding: initializeFrame + requestFrame(2, "shutdown") + notificationFrame("exit"), as: UTF8.self))
        #expect(stdio.exitCode == 0)
        #expect(stdio.stdout.contains("\"capabilities\""))
        let bad = try runAnim(["lsp", "extra"])
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("unexpected argument 'extra'"))
    }
}
