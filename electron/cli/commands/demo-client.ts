import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type AgentTarget, targetForUrl } from "../../peers/client/agent-transport.js";
import {
  type ClientReport,
  MISBEHAVIOURS,
  type Misbehaviour,
  runDemoClient,
} from "../../peers/client/demo-client.js";
import { defaultDataDir } from "../../peers/default-data-dir.js";
import { FRONT_TOKEN_ENV } from "../../platform/front-token.js";
import { terminalSafe, terminalSafeJson } from "../../platform/terminal-text.js";
import { type CliCommand, CliError, splitAgentCommand } from "../command.js";
import { usageError } from "../command-args.js";

const HELP = `Usage: acp-retry-inspector demo-client [options] (--url URL | -- AGENT_COMMAND [ARGS...])

A reference ACP v2 client that makes prompts safe to retry: one idempotency key (UUIDv4) per
submission, created at submit time and kept in a pending file; every attempt is a new request with
the same key. Submissions are sent one at a time, in order. On a timeout it resends on the same
connection; when the connection drops or the agent exits it reconnects (respawns or redials),
initializes, resumes the session and resends every pending submission. A session/new whose answer
was lost is not sent again (it could create a second session): the submissions fail. A resume
refused with -32002 for a session it never prompted gets a new session instead (not with --session).
Reconnects back off: 50 ms after the first failed connection, doubling up to 5 s; after 10
connections in a row that fail before the session is set up it gives up. Each failure is named:
connection refused, "401: the server wants a token" (a 401, or a tap's WebSocket close 4401 when the
remote agent behind it answered 401; no retry, exit 1), 403, agent missing (the command cannot be
started: no retry),
agent exited with code N or was killed by a signal. Exit status 0 when every submission got a
messageId, 1 otherwise (also when there was no submission, or the agent could not be reached; the
report is printed either way).

Options:
  --url URL            connect to a remote agent: ws://... (WebSocket) or http://... (Streamable HTTP)
  --token-file FILE    with --url: send the token in FILE as Authorization: Bearer (a proxy --listen
                       front writes it next to its trace, TRACE.token); without it, the token in
                       $${FRONT_TOKEN_ENV}, if set. Never on the command line: other users can read argv
  -- COMMAND...        spawn the agent and speak over its stdio (the default transport)
  --prompt TEXT        a prompt to submit (repeatable, in order)
  --script FILE        prompts from a file, one per line (blank lines and # comments skipped)
  --no-key             send prompts without keys: the unsafe client, for contrast
  --timeout MS         how long one attempt waits for its answer (default: 30000)
  --setup-timeout MS   how long initialize and session/new or session/resume wait on each connection
                       (default: --timeout; a slow agent start is then not taken for a lost answer)
  --retries N          resends per submission after the first attempt (default: 5)
  --pending FILE       pending-submission file (default: ${defaultDataDir("demo-client")}/pending.json);
                       submissions left pending there by an earlier run are resent first
  --session ID         resume this session instead of creating one
  --cwd DIR            the session's working directory (default: the current one)
  --no-wait-idle       exit once every submission is answered, without waiting for the session to go idle
  --one-at-a-time      send the next submission only once the one before is settled (default: all at once,
                       queued in the session)
  --max-pending-age MS pending input older than this is shown, not resent (default: 3600000)
  --misbehave MODE     break one client rule on purpose (for conformance --client): new-key-on-retry,
                       no-retry, reuse-key, bad-key (288-character keys), no-resume, resend-session-new
  --json               print a JSON report of every submission's attempts and final messageId
  --quiet              no progress lines on stderr

Examples:
  acp-retry-inspector demo-client --prompt "deploy it" -- acp-retry-inspector demo-agent --store agent-store
  acp-retry-inspector demo-client --url ws://127.0.0.1:8080/acp --prompt one --prompt two --json`;

function positiveInt(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new CliError(`${name} expects an integer >= ${min}, got ${value}`);
  return n;
}

/** The token for `--url`: the first line of `--token-file`, else `$ACP_RETRY_INSPECTOR_LISTEN_TOKEN`, else none. */
function urlToken(tokenFile: string | undefined): string | undefined {
  if (tokenFile === undefined) {
    const fromEnv = process.env[FRONT_TOKEN_ENV];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
  }
  let text: string;
  try {
    text = readFileSync(tokenFile, "utf8");
  } catch (err) {
    throw new CliError(
      `cannot read --token-file ${tokenFile}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const token = text.split(/\r?\n/, 1)[0]?.trim() ?? "";
  if (token === "") throw new CliError(`--token-file ${tokenFile} holds no token`);
  return token;
}

/** Prompts from a script file: one per line, blank lines and `#` comments skipped. */
export function readScript(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new CliError(`cannot read --script ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

function summary(report: ClientReport): string {
  const lines = [
    `session ${report.sessionId ?? "(none)"} over ${report.transport}, ${report.connections} connection(s)`,
  ];
  for (const s of report.submissions) {
    const text = s.prompt.map((b) => (b as { text?: string }).text ?? "").join(" ");
    const outcome =
      s.status === "answered"
        ? s.messageId !== undefined
          ? `messageId ${s.messageId}`
          : "answered, no messageId (the agent sent none)"
        : `${s.status}${s.error ? `: ${s.error.message}` : ""}`;
    const dup = s.messageIds.length > 1 ? ` (DIFFERENT messageIds: ${s.messageIds.join(", ")})` : "";
    lines.push(
      `#${s.index} ${JSON.stringify(text)} -> ${outcome} after ${s.attempts.length} attempt(s)${dup}`,
    );
  }
  lines.push(`deploys seen: ${report.observed.deploys.join(", ") || "none"}`);
  return lines.map((l) => terminalSafe(l)).join("\n");
}

/** `acp-retry-inspector demo-client`: the reference v2 client with keys, pending file and resends. */
export const demoClientCommand: CliCommand = {
  name: "demo-client",
  summary: "reference ACP client: one key per submission, reconnects and resends until answered",
  help: HELP,
  async run(args) {
    const { own, command } = splitAgentCommand(args);
    let values: Record<string, string | string[] | boolean | undefined>;
    try {
      values = parseArgs({
        args: own,
        options: {
          url: { type: "string" },
          "token-file": { type: "string" },
          prompt: { type: "string", multiple: true },
          script: { type: "string" },
          "no-key": { type: "boolean" },
          timeout: { type: "string" },
          "setup-timeout": { type: "string" },
          retries: { type: "string" },
          pending: { type: "string" },
          session: { type: "string" },
          cwd: { type: "string" },
          "no-wait-idle": { type: "boolean" },
          "max-pending-age": { type: "string" },
          json: { type: "boolean" },
          quiet: { type: "boolean" },
          misbehave: { type: "string" },
          "one-at-a-time": { type: "boolean" },
        },
        strict: true,
        allowPositionals: false,
      }).values;
    } catch (err) {
      throw usageError("demo-client", err, own);
    }
    const url = values.url as string | undefined;
    if ((url === undefined) === (command.length === 0)) {
      throw new CliError("give either --url URL or -- AGENT_COMMAND (see --help)");
    }
    const tokenFile = values["token-file"] as string | undefined;
    if (tokenFile !== undefined && url === undefined) throw new CliError("--token-file needs --url");
    let target: AgentTarget;
    try {
      target = url !== undefined ? targetForUrl(url, urlToken(tokenFile)) : { kind: "stdio", command };
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(err instanceof Error ? err.message : String(err));
    }
    const prompts = [
      ...((values.prompt as string[] | undefined) ?? []),
      ...(values.script ? readScript(values.script as string) : []),
    ];
    const quiet = values.quiet === true;
    const misbehave = values.misbehave as string | undefined;
    if (misbehave !== undefined && !MISBEHAVIOURS.includes(misbehave as Misbehaviour))
      throw new CliError(`--misbehave expects one of ${MISBEHAVIOURS.join(", ")}, got ${misbehave}`);
    // Should the run ever stop short (nothing left to wait on), the exit says it failed, not 0.
    process.exitCode = 1;
    const report = await runDemoClient({
      ...(misbehave !== undefined && { misbehave: misbehave as Misbehaviour }),
      target,
      prompts,
      keyed: values["no-key"] !== true,
      pendingFile: (values.pending as string | undefined) ?? `${defaultDataDir("demo-client")}/pending.json`,
      sessionId: values.session as string | undefined,
      cwd: (values.cwd as string | undefined) ?? process.cwd(),
      attemptTimeoutMs: positiveInt("--timeout", values.timeout as string | undefined, 30_000),
      ...(values["setup-timeout"] !== undefined && {
        setupTimeoutMs: positiveInt("--setup-timeout", values["setup-timeout"] as string, 30_000),
      }),
      maxAttempts: positiveInt("--retries", values.retries as string | undefined, 5, 0) + 1,
      waitIdle: values["no-wait-idle"] !== true,
      oneAtATime: values["one-at-a-time"] === true,
      maxPendingAgeMs: positiveInt(
        "--max-pending-age",
        values["max-pending-age"] as string | undefined,
        3_600_000,
        0,
      ),
      log: quiet ? undefined : (line) => process.stderr.write(`demo-client: ${terminalSafe(line)}\n`),
      onAgentStderr: quiet ? undefined : (line) => process.stderr.write(`agent: ${terminalSafe(line)}\n`),
    });
    process.stdout.write(`${values.json ? terminalSafeJson(report, 2) : summary(report)}\n`);
    return report.ok ? 0 : 1;
  },
};
