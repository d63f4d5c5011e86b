// The official MCP Inspector in CLI mode, run as its own process against an MCP endpoint with a
// Bearer key: an independent client, one JSON answer per call.
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
const root = fileURLToPath(new URL("../..", import.meta.url))
const inspector = `${root}node_modules/@modelcontextprotocol/inspector/cli/build/cli.js`

/** Runs the Inspector CLI on `url` with `key`, the given arguments after the connection's. */
export const inspectorCli = async (url: string, key: string, args: ReadonlyArray<string>) => {
  const { stdout } = await run(
    process.execPath,
    [inspector, "--cli", url, "--transport", "http", "--header", `Authorization: Bearer ${key}`, ...args],
    { timeout: 60_000, env: { ...process.env, NO_COLOR: "1" } }
  )
  return JSON.parse(stdout) as Record<string, unknown>
}
