// Paths and option spellings shared by the commands that stand in for the reference's Python
// tools on a run's timing records (swimlane, sched-overhead): paths printed as pathlib prints
// them, the default records file, and argparse's unique prefixes of long options.
#pragma once

#include <string>
#include <vector>

namespace depgraph {

/// A path as Python's pathlib prints it: repeated slashes and `.` components dropped, no
/// trailing slash, "." for nothing (two leading slashes are kept, as POSIX allows). O(|text|).
std::string PythonPath(const std::string& text);

/// Path(p).parent / name, printed as Python prints it. O(|p|).
std::string SiblingPath(const std::string& python_path, const std::string& name);

/// Path(p).parent, printed as Python prints it. O(|p|).
std::string ParentPath(const std::string& python_path);

/// Every proper prefix of `name` that no other of `names` starts with (argparse accepts them
/// for `--name`). O(|name| · |names|).
std::vector<std::string> UniquePrefixes(const std::string& name,
                                        const std::vector<std::string>& names);

/// The newest outputs/*/chip_swimlane_records.json under the working directory (modification
/// time; equal times: the greatest path), or "". O(entries of outputs/).
std::string NewestRunRecords();

}  // namespace depgraph
