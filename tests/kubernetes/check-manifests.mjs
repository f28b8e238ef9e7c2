// SPDX-License-Identifier: Apache-2.0
// check-manifests.mjs: validates Kubernetes manifests offline against the
// Kubernetes OpenAPI schema, strictly (an unknown field is an error, as
// `kubectl --validate=strict` makes it one).
//
//   node check-manifests.mjs FILE.yaml...
//
// Two views of the same OpenAPI document, both generated from it and pinned
// in package.json:
//   - kubernetes-models: a JSON-schema validator (ajv, compiled) per kind:
//     types, required fields, enums and formats. Its schemas allow unknown
//     properties, as the API server does by default;
//   - @kubernetes/client-node: every model's field list with its type, which
//     the walk below uses to reject fields the schema does not define (the
//     API server would drop a misspelled field with only a warning).
// @kubernetes/client-node types a resource quantity as a string, so quantities
// are written as strings here ("1", "500m"); the API also takes a bare number.
//
// Prints one line per problem, "FILE: KIND NAME: PATH: message", and exits 1
// if there was any; 0 and one summary line otherwise.

import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";
import * as clientModels from "@kubernetes/client-node/dist/gen/models/ObjectSerializer.js";

// "apps/v1" -> { group: "apps", version: "v1" }; "v1" -> core group.
function splitApiVersion(apiVersion) {
  const slash = apiVersion.indexOf("/");
  if (slash < 0) return { group: "", version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

// kubernetes-models names modules by group and version ("v1" for core).
async function schemaValidator(apiVersion, kind) {
  const { group, version } = splitApiVersion(apiVersion);
  const module = group === "" ? `kubernetes-models/${version}/${kind}` : `kubernetes-models/${group}/${version}/${kind}`;
  try {
    return (await import(module))[kind];
  } catch {
    return null;
  }
}

// client-node names models "<Version><Kind>" ("V1DaemonSet"), whatever the group.
function clientModelName(apiVersion, kind) {
  const { version } = splitApiVersion(apiVersion);
  const name = version.charAt(0).toUpperCase() + version.slice(1) + kind;
  return clientModels[name] ? name : null;
}

const MAP_TYPE = /^\{ \[key: string\]: (.+); \}$/;
const ARRAY_TYPE = /^Array<(.+)>$/;

function typeName(value) {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

// Appends "PATH: message" for each field that is unknown or of the wrong type.
function walk(value, type, path, problems) {
  if (value === null || type === "any" || type === "object") return;
  const expect = (ok, what) => {
    if (!ok) problems.push(`${path}: expected ${what}, got ${typeName(value)}`);
  };
  let m;
  if ((m = ARRAY_TYPE.exec(type))) {
    if (!Array.isArray(value)) return expect(false, "array");
    return value.forEach((item, i) => walk(item, m[1], `${path}[${i}]`, problems));
  }
  if ((m = MAP_TYPE.exec(type))) {
    if (typeName(value) !== "object") return expect(false, "object");
    for (const [key, item] of Object.entries(value)) walk(item, m[1], `${path}.${key}`, problems);
    return;
  }
  switch (type) {
    case "string": return expect(typeof value === "string", "string");
    case "number": return expect(typeof value === "number", "number");
    case "boolean": return expect(typeof value === "boolean", "boolean");
    case "Date": return expect(typeof value === "string", "date-time string");
    case "IntOrString": return expect(typeof value === "string" || Number.isInteger(value), "integer or string");
  }
  const model = clientModels[type];
  if (!model) return problems.push(`${path}: the schema's type ${type} is unknown to the checker`);
  if (typeName(value) !== "object") return expect(false, `object (${type})`);
  const fields = new Map(model.getAttributeTypeMap().map((f) => [f.baseName, f.type]));
  for (const [key, item] of Object.entries(value)) {
    const field = fields.get(key);
    if (field === undefined) problems.push(`${path}.${key}: unknown field in ${type}`);
    else walk(item, field, `${path}.${key}`, problems);
  }
}

async function checkDocument(doc) {
  if (typeName(doc) !== "object") return ["a manifest must be a mapping"];
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== "string" || typeof kind !== "string") return ["apiVersion and kind are required strings"];
  const validator = await schemaValidator(apiVersion, kind);
  const model = clientModelName(apiVersion, kind);
  if (!validator || !model) return [`no schema for ${apiVersion} ${kind}`];
  const problems = [];
  try {
    new validator(doc).validate();
  } catch (error) {
    problems.push(String(error.message ?? error).replace(/\s+/g, " "));
  }
  walk(doc, model, kind, problems);
  return problems;
}

let failures = 0;
let documents = 0;
for (const file of process.argv.slice(2)) {
  const parsed = parseAllDocuments(readFileSync(file, "utf8"), { uniqueKeys: true });
  for (const doc of Array.isArray(parsed) ? parsed : [parsed]) {
    if (doc.errors.length > 0) {
      doc.errors.forEach((e) => console.log(`${file}: YAML: ${e.message.split("\n")[0]}`));
      failures += doc.errors.length;
      continue;
    }
    const value = doc.toJS({ maxAliasCount: 0 });
    if (value === null) continue;  // an empty document between `---` lines
    documents++;
    const name = `${value.kind ?? "?"} ${value.metadata?.name ?? "?"}`;
    for (const problem of await checkDocument(value)) {
      console.log(`${file}: ${name}: ${problem}`);
      failures++;
    }
  }
}
if (documents === 0 && failures === 0) {
  console.log("no manifest found");
  process.exit(1);
}
console.log(`${documents} manifests checked, ${failures} problems`);
process.exit(failures === 0 ? 0 : 1);
