#include "depgraph/audit/gate_report.h"

namespace depgraph {

const char* GateLevelName(GateLevel level) {
  switch (level) {
    case GateLevel::kError:
      return "error";
    case GateLevel::kWarning:
      return "warning";
    case GateLevel::kNote:
      return "note";
  }
  return "note";
}

}  // namespace depgraph
