/**
 * What a web contents of the app may open: nothing in the app itself (no new windows, no
 * navigation off the renderer's page, no redirects, no webviews); an allow-listed https link goes
 * to the system browser after the user confirmed it (`external-links.ts`). No `electron` import.
 */
import type { ExternalLinks } from "./external-links.js";

/** An event whose default an Electron handler can cancel. */
interface Cancellable {
  preventDefault(): void;
}

/** The part of Electron's `WebContents` the policy hooks. */
export interface GuardedContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: "deny" }): void;
  on(event: "will-navigate", listener: (event: Cancellable, url: string) => void): this;
  on(event: "will-redirect", listener: (event: Cancellable) => void): this;
  on(event: "will-attach-webview", listener: (event: Cancellable) => void): this;
}

/** Hooks `contents`: it stays on `rendererUrl`, and links it tries to open are offered to `links`. */
export function guardContents(contents: GuardedContents, rendererUrl: string, links: ExternalLinks): void {
  contents.setWindowOpenHandler(({ url }) => {
    void links.request(url);
    return { action: "deny" };
  });
  contents.on("will-navigate", (event, url) => {
    if (url === rendererUrl) return;
    event.preventDefault();
    void links.request(url);
  });
  contents.on("will-redirect", (event) => event.preventDefault());
  contents.on("will-attach-webview", (event) => event.preventDefault());
}
