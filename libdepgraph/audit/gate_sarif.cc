#include "depgraph/audit/gate_sarif.h"

#include <nlohmann/json.hpp>

#include "depgraph/audit/gate_groups.h"

namespace depgraph {

namespace {

using Json = nlohmann::ordered_json;

// A path as a SARIF URI reference: absolute paths become file:// URIs; bytes outside the
// unreserved set and '/' are percent-encoded, so spaces and '%' survive.
std::string ArtifactUri(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri = !path.empty() && path[0] == '/' ? "file://" : "";
  for (unsigned char c : path) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                       (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' ||
                       c == '/';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 0xf];
    }
  }
  return uri;
}

Json Text(const std::string& text) { return Json{{"text", text}}; }

Json PhysicalLocation(const std::string& uri) {
  Json location = Json::object();
  location["artifactLocation"] = Json{{"uri", uri}, {"index", 0}};
  location["region"] = Json{{"startLine", 1}};
  return location;
}

Json Rule(const GateRule& rule) {
  Json out = Json::object();
  out["id"] = rule.id;
  out["name"] = rule.name;
  out["shortDescription"] = Text(rule.summary);
  out["fullDescription"] =
      Text(rule.consequence.empty() ? rule.summary
                                    : rule.summary + " Consequence: " + rule.consequence + ".");
  out["defaultConfiguration"] = Json{{"level", GateLevelName(rule.level)}};
  out["help"] = Text(rule.help.empty() ? out["fullDescription"]["text"].get<std::string>()
                                       : rule.help);
  return out;
}

std::string StepText(const GateTask& task) {
  std::string text = "task " + task.display;
  if (!task.kernel.empty()) text += " " + task.kernel;
  if (!task.access.empty()) text += " " + task.access;
  return text;
}

Json Result(const GateReport& report, const GateFindingGroup& group, const std::string& uri) {
  const GateFinding& example = report.findings[group.members.front()];
  Json result = Json::object();
  result["ruleId"] = report.rules[group.rule].id;
  result["ruleIndex"] = group.rule;
  result["level"] = GateLevelName(group.level);
  result["message"] = Text(GateGroupMessage(report, group));
  Json location = Json::object();
  if (!uri.empty()) location["physicalLocation"] = PhysicalLocation(uri);
  location["logicalLocations"] = Json::array(
      {Json{{"name", group.first_kernel}, {"kind", "function"}},
       Json{{"name", group.second_kernel}, {"kind", "function"}}});
  result["locations"] = Json::array({location});
  result["partialFingerprints"] =
      Json{{"depgraphKernelPair/v1", GateGroupFingerprint(report, group)}};
  Json steps = Json::array();
  const std::vector<GateTask> ends{example.first, example.second};
  for (const GateTask& task : example.path.empty() ? ends : example.path) {
    Json step = Json::object();
    if (!uri.empty()) step["physicalLocation"] = PhysicalLocation(uri);
    step["message"] = Text(StepText(task));
    steps.push_back(Json{{"location", step}});
  }
  result["codeFlows"] =
      Json::array({Json{{"threadFlows", Json::array({Json{{"locations", steps}}})}}});
  Json properties = Json::object();
  properties["occurrences"] = group.members.size();
  properties["firstTask"] = example.first.display;
  properties["secondTask"] = example.second.display;
  if (!example.region.empty()) properties["region"] = example.region;
  result["properties"] = properties;
  return result;
}

}  // namespace

void WriteGateSarif(const GateReport& report, std::ostream& out, const std::string& tool_version) {
  const std::string uri = report.inputs.empty() ? "" : ArtifactUri(report.inputs.front());
  Json driver = Json::object();
  driver["name"] = "depgraph";
  if (!tool_version.empty()) driver["version"] = tool_version;
  Json rules = Json::array();
  for (const GateRule& rule : report.rules) rules.push_back(Rule(rule));
  driver["rules"] = rules;

  Json artifacts = Json::array();
  for (const std::string& input : report.inputs) {
    artifacts.push_back(Json{{"location", Json{{"uri", ArtifactUri(input)}}}});
  }
  Json results = Json::array();
  for (const GateFindingGroup& group : GroupGateFindings(report)) {
    results.push_back(Result(report, group, uri));
  }
  Json run = Json::object();
  run["tool"] = Json{{"driver", driver}};
  run["automationDetails"] = Json{{"id", "depgraph/" + report.command + "/"}};
  run["artifacts"] = artifacts;
  run["results"] = results;
  run["properties"] = Json{{"summary", report.summary},
                           {"coverageGaps", report.coverage_gaps},
                           {"exitCode", report.exit_code}};

  Json log = Json::object();
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = Json::array({run});
  out << log.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace depgraph
