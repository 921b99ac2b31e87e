/**
 * Shows a frame exactly as it came over the wire, pretty-printed when it is JSON. Everything that
 * came over the wire is untrusted: it is rendered as a text node, never parsed as HTML, its
 * invisible controls shown as markers (`visibleText`); "Copy raw" copies the exact bytes.
 */
import { useState } from "react";
import { visibleText } from "../model/text/visible-text.js";

/** The text to display: indented JSON when `raw` parses, otherwise `raw` unchanged. */
export function prettyFrame(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/** Pretty frame text with a button that copies the exact original bytes. */
export function RawFrameView({ raw, label }: { raw: string; label: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(raw).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  };
  return (
    <figure className="raw-frame" aria-label={label}>
      <div className="raw-frame__bar">
        <figcaption>{label}</figcaption>
        <button type="button" onClick={copy}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy raw"}
        </button>
      </div>
      <pre>{visibleText(prettyFrame(raw))}</pre>
    </figure>
  );
}
