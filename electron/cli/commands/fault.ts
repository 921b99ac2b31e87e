import { parseArgs } from "node:util";
import {
  describeRule,
  FAULT_ACTIONS,
  type FaultAction,
  RETRY_ACTIONS,
  UNKEYED_RETRY_WARNING,
} from "../../../shared/faults/fault-rule.js";
import { OperationRefused } from "../../../shared/ops/call-over-http.js";
import {
  callOperation,
  findHubTarget,
  HubAddressRefused,
  type HubTarget,
  HubUnreachable,
  TOKEN_ENV,
} from "../../hub-client/hub-client.js";
import { type CliCommand, CliError } from "../command.js";
import { terminalSafe, terminalSafeJson } from "../report/terminal-text.js";

const HELP = `Usage:
  acp-retry-inspector fault <action> [--method M] [--session S] [--key K] [--on request|response]
                                     [--count N] [--delay-ms D]
  acp-retry-inspector fault list [--json]
  acp-retry-inspector fault disarm <rule-id>
  acp-retry-inspector fault clear

Arms, lists and disarms fault rules on the running hub; every proxy attached to it applies them.
Actions: ${FAULT_ACTIONS.join(", ")}.
  drop-response      swallow the agent's answer (recorded as dropped)
  drop-request       the agent never receives the client's request
  delay              hold the matching frame --delay-ms milliseconds
  disconnect-client  close the client's connection (the stdio tap exits)
  kill-agent         SIGKILL the agent
  restart-agent      SIGKILL the agent, respawn the same command, replay the client's initialize
                     and resume (v2) or load (v1) every session the client opened
  retry              now: resend the latest matching client request (default method session/prompt;
                     --session/--key pick the submission) with a tap-owned id; the agent's answer is
                     recorded, not forwarded. Sent while the original is held: the RFD's retry while held
  lose-and-retry     on the answer to a matching request: drop it, resend the request, forward the
                     retry's answer to the client under the client's own id
  restart-and-retry  on the answer to a matching prompt: drop it, restart the agent as restart-agent
                     does, resend the prompt, forward its answer under the client's own id
The three retry actions match session/prompt unless --method names another method. On a prompt
without an idempotencyKey they still run: ${UNKEYED_RETRY_WARNING}.
A lifecycle action without any match applies at once. Otherwise the rule fires on the next --count
matching frames (default 1); a response matches by the request it answers.

Options:
  --method M       JSON-RPC method, e.g. session/prompt
  --session S      params.sessionId
  --key K          params.idempotencyKey
  --on WHICH       fire on the request or on its response (drop-* fix this)
  --count N        the next N matching frames (default 1)
  --delay-ms D     for delay
  --hub URL        the hub to talk to, http://127.0.0.1:PORT (default: the one in the rendezvous file)
  --json           machine-readable output

The hub's token is read from the rendezvous file, or from the ${TOKEN_ENV} environment variable
when set (needed for a --hub other than the rendezvous file's). It is never taken from the command
line, which every user of this machine can read (ps): there is no --token, and a --hub URL that
carries one is refused.`;

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
        hub: { type: "string" },
        json: { type: "boolean" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new CliError(`${(err as Error).message}\n\n${HELP}`);
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
    const { rules } = await callOperation(target, "listFaults");
    if (values.json) out(terminalSafeJson(rules, 2));
    else if (rules.length === 0) out("no fault rules armed");
    else for (const rule of rules) row(rule.id, describeRule(rule), `armed ${rule.armedAt}`);
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
  const r = await callOperation(target, "armFault", { spec });
  if (values.json) out(terminalSafeJson(r));
  else if (r.immediate) row(r.rule.id, describeRule(r.rule), `sent to ${r.taps} proxy(ies)`);
  else row(r.rule.id, describeRule(r.rule));
  if (r.immediate && r.taps === 0)
    process.stderr.write("acp-retry-inspector: no proxy is attached, so nothing was affected\n");
  return 0;
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
      // Refused before sending (0), bad input (400) or no such rule (404): the user's mistake, exit 2.
      if (err instanceof OperationRefused)
        throw new CliError(err.message, [0, 400, 404].includes(err.status) ? 2 : 1);
      throw err;
    }
  },
};
