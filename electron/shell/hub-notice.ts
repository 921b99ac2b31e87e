/** The line the Electron main process prints about its hub: never the token, only where it is. */
import type { AppCore } from "./app-core.js";

/** Says where a browser finds the app's hub: its address, and the 0600 file that holds its link and token. */
export function hubNotice(version: string, core: Pick<AppCore, "url" | "tokenFile">): string {
  const where = core.tokenFile
    ? `its link with the token is the "url" in ${core.tokenFile} (readable by you only)`
    : "it is not advertised (another hub owns the rendezvous file), so only this window can use it";
  return `acp-retry-inspector ${version}: hub for browsers at ${core.url}; ${where}`;
}
