// Issue 2's "done means", end to end: `npm start` on the embedded defaults serves health and
// readiness, prints a working key once, exits 0 on SIGTERM within 5 s, and reuses its data.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { until } from "../support/smtp.js"
import { build, keyIn, migratedDataDir, root, runProcess, startServer } from "./process.js"

const dataDir = mkdtempSync(join(tmpdir(), "folio-app-"))
const env = { DATA_DIR: dataDir, LOG_LEVEL: "info" }

beforeAll(build, 240_000)
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Libraries only some requests use (OAuth, MCP, mail, images, pages, QR codes, YAML, metrics). */
const LAZY_LIBRARIES =
  /^(oidc-provider|@modelcontextprotocol\/sdk|nodemailer|sharp|file-type|markdown-it|sanitize-html|qrcode|pngjs|yaml|prom-client|ajv|zod|@simplewebauthn\/server|@aws-sdk\/client-s3)$/

const stopWithin = async (started: Awaited<ReturnType<typeof startServer>>) => {
  const t0 = Date.now()
  started.child.kill("SIGTERM")
  const result = await started.exited
  return { ...result, elapsed: Date.now() - t0 }
}

describe("npm start on the embedded defaults", () => {
  let key = ""

  it("serves /healthz and /readyz, prints a working key per service once, and exits 0 on SIGTERM", async () => {
    const server = await startServer(env)
    try {
      // "listening" ends the start's output: whoever waits for it has the keys and the link.
      const lines = server.stdout().split("\n")
      const at = (printed: (line: string) => boolean) => lines.findIndex(printed)
      const keys = at((l) => l.includes("sharing: folio_"))
      const setupLink = at((l) => l.startsWith("Open http"))
      expect(Math.min(keys, setupLink)).toBeGreaterThan(-1)
      expect(at((l) => l.includes('"message":"listening"'))).toBeGreaterThan(Math.max(keys, setupLink))
      key = keyIn(server.stdout()) ?? ""
      expect(key).not.toBe("")
      const sharingKey = /sharing: (folio_\S+)/.exec(server.stdout())?.[1] ?? ""
      expect(sharingKey).not.toBe(key)
      const me = await fetch(`${server.origin}/share/api/v1/me`, {
        headers: { authorization: `Bearer ${sharingKey}` }
      })
      expect(me.status).toBe(200)
      expect(await me.json()).toMatchObject({ key: { scopes: ["read", "write", "delete"] } })
      expect(server.stdout()).toContain(`curl -H "Authorization: Bearer ${key}"`)
      expect((await fetch(`${server.origin}/healthz`)).status).toBe(200)
      expect((await fetch(`${server.origin}/readyz`)).status).toBe(200)
      const usage = await fetch(`${server.origin}/forms/api/v1/usage`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(usage.status).toBe(200)
      const denied = await fetch(`${server.origin}/forms/api/v1/usage`, {
        headers: { authorization: "Bearer nope" }
      })
      expect(denied.status).toBe(401)
    } finally {
      const stopped = await stopWithin(server)
      expect(stopped.code).toBe(0)
      expect(stopped.elapsed).toBeLessThan(5_000)
    }
  })

  it("reuses the same data on the next start: no new key, the old one still works", async () => {
    const loadedFile = join(dataDir, "loaded-packages.json")
    const server = await startServer({ ...env, LOADED_PACKAGES_FILE: loadedFile }, [
      "--import",
      `${root}test/support/loaded-packages.mjs`
    ])
    const loaded = async (): Promise<ReadonlyArray<string>> => {
      rmSync(loadedFile, { force: true })
      server.child.kill("SIGUSR2")
      return JSON.parse(
        await until(
          () => (existsSync(loadedFile) ? readFileSync(loadedFile, "utf8") : ""),
          (t) => t !== "",
          10_000
        )
      ) as ReadonlyArray<string>
    }
    try {
      expect(keyIn(server.stdout())).toBeUndefined()
      const usage = await fetch(`${server.origin}/forms/api/v1/usage`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(usage.status).toBe(200)
      // The libraries of features this process has not used yet are not loaded at its start
      // (decision 0029, "The libraries of one feature load at its first use").
      expect(await loaded()).toEqual(expect.not.arrayContaining([expect.stringMatching(LAZY_LIBRARIES)]))
      // ... and load at their first use: an MCP call, the authorization server's discovery.
      const mcp = await fetch(`${server.origin}/forms/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      })
      expect(mcp.status).toBe(200)
      expect(
        ((await mcp.json()) as { result: { tools: Array<unknown> } }).result.tools.length
      ).toBeGreaterThan(0)
      const discovery = await fetch(`${server.origin}/.well-known/oauth-authorization-server`)
      expect(discovery.status).toBe(200)
      expect(((await discovery.json()) as { issuer: string }).issuer).toBeTypeOf("string")
      expect(await loaded()).toEqual(expect.arrayContaining(["@modelcontextprotocol/sdk", "oidc-provider"]))
    } finally {
      expect((await stopWithin(server)).code).toBe(0)
    }
  })

  it("refuses a bad config value with one line naming the variable", async () => {
    const result = await runProcess("main", [], { ...env, PORT: "eighty" })
    expect(result.code).toBe(1)
    const lines = result.stderr.trim().split("\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain("PORT")
  })
})

describe("the CLI", () => {
  const cliDir = migratedDataDir("folio-cli-")
  const cliEnv = { DATA_DIR: cliDir }
  afterAll(() => rmSync(cliDir, { recursive: true, force: true }))

  it("creates a workspace and keys, lists and revokes them; the key authenticates until revoked", async () => {
    const created = await runProcess("cli", ["workspace", "create", "Acme", "Labs"], cliEnv)
    expect(created.code).toBe(0)
    const workspaceId = /workspace ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? ""
    expect(workspaceId).not.toBe("")
    expect((await runProcess("cli", ["workspace", "list"], cliEnv)).stdout).toContain("Acme Labs")

    const badScopes = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--scopes", "forms:fly"],
      cliEnv
    )
    expect(badScopes.code).toBe(1)
    expect(badScopes.stderr).toContain("scopes")
    // A sharing key takes the sharing scopes only.
    const wrongSet = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--scopes", "forms:read", "--service", "sharing"],
      cliEnv
    )
    expect(wrongSet.code).toBe(1)
    expect(wrongSet.stderr).toContain("read, write, delete")
    const sharing = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--scopes", "read", "--service", "sharing"],
      cliEnv
    )
    expect(sharing.code).toBe(0)
    const sharingKey = keyIn(sharing.stdout) ?? ""
    expect(sharing.stdout).toContain("created for sharing with scopes read")

    const key = await runProcess(
      "cli",
      [
        "key",
        "create",
        "--workspace",
        workspaceId,
        "--scopes",
        "forms:read,files:read",
        "--service",
        "forms",
        "--name",
        "reader"
      ],
      cliEnv
    )
    expect(key.code).toBe(0)
    const plaintext = keyIn(key.stdout) ?? ""
    const keyId = /key ([0-9a-f-]{36}) created/.exec(key.stdout)?.[1] ?? ""
    expect(plaintext).not.toBe("")

    const listed = await runProcess("cli", ["key", "list", "--workspace", workspaceId], cliEnv)
    expect(listed.stdout).toContain(keyId)
    expect(listed.stdout).toContain("forms:read,files:read")
    expect(listed.stdout).toMatch(new RegExp(`${keyId}  active   forms  `))
    expect(listed.stdout).not.toContain(plaintext)

    const server = await startServer(cliEnv)
    try {
      const ok = await fetch(`${server.origin}/forms/api/v1/usage`, {
        headers: { authorization: `Bearer ${plaintext}` }
      })
      expect(ok.status).toBe(200)
      // Each key works on its own service only, and answers there in that service's envelope.
      const me = await fetch(`${server.origin}/share/api/v1/me`, {
        headers: { authorization: `Bearer ${sharingKey}` }
      })
      expect(me.status).toBe(200)
      const crossed = await fetch(`${server.origin}/share/api/v1/me`, {
        headers: { authorization: `Bearer ${plaintext}` }
      })
      expect(crossed.status).toBe(401)
      expect(await crossed.json()).toMatchObject({ error_code: "invalid_api_key" })
      // The server holds the embedded database: the CLI refuses instead of corrupting it.
      const locked = await runProcess("cli", ["workspace", "list"], cliEnv)
      expect(locked.code).toBe(1)
      expect(locked.stderr).toContain("in use")
    } finally {
      await stopWithin(server)
    }

    expect((await runProcess("cli", ["key", "revoke", "--workspace", workspaceId, keyId], cliEnv)).code).toBe(
      0
    )
    expect((await runProcess("cli", ["key", "revoke", "--workspace", workspaceId, keyId], cliEnv)).code).toBe(
      1
    )

    const again = await startServer(cliEnv)
    try {
      const revoked = await fetch(`${again.origin}/forms/api/v1/usage`, {
        headers: { authorization: `Bearer ${plaintext}` }
      })
      expect(revoked.status).toBe(401)
    } finally {
      await stopWithin(again)
    }
    // Nine CLI runs and two server starts, each opening the embedded database: about 30 s on a quiet
    // machine, twice that with the rest of the suite on the same two cores.
  }, 180_000)
})
