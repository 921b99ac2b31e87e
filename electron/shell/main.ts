/**
 * The Electron main process: a thin shell. It starts the hub in-process (behind the `AppCore`
 * adapter), registers the IPC
 * feature modules, hardens every web contents, and only then opens one window on the renderer,
 * served from the `app://inspector` origin (never file://) with a strict CSP.
 * Only this file and preload.ts may import `electron`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell, type WebContents } from "electron";
import { TOOL_VERSION } from "../platform/version.js";
import { parseAppArgs } from "./app-args.js";
import type { AppCore } from "./app-core.js";
import { ExternalLinks } from "./external-links.js";
import { hubNotice } from "./hub-notice.js";
import { setupEventStream, setupOperations } from "./ipc-setup.js";
import { guardContents } from "./navigation-policy.js";
import { RENDERER_CSP, rendererHeaders, resolveRendererFile } from "./renderer-files.js";
import { checkedRegistrar, type TrustedRenderer } from "./sender-check.js";
import { startApp } from "./start-app.js";

const SCHEME = "app";
const ORIGIN = `${SCHEME}://inspector`;
const RENDERER_URL = `${ORIGIN}/index.html`;
const rendererDir = join(__dirname, "..", "renderer");
const preloadPath = join(__dirname, "preload.cjs");

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);
app.enableSandbox();

let trusted: TrustedRenderer | undefined;
let core: AppCore | undefined;

/** Serves the built renderer on `app://inspector/`, nothing outside its folder. */
function setupRendererProtocol(): void {
  protocol.handle(SCHEME, async (request) => {
    const file = resolveRendererFile(rendererDir, request.url, ORIGIN);
    if (!file) return new Response("not found", { status: 404 });
    try {
      return new Response(await readFile(file), { headers: rendererHeaders(file) });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

/** Denies every permission request (camera, notifications, ...) and adds the CSP to any response. */
function setupSessionPolicy(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [RENDERER_CSP] },
    });
  });
}

/**
 * No navigation, no new windows, no webviews in any web contents; an allow-listed https link
 * opens in the system browser once the user confirmed it.
 */
function setupNavigationPolicy(): void {
  const links = new ExternalLinks({
    async confirm(url) {
      const options = {
        type: "question" as const,
        buttons: ["Open in browser", "Cancel"],
        defaultId: 1,
        cancelId: 1,
        noLink: true,
        title: "Open link",
        message: "Open this link in your web browser?",
        detail: url,
      };
      const parent = BrowserWindow.getFocusedWindow();
      const { response } = parent
        ? await dialog.showMessageBox(parent, options)
        : await dialog.showMessageBox(options);
      return response === 0;
    },
    open: (url) => shell.openExternal(url),
  });
  app.on("web-contents-created", (_event, contents: WebContents) =>
    guardContents(contents, RENDERER_URL, links),
  );
}

/** ipcMain.handle behind the sender check: every call not from our window and origin is refused. */
const registrar = checkedRegistrar(
  (channel, listener) => ipcMain.handle(channel, listener),
  () => trusted,
);

/** Opens the one window, after every feature module is set up. */
function createWindow(onClosed: (webContentsId: number) => void): void {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 800,
    minHeight: 500,
    show: false,
    title: "ACP Retry Inspector",
    backgroundColor: "#101418",
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  const id = win.webContents.id;
  trusted = { webContentsId: id, origin: ORIGIN };
  win.once("ready-to-show", () => win.show());
  win.on("closed", () => {
    onClosed(id);
    trusted = undefined;
  });
  void win.loadURL(RENDERER_URL);
}

async function boot(): Promise<void> {
  await app.whenReady();
  const cliPath = join(__dirname, "..", "cli.js");
  const args = parseAppArgs(process.argv.slice(2));
  core = await startApp({
    log: (line) => process.stderr.write(`acp-retry-inspector: ${line}\n`),
    ...(args.demo && { demo: { cliPath } }),
    conformance: { cliPath, ...args.conformance },
  });
  process.stdout.write(`${hubNotice(TOOL_VERSION, core)}\n`);
  // Boot in order: every feature registers its handlers before the window exists, so the first
  // thing the renderer asks is answered; events from before it subscribes wait in the hub's ring.
  setupRendererProtocol();
  setupSessionPolicy();
  setupNavigationPolicy();
  setupOperations(registrar, core);
  const events = setupEventStream(registrar, core);
  createWindow((id) => events.dropWindow(id));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on("window-all-closed", () => {
    void (core?.close() ?? Promise.resolve()).finally(() => app.quit());
  });
  boot().catch((err: unknown) => {
    process.stderr.write(`acp-retry-inspector: the app failed to start: ${String(err)}\n`);
    app.exit(1);
  });
}
