/** How the trace picker words a trace: its status, its start time, its verdicts. Pure, so tests read the same words. */
import type { AgentRow } from "../../../shared/analyzer/timeline-model.js";
import type { BadgeTone } from "../../kit/Badge.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { Liveness } from "../../model/traces/liveness.js";
import type { TraceEntry } from "../../model/traces/trace-catalog.js";
import type { VerdictSummary } from "../../model/traces/verdict-summary.js";

/** The status chip of an entry: text and tone, with what it means on hover. */
export function statusChip(status: TraceEntry["status"]): { label: string; tone: BadgeTone; title: string } {
  switch (status) {
    case "running":
      return {
        label: "live",
        tone: "ok",
        title: "The tap is attached to the hub; its agent runs or a client is connected.",
      };
    case "waiting":
      return {
        label: "live · waiting",
        tone: "info",
        title: "The tap is attached to the hub, with no agent running and no client connected yet.",
      };
    case "ended":
      return { label: "ended", tone: "neutral", title: "The tap detached after its agent exited." };
    case "detached":
      return {
        label: "detached",
        tone: "warn",
        title:
          "The tap went away while its agent or a connection was still open (killed, or cut off from the hub).",
      };
    case "file":
      return { label: "file", tone: "info", title: "A trace file imported in this window." };
  }
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `12:05:01` for a start today, `2026-01-31 12:05` for an older one (local time); `no start time` without one. */
export function startTime(iso: string | null, now = new Date()): string {
  if (iso === null) return "no start time";
  const d = new Date(iso);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  if (sameDay) return `${time}:${pad(d.getSeconds())}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** The verdict chip: the worst severity first (`1 violation · 2 ok`), toned by it; `live` says whether more may come. */
export function verdictChip(v: VerdictSummary, live: boolean): { label: string; tone: BadgeTone } {
  const parts = [
    v.violation > 0 ? `${v.violation} violation${v.violation === 1 ? "" : "s"}` : "",
    v.clientIssue > 0 ? `${v.clientIssue} client issue${v.clientIssue === 1 ? "" : "s"}` : "",
    v.ok > 0 ? `${v.ok} ok` : "",
  ].filter((p) => p !== "");
  const tone: BadgeTone =
    v.violation > 0 ? "error" : v.clientIssue > 0 ? "warn" : v.ok > 0 ? "ok" : "neutral";
  return { label: parts.length > 0 ? parts.join(" · ") : live ? "no verdicts yet" : "no verdicts", tone };
}

/**
 * An agent command as the picker shows it: the program and its first argument by their base names
 * when they are file paths (`node …/cli.js demo-agent --store /tmp/s`), every other argument as given.
 */
export function shortCommand(argv: readonly string[]): string {
  return argv
    .map((a, i) => {
      if (i > 1 || !/^(\/|\.{1,2}[\\/]|~|[A-Za-z]:\\)/.test(a)) return a;
      const base = a.split(/[\\/]+/).at(-1) ?? a;
      return i === 0 ? base : `…/${base}`;
    })
    .join(" ");
}

/** `1 record`, `1,234 records`. */
export function recordCount(n: number): string {
  return `${n.toLocaleString("en-US")} record${n === 1 ? "" : "s"}`;
}

/** True when `query` (any case) is part of what the entry shows. */
export function entryMatches(e: TraceEntry, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "") return true;
  const text = [
    e.label,
    e.detail,
    statusChip(e.status).label,
    e.agent,
    e.id,
    ...(e.command ?? []),
    e.cwd ?? "",
  ]
    .join("\n")
    .toLowerCase();
  return q.split(/\s+/).every((word) => text.includes(word));
}

/** The hover text of an entry: its name, full command, folder and trace id, one per line. */
export function entryTitle(e: TraceEntry): string {
  return visibleText(
    [
      e.label,
      e.detail,
      e.command ? `command: ${e.command.join(" ")}` : "",
      e.cwd ? `folder: ${e.cwd}` : "",
      `trace id: ${e.id}`,
    ]
      .filter((l) => l !== "")
      .join("\n"),
  );
}

/** What the status line says of the newest agent of the shown trace. */
export function agentWords(
  agent: Pick<AgentRow, "pid" | "exitSeq" | "exitCode" | "exitSignal"> | undefined,
  liveness: Liveness,
): string {
  if (!agent) return "agent not seen";
  if (agent.exitSeq !== null)
    return `agent pid ${agent.pid} exited (${agent.exitSignal ?? `code ${agent.exitCode ?? "?"}`})`;
  if (liveness === "live") return `agent pid ${agent.pid} running`;
  return liveness === "file"
    ? `agent pid ${agent.pid}: no exit recorded in this file (its state is unknown)`
    : `agent pid ${agent.pid}: no exit recorded before the tap went away (its state is unknown)`;
}

/** What the status line says of the shown trace's connections: open ones only while it is live. */
export function connectionWords(open: number, total: number, liveness: Liveness): string {
  if (total === 0) return "no connections";
  if (liveness === "live") return `connections ${open} open / ${total}`;
  return open === 0
    ? `connections ${total}, all closed`
    : `connections ${total}, ${open} with no close recorded`;
}
