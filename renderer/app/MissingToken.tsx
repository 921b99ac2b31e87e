/** Shown in a browser opened without the per-run token: explains where the right link comes from. */
import { EmptyState } from "../kit/EmptyState.js";

/** The page's only content when the token is missing or refused. */
export function MissingToken({ refused }: { refused: boolean }) {
  return (
    <main className="app" style={{ display: "grid", placeItems: "center" }}>
      <EmptyState
        title={refused ? "The inspector refused this link's token" : "This page needs its access token"}
      >
        <p>
          The inspector can start and stop processes, so this page only works with the secret link it printed
          when it started, which looks like <code>http://127.0.0.1:PORT/#token=…</code>. The token after the{" "}
          <code>#</code> stays in your browser: it is never sent in a URL or a cookie.
        </p>
        <p>
          Open the exact link from the terminal running <code>acp-retry-inspector serve</code> (or the{" "}
          <code>url</code> in the hub's rendezvous file, <code>hub.json</code>)
          {refused ? "; each run makes a new token, so links from earlier runs stop working" : ""}.
        </p>
      </EmptyState>
    </main>
  );
}
