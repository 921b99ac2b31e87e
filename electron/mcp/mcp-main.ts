/** The entry of the `mcp.js` bundle (electron/tools/build/build-cli.mjs): the MCP server, loaded by `acp-retry-inspector mcp`. */
export { runMcpServer } from "./mcp-server.js";
