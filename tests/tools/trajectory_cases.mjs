#!/usr/bin/env node
// trajectory_cases.mjs - writes the cases of tests/data/trajectory_cases.jsonl,
// each scored by the real agentevals 0.0.7, the package the trajectory-match
// scorer reproduces. Not run by `make check` (the tests need neither Node nor
// npm); a developer reruns it when the case set changes:
//
//   mkdir ae && cd ae && npm install agentevals@0.0.7
//   node SRC/tests/tools/trajectory_cases.mjs > SRC/tests/data/trajectory_cases.jsonl
//
// agentevals is looked up from the current folder (or AGENTEVALS_DIR), not
// from this file's, so the package never has to live inside the source tree.
//
// Options:
//   --seed N      seed of the random cases (default 1; the committed file uses 1)
//   --count N     how many random cases (default 300)
//   --prefix P    id prefix of the random cases (default "g")
//   --only-random leave out the worked examples and the in-order cases
//
// Every line: {id, source, messages, outputs, reference, mode, args,
// [args_overrides], expect, [throws], [note]}. "messages" is a one-line run so
// that tcreview reads the line as an OpenAI chat run; "expect" is the score
// agentevals returned (true/false) or "error" when it threw ("throws" then
// names the error). Sources: "reference" (ex01..), "containers" (c01..: the
// forms of outputs and reference), "generated" (g001..), "azure-in-order"
// (io01..). The worked examples ex01..ex66 are those of the reference
// text on trajectory match, section 3; where the package disagrees with that
// table this script says so on stderr and writes what the package returned.
// The cases of mode "in-order" (Azure's in_order_match, which agentevals
// lacks) are written by hand with their expectation; see inOrderCases().
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

// ---- options ----------------------------------------------------------------

const opt = { seed: 1, count: 300, prefix: "g", onlyRandom: false };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === "--seed") opt.seed = Number(process.argv[++i]);
  else if (a === "--count") opt.count = Number(process.argv[++i]);
  else if (a === "--prefix") opt.prefix = process.argv[++i];
  else if (a === "--only-random") opt.onlyRandom = true;
  else {
    process.stderr.write(`trajectory_cases.mjs: unknown option '${a}'\n`);
    process.exit(2);
  }
}
if (!Number.isInteger(opt.seed) || !Number.isInteger(opt.count) || opt.count < 0) {
  process.stderr.write("trajectory_cases.mjs: --seed and --count take whole numbers\n");
  process.exit(2);
}

// ---- agentevals, from the current folder ----------------------------------------

async function loadAgentevals() {
  const base = path.resolve(process.env.AGENTEVALS_DIR || process.cwd());
  const req = createRequire(path.join(base, "noop.js"));
  let pkgFile;
  try {
    pkgFile = req.resolve("agentevals/package.json");
  } catch {
    process.stderr.write(
      `trajectory_cases.mjs: agentevals is not installed under ${base}\n` +
      "  run `npm install agentevals@0.0.7` there (or set AGENTEVALS_DIR)\n");
    process.exit(2);
  }
  const pkg = req(pkgFile);
  if (pkg.version !== "0.0.7")
    process.stderr.write(`trajectory_cases.mjs: warning: agentevals ${pkg.version}, not 0.0.7\n`);
  return import(pathToFileURL(path.join(path.dirname(pkgFile), "index.js")).href);
}

// Scores one case: true/false, or "error" with the error's name.
async function score(ae, c) {
  try {
    const ev = ae.createTrajectoryMatchEvaluator({
      trajectoryMatchMode: c.mode,
      toolArgsMatchMode: c.args,
      toolArgsMatchOverrides: c.args_overrides,
    });
    const r = await ev({ outputs: structuredClone(c.outputs), referenceOutputs: structuredClone(c.reference) });
    if (typeof r.score !== "boolean") throw new Error(`score is not a boolean: ${JSON.stringify(r)}`);
    return { expect: r.score };
  } catch (e) {
    return { expect: "error", throws: e && e.name ? e.name : String(e) };
  }
}

// ---- messages -------------------------------------------------------------------

let callSeq = 0;
// An OpenAI tool call; args is an object (written with JSON.stringify) or
// the argument text itself.
function call(name, args = {}) {
  return {
    id: `call_${++callSeq}`,
    type: "function",
    function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  };
}
const s = (args = { q: "a" }) => call("search", args);
const w = (args = { city: "sf" }) => call("get_weather", args);
const U = (content = "what is the weather?") => ({ role: "user", content });
const A = (...calls) => ({ role: "assistant", content: "", tool_calls: calls });
const T = (content = "ok") => ({ role: "tool", tool_call_id: `call_${callSeq}`, content });
const F = (content = "done") => ({ role: "assistant", content });

// ---- the worked examples (reference, section 3) ------------------------------------

function examples() {
  const X = [];
  const ex = (n, mode, args, outputs, reference, table, overrides) =>
    X.push({ n, mode, args, outputs, reference, table, overrides });
  const city = { city: "sf" }, cityN = { city: "sf", n: 5 };

  ex(1, "strict", "exact", [U(), A(w({ city: "sf", n: 5 })), F("sunny")],
     [U(), A(w('{"n":5.0,"city":"sf"}')), F("it is sunny")], true);
  ex(2, "strict", "exact", [U(), A(w()), F()], [U(), A(w()), T(), F()], false);
  ex(3, "strict", "exact", [U(), A(w(), s())], [U(), A(s(), w())], true);
  ex(4, "strict", "exact", [U(), A(w(), s())], [U(), A(w()), A(s())], false);
  ex(5, "strict", "ignore", [U(), { ...F(), tool_calls: [] }], [U(), F()], false);
  ex(6, "strict", "ignore", [U(), { ...F(), tool_calls: null }], [U(), F()], true);
  ex(7, "strict", "ignore", [U(), A(s()), U("done")], [U(), A(s()), F()], false);
  ex(8, "strict", "exact", [U(), A(s({ q: "a" }), s({ q: "a" }))], [U(), A(s({ q: "a" }), s({ q: "b" }))], false);
  ex(9, "unordered", "exact", [U(), A(s({ q: "a" })), A(w(city))], [A(w(city), s({ q: "a" }))], true);
  ex(10, "unordered", "exact", [A(s({ q: "a" })), A(s({ q: "a" }))], [A(s({ q: "a" }))], false);
  ex(11, "superset", "exact", [A(s(), w())], [A(s())], true);
  ex(12, "superset", "exact", [A(s())], [A(s(), w())], false);
  ex(13, "subset", "exact", [A(s())], [A(s(), w())], true);
  ex(14, "subset", "exact", [A(s(), w())], [A(s())], false);
  ex(15, "superset", "exact", [A(s())], [U(), F()], true);
  ex(16, "unordered", "exact", [U(), F()], [], true);
  ex(17, "subset", "exact", [], [A(s())], true);
  ex(18, "superset", "subset", [A(w(city))], [A(w(cityN))], true);
  ex(19, "superset", "subset", [A(w(cityN))], [A(w(city))], false);
  ex(20, "superset", "superset", [A(w(cityN))], [A(w(city))], true);
  ex(21, "subset", "subset", [A(w(cityN))], [A(w(city))], true);
  ex(22, "subset", "subset", [A(w(city))], [A(w(cityN))], false);
  ex(23, "unordered", "subset", [A(w(city))], [A(w(cityN))], false);
  ex(24, "superset", "subset", [A(s({ opts: { a: 1 } }))], [A(s({ opts: { a: 1, b: 2 } }))], false);
  ex(25, "superset", "exact", [A(s({ opts: [1, 2] }))], [A(s({ opts: [2, 1] }))], false);
  ex(26, "superset", "exact", [A(s('{"a":1,"b":2}'))], [A(s('{"b":2,"a":1}'))], true);
  ex(27, "superset", "exact", [A(s({ opts: [] }))], [A(s({ opts: {} }))], true);
  ex(28, "superset", "exact", [A(s({ opts: [1] }))], [A(s({ opts: { 0: 1 } }))], true);
  ex(29, "superset", "exact", [A(s({ n: "5" }))], [A(s({ n: 5 }))], false);
  ex(30, "superset", "exact", [A(s({ n: true }))], [A(s({ n: 1 }))], false);
  ex(31, "superset", "exact", [A(s({ q: "a", n: null }))], [A(s({ q: "a" }))], false);
  ex(32, "superset", "subset", [A(s({ n: null }))], [A(s({}))], false);
  ex(33, "superset", "exact", [A(s({ opts: { a: 1, b: 2 }, q: "x" }))], [A(s({ opts: { a: 1 }, q: "y" }))], true,
     { search: ["opts.a"] });
  ex(34, "superset", "exact", [A(s({ n: null }))], [A(s({}))], true, { search: ["n"] });
  ex(35, "superset", "exact", [A(s({ q: "x" }))], [A(s({ q: "y" }))], true, { search: [] });
  ex(36, "superset", "exact", [A(s({ q: "x" }))], [A(s({ q: 5 }))], true, { search: ["q.a"] });
  ex(37, "superset", "exact", [A(s({ q: "x" }), w({ city: "sf" }))], [A(s({ q: "y" }), w({ city: "sf" }))], true,
     { search: "ignore" });
  ex(38, "superset", "exact", [A(s({ q: "x" }), w({ city: "nyc" }))], [A(s({ q: "y" }), w({ city: "sf" }))], false,
     { search: "ignore" });
  ex(39, "superset", "exact", [A(s({ q: "x" }))], [A(s({ q: "y" }))], true, { search: "fuzzy" });
  ex(40, "superset", "loose", [A(s({ q: "x" }))], [A(s({ q: "y" }))], true);
  ex(41, "superset", "superset", [A(w(cityN), w(city))], [A(w(city), w(cityN))], false);
  ex(42, "superset", "superset", [A(w(city), w(cityN))], [A(w(city), w(cityN))], true);
  ex(43, "strict", "superset", [A(w(cityN), w(city))], [A(w(city), w(cityN))], false);
  ex(44, "superset", "exact", [A(s('{"n":9007199254740993}'))], [A(s('{"n":9007199254740992}'))], true);
  ex(45, "superset", "exact", [A(s('{"n":1,"n":5}'))], [A(s({ n: 5 }))], true);
  ex(46, "superset", "exact", [A(s('{"q":"\\u0073f"}'))], [A(s({ q: "sf" }))], true);
  ex(47, "superset", "ignore", [A(s("q=sf"))], [], "error");
  ex(48, "strict", "exact", [A(s("q=sf"))], [A(w({}))], false);
  ex(49, "strict", "exact", [A(s("q=sf"))], [A(s({}))], "error");
  ex(50, "superset", "ignore", [A(s(""))], [A(s({}))], "error");
  const objArgs = (name, args) => ({ id: `call_${++callSeq}`, type: "function", function: { name, arguments: args } });
  ex(51, "superset", "exact", [A(objArgs("search", { q: "a" }))], [A(objArgs("send_email", { to: "b" }))], true);
  ex(52, "superset", "exact", [A(objArgs("search", { q: "a" }))], [A(s('{"q":"a"}'))], false);
  ex(53, "strict", "exact", [A(objArgs("search", { q: "a" }))], [A(s({ q: "a" }))], "error");
  const noArgs = () => ({ id: `call_${++callSeq}`, type: "function", function: { name: "search" } });
  ex(54, "strict", "exact", [A(noArgs())], [A(s({}))], true);
  ex(55, "superset", "exact", [A(noArgs())], [A(s({}))], false);
  ex(56, "superset", "exact", [A({ name: "search", args: { q: "a" }, id: "lc_1" })], [A(s({ q: "a" }))], true);
  ex(57, "strict", "exact", [A({ name: "search", args: { q: "a" }, id: "lc_1" })],
     [A({ name: "lookup", args: { id: 7 }, id: "lc_2" })], true);
  ex(58, "superset", "exact", [{ role: "user", content: "", tool_calls: [s({ q: "a" })] }], [A(s({ q: "a" }))], true);
  ex(59, "superset", "subset", [A(s("null"))], [A(s({ q: "a" }))], "error");
  ex(60, "superset", "exact", [A(s("null"))], [A(s("null"))], true);
  ex(61, "superset", "subset", [A(s("5"))], [A(s({ q: "a" }))], true);
  ex(62, "superset", "superset", [A(s("5"))], [A(s({ q: "a" }))], "error");
  ex(63, "strict", "exact", [], [], true);
  ex(64, "strict", "exact", [], [U()], false);
  ex(65, "unordered", "superset", [A(w(cityN), w(city))], [A(w(city), w(cityN))], false);
  ex(66, "superset", "subset", [A(s("null"))], [A(w({}), s({ q: "a" }))], false);
  return X;
}

// ---- the containers of section 1.2 ---------------------------------------------------
//
// outputs / reference as {messages: [...]}, and objects that are not that.
function containerCases() {
  const C = [];
  const cc = (n, mode, outputs, reference, note) =>
    C.push({ id: `c${String(n).padStart(2, "0")}`, mode, args: "exact", outputs, reference, note });
  cc(1, "superset", { messages: [A(s(), w())] }, { messages: [A(s())] }, "both as {messages}");
  cc(2, "strict", { messages: [U(), A(s())] }, [U(), A(s())], "{messages} against a list");
  cc(3, "unordered", [], { messages: [] }, "an empty {messages}");
  cc(4, "superset", { turns: [A(s())] }, [A(s())], "an object without messages throws");
  cc(5, "strict", [A(s())], { messages: { role: "assistant" } }, "messages that is not a list throws");
  cc(6, "subset", { messages: [A(s())], extra: 1 }, [A(s(), w())], "other keys beside messages are ignored");
  return C;
}

// ---- Azure's in-order match, written by hand --------------------------------------
//
// The reference's calls (reader U: every message's tool_calls, in order) must
// appear as a subsequence of the output's calls: same name, and the args
// matcher (args mode and overrides as in agentevals, called as
// matcher(output args, reference args)) true; extra output calls anywhere.
// An empty reference matches. Greedy left-to-right is exact for a subsequence.
function inOrderCases() {
  const e = (to = "b") => call("send_email", { to });
  const C = [];
  const io = (n, args, outputs, reference, expect, note, overrides) =>
    C.push({ id: `io${String(n).padStart(2, "0")}`, mode: "in-order", args, outputs, reference, expect, note, overrides });
  io(1, "exact", [U(), A(s()), T(), A(w()), T(), A(e()), F()], [A(s(), e())], true,
     "extra output calls between and around the reference's are fine");
  io(2, "exact", [A(w(), s())], [A(s(), w())], false, "order matters");
  io(3, "exact", [A(s())], [A(s()), A(s())], false, "each reference call needs its own output call");
  io(4, "exact", [A(s()), A(w())], [U(), F()], true, "a reference without calls matches");
  io(5, "exact", [], [A(s())], false, "no output calls, one expected");
  io(6, "ignore", [A(s({ q: "x" })), A(w({ city: "nyc" }))], [A(s({ q: "y" }), w())], true, "args ignored");
  io(7, "exact", [A(s({ q: "x" })), A(w({ city: "nyc" }))], [A(s({ q: "y" }), w())], false, "args compared");
  io(8, "superset", [A(w({ city: "sf", n: 5 }))], [A(w({ city: "sf" }))], true,
     "superset: the output's args hold the reference's");
  io(9, "exact", [A(s({ q: "a" }), s({ q: "b" }), s({ q: "a" }))], [A(s({ q: "b" })), A(s({ q: "a" }))], true,
     "the scan skips the first a and finds the later one");
  io(10, "exact", [A(s({ q: "b" }), s({ q: "a" }))], [A(s({ q: "a" }), s({ q: "b" }))], false,
     "the same calls, swapped");
  io(11, "exact", [A(w('{"n":5,"city":"sf"}'))], [A(w('{"city":"sf","n":5.0}'))], true,
     "5 equals 5.0; key order is free");
  io(12, "exact", [A(s({ q: "a", n: 1 }), w())], [A(s({ q: "a", n: 2 }))], true, "override: only q is compared",
     { search: ["q"] });
  io(13, "exact", [A(s({ n: "5" }))], [A(s({ n: 5 }))], false, "a string is not a number");
  io(14, "exact", [{ role: "user", content: "", tool_calls: [s()] }, A(w())], [A(s(), w())], true,
     "calls on any message count, as in agentevals' unordered reader");
  return C;
}

// ---- the random cases ----------------------------------------------------------------

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let rnd = mulberry32(1);
const rint = (n) => Math.floor(rnd() * n);
const pick = (xs) => xs[rint(xs.length)];
const chance = (p) => rnd() < p;
function shuffle(xs) {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = rint(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
// A number whose text is fixed, e.g. 9007199254740993 or 5.0: the JSON text
// keeps it as written, which is the point.
class RawNum { constructor(text) { this.text = text; } }

// A deep copy that keeps RawNum leaves (structuredClone would not).
function clone(v) {
  if (v instanceof RawNum) return v;
  if (Array.isArray(v)) return v.map(clone);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}

const NAMES = ["search", "get_weather", "send_email", "lookup"];
const KEYS = ["q", "city", "n", "to", "opts", "unit", "tags", "id"];

function genScalar() {
  switch (rint(9)) {
  case 0: case 1: return pick(["sf", "nyc", "a", "b", "Paris", ""]);
  case 2: return pick(["5", "true", "null", "0"]);
  case 3: case 4: return pick([5, 0, 1, 2, -3, 2.5, 100, 1e21]);
  case 5: return pick([true, false]);
  case 6: return null;
  case 7: return new RawNum(pick(["5.0", "5e0", "50e-1", "9007199254740993", "9007199254740992", "-0", "0.0", "1E2"]));
  default: return pick(["sf", "a"]);
  }
}
function genValue(depth) {
  if (depth < 2 && chance(0.25)) {
    if (chance(0.5)) {
      const n = rint(3);
      return Array.from({ length: n }, () => genValue(depth + 1));
    }
    return genObject(depth + 1, rint(3));
  }
  return genScalar();
}
function genObject(depth, nkeys) {
  const o = {};
  for (const k of shuffle(KEYS).slice(0, nkeys)) o[k] = genValue(depth);
  return o;
}

// JSON text of a value that may hold RawNum leaves, in one of several
// styles: spaces, integers written as 5.0 / 5e0, \u escapes in strings.
function render(v, style) {
  const sp = style.spaces ? " " : "";
  if (v instanceof RawNum) return v.text;
  if (v === null) return "null";
  if (typeof v === "number") {
    if (Number.isInteger(v) && Math.abs(v) < 1e15 && style.numbers && chance(0.5))
      return pick([`${v}.0`, `${v}e0`, `${v}E+0`]);
    return JSON.stringify(v);
  }
  if (typeof v === "string") {
    if (style.escapes && v.length && chance(0.5))
      return `"${[...v].map((ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0")).join("")}"`;
    return JSON.stringify(v);
  }
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => render(x, style)).join("," + sp)}]`;
  const keys = style.reorder ? shuffle(Object.keys(v)) : Object.keys(v);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${sp}${render(v[k], style)}`).join("," + sp)}}`;
}
function randomStyle() {
  return { spaces: chance(0.3), numbers: chance(0.3), escapes: chance(0.15), reorder: chance(0.5) };
}

// A call as the generator holds it: name, args (a value, or {text} for a
// fixed argument text) and its shape (openai, object-arguments, no-arguments,
// null-arguments, langchain).
function genCall(name) {
  return { name: name || pick(NAMES), args: genObject(0, rint(4)), shape: "openai" };
}
function emitCall(c) {
  const id = `call_${++callSeq}`;
  switch (c.shape) {
  case "langchain": return { name: c.name, args: c.args.text !== undefined ? {} : plain(c.args), id, type: "tool_call" };
  case "object-arguments": return { id, type: "function", function: { name: c.name, arguments: plain(c.args) } };
  case "no-arguments": return { id, type: "function", function: { name: c.name } };
  case "null-arguments": return { id, type: "function", function: { name: c.name, arguments: null } };
  default: {
    const text = c.args && c.args.text !== undefined ? c.args.text : render(c.args, randomStyle());
    return { id, type: "function", function: { name: c.name, arguments: text } };
  }
  }
}
// A value without RawNum leaves (for shapes that carry args as objects).
function plain(v) {
  if (v instanceof RawNum) return Number(v.text);
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") {
    if (v.text !== undefined && Object.keys(v).length === 1) return {};
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

// A trajectory as the generator holds it: a list of message plans,
// {role, content, calls (null: no tool_calls field), callsField}.
function genTrajectory(ncalls) {
  const calls = Array.from({ length: ncalls }, () => genCall(chance(0.3) ? "search" : null));
  const msgs = [];
  if (chance(0.15)) msgs.push({ role: "system", content: "You are helpful." });
  if (chance(0.8)) msgs.push({ role: "user", content: pick(["weather in sf?", "find a", "hi"]) });
  let i = 0;
  while (i < calls.length) {
    const k = 1 + rint(Math.min(3, calls.length - i));
    msgs.push({ role: "assistant", content: chance(0.5) ? "" : null, calls: calls.slice(i, i + k) });
    i += k;
    if (chance(0.6)) msgs.push({ role: "tool", content: "result" });
  }
  if (chance(0.6)) msgs.push({ role: "assistant", content: pick(["done", "It is sunny."]) });
  return msgs;
}

function allCalls(plan) {
  const out = [];
  plan.forEach((m, mi) => (m.calls || []).forEach((c, ci) => out.push({ m: mi, c: ci })));
  return out;
}

// Mutations of one call's args; each returns the new args and its name.
function mutateArgs(args) {
  const a = args && args.text === undefined ? clone(args) : {};
  const keys = Object.keys(a);
  const pickKey = () => pick(keys);
  const r = rint(14);
  if (r === 0) return [a, "args-same-rerendered"];
  if (r === 1) { const k = pick(KEYS.filter((x) => !(x in a)).concat(["extra"])); a[k] = genScalar(); return [a, "args-add-key"]; }
  if (r === 2) { a[pick(["n", "extra", "q"])] = null; return [a, "args-add-null"]; }
  if (r === 3 && keys.length) { delete a[pickKey()]; return [a, "args-drop-key"]; }
  if (r === 4 && keys.length) { a[pickKey()] = genValue(0); return [a, "args-change-value"]; }
  if (r === 5 && keys.length) {
    const k = pickKey(), v = a[k];
    if (typeof v === "number") a[k] = String(v);
    else if (v instanceof RawNum) a[k] = v.text;
    else if (typeof v === "boolean") a[k] = v ? 1 : 0;
    else if (typeof v === "string" && v !== "" && !isNaN(Number(v))) a[k] = Number(v);
    else if (v === null) a[k] = "null";
    else a[k] = 5;
    return [a, "args-string-vs-number"];
  }
  if (r === 6 && keys.length) {
    const k = pickKey(), v = a[k];
    if (Array.isArray(v)) a[k] = Object.fromEntries(v.map((x, i) => [String(i), x]));
    else if (v && typeof v === "object" && !(v instanceof RawNum)) a[k] = Object.values(v);
    else a[k] = chance(0.5) ? [] : {};
    return [a, "args-array-vs-object"];
  }
  if (r === 7) {
    for (const k of keys) {
      const v = a[k];
      if (Array.isArray(v) && v.length > 1) { a[k] = v.slice().reverse(); return [a, "args-array-order"]; }
      if (v && typeof v === "object" && !(v instanceof RawNum)) {
        const ks = Object.keys(v);
        if (ks.length && chance(0.5)) delete v[ks[0]]; else v.extra = 1;
        return [a, "args-nested-change"];
      }
    }
    a.opts = { a: 1, b: [1, 2] };
    return [a, "args-add-nested"];
  }
  if (r === 8) {
    for (const k of keys) {
      const v = a[k];
      if (typeof v === "number" && Number.isInteger(v)) { a[k] = new RawNum(`${v}.0`); return [a, "args-5-vs-5.0"]; }
      if (v instanceof RawNum && Number.isFinite(Number(v.text))) { a[k] = Number(v.text); return [a, "args-5-vs-5.0"]; }
    }
    a.n = new RawNum(pick(["5.0", "5"]));
    return [a, "args-5-vs-5.0"];
  }
  if (r === 9) return [{ text: pick(["null", "5", "[1,2]", "\"sf\"", "[]", "true", " {} ", "{}"]) }, "args-not-object"];
  if (r === 10 || r === 13)
    return [{ text: pick(["q=sf", "", "{", "{'q':'a'}", "{\"n\":NaN}", "{\"q\":\"a\",}", "{\"n\":Infinity}", "nul"]) }, "args-broken-json"];
  if (r === 11 && keys.length) {
    const dup = pickKey();
    const body = render(a, { reorder: true });
    return [{ text: `{"${dup}":"shadowed",` + body.slice(1) }, "args-duplicate-key"];
  }
  if (r === 12) return [genObject(0, rint(4)), "args-new"];
  return [a, "args-same-rerendered"];
}

const SHAPES = ["object-arguments", "no-arguments", "null-arguments", "langchain"];

// Applies one trajectory mutation to plan (in place); returns its name.
function mutateTrajectory(plan) {
  const calls = allCalls(plan);
  const at = (x) => plan[x.m].calls[x.c];
  const r = rint(22);
  if ((r <= 3 || r >= 16) && calls.length) {
    const x = pick(calls), c = at(x);
    const [args, what] = mutateArgs(c.args);
    plan[x.m].calls[x.c] = { ...c, args };
    return what;
  }
  if (r === 4 && calls.length) { const x = pick(calls); plan[x.m].calls.splice(x.c, 1); return "drop-call"; }
  if (r === 5) {
    const asst = plan.filter((m) => m.calls);
    const c = calls.length && chance(0.6) ? clone(at(pick(calls))) : genCall();
    if (asst.length && chance(0.7)) { const m = pick(asst); m.calls.splice(rint(m.calls.length + 1), 0, c); }
    else plan.push({ role: "assistant", content: "", calls: [c] });
    return c.name && calls.some((x) => at(x).name === c.name) ? "add-duplicate-call" : "add-call";
  }
  if (r === 6) {
    const m = plan.find((p) => p.calls && p.calls.length > 1);
    if (m) { m.calls = shuffle(m.calls); return "shuffle-within-message"; }
  }
  if (r === 7) {
    const i = plan.findIndex((p) => p.calls && p.calls.length > 1);
    if (i >= 0) {
      const m = plan[i], cut = 1 + rint(m.calls.length - 1);
      plan.splice(i + 1, 0, { role: "assistant", content: "", calls: m.calls.slice(cut) });
      m.calls = m.calls.slice(0, cut);
      return "split-message";
    }
  }
  if (r === 8) {
    const idx = plan.map((p, i) => (p.calls ? i : -1)).filter((i) => i >= 0);
    if (idx.length > 1) {
      const [a, b] = [idx[0], idx[1]];
      plan[a].calls.push(...plan[b].calls);
      plan.splice(b, 1);
      return "merge-messages";
    }
  }
  if (r === 9 && calls.length > 1) {
    const flat = shuffle(calls.map(at));
    let k = 0;
    for (const m of plan) if (m.calls) m.calls = m.calls.map(() => flat[k++]);
    return "shuffle-all-calls";
  }
  if (r === 10 && calls.length) {
    const x = pick(calls), c = at(x);
    plan[x.m].calls[x.c] = { ...c, name: pick(NAMES.filter((n) => n !== c.name)) };
    return "rename-call";
  }
  if (r === 11) {
    const i = plan.findIndex((p) => p.role === "tool" || (p.role === "assistant" && !p.calls));
    if (i >= 0) { plan.splice(i, 1); return "drop-message"; }
    plan.push({ role: "tool", content: "result" });
    return "add-message";
  }
  if (r === 12) {
    const m = plan.find((p) => p.role === "assistant" && !p.calls);
    if (m) { m.callsField = pick([[], null]); return m.callsField ? "empty-tool-calls" : "null-tool-calls"; }
  }
  if (r === 13 && calls.length) {
    const x = pick(calls);
    plan[x.m].calls[x.c] = { ...at(x), shape: pick(SHAPES) };
    return "call-shape-" + plan[x.m].calls[x.c].shape;
  }
  if (r === 14) {
    const m = plan.find((p) => p.calls);
    if (m) { m.role = "user"; return "calls-on-user-message"; }
  }
  if (r === 15 && chance(0.4)) { plan.length = 0; return "empty-trajectory"; }
  return "none";
}

function emitTrajectory(plan) {
  const msgs = plan.map((m) => {
    const out = { role: m.role, content: m.content };
    if (m.calls) out.tool_calls = m.calls.map(emitCall);
    else if (m.callsField !== undefined) out.tool_calls = m.callsField;
    if (m.role === "tool") out.tool_call_id = `call_${callSeq}`;
    if (chance(0.2)) return Object.fromEntries(shuffle(Object.entries(out)));   // key order of a message
    return out;
  });
  return chance(0.05) ? { messages: msgs } : msgs;
}

// Key paths of an args value, dotted ones included, for key-list overrides.
function keyPaths(v, prefix = "", depth = 0) {
  if (!v || typeof v !== "object" || v instanceof RawNum || v.text !== undefined || depth > 2) return [];
  const out = [];
  for (const [k, x] of Object.entries(v)) {
    out.push(prefix + k);
    out.push(...keyPaths(x, prefix + k + ".", depth + 1));
  }
  return out;
}

function genOverrides(plans) {
  const names = new Set(), paths = new Set();
  for (const p of plans) for (const m of p) for (const c of m.calls || []) {
    names.add(c.name);
    keyPaths(c.args).forEach((k) => paths.add(k));
  }
  if (!names.size) names.add(pick(NAMES));
  const o = {};
  for (const name of shuffle([...names]).slice(0, 1 + rint(2))) {
    if (chance(0.45)) o[name] = pick(["exact", "ignore", "subset", "superset", "exact", "ignore", "fuzzy"]);
    else {
      const pool = [...paths, "missing", "opts.a", "q.a"];
      o[name] = shuffle(pool).slice(0, rint(3));
    }
  }
  return o;
}

const MODES = ["strict", "unordered", "subset", "superset"];
const ARGS = ["exact", "ignore", "subset", "superset"];

function randomCase(i) {
  const mode = MODES[i % 4], args = chance(0.015) ? "loose" : ARGS[Math.floor(i / 4) % 4];
  const ref = genTrajectory(chance(0.1) ? 0 : 1 + rint(4));
  let out = clone(ref);
  const notes = [];
  if (chance(0.1)) { out = genTrajectory(rint(4)); notes.push("independent"); }
  const nmut = chance(0.1) ? 0 : 1 + rint(3);
  for (let k = 0; k < nmut; k++) notes.push(mutateTrajectory(chance(0.85) ? out : ref));
  if (chance(0.3)) notes.push("swap-sides");
  const [o, r] = notes.includes("swap-sides") ? [ref, out] : [out, ref];
  const c = { mode, args, outputs: emitTrajectory(o), reference: emitTrajectory(r) };
  if (chance(0.3)) { c.overrides = genOverrides([o, r]); notes.push("overrides"); }
  c.note = notes.filter((n) => n !== "none").join(" ") || "copy";
  return c;
}

// ---- output ---------------------------------------------------------------------------

function line(c) {
  const o = {
    id: c.id,
    source: c.source,
    messages: [{ role: "user", content: `case ${c.id}` }],
    outputs: c.outputs,
    reference: c.reference,
    mode: c.mode,
    args: c.args,
  };
  if (c.overrides) o.args_overrides = c.overrides;
  o.expect = c.expect;
  if (c.throws) o.throws = c.throws;
  // Where tcreview departs from agentevals by design, the case says so and
  // what tcreview gives instead; "expect" stays what agentevals returned.
  const unknown = unknownArgMode(c);
  if (unknown) {
    o.tcreview = "error";
    o.why = `unknown argument mode "${unknown}": agentevals ignores it, tcreview refuses it`;
  }
  if (c.note) o.note = c.note;
  return JSON.stringify(o);
}

// The first argument mode, of args or of an override, that agentevals does
// not know; a list of keys is not a mode and is always known.
const ARG_MODES = ["exact", "ignore", "subset", "superset"];
function unknownArgMode(c) {
  if (typeof c.args === "string" && !ARG_MODES.includes(c.args)) return c.args;
  for (const v of Object.values(c.overrides || {}))
    if (typeof v === "string" && !ARG_MODES.includes(v)) return v;
  return null;
}

async function main() {
  const ae = await loadAgentevals();
  const lines = [];
  const tally = { true: 0, false: 0, error: 0 };
  let disagreements = 0;
  if (!opt.onlyRandom) {
    callSeq = 0;
    for (const x of examples()) {
      const id = `ex${String(x.n).padStart(2, "0")}`;
      const c = { id, source: "reference", mode: x.mode, args: x.args, outputs: x.outputs, reference: x.reference,
                  overrides: x.overrides };
      Object.assign(c, await score(ae, { ...c, args_overrides: x.overrides }));
      if (c.expect !== x.table) {
        disagreements++;
        process.stderr.write(`${id}: the reference table says ${x.table}, agentevals gives ${c.expect}\n`);
      }
      lines.push(line(c));
    }
  }
  if (!opt.onlyRandom) {
    callSeq = 0;
    for (const x of containerCases()) {
      const c = { ...x, source: "containers" };
      Object.assign(c, await score(ae, c));
      lines.push(line(c));
    }
  }
  rnd = mulberry32(opt.seed);
  callSeq = 0;
  for (let i = 0; i < opt.count; i++) {
    const c = randomCase(i);
    c.id = `${opt.prefix}${String(i + 1).padStart(3, "0")}`;
    c.source = "generated";
    Object.assign(c, await score(ae, { ...c, args_overrides: c.overrides }));
    tally[c.expect]++;
    lines.push(line(c));
  }
  if (!opt.onlyRandom) {
    callSeq = 0;
    for (const c of inOrderCases()) lines.push(line({ ...c, source: "azure-in-order" }));
  }
  process.stdout.write(lines.join("\n") + "\n");
  process.stderr.write(`random cases (seed ${opt.seed}): ${tally.true} true, ${tally.false} false, ` +
                       `${tally.error} error` +
                       (opt.onlyRandom ? "\n" : `; ${disagreements} disagreement(s) with the reference table\n`));
}

main().catch((e) => { process.stderr.write(`trajectory_cases.mjs: ${e.stack || e}\n`); process.exit(1); });
