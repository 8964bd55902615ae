import EkiCLI
import Foundation

exit(EkiCommandLine.run(Array(CommandLine.arguments.dropFirst())))
