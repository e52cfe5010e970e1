// `depgraph wait-sim`: how many redundant WAIT edges the runtime's bounded reachability bitmap
// removes on one or more captures, at several bitmap lengths, against the exact reduction.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph wait-sim`.
struct WaitSimArgs {
  std::vector<std::string> inputs;     ///< deps.json captures, reported in this order
  std::string windows = "64,128,256";  ///< --bl: comma-separated bitmap lengths
  std::string json;      ///< --json OUT: also write the JSON report there ("-": stdout, no text)
  unsigned threads = 0;  ///< --threads: threads that load and reduce (0 = every core)
};

/// Registers the `wait-sim` subcommand on `app`, storing its arguments in *args (which must
/// outlive the parse). Returns the subcommand, whose parsed() says whether it was chosen.
CLI::App* AddWaitSimCommand(CLI::App* app, WaitSimArgs* args);

/// Parses a --bl value: positive integers up to 4096 separated by commas; a length given twice
/// (also as "08" and "8") is kept once, at its first place. False with a one-line message
/// otherwise. O(|text| * lengths).
bool ParseWindowList(const std::string& text, std::vector<uint32_t>* windows, std::string* err);

/// Runs `depgraph wait-sim`: every capture is loaded and simulated first; then the text report
/// goes to `out` and the JSON report (schema depgraph-wait-sim/1) to --json's file, written
/// atomically. Exit codes: 0 reported; 1 bad input (unreadable or invalid capture, cyclic
/// WAIT graph, bad --bl, unwritable output), one line on `err` and no file written.
/// Cost: the loads plus SimulateWaitReduction per capture (wait_reduction.h).
int RunWaitSimCommand(const WaitSimArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
