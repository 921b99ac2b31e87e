import { parseArgs } from "node:util";
import { describeAgent, type TapSummary } from "../../../shared/hub/tap-summary.js";
import { OperationRefused } from "../../../shared/ops/call-over-http.js";
import {
  callOperation,
  findHubTarget,
  HubAddressRefused,
  HubUnreachable,
  TOKEN_ENV,
} from "../../hub-client/hub-client.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { type CliCommand, CliError } from "../command.js";
import { usageError } from "../command-args.js";

const HELP = `Usage: acp-retry-inspector taps [--json] [--hub URL]

Lists the running hub's taps (each \`proxy\` attached to it in this hub run), live ones and recent
ended ones, newest first: trace id, name, status, start time, agent pid, connections open of
total, and the agent command.
Status: running (an agent alive or a client connected), waiting (attached, nothing open yet),
ended (detached after its agent exited), detached (went away with an agent or connection open).

Options:
  --json      the hub's answer as JSON (an array of taps)
  --hub URL   the hub to ask, http://127.0.0.1:PORT (default: the one in the rendezvous file)

The hub's token is read from the rendezvous file, or from the ${TOKEN_ENV} environment variable
when set (needed for a --hub other than the rendezvous file's); never from the command line.

An entry of the hub's answer that is not a tap (a field missing or of the wrong type) is left out
and counted on stderr; an answer with no list of taps at all is an error.

Exit status: 0 listed (also when there are none), 1 no hub reachable, the hub refused, or its
answer holds no list of taps, 2 usage error (a --token, or a --hub that is not a loopback address or carries a token).`;

/** Local wall-clock time, `2026-01-31 12:05:01`. */
function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const isText = (v: unknown): v is string => typeof v === "string";
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** True when `v` has every field `tapTable` and `describeAgent` read, each of the right type. */
function looksLikeTap(v: unknown): v is TapSummary {
  if (typeof v !== "object" || v === null) return false;
  const t = v as Record<string, unknown>;
  const conns = t.connections as Record<string, unknown> | null | undefined;
  const exit = t.lastExit as Record<string, unknown> | null | undefined;
  return (
    isText(t.traceId) &&
    isText(t.name) &&
    isText(t.status) &&
    isText(t.startedAt) &&
    Array.isArray(t.agentPids) &&
    t.agentPids.every(isCount) &&
    typeof conns === "object" &&
    conns !== null &&
    isCount(conns.open) &&
    isCount(conns.total) &&
    (t.command === null ||
      t.command === undefined ||
      (Array.isArray(t.command) && t.command.every(isText))) &&
    (exit === null ||
      exit === undefined ||
      (typeof exit === "object" && (exit.signal === null || isText(exit.signal))))
  );
}

/**
 * The taps of a hub's `listTaps` answer, checked entry by entry (any process on the port may have
 * answered): the entries that are taps, and how many were not. Null when the answer holds no list.
 */
export function tapsOfAnswer(answer: unknown): { taps: TapSummary[]; notTaps: number } | null {
  const list =
    typeof answer === "object" && answer !== null ? (answer as { taps?: unknown }).taps : undefined;
  if (!Array.isArray(list)) return null;
  const taps = list.filter(looksLikeTap);
  return { taps, notTaps: list.length - taps.length };
}

/** The taps as an aligned text table, one line per tap; names and commands came from the taps, so they are escaped. */
export function tapTable(taps: readonly TapSummary[]): string {
  const rows = taps.map((t) =>
    [
      t.traceId,
      t.name,
      t.status,
      localTime(t.startedAt),
      t.agentPids.length > 0 ? t.agentPids.join(",") : describeAgent(t).replace(/^agent /, ""),
      `${t.connections.open}/${t.connections.total}`,
      t.command?.join(" ") ?? "",
    ].map((cell) => terminalSafe(cell)),
  );
  const head = ["ID", "NAME", "STATUS", "STARTED", "AGENT PID", "CONNS", "COMMAND"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  return [head, ...rows]
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** `acp-retry-inspector taps`: the running hub's live and recent taps. */
export const tapsCommand: CliCommand = {
  name: "taps",
  summary: "list the running hub's live and recent taps (name, status, agent pid, connections)",
  help: HELP,
  async run(args) {
    if (args.some((a) => a === "--token" || a.startsWith("--token=")))
      throw new CliError(
        `taps takes no --token: a command line is visible to every user of this machine (ps). ` +
          `Set ${TOKEN_ENV} to the hub's token, or let taps read it from the hub's rendezvous file.`,
      );
    let values: { json?: boolean; hub?: string };
    try {
      ({ values } = parseArgs({
        args,
        options: { json: { type: "boolean" }, hub: { type: "string" } },
        strict: true,
        allowPositionals: false,
      }));
    } catch (err) {
      throw usageError("taps", err, args, HELP);
    }
    try {
      const target = findHubTarget(values.hub !== undefined ? { url: values.hub } : {});
      const checked = tapsOfAnswer(await callOperation(target, "listTaps"));
      if (!checked)
        throw new CliError(
          `the hub at ${target.base} answered without a list of taps: is it an acp-retry-inspector hub?`,
          1,
        );
      const { taps, notTaps } = checked;
      if (notTaps > 0)
        process.stderr.write(
          `acp-retry-inspector: taps: ${notTaps} entr${notTaps === 1 ? "y" : "ies"} of the hub's answer ${notTaps === 1 ? "is" : "are"} not a tap: left out\n`,
        );
      if (values.json) process.stdout.write(`${terminalSafeJson(taps, 2)}\n`);
      else process.stdout.write(taps.length === 0 ? "no taps in this hub run\n" : `${tapTable(taps)}\n`);
      return 0;
    } catch (err) {
      if (err instanceof HubAddressRefused) throw new CliError(err.message, 2);
      if (err instanceof HubUnreachable || err instanceof OperationRefused)
        throw new CliError(err.message, 1);
      throw err;
    }
  },
};
