/**
 * Which links the desktop app hands to the system browser: https pages of an allow-listed host
 * only, each after the user confirmed it in a dialog. Everything else a page tries to open or
 * navigate to is dropped. No `electron` import: main.ts passes the dialog and `shell.openExternal`.
 */

/**
 * Hosts whose https pages may be opened: the Agent Client Protocol's site, where the protocol and
 * its RFDs are published. The app's own documentation ships with it (`docs/`) and has no web
 * host yet; add it here when it gets one.
 */
export const EXTERNAL_LINK_HOSTS: readonly string[] = [
  "agentclientprotocol.com",
  "www.agentclientprotocol.com",
];

/** The link as it will be opened, or undefined when it is not an allow-listed https URL. */
export function allowedExternalLink(url: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== "https:" || u.username !== "" || u.password !== "" || u.port !== "") return undefined;
  return EXTERNAL_LINK_HOSTS.includes(u.hostname) ? u : undefined;
}

/** What opening a link needs from Electron: a confirmation dialog and the system browser. */
export interface ExternalOpener {
  /** Asks the user whether to open `url`; resolves true only for an explicit yes. */
  confirm(url: string): Promise<boolean>;
  /** Opens `url` in the system browser. */
  open(url: string): Promise<void>;
}

/** Opens allow-listed links after confirmation, one dialog at a time (a page cannot stack them). */
export class ExternalLinks {
  private asking = false;

  constructor(private readonly opener: ExternalOpener) {}

  /** Resolves true when `url` was allowed, confirmed and handed to the browser. */
  async request(url: string): Promise<boolean> {
    const link = allowedExternalLink(url);
    if (!link || this.asking) return false;
    this.asking = true;
    try {
      if (!(await this.opener.confirm(link.href))) return false;
      await this.opener.open(link.href);
      return true;
    } catch {
      return false;
    } finally {
      this.asking = false;
    }
  }
}
