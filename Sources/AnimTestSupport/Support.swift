// AnimTestSupport: helpers shared by the test targets — where the package and the built
// `anim` binary are, running a script in memory, and running the binary as a process.
import AnimCore
import Foundation

/// Paths of the package under test.
public enum TestPaths {
    /// The package root (found from this file's path).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Sources/AnimTestSupport/Support.swift
        return url
    }()

    /// `Tests/Scripts`.
    public static var scripts: URL { packageRoot.appendingPathComponent("Tests/Scripts") }

    /// `Examples`.
    public static var examples: URL { packageRoot.appendingPathComponent("Examples") }

    /// Every `.anim` file below a directory, as paths relative to the package root, sorted.
    public static func scripts(under dir: URL) -> [String] {
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var out: [String] = []
        for case let url as URL in e where url.pathExtension == "anim" {
            out.append(String(url.path.dropFirst(packageRoot.path.count + 1)))
        }
        return out.sorted()
    }

    /// The built `anim` executable, next to the test bundle in the build directory.
    public static var animBinary: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        let candidate = dir.appendingPathComponent("anim")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/anim")
    }
}

/// The result of running a script or the binary.
public struct RunResult: Sendable, Equatable {
    /// Standard output.
    public var stdout: String
    /// Standard error.
    public var stderr: String
    /// The exit code.
    public var exitCode: Int32

    /// Creates a result.
    public init(stdout: String, stderr: String, exitCode: Int32) {
        self.stdout = stdout
        self.stderr = stderr
        self.exitCode = exitCode
    }
}

/// Runs a script in memory through a Session, as `anim run` would (plain diagnostics).
public func runScript(_ text: String, name: String = "test.anim", flags: [String] = []) -> RunResult {
    var options = (try? SessionOptions.parse(runFlags: flags).get()) ?? SessionOptions()
    options.baseNamesOnly = true
    let out = CapturedOutput()
    let session = Session(options: options, output: out)
    let code = session.run(name: name, bytes: Array(text.utf8))
    return RunResult(stdout: out.standard, stderr: out.error, exitCode: code.rawValue)
}

/// Runs the built `anim` binary with arguments and optional standard input.
public func runAnim(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                    currentDirectory: URL? = nil, timeout: Double? = nil) throws -> RunResult {
    try runProgram(TestPaths.animBinary, arguments, stdin: stdin, environment: environment, currentDirectory: currentDirectory,
                   timeout: timeout)
}

/// Runs any program (in the package root unless told otherwise) with this process's
/// environment plus `environment`, and collects its output. With `timeout` (seconds) a
/// program still running then is killed (its exit code is then the signal's, SIGKILL's 9).
public func runProgram(_ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                       currentDirectory: URL? = nil, timeout: Double? = nil) throws -> RunResult {
    let p = Process()
    p.executableURL = executable
    p.arguments = arguments
    p.currentDirectoryURL = currentDirectory ?? TestPaths.packageRoot
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
    p.standardOutput = outPipe
    p.standardError = errPipe
    p.standardInput = inPipe
    try p.run()
    if let timeout {
        let pid = p.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [p] in if p.isRunning { kill(pid, SIGKILL) } }
    }
    if let s = stdin { inPipe.fileHandleForWriting.write(Data(s.utf8)) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes before waiting, so a large output cannot fill a pipe and block.
    final class Box: @unchecked Sendable { var data = Data() }
    let out = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { out.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let outData = out.data
    p.waitUntilExit()
    return RunResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                     exitCode: p.terminationStatus)
}
