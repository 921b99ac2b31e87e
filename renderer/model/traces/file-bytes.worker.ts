/**
 * Reads a file's bytes off the window's thread: the window posts the file, and gets its bytes a
 * chunk at a time, each chunk transferred (not copied), never more than `AHEAD` chunks ahead of
 * what the window said it took. Reading a blob's stream costs the thread that reads it about as
 * much as decoding the text (a 1M-frame trace: docs/benchmarks.md); the window keeps the decoding.
 * The protocol is `file-bytes.ts`'s.
 */
import type { BytesFromWorker, BytesToWorker } from "./file-bytes.js";

/** Chunks posted and not yet taken, at most. */
const AHEAD = 3;

interface WorkerScope {
  onmessage: ((e: MessageEvent<BytesToWorker>) => void) | null;
  postMessage(message: BytesFromWorker, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

let posted = 0;
let taken = 0;
let wake: (() => void) | undefined;

async function pump(file: Blob): Promise<void> {
  const reader = file.stream().getReader();
  for (;;) {
    while (posted - taken >= AHEAD) await new Promise<void>((resolve) => (wake = resolve));
    const { value, done } = await reader.read();
    if (done) break;
    posted++;
    scope.postMessage({ kind: "bytes", bytes: value }, [value.buffer]);
  }
  scope.postMessage({ kind: "end" });
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.kind === "read") {
    pump(m.file).catch((err: unknown) =>
      scope.postMessage({ kind: "error", message: err instanceof Error ? err.message : String(err) }),
    );
  } else if (m.kind === "took") {
    taken++;
    wake?.();
    wake = undefined;
  }
};
