/**
 * Finding the hub a tap links to, and when to look again: a fixed address, or the rendezvous file,
 * re-read with a doubling backoff while there is no hub and at once when the file's folder changes.
 */
import { type FSWatcher, mkdirSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { readRendezvous } from "../../hub-client/rendezvous.js";

/** A hub's loopback port and bearer token. */
export interface HubAddress {
  readonly port: number;
  readonly token: string;
}

/** Where to look for the hub, and what to do once it may be there. */
export interface HubFinderOptions {
  /** The rendezvous file a running hub writes. */
  readonly rendezvousPath: string;
  /** A fixed hub instead of discovery (then the file is neither read nor watched). */
  readonly hub?: HubAddress;
  /** The first and the longest wait between attempts, ms. */
  readonly retryMinMs: number;
  readonly retryMaxMs: number;
  /** True while the link wants a hub: not closed, no connection open or opening. */
  readonly wantsHub: () => boolean;
  /** Tries to connect now. */
  readonly connect: () => void;
  readonly log: (line: string) => void;
}

/** The hub's whereabouts and the retry schedule of one hub link. */
export class HubFinder {
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay: number;
  private watcher: FSWatcher | undefined;
  /** The reason last logged for refusing the rendezvous, so a retry does not log it again. */
  private refused: string | undefined;

  constructor(private readonly o: HubFinderOptions) {
    this.retryDelay = o.retryMinMs;
  }

  /**
   * The hub to connect to now, if one is known or announced by a live rendezvous file. A rendezvous
   * not to be trusted (a link, another user's, writable by others) announces nothing; why is
   * logged once (again only when the reason changes).
   */
  find(): HubAddress | undefined {
    if (this.o.hub) return this.o.hub;
    const r = readRendezvous(this.o.rendezvousPath);
    if (r.kind === "untrusted" && r.reason !== this.refused) this.o.log(`hub link: ${r.reason}`);
    this.refused = r.kind === "untrusted" ? r.reason : undefined;
    return r.kind === "live" ? r.hub : undefined;
  }

  /** Tries again after the current backoff (doubling it), unless a retry is due already or no hub is wanted. */
  retryLater(): void {
    if (!this.o.wantsHub() || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.o.connect();
    }, this.retryDelay);
    this.retryTimer.unref();
    this.retryDelay = Math.min(this.o.retryMaxMs, this.retryDelay * 2);
  }

  /** Starts the backoff over from the shortest wait (a hub was just reached or lost). */
  resetBackoff(): void {
    this.retryDelay = this.o.retryMinMs;
  }

  /** Connects at once whenever the rendezvous file changes (a hub started); no-op with a fixed hub. */
  watchRendezvous(): void {
    if (this.o.hub) return;
    const dir = dirname(this.o.rendezvousPath);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.watcher = watch(dir, (_event, name) => {
        if (name && name !== basename(this.o.rendezvousPath)) return;
        if (this.o.wantsHub()) {
          if (this.retryTimer) clearTimeout(this.retryTimer);
          this.retryTimer = undefined;
          this.retryDelay = this.o.retryMinMs;
          this.o.connect();
        }
      });
      this.watcher.on("error", () => {});
      this.watcher.unref();
    } catch (err) {
      this.o.log(`hub link: cannot watch ${dir} (${String(err)}); polling only`);
    }
  }

  /** Stops retrying and watching. */
  close(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.watcher?.close();
  }
}
