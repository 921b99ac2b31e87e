/**
 * A file's text, a chunk at a time, for imports. Where the window can start a worker, the file's
 * bytes are read there (`file-bytes.worker.ts`) and handed over, so the window's thread only
 * decodes them; elsewhere (no `Worker`, or one that cannot start) the file's own stream is read
 * here. Either way each chunk is decoded by one streaming UTF-8 `TextDecoder` (the last characters,
 * if any, after the last chunk). Not a `TextDecoderStream`: piping through one cost a 1M-frame
 * import about a third of its time in the tab (docs/benchmarks.md).
 */

/** What the window posts to the worker. */
export type BytesToWorker = { readonly kind: "read"; readonly file: Blob } | { readonly kind: "took" };

/** What the worker posts back. */
export type BytesFromWorker =
  | { readonly kind: "bytes"; readonly bytes: Uint8Array }
  | { readonly kind: "end" }
  | { readonly kind: "error"; readonly message: string };

/** Something that reads a file's text a chunk at a time. */
export interface TextChunks {
  read(): Promise<ReadableStreamReadResult<string>>;
}

/** The file's text, read in a worker when one can start, else from its stream here. */
export function textChunks(file: Pick<File, "stream">): TextChunks {
  if (typeof Worker !== "undefined" && file instanceof Blob) {
    const worker = startWorker();
    if (worker) return workerChunks(worker, file);
  }
  return decoded(file.stream().getReader());
}

function startWorker(): Worker | undefined {
  try {
    return new Worker(new URL("./file-bytes.worker.ts", import.meta.url), { type: "module" });
  } catch {
    return undefined;
  }
}

/** A file's bytes, a chunk at a time: a reader of the file's stream, or the worker's chunks. */
interface ByteChunks {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
}

/** Decodes byte chunks as UTF-8, one decoder for the whole file. */
function decoded(bytes: ByteChunks): TextChunks {
  const decoder = new TextDecoder();
  let ended = false;
  return {
    async read() {
      if (ended) return { done: true, value: undefined };
      const chunk = await bytes.read();
      if (!chunk.done) return { done: false, value: decoder.decode(chunk.value, { stream: true }) };
      ended = true;
      const tail = decoder.decode();
      return tail === "" ? { done: true, value: undefined } : { done: false, value: tail };
    },
  };
}

/**
 * The worker's chunks, in order. A worker that fails to load before its first chunk (a page
 * whose policy refuses it) leaves the reading to the file's stream here; a failure after that is
 * the import's error.
 */
function workerChunks(worker: Worker, file: Blob): TextChunks {
  const queue: BytesFromWorker[] = [];
  let wake: (() => void) | undefined;
  let started = false;
  let fallback: ByteChunks | undefined;
  const arrive = (m: BytesFromWorker) => {
    queue.push(m);
    wake?.();
    wake = undefined;
  };
  worker.onmessage = (e: MessageEvent<BytesFromWorker>) => arrive(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    arrive({ kind: "error", message: e.message || "the file reader stopped" });
  };
  worker.postMessage({ kind: "read", file } satisfies BytesToWorker);
  const bytes: ByteChunks = {
    async read() {
      if (fallback) return fallback.read();
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const m = queue.shift() as BytesFromWorker;
      if (m.kind === "bytes") {
        started = true;
        worker.postMessage({ kind: "took" } satisfies BytesToWorker);
        return { done: false, value: m.bytes };
      }
      worker.terminate();
      if (m.kind === "end") return { done: true, value: undefined };
      if (!started) {
        fallback = file.stream().getReader();
        return fallback.read();
      }
      throw new Error(`reading the file failed: ${m.message}`);
    },
  };
  return decoded(bytes);
}
