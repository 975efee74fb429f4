import Foundation

/// A usage error: exit code 2, with the message and a pointer to `--help`.
struct UsageError: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "searchlight \(command): \(message)\nRun 'searchlight \(command) --help' for usage." }
}

/// A failure: exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What a subcommand accepts: flags without values, options with one value (repeatable ones collect every value).
struct ArgumentSpec {
    var flags: Set<String> = []
    var options: Set<String> = []
    var repeatable: Set<String> = []
    /// Whether the command takes operands besides its options (one it has no use for is a usage error).
    var takesOperands = true
}

/// Parsed arguments of one subcommand.
struct Arguments {
    let command: String
    private(set) var flags: Set<String> = []
    private(set) var options: [String: [String]] = [:]
    private(set) var positional: [String] = []

    /// Parses `arguments`; the global options (`--store`, `--json`, `--help`) are accepted by every command.
    init(command: String, arguments: [String], spec: ArgumentSpec) throws(UsageError) {
        self.command = command
        let flagSet = spec.flags.union(["--json", "--help", "-h"])
        let optionSet = spec.options.union(["--store"])
        var i = 0
        var onlyPositional = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositional || argument == "-" || !argument.hasPrefix("-") {
                positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = argument
            var inlineValue: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            if flagSet.contains(name) {
                guard inlineValue == nil else { throw UsageError(command: command, message: "option '\(name)' takes no value") }
                flags.insert(name == "-h" ? "--help" : name)
            } else if optionSet.contains(name) {
                let value: String
                if let inlineValue { value = inlineValue } else {
                    guard i < arguments.count else {
                        throw UsageError(command: command, message: "option '\(name)' needs a value")
                    }
                    value = arguments[i]
                    i += 1
                }
                if spec.repeatable.contains(name) { options[name, default: []].append(value) } else { options[name] = [value] }
            } else {
                throw UsageError(command: command, message: "unknown option '\(argument)'")
            }
        }
        // An empty store (an unset shell variable) would name the current directory, not the default.
        if options["--store"]?.last?.isEmpty == true {
            throw UsageError(command: command, message: "option '--store' needs a directory, not an empty value")
        }
        if !spec.takesOperands, let first = positional.first {
            throw UsageError(command: command, message: "takes no arguments besides its options (got '\(first)')")
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }

    var json: Bool { flag("--json") }
    var wantsHelp: Bool { flag("--help") }

    /// The store directory: `--store DIR`, default `./.searchlight`.
    var storeDirectory: URL {
        URL(fileURLWithPath: value("--store") ?? ".searchlight", isDirectory: true)
    }

    /// A positive integer option.
    func integer(_ name: String, default defaultValue: Int, minimum: Int = 1) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let n = Int(text), n >= minimum else {
            throw UsageError(command: command, message: "option '\(name)' needs a whole number of at least \(minimum), not '\(text)'")
        }
        return n
    }
}
