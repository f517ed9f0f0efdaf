import AnimCore
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

final class StdOutput: SessionOutput {
    func standardOutput(_ text: String) { fputs(text, stdout) }
    func standardError(_ text: String) { fputs(text, stderr) }
}
let args = CommandLine.arguments
let path = args[2]
let fh = fopen(path, "rb")!
var bytes: [UInt8] = []
var buf = [UInt8](repeating: 0, count: 65536)
while true { let n = fread(&buf, 1, buf.count, fh); if n <= 0 { break }; bytes += buf[0..<n] }
let s = Session(output: StdOutput())
exit(s.run(name: path, bytes: bytes).rawValue)
