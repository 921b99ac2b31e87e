/**
 * Columns of the records list, the Timeline tab's stand-in until the analyzer's timeline model
 * lands: one row per trace record, frames described by their JSON-RPC kind, method and id.
 */
import type { TraceRecord } from "../../shared/trace/record.js";
import { Badge } from "../components/Badge.js";
import { virtualColumnHelper } from "../components/VirtualTable.js";
import type { RecordRow } from "../store/record-row.js";

/** What a non-frame record says, in a few words. */
export function describeRecord(r: TraceRecord): string {
  switch (r.type) {
    case "frame":
      return "";
    case "conn-open":
      return `connection #${r.conn} opened (${r.transport})`;
    case "conn-close":
      return `connection #${r.conn} closed: ${r.reason}`;
    case "agent-spawn":
      return `agent started, pid ${r.pid}`;
    case "agent-exit":
      return `agent exited (${r.signal ?? `code ${r.code}`})`;
    case "agent-stderr":
      return r.text;
    case "fault":
      return `fault ${r.action}${r.detail ? `: ${r.detail}` : ""}`;
    case "note":
      return r.text;
  }
}

const col = virtualColumnHelper<RecordRow>();

/** The records list's columns (stable, module scope as react-table requires). */
export const RECORD_COLUMNS = col.columns([
  col.accessor((r) => r.seq, { id: "seq", header: "#", size: 70 }),
  col.accessor((r) => ("conn" in r.record && r.record.conn !== undefined ? `#${r.record.conn}` : ""), {
    id: "conn",
    header: "Conn",
    size: 70,
  }),
  col.accessor((r) => (r.record.type === "frame" ? r.record.dir : ""), {
    id: "dir",
    header: "Direction",
    size: 130,
    cell: (c) => {
      const dir = c.getValue();
      return dir === "client->agent" ? "client → agent" : dir === "agent->client" ? "agent → client" : "";
    },
  }),
  col.accessor((r) => r.frame?.kind ?? r.record.type, {
    id: "kind",
    header: "Kind",
    size: 130,
    cell: (c) => {
      const kind = c.getValue();
      if (kind === "malformed") return <Badge tone="error">malformed</Badge>;
      if (kind === "error") return <Badge tone="warn">error</Badge>;
      if (kind === "fault") return <Badge tone="warn">fault</Badge>;
      return kind;
    },
  }),
  col.accessor((r) => (r.frame ? r.frame.id : ""), { id: "id", header: "Id", size: 80 }),
  col.accessor((r) => (r.frame ? r.frame.method : describeRecord(r.record)), {
    id: "summary",
    header: "Method / event",
    size: 320,
  }),
]);
