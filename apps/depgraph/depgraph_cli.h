// The `depgraph` command: subcommands audit, diff, query, run, derive and check.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace depgraph {

/// Runs `depgraph` with argv-style arguments (without the program name), writing reports and
/// messages to `out` (stdout) and `err` (stderr). Returns the exit code:
/// audit: 0 no race, 3 races found, 1 bad input or unwritable output;
/// diff: 0 no ordering lost, 3 B loses an ordering of A, 1 bad input or unwritable output;
/// (for both, an input that is not a regular file, and an `-o` that is not a regular file or
/// is one of the inputs, is bad input / an unwritable output);
/// query: 0 answered, 1 bad input or unknown task;
/// run: 0 written, 1 bad program, unbound name or runtime error (see run_command.h);
/// 2 usage error.
int DepgraphMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
