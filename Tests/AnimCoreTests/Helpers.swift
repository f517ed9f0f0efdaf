// Helpers for the unit tests of the passes: run one pass over a snippet and return what it
// produced (tokens, a dump, checked statements, graphs) together with its diagnostics as text.
@testable import AnimCore
import AnimTestSupport

/// A source made from text, with id 0 so spans render against a one-file SourceMap.
func source(_ text: String, name: String = "test.anim") -> SourceFile {
    SourceFile(id: 0, name: name, text: text)
}

/// Renders diagnostics against one source, plainly (no colour, base names).
func render(_ bag: DiagnosticBag, _ file: SourceFile) -> String {
    var map = SourceMap()
    _ = map.add(name: file.name, bytes: file.bytes)
    return DiagnosticRenderer(sources: map, color: false, baseNamesOnly: true).render(bag.all)
}

/// The messages of a bag, in order.
func messages(_ bag: DiagnosticBag) -> [String] { bag.all.map(\.message) }

/// Lexes a snippet.
func lex(_ text: String) -> (tokens: [Token], diagnostics: DiagnosticBag, file: SourceFile) {
    let file = source(text)
    let (tokens, diags) = Lexer.tokenize(file)
    return (tokens, diags, file)
}

/// The token kinds of a snippet, without the final `.eof`.
func kinds(_ text: String) -> [TokenKind] {
    Array(lex(text).tokens.map(\.kind).dropLast())
}

/// The texts of a snippet's tokens (newlines as `⏎`), without the final `.eof`.
func texts(_ text: String) -> [String] {
    let (tokens, _, file) = lex(text)
    return tokens.dropLast().map { $0.kind == .newline ? "⏎" : file.text(of: $0.span) }
}

/// Parses a snippet.
func parse(_ text: String) -> (tree: SyntaxTree, diagnostics: DiagnosticBag, endedEarly: Bool, file: SourceFile) {
    let file = source(text)
    let r = Parser.parseProgram(file)
    return (r.tree, r.diagnostics, r.endedEarly, file)
}

/// The AST dump of a snippet (`anim check --dump ast`).
func astDump(_ text: String) -> String {
    let p = parse(text)
    return ASTDumper(file: p.file).dump(p.tree)
}

/// Parses and checks a snippet against a fresh environment.
func check(_ text: String) -> (statements: [CheckedStmt], environment: Environment, diagnostics: DiagnosticBag, file: SourceFile) {
    let p = parse(text)
    precondition(!p.diagnostics.hasErrors, "parse errors: \(messages(p.diagnostics))")
    let r = Checker.check(p.tree, environment: Environment())
    return (r.statements, r.environment, r.diagnostics, p.file)
}

/// The sequencer graphs of a snippet's animating statements, in order.
func graphs(_ text: String) -> [SequencerGraph] {
    let c = check(text)
    precondition(!c.diagnostics.hasErrors, "check errors: \(messages(c.diagnostics))")
    var instantiations: [Instantiation] = []
    GraphBuilder.buildInstantiations(c.environment.instantiations, onto: &instantiations)
    return c.statements.compactMap { s in
        if case .start(let chain, _, let locals, _) = s { return GraphBuilder.build(chain, localCount: locals, instantiations: instantiations) }
        return nil
    }
}

/// A session that has compiled and executed a script (graphs started, nothing played beyond
/// the script's own waits). Drive `session.interpreter` from there.
func startedSession(_ text: String, flags: [String] = []) throws -> (Session, CapturedOutput) {
    var options = try SessionOptions.parse(runFlags: flags).get()
    options.baseNamesOnly = true
    let out = CapturedOutput()
    let session = Session(options: options, output: out)
    let file = session.sources.add(name: "test.anim", text: text)
    guard let statements = session.compile(file) else { throw TestFailure("does not compile:\n" + out.error) }
    try session.execute(statements)
    return (session, out)
}

/// A value of a shape's property now, by names.
func value(_ session: Session, _ shape: String, _ property: String) -> Value? {
    let env = session.environment
    guard let pid = env.propertyID(named: property) else { return nil }
    let sid: ShapeID
    switch env.symbol(named: shape) {
    case .shape(let s)?: sid = s
    default:
        guard let i = env.shapes.firstIndex(where: { $0.name == shape }) else { return nil }
        sid = ShapeID(i)
    }
    return session.interpreter.currentValue(sid, pid)
}

/// Samples a property at fixed times (Popmotion's animateSync): advances the clock to each
/// time in turn and reads the property.
func sample(_ script: String, _ shape: String, _ property: String, at times: [Double]) throws -> [Value] {
    let (session, _) = try startedSession(script)
    var out: [Value] = []
    for t in times {
        try session.interpreter.advance(to: Time(seconds: t)!)
        out.append(value(session, shape, property) ?? .string("missing"))
    }
    return out
}

/// Numbers out of sampled values (nan for anything else), rounded to 6 decimals for comparison.
func numbers(_ vs: [Value]) -> [Double] {
    vs.map { v in
        guard case .number(let n) = v else { return .nan }
        return (n * 1e6).rounded() / 1e6
    }
}

/// An error raised by a helper.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
