// StepRuns: the latest run of each named step (Interpreter.NamedSteps.runs).

extension Interpreter {
    /// The latest run of each named step, by the name's index: names are numbered densely as
    /// the checker meets them, so an array does what a dictionary did without hashing (every
    /// named instance's start and end reads and writes its run several times: on lsp-5000,
    /// 450 names, 1.2 M instructions of hashing and rehashing as the dictionary grew).
    struct StepRuns {
        private var of: [StepRun?] = []

        subscript(name: StepNameID) -> StepRun? {
            get { name.index < of.count ? of[name.index] : nil }
            set {
                if name.index >= of.count {
                    guard newValue != nil else { return }
                    of.append(contentsOf: repeatElement(nil, count: max(name.index + 1 - of.count, of.count)))
                }
                of[name.index] = newValue
            }
        }
    }
}
