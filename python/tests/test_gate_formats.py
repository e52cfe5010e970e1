"""The CI formats of `depgraph audit` (--format sarif|junit|github), checked from outside: the
SARIF log against the structure SARIF 2.1.0 requires (by hand, and with jsonschema against a
schema of the parts GitHub code scanning reads, when python3-jsonschema is installed), the
JUnit report as well-formed XML, the GitHub lines as workflow commands."""

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import CAPTURES, CLI, REAL, capture_id, run_tool

#: Every property SARIF 2.1.0 defines for a result object (§3.27).
RESULT_PROPERTIES = {
    "ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations",
    "guid", "correlationGuid", "occurrenceCount", "partialFingerprints", "fingerprints",
    "stacks", "codeFlows", "graphs", "graphTraversals", "relatedLocations", "suppressions",
    "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris", "provenance",
    "fixes", "taxa", "webRequest", "webResponse", "properties"}
#: Every property of a SARIF 2.1.0 sarifLog (§3.13) and run (§3.14).
LOG_PROPERTIES = {"$schema", "version", "runs", "inlineExternalProperties", "properties"}
RUN_PROPERTIES = {
    "tool", "invocations", "conversion", "language", "versionControlProvenance",
    "originalUriBaseIds", "artifacts", "logicalLocations", "graphs", "results",
    "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
    "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind",
    "externalPropertyFileReferences", "threadFlowLocations", "taxonomies", "addresses",
    "translations", "policies", "webRequests", "webResponses", "specialLocations", "properties"}
LEVELS = {"none", "note", "warning", "error"}

#: A JSON schema of the SARIF parts this tool writes and code scanning reads (written for these
#: tests from the SARIF 2.1.0 specification, not the official schema file).
SCHEMA = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "format": "uri"},
        "runs": {"type": "array", "items": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {
                    "driver": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string", "minLength": 1},
                        "version": {"type": "string"},
                        "rules": {"type": "array", "items": {
                            "type": "object", "required": ["id"],
                            "properties": {
                                "id": {"type": "string"}, "name": {"type": "string"},
                                "shortDescription": {"$ref": "#/$defs/message"},
                                "fullDescription": {"$ref": "#/$defs/message"},
                                "help": {"$ref": "#/$defs/message"},
                                "defaultConfiguration": {"type": "object", "properties": {
                                    "level": {"enum": sorted(LEVELS)}}}}}}}}}},
                "artifacts": {"type": "array", "items": {"type": "object", "properties": {
                    "location": {"$ref": "#/$defs/artifactLocation"}}}},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "required": ["message"],
                    "additionalProperties": False,
                    "properties": {name: {} for name in RESULT_PROPERTIES} | {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": -1},
                        "level": {"enum": sorted(LEVELS)},
                        "message": {"$ref": "#/$defs/message"},
                        "locations": {"type": "array", "items": {"$ref": "#/$defs/location"}},
                        "partialFingerprints": {"type": "object",
                                                "additionalProperties": {"type": "string"}},
                        "codeFlows": {"type": "array", "minItems": 1, "items": {
                            "type": "object", "required": ["threadFlows"], "properties": {
                                "threadFlows": {"type": "array", "minItems": 1, "items": {
                                    "type": "object", "required": ["locations"], "properties": {
                                        "locations": {"type": "array", "minItems": 1, "items": {
                                            "type": "object", "properties": {
                                                "location": {"$ref": "#/$defs/location"}}}}}}}}}},
                        "properties": {"type": "object"}}}}}}}},
    "$defs": {
        "message": {"type": "object", "required": ["text"],
                    "properties": {"text": {"type": "string", "minLength": 1}}},
        "artifactLocation": {"type": "object", "required": ["uri"], "properties": {
            "uri": {"type": "string", "format": "uri-reference"},
            "index": {"type": "integer", "minimum": -1}}},
        "location": {"type": "object", "properties": {
            "physicalLocation": {"type": "object", "required": ["artifactLocation"],
                                 "properties": {
                                     "artifactLocation": {"$ref": "#/$defs/artifactLocation"},
                                     "region": {"type": "object", "properties": {
                                         "startLine": {"type": "integer", "minimum": 1}}}}},
            "logicalLocations": {"type": "array", "items": {"type": "object"}},
            "message": {"$ref": "#/$defs/message"}}}},
}


def sarif_of(path, *flags):
    code, out, err = run_tool(CLI, "audit", path, "--format", "sarif", *flags)
    assert code in (0, 3), err
    return code, json.loads(out)


def check_sarif(log):
    """The structure SARIF 2.1.0 requires of what this tool writes."""
    assert set(log) <= LOG_PROPERTIES
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert set(run) <= RUN_PROPERTIES
    driver = run["tool"]["driver"]
    assert driver["name"] == "depgraph" and driver["version"]
    rules = driver["rules"]
    ids = [r["id"] for r in rules]
    assert len(set(ids)) == len(ids)
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"]
        assert rule["defaultConfiguration"]["level"] in LEVELS
    for result in run["results"]:
        assert set(result) <= RESULT_PROPERTIES, set(result) - RESULT_PROPERTIES
        assert result["ruleId"] in ids
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in LEVELS
        assert result["message"]["text"]
        for location in result["locations"]:
            assert location["physicalLocation"]["artifactLocation"]["uri"]
            assert location["physicalLocation"]["region"]["startLine"] >= 1
        assert result["partialFingerprints"]
        assert all(isinstance(v, str) for v in result["partialFingerprints"].values())
        for flow in result["codeFlows"]:
            for thread in flow["threadFlows"]:
                assert thread["locations"]
        assert result["properties"]["occurrences"] >= 1
    try:
        import jsonschema
    except ImportError:
        return
    jsonschema.validate(log, SCHEMA)


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_sarif_of_every_real_capture_is_well_formed(capture):
    code, log = sarif_of(capture / "deps.json")
    check_sarif(log)
    results = log["runs"][0]["results"]
    assert (code == 3) == any(r["level"] == "error" for r in results)


def test_sarif_counts_every_race_of_the_probe():
    code, log = sarif_of(REAL / "dep_probe" / "default" / "deps.json")
    assert code == 3
    check_sarif(log)
    results = log["runs"][0]["results"]
    races = sum(r["properties"]["occurrences"] for r in results
                if r["ruleId"] in ("DG101", "DG102", "DG103"))
    assert races == 15  # docs/audit.md
    assert len(results) < races


def test_the_structure_check_can_fail():
    _, log = sarif_of(REAL / "dep_probe" / "default" / "deps.json")
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["ruleIndex"] = 0
    bad["runs"][0]["results"][0]["ruleId"] = "DG201"
    with pytest.raises(AssertionError):
        check_sarif(bad)
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["severity"] = "high"
    with pytest.raises(Exception):
        check_sarif(bad)


def test_junit_is_well_formed_xml():
    code, out, _ = run_tool(CLI, "audit", REAL / "dep_probe" / "default" / "deps.json",
                            "--format", "junit")
    assert code == 3
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("name") == "depgraph audit" and int(suite.get("tests")) == len(cases)
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(suite.get("failures")) == len(failed) == 3
    assert {c.get("classname") for c in cases} == {"depgraph.audit"}


def test_github_lines_are_workflow_commands():
    code, out, _ = run_tool(CLI, "audit", REAL / "dep_probe" / "default" / "deps.json",
                            "--format", "github")
    assert code == 3
    lines = out.splitlines()
    assert 0 < len(lines) <= 10
    for line in lines:
        assert line.split(" ", 1)[0] in ("::error", "::warning", "::notice"), line
        assert "::" in line[2:]


def test_the_schema_can_fail():
    jsonschema = pytest.importorskip("jsonschema")
    _, log = sarif_of(REAL / "dep_probe" / "default" / "deps.json")
    jsonschema.validate(log, SCHEMA)
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]["locations"] = []
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, SCHEMA)
