// anim: the command line. It parses arguments, reads files and talks to the terminal; every
// pass lives in AnimCore behind Session.
@preconcurrency import Glibc
import AnimCore
import AnimLanguageServer

nonisolated(unsafe) let streams = StandardStreams()

/// Prints a usage error and exits with code 2.
func usageError(_ message: String, command: String? = nil) -> Never {
    streams.standardError("anim: error: \(message)\n")
    streams.standardError("Run 'anim \(command.map { "help \($0)" } ?? "--help")' for usage.\n")
    exit(ExitCode.usage.rawValue)
}

func finish(_ code: ExitCode) -> Never {
    streams.flush()
    exit(code.rawValue)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let commandNames = ["run", "repl", "test", "check", "bench", "render", "export", "graph", "timeline", "serve", "watch", "lsp", "fmt", "help"]

if arguments.isEmpty {
    if isatty(0) == 0 { Commands.run(["-"]) }
    finish(Repl.start(options: SessionOptions()))
}

let command = arguments.removeFirst()
if arguments.contains("-h") || arguments.contains("--help"), let text = Help.text(for: command) {
    streams.standardOutput(text + "\n")
    finish(.success)
}
switch command {
case "run": Commands.run(arguments)
case "check": finish(Commands.check(arguments))
case "bench": Bench.run(arguments)
case "test": finish(Commands.test(arguments))
case "render": finish(RenderCommands.render(arguments))
case "export": finish(RenderCommands.export(arguments))
case "graph": finish(RenderCommands.graph(arguments))
case "timeline": finish(RenderCommands.timeline(arguments))
case "serve": finish(StudioCommands.serve(arguments))
case "watch": finish(StudioCommands.watch(arguments))
case "fmt": finish(FormatCommand.run(arguments))
case "lsp":
    // `--stdio` names the only transport there is; clients (vscode-languageclient) pass it.
    if let extra = arguments.first(where: { $0 != "--stdio" && $0 != "--full-analysis" }) {
        usageError("unexpected argument '\(extra)'", command: "lsp")
    }
    streams.flush()
    exit(StdioServer.run(reusesValueEdits: !arguments.contains("--full-analysis")))
case "repl":
    var options = SessionOptions()
    if let i = arguments.firstIndex(of: "--seed") {
        guard i + 1 < arguments.count, let n = Int64(arguments[i + 1]) else { usageError("'--seed' takes a whole number", command: "repl") }
        options.seed = UInt64(bitPattern: n)
        arguments.removeSubrange(i...(i + 1))
    }
    if let extra = arguments.first { usageError("unexpected argument '\(extra)'", command: "repl") }
    if isatty(0) == 0 { Commands.run(["-"] + (options.seed.map { ["--seed", String(Int64(bitPattern: $0))] } ?? [])) }
    finish(Repl.start(options: options))
case "help", "-h", "--help":
    if let c = arguments.first {
        guard let text = Help.text(for: c) else { usageError("no help for '\(c)'" + DidYouMean.suffix(c, from: commandNames)) }
        streams.standardOutput(text + "\n")
    } else {
        streams.standardOutput(Help.main + "\n")
    }
    finish(.success)
case "--version":
    streams.standardOutput("anim 0.1.0\n")
    finish(.success)
default:
    if command.hasSuffix(".anim") || command == "-" {
        usageError("unknown command '\(command)'; did you mean 'anim run \(command)'?")
    }
    usageError("unknown command '\(command)'" + DidYouMean.suffix(command, from: commandNames))
}
