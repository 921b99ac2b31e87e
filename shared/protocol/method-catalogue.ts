/**
 * The method catalogue: every request and notification of the ACP v1 and v2 schemas (stable and
 * unstable, both directions) with its retry class and a one-line reason. The RFD's audit fixes
 * `session/prompt` (keyed) and `session/new` / `session/fork` (duplicating); the rest is this
 * project's audit (PROTOCOL-NOTES §5). `method-catalogue.test.ts` fails when a schema adds a method.
 */
import type { RetryClass, RetryClassOrUnclassified } from "./retry-class.js";

/** Whether a method is sent as a request (has a response) or a notification. */
export type MethodKind = "request" | "notification";

/**
 * The schema's `x-side`: who handles the method. `agent`: the Client sends it to the Agent;
 * `client`: the Agent sends it to the Client; `protocol`: either side; `proxy`: proxy chains.
 */
export type MethodSide = "agent" | "client" | "protocol" | "proxy";

/** One audited method. */
export interface MethodEntry {
  readonly method: string;
  readonly kind: MethodKind;
  readonly side: MethodSide;
  readonly retryClass: RetryClass;
  /** Why this class, in one line. */
  readonly reason: string;
}

const NOTIFICATION_REASON = "a notification has no response to lose, so there is nothing to resend";

function req(method: string, side: MethodSide, retryClass: RetryClass, reason: string): MethodEntry {
  return { method, kind: "request", side, retryClass, reason };
}

function note(method: string, side: MethodSide, reason = NOTIFICATION_REASON): MethodEntry {
  return { method, kind: "notification", side, retryClass: "not-resent", reason };
}

/** Every audited method, Client->Agent requests first, then Agent->Client, proxy, notifications. */
export const METHOD_CATALOGUE: readonly MethodEntry[] = [
  // Client -> Agent requests
  req("initialize", "agent", "safe", "negotiation only: a repeat returns the same version and capabilities"),
  req("authenticate", "agent", "not-resent", "may start an interactive login again (asks the user again)"),
  req("auth/login", "agent", "not-resent", "may start an interactive login again (asks the user again)"),
  req("logout", "agent", "safe", "logging out twice leaves the same logged-out state"),
  req("auth/logout", "agent", "safe", "logging out twice leaves the same logged-out state"),
  req("auth/status", "agent", "safe", "read-only: returns the current authentication state"),
  req("session/new", "agent", "duplicating", "RFD audit: every request creates another session"),
  req("session/fork", "agent", "duplicating", "RFD audit: every request creates another fork"),
  req("session/prompt", "agent", "keyed", "RFD audit: a repeat inserts a second user message unless keyed"),
  req("session/load", "agent", "safe", "loads and replays the same stored history again"),
  req("session/resume", "agent", "safe", "RFD: resuming an active session synchronises it again"),
  req("session/close", "agent", "safe", "RFD: session/close is idempotent"),
  req("session/delete", "agent", "safe", "RFD: deleting a missing session succeeds"),
  req("session/list", "agent", "safe", "read-only: returns the current list"),
  req("session/status", "agent", "safe", "read-only: returns the current status"),
  req("session/set_mode", "agent", "safe", "sets a value: a repeat sets the same value"),
  req("session/set_config_option", "agent", "safe", "sets a value: a repeat sets the same value"),
  req("session/set_title", "agent", "safe", "sets a value: a repeat sets the same value"),
  req("session/archive", "agent", "safe", "sets a state: archiving twice leaves it archived"),
  req("session/unarchive", "agent", "safe", "sets a state: unarchiving twice leaves it unarchived"),
  req("providers/list", "agent", "safe", "read-only: returns the current providers"),
  req("providers/set", "agent", "safe", "sets a value: a repeat sets the same value"),
  req("providers/disable", "agent", "safe", "sets a state: disabling twice leaves it disabled"),
  req(
    "terminal/cancel",
    "agent",
    "safe",
    "cancelling an already cancelled or finished terminal changes nothing",
  ),
  req(
    "tool_call/cancel",
    "agent",
    "safe",
    "cancelling an already cancelled or finished tool call changes nothing",
  ),
  // Agent -> Client requests
  req("fs/read_text_file", "client", "safe", "read-only: returns the current file content"),
  req("fs/write_text_file", "client", "safe", "writes the same content again: same end state"),
  req("session/request_permission", "client", "not-resent", "asks the user again"),
  req("elicitation/create", "client", "not-resent", "asks the user again"),
  req(
    "terminal/create",
    "client",
    "not-resent",
    "starts the command again in another terminal (re-runs a side effect)",
  ),
  req("terminal/output", "client", "safe", "read-only: returns the current output"),
  req("terminal/wait_for_exit", "client", "safe", "waits for the same exit again"),
  req("terminal/kill", "client", "safe", "killing an exited terminal changes nothing"),
  req("terminal/release", "client", "safe", "releasing a released terminal changes nothing"),
  req(
    "mcp/message",
    "client",
    "not-resent",
    "wraps an arbitrary MCP request (e.g. tools/call); whether it may repeat is MCP's question",
  ),
  // Proxy chains
  req("proxy/initialize", "proxy", "safe", "negotiation only, like initialize"),
  req(
    "proxy/successor",
    "proxy",
    "not-resent",
    "an envelope: the wrapped request's own class decides, so the envelope is never resent blindly",
  ),
  // Notifications
  note("session/cancel", "agent"),
  note("session/update", "client"),
  note("$/cancel_request", "protocol"),
  note("elicitation/complete", "client"),
  note("auth/status_update", "client"),
  note("mcp/message", "agent"),
  note("proxy/successor", "proxy"),
];

const BY_METHOD = new Map<string, MethodEntry>(METHOD_CATALOGUE.map((e) => [`${e.kind}:${e.method}`, e]));

/** The catalogue entry of a method sent as `kind`, or undefined for an unaudited method. */
export function lookupMethod(method: string, kind: MethodKind): MethodEntry | undefined {
  return BY_METHOD.get(`${kind}:${method}`);
}

/** The retry class of a method sent as `kind`; `unclassified` when the catalogue does not know it. */
export function retryClassOf(method: string, kind: MethodKind): RetryClassOrUnclassified {
  return BY_METHOD.get(`${kind}:${method}`)?.retryClass ?? "unclassified";
}
