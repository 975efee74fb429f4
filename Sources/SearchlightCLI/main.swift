#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The `searchlight` tool: index, search, query, inspect and export a store.
let toolHelp = """
USAGE: searchlight <command> [options]

COMMANDS:
  demo        index the bundled Fixtures into a temporary store and run sample searches and queries
  index       import items from JSON Lines or JSON array files, in resumable batches
  search      free-text search (CSUserQuery): ranked, highlighted, typo-tolerant
  query       CSSearchQuery language: title == "fire*"cd && keywords == "game"cd
  get         print stored items by identifier
  delete      delete items by identifier, domain or all
  state       the client state of the last import batch
  stats       items, domains, terms, memory and store size
  parse       print the syntax tree of a query, or its error and position
  export      write all items as JSON Lines or an Elasticsearch bulk body
  web index   turn marked-up HTML pages into items in the public web index

GLOBAL OPTIONS:
  --store DIR   the store directory (default ./.searchlight)
  --json        machine-readable output, one JSON object per line
  --help, -h    help for the tool or a command

Exit status: 0 success, 1 failure, 2 usage error.
"""

struct Command {
    let help: String
    let spec: ArgumentSpec
    let run: (Arguments) throws -> Int32
}

let commands: [String: Command] = [
    "demo": Command(help: DemoCommand.help, spec: DemoCommand.spec, run: DemoCommand.run),
    "search": Command(help: SearchCommand.help, spec: SearchCommand.spec, run: SearchCommand.run),
    "query": Command(help: QueryCommand.help, spec: QueryCommand.spec, run: QueryCommand.run),
    "web index": Command(help: WebIndexCommand.help, spec: WebIndexCommand.spec, run: WebIndexCommand.run),
    "index": Command(help: IndexCommand.help, spec: IndexCommand.spec, run: IndexCommand.run),
    "get": Command(help: GetCommand.help, spec: GetCommand.spec, run: GetCommand.run),
    "delete": Command(help: DeleteCommand.help, spec: DeleteCommand.spec, run: DeleteCommand.run),
    "state": Command(help: StateCommand.help, spec: StateCommand.spec, run: StateCommand.run),
    "stats": Command(help: StatsCommand.help, spec: StatsCommand.spec, run: StatsCommand.run),
    "parse": Command(help: ParseCommand.help, spec: ParseCommand.spec, run: ParseCommand.run),
    "export": Command(help: ExportCommand.help, spec: ExportCommand.spec, run: ExportCommand.run),
]

@MainActor func runTool(_ argv: [String]) -> Int32 {
    var rest = Array(argv.dropFirst())
    // Global options may precede the command; only they (a command's option there would take its value for the
    // command's name).
    var leading: [String] = []
    while let first = rest.first, first.hasPrefix("-"), first != "-" {
        guard ["--store", "--json", "--help", "-h"].contains(first.prefix { $0 != "=" }) else {
            Terminal.err("searchlight: '\(first)' is not a global option; give it after the command\n\n" + toolHelp)
            return 2
        }
        leading.append(rest.removeFirst())
        if first == "--store" {
            guard let value = rest.first else {
                Terminal.err("searchlight: option '--store' needs a value")
                return 2
            }
            leading.append(value)
            rest.removeFirst()
        }
    }
    guard let name = rest.first else {
        if leading.contains("--help") || leading.contains("-h") {
            Terminal.out(toolHelp)
            return 0
        }
        Terminal.err("searchlight: name a command\n\n" + toolHelp)
        return 2
    }
    rest.removeFirst()
    var commandName = name
    if name == "web" {
        // 'web --help' is the help of its only command.
        if let first = rest.first, ["--help", "-h"].contains(first) {
            Terminal.out(WebIndexCommand.help)
            return 0
        }
        guard rest.first == "index" else {
            Terminal.err("searchlight web: the only web command is 'web index PATH...'")
            return 2
        }
        rest.removeFirst()
        commandName = "web index"
    }
    if name == "help" {
        // Two words name the web command ("help web index").
        let topic = rest.prefix(2) == ["web", "index"] ? "web index" : rest.first
        if let topic, let command = commands[topic] { Terminal.out(command.help) } else { Terminal.out(toolHelp) }
        return 0
    }
    guard let command = commands[commandName] else {
        Terminal.err("searchlight: unknown command '\(name)'\n\n" + toolHelp)
        return 2
    }
    do {
        let args = try Arguments(command: commandName, arguments: leading + rest, spec: command.spec)
        if args.wantsHelp {
            Terminal.out(command.help)
            return 0
        }
        return try command.run(args)
    } catch let error as UsageError {
        Terminal.err(error.description)
        return 2
    } catch let error as CommandFailure {
        Terminal.err(error.message)
        return 1
    } catch {
        Terminal.err("searchlight \(commandName): \(error.localizedDescription)")
        return 1
    }
}

/// Occupies a closed standard descriptor (`>&-`) with /dev/null opened the other way round, so reading or writing
/// it still fails as a closed one does: otherwise the store's first file (its LOCK) became descriptor 1 and the
/// output was written into the store.
func reserveStandardDescriptors() {
    for (descriptor, mode) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
        // open returns the lowest free descriptor: this one, the lower ones being open already.
        let opened = open("/dev/null", mode)
        if opened >= 0, opened != descriptor { close(opened) }
    }
}

reserveStandardDescriptors()
exit(runTool(CommandLine.arguments))
