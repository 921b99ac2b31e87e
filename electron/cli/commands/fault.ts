import { parseArgs } from "node:util";
import {
  describeFaultState,
  describeRuleInWords,
  describeTargets,
} from "../../../shared/faults/armed-fault.js";
import { FAULT_ACTION_TABLE } from "../../../shared/faults/fault-actions.js";
import {
  FAULT_ACTIONS,
  type FaultAction,
  type FaultTarget,
  RETRY_ACTIONS,
  UNKEYED_RETRY_WARNING,
} from "../../../shared/faults/fault-rule.js";
import type { TapSummary } from "../../../shared/hub/tap-summary.js";
import { OperationRefused } from "../../../shared/ops/call-over-http.js";
import {
  callOperation,
  findHubTarget,
  HubAddressRefused,
  type HubTarget,
  HubUnreachable,
  TOKEN_ENV,
} from "../../hub-client/hub-client.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";
import { tapTable } from "./taps.js";

/** Each action and what it does, from the fault-action table: the name in a 19-column field, then its help lines. */
const ACTION_HELP = FAULT_ACTIONS.map((a) =>
  FAULT_ACTION_TABLE[a].help.map((line, i) => `  ${(i === 0 ? a : "").padEnd(19)}${line}`).join("\n"),
).join("\n");

const HELP = `Usage:
  acp-retry-inspector fault <action> [--tap ID|NAME | --all] [--method M] [--session S] [--key K]
                                     [--on request|response] [--count N] [--delay-ms D]
  acp-retry-inspector fault list [--json]
  acp-retry-inspector fault disarm <rule-id>
  acp-retry-inspector fault clear

Arms, lists and disarms fault rules on the running hub. Each rule is for one tap (a running
\`proxy\`): --tap names it by the ID or the NAME \`acp-retry-inspector taps\` lists. --all arms it
on every tap attached now. With exactly one tap attached, neither is needed; with several and
neither given, fault lists them and exits 2. The hub sends a rule to its target only, and fault
waits (up to 5 s) until that tap acknowledges holding it before it says "armed".
Actions: ${FAULT_ACTIONS.join(", ")}.
${ACTION_HELP}
The three retry actions match session/prompt unless --method names another method. On a prompt
without an idempotencyKey they still run: ${UNKEYED_RETRY_WARNING}.
A lifecycle action without any match applies at once. Otherwise the rule fires on the next --count
matching frames (default 1); a response matches by the request it answers.

Options:
  --tap ID|NAME    the tap to arm on (see \`acp-retry-inspector taps\`)
  --all            every tap attached now
  --method M       JSON-RPC method, e.g. session/prompt
  --session S      params.sessionId
  --key K          params.idempotencyKey
  --on WHICH       fire on the request or on its response (drop-* fix this)
  --count N        the next N matching frames (default 1)
  --delay-ms D     for delay
  --hub URL        the hub to talk to, http://127.0.0.1:PORT (default: the one in the rendezvous file)
  --json           machine-readable output

\`fault list\` shows each armed rule in words with its tap and state ("armed · 1 left", "waiting
for tap X to acknowledge"), then the rules used up lately ("fired at 12:03:04 on tap X").

The hub's token is read from the rendezvous file, or from the ${TOKEN_ENV} environment variable
when set (needed for a --hub other than the rendezvous file's). It is never taken from the command
line, which every user of this machine can read (ps): there is no --token, and a --hub URL that
carries one is refused.

Exit status: 0 done, 1 no hub reachable, the hub refused, or the tap did not acknowledge,
2 usage error (unknown action, bad option, no such tap, several taps and no --tap or --all).`;

/** Refuses a token on the command line before anything else, saying where it goes instead. */
function refuseTokenInArgv(args: readonly string[]): void {
  if (args.some((a) => a === "--token" || a.startsWith("--token=")))
    throw new CliError(
      `fault takes no --token: a command line is visible to every user of this machine (ps). ` +
        `Set ${TOKEN_ENV} to the hub's token, or let fault read it from the hub's rendezvous file.`,
    );
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        method: { type: "string" },
        session: { type: "string" },
        key: { type: "string" },
        on: { type: "string" },
        count: { type: "string" },
        "delay-ms": { type: "string" },
        tap: { type: "string" },
        all: { type: "boolean" },
        hub: { type: "string" },
        json: { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw usageError("fault", err, args, HELP);
  }
}

function integer(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new CliError(`${name} must be a non-negative integer`);
  return Number(v);
}

async function run(
  target: HubTarget,
  verb: string,
  positionals: string[],
  values: ReturnType<typeof parse>["values"],
) {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  /** One tab-separated row; each cell made terminal safe on its own, so the tabs stay columns. */
  const row = (...cells: string[]) => out(cells.map((c) => terminalSafe(c)).join("\t"));
  if (verb === "list") {
    const board = await callOperation(target, "listFaults");
    if (values.json) {
      out(terminalSafeJson(board, 2));
      return 0;
    }
    const faults = board.faults ?? [];
    if (faults.length === 0) out("no fault rules armed");
    for (const f of faults)
      row(f.rule.id, describeRuleInWords(f.rule), describeTargets(f), describeFaultState(f));
    const recent = board.recent ?? [];
    if (recent.length > 0) out("recently used:");
    for (const f of recent)
      row(f.rule.id, describeRuleInWords(f.rule), describeTargets(f), describeFaultState(f));
    return 0;
  }
  if (verb === "clear") {
    const r = await callOperation(target, "clearFaults");
    out(values.json ? terminalSafeJson(r) : `disarmed ${r.cleared} rule(s)`);
    return 0;
  }
  if (verb === "disarm") {
    const id = positionals[1];
    if (!id) throw new CliError("fault disarm needs a rule id (see `fault list`)");
    const r = await callOperation(target, "disarmFault", { id });
    out(values.json ? terminalSafeJson(r) : `disarmed ${terminalSafe(id)}`);
    return 0;
  }
  const spec = {
    action: verb,
    match: {
      ...(values.method !== undefined && { method: values.method }),
      ...(values.session !== undefined && { sessionId: values.session }),
      ...(values.key !== undefined && { idempotencyKey: values.key }),
      ...(values.on !== undefined && { on: values.on }),
    },
    ...(values.count !== undefined && { count: integer("--count", values.count) }),
    ...(values["delay-ms"] !== undefined && { delayMs: integer("--delay-ms", values["delay-ms"]) }),
  };
  if (RETRY_ACTIONS.has(verb as FaultAction) && values.key === undefined)
    process.stderr.write(
      `acp-retry-inspector: note: if the prompt this retries has no idempotencyKey, it is resent anyway: ${UNKEYED_RETRY_WARNING}\n`,
    );
  const r = await callOperation(target, "armFault", {
    spec: { ...spec, target: await chooseTap(target, values) },
  });
  if (values.json) out(terminalSafeJson(r));
  else if (r.fault)
    row(r.rule.id, describeRuleInWords(r.rule), describeTargets(r.fault), describeFaultState(r.fault));
  else row(r.rule.id, describeRuleInWords(r.rule));
  return 0;
}

/** The rule's target from --tap / --all, or the one tap attached; a usage error (exit 2) listing the taps otherwise. */
async function chooseTap(hub: HubTarget, values: ReturnType<typeof parse>["values"]): Promise<FaultTarget> {
  if (values.all && values.tap !== undefined) throw new CliError("give --tap or --all, not both", 2);
  if (values.all) return { all: true };
  const { taps } = await callOperation(hub, "listTaps");
  const live = taps.filter((t) => t.attached);
  const list = () => (live.length === 0 ? "no tap is attached to the hub" : tapTable(live));
  if (values.tap !== undefined) {
    const byId = live.find((t) => t.traceId === values.tap);
    if (byId) return { tap: byId.traceId };
    const byName = live.filter((t) => t.name === values.tap);
    if (byName.length === 1) return { tap: (byName[0] as TapSummary).traceId };
    throw new CliError(
      byName.length > 1
        ? `${byName.length} attached taps are named ${terminalSafe(values.tap)}; give its ID:\n${tapTable(byName)}`
        : `no attached tap has the ID or name ${terminalSafe(values.tap)}; attached taps:\n${list()}`,
      2,
    );
  }
  if (live.length === 1) return { tap: (live[0] as TapSummary).traceId };
  if (live.length === 0)
    throw new CliError("no tap is attached to the hub, so there is nothing to arm a rule on", 1);
  throw new CliError(
    `${live.length} taps are attached; say which with --tap ID|NAME, or --all for every one:\n${list()}`,
    2,
  );
}

/** `acp-retry-inspector fault`: arm, list and disarm fault rules on the running hub. */
export const faultCommand: CliCommand = {
  name: "fault",
  summary: "arm, list or disarm fault rules on the running hub",
  help: HELP,
  async run(args) {
    refuseTokenInArgv(args);
    const { values, positionals } = parse(args);
    const verb = positionals[0];
    if (!verb) throw new CliError(`fault needs an action or list/disarm/clear\n\n${HELP}`);
    const known = ["list", "clear", "disarm", ...FAULT_ACTIONS];
    if (!known.includes(verb))
      throw new CliError(`unknown fault action '${verb}' (one of ${known.join(", ")})`);
    if (positionals.length > (verb === "disarm" ? 2 : 1))
      throw new CliError(`unexpected argument '${positionals.at(-1)}'`);
    try {
      const target = findHubTarget(values.hub !== undefined ? { url: values.hub } : {});
      return await run(target, verb, positionals, values);
    } catch (err) {
      if (err instanceof HubAddressRefused) throw new CliError(err.message, 2);
      if (err instanceof HubUnreachable) throw new CliError(err.message, 1);
      // Refused before sending (0), bad input (400) or no such rule (404): the user's mistake, exit 2;
      // a tap that never acknowledged (409) is not.
      if (err instanceof OperationRefused)
        throw new CliError(err.message, [0, 400, 404].includes(err.status) ? 2 : 1);
      throw err;
    }
  },
};
