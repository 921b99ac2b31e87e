import { spawn } from "node:child_process";

/** Opens `url` in the user's browser (xdg-open / open / start); never throws, reports failure through `onError`. */
export function openBrowser(url: string, onError: (message: string) => void): void {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", '""', url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(cmd, args, { stdio: "ignore", detached: true, windowsHide: true });
    child.on("error", (err) => onError(`could not open a browser (${cmd}): ${err.message}`));
    child.unref();
  } catch (err) {
    onError(`could not open a browser (${cmd}): ${String(err)}`);
  }
}
