/** Saving an exported trace to the user's disk from the renderer. */

/** Offers `text` as a download named `fileName` (a save dialog in Electron). */
export function downloadText(
  doc: Document,
  fileName: string,
  text: string,
  type = "application/x-ndjson",
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = doc.createElement("a");
  a.href = url;
  a.download = fileName;
  a.rel = "noopener";
  doc.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
