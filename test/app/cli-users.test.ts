// The built server and CLI as an operator meets them: the first start's setup link (a fresh one each
// start while nobody has an account; on PostgreSQL the `user invite` line instead), `user invite`
// with SMTP (a real smtp-server receives a link that works; the console's invitation too) and without, `user list`,
// `user reset-link`, `key create --expires` and `key list`, and a key from the CLI beside one from
// the console's use case. Each process costs a start-up, so one run covers several commands.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteStorageLive, PgStorageLive } from "@folio/adapters-storage"
import { describeLink, describeReset } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtpServer, type TestSmtpServer, until } from "../support/smtp.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { consoleInvites, keysSideBySide, peopleRuntime } from "./people-runtime.js"
import { build, migratedDataDir, keyIn, runProcess, type Started, startServer } from "./process.js"

beforeAll(build, 240_000)

const SETUP_LINE =
  /Open (\S+\/invitations\/([A-Za-z0-9_-]{43})) to create the owner account of (.+) \(valid 7 days, once\)/
const LINK = /^\S+\/(?:invitations|reset-password)\/([A-Za-z0-9_-]{43})$/m

/** The token of the one link a CLI run printed on its own line. */
const tokenIn = (text: string) => LINK.exec(text)?.[1] ?? ""
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1)
/** A date about a year ahead, as `--expires` takes it. */
const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10)

const stop = async (server: Started) => {
  server.child.kill("SIGTERM")
  await server.exited
}

/** GET of an invitation or setup link's console page (the token is in the path). */
const opens = async (origin: string, token: string, path = "invitations") =>
  (await fetch(`${origin}/${path}/${token}`, { redirect: "manual" })).status

const forms = (origin: string, key: string, init: RequestInit = {}) =>
  fetch(`${origin}/forms/api/v1/${init.method === "POST" ? "forms" : "usage"}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
  })

describe("the embedded database: first starts, then the user commands", () => {
  const dataDir = migratedDataDir("folio-cli-users-")
  const env = { DATA_DIR: dataDir }
  const pglite = () => PgliteStorageLive({ dataDir: join(dataDir, "pglite") })
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterAll(async () => {
    await smtp.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("keys and a setup link first; a fresh link and no keys on the next start; invite, list, reset-link, keys", async () => {
    const first = await startServer(env)
    const firstOut = first.stdout()
    // The console's page for the link answers while the server runs.
    const opened = await opens(first.origin, SETUP_LINE.exec(firstOut)?.[2] ?? "").finally(() => stop(first))
    expect(opened).toBe(200)
    expect(keyIn(firstOut)).toBeDefined()
    const workspaceId = /workspace "Default workspace" \(([0-9a-f-]{36})\)/.exec(firstOut)?.[1] ?? ""
    const setup = SETUP_LINE.exec(firstOut)
    expect(setup?.[3]).toBe("Default workspace")
    // The link names PUBLIC_ORIGIN (by default http://HOST:PORT).
    expect(setup?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:0\/invitations\//)

    const second = await startServer(env)
    const secondOut = second.stdout()
    const openedAgain = await opens(second.origin, SETUP_LINE.exec(secondOut)?.[2] ?? "").finally(() =>
      stop(second)
    )
    expect(openedAgain).toBe(200)
    expect(keyIn(secondOut)).toBeUndefined()
    const fresh = SETUP_LINE.exec(secondOut)?.[2] ?? ""
    expect(fresh).not.toBe("")
    expect(fresh).not.toBe(setup?.[2])

    const refused = await runProcess(
      "cli",
      ["user", "invite", "--workspace", workspaceId, "--email", "x@example.com", "--role", "boss"],
      env
    )
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("--role must be one of: owner, admin, member")
    const badDate = await runProcess(
      "cli",
      ["key", "create", "--workspace", workspaceId, "--scopes", "all", "--expires", "2027-02-30"],
      env
    )
    expect(badDate.code).toBe(2)
    expect(badDate.stderr).toContain("--expires must be a date such as 2027-01-31")

    const mailed = await runProcess(
      "cli",
      ["user", "invite", "--workspace", workspaceId, "--email", "Owner@Example.com", "--role", "owner"],
      { ...env, SMTP_URL: smtp.url }
    )
    expect(mailed.code).toBe(0)
    expect(mailed.stdout).toContain("to join as owner; the link works once, for 7 days")
    expect(mailed.stdout).toContain("E-mailed to Owner@Example.com.")
    const ownerToken = tokenIn(mailed.stdout)
    const [message] = await until(
      () => smtp.received,
      (r) => r.length === 1
    )
    expect(message?.envelopeTo).toEqual(["owner@example.com"])
    expect(message?.parsed.subject).toBe("You are invited to Default workspace on Folio")
    expect(message?.parsed.text ?? "").toContain(`/invitations/${ownerToken}`)

    const printedOnly = await runProcess(
      "cli",
      ["user", "invite", "--workspace", workspaceId, "--email", "member@example.com"],
      env
    )
    expect(printedOnly.code).toBe(0)
    expect(printedOnly.stdout).toContain("to join as member")
    expect(printedOnly.stdout).toContain("Not e-mailed (SMTP_URL is not set); send the link yourself.")
    const memberToken = tokenIn(printedOnly.stdout)
    expect(memberToken).not.toBe("")

    const cliKey = await runProcess(
      "cli",
      [
        "key",
        "create",
        "--workspace",
        workspaceId,
        "--scopes",
        "forms:read,responses:read",
        "--name",
        "from the cli",
        "--expires",
        nextYear
      ],
      env
    )
    expect(cliKey.code).toBe(0)
    expect(cliKey.stdout).toContain(`refused from ${nextYear} 00:00Z`)
    const cliPlaintext = keyIn(cliKey.stdout) ?? ""

    // With the server stopped the test process opens the data directory: every printed link is
    // one the console would accept, and the mailed one makes the owner, who creates a key there.
    const people = await peopleRuntime(pglite(), smtp.url)
    let consolePlaintext = ""
    let consoleInvite = ""
    try {
      for (const token of [setup?.[2] ?? "", fresh])
        expect(await people.run(describeLink(token))).toMatchObject({
          kind: "setup",
          workspaceName: "Default workspace",
          role: "owner",
          email: null
        })
      expect(await people.run(describeLink(memberToken))).toMatchObject({
        kind: "invitation",
        email: "member@example.com",
        role: "member",
        accountExists: false
      })
      const side = await keysSideBySide(people, {
        token: ownerToken,
        tenantId: workspaceId,
        cliPlaintext,
        expires: nextYear
      })
      consolePlaintext = side.consolePlaintext
      // The console's invitation goes through the same mail path: received, its link the one returned.
      const invited = await consoleInvites(people, side.actor, "admin@example.com")
      expect(invited.mailed).toBe(true)
      consoleInvite = tokenOf(invited.url)
      const received = await until(
        () => smtp.received,
        (r) => r.length === 2
      )
      expect(received[1]?.envelopeTo).toEqual(["admin@example.com"])
      expect(received[1]?.parsed.text ?? "").toContain(`/invitations/${consoleInvite}`)
    } finally {
      await people.close()
    }

    const listed = await runProcess("cli", ["user", "list"], env)
    expect(listed.code).toBe(0)
    expect(listed.stdout).toBe(`owner@example.com  Owner  Default workspace (${workspaceId}): owner\n`)

    const keys = await runProcess("cli", ["key", "list", "--workspace", workspaceId], env)
    const line = (name: string) => keys.stdout.split("\n").find((l) => l.includes(`  ${name}  `)) ?? ""
    for (const name of ["from the cli", "from the console"]) {
      expect(line(name)).toContain("active   forms")
      expect(line(name)).toContain(`forms:read,responses:read  expires ${nextYear}  last used never`)
    }
    expect(line("from the cli")).toMatch(/by cli$/)
    expect(line("from the console")).toMatch(/by owner@example\.com$/)

    const reset = await runProcess("cli", ["user", "reset-link", "--email", "OWNER@example.com"], env)
    expect(reset.code).toBe(0)
    expect(reset.stdout).toContain("the link works once, for 1 hour")
    const resetToken = tokenIn(reset.stdout)
    const unknown = await runProcess("cli", ["user", "reset-link", "--email", "nobody@example.com"], env)
    expect(unknown.code).toBe(1)
    expect(unknown.stdout).toBe("")
    expect(unknown.stderr).toContain("folio: no account has the e-mail nobody@example.com")

    const again = await peopleRuntime(pglite())
    try {
      expect(await again.run(describeReset(resetToken))).toBeDefined()
      // The accepted invitation is spent, and with the workspace's owner made, so are both setup links.
      for (const token of [ownerToken, setup?.[2] ?? "", fresh])
        await expect(again.run(describeLink(token))).rejects.toThrow("this link is invalid or has expired")
    } finally {
      await again.close()
    }

    // Someone has an account now: no setup link, no keys; the two keys answer alike over HTTP.
    const third = await startServer(env)
    try {
      // Everything a start prints comes before "listening" (main.ts), so nothing is still to come.
      expect(third.stdout()).not.toMatch(SETUP_LINE)
      expect(keyIn(third.stdout())).toBeUndefined()
      expect(await opens(third.origin, resetToken, "reset-password")).toBe(200)
      expect(await opens(third.origin, memberToken)).toBe(200)
      expect(await opens(third.origin, consoleInvite)).toBe(200)
      expect(await opens(third.origin, fresh)).not.toBe(200)
      for (const key of [cliPlaintext, consolePlaintext]) {
        expect((await forms(third.origin, key)).status).toBe(200)
        // Both carry forms:read and responses:read only: a write is refused the same way.
        const write = await forms(third.origin, key, {
          method: "POST",
          body: JSON.stringify({ title: "No" })
        })
        expect(write.status).toBe(403)
      }
    } finally {
      await stop(third)
    }
  }, 600_000)
})

describe.skipIf(TEST_DATABASE_URL === undefined)("PostgreSQL: the operator's path", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "folio-cli-users-pg-"))
  let env: Record<string, string> = {}
  let drop = async () => {}
  let smtp: TestSmtpServer
  beforeAll(async () => {
    smtp = await startSmtpServer()
    const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    env = { DATA_DIR: dataDir, DATABASE_URL: db.url }
    drop = db.drop
  })
  afterAll(async () => {
    await smtp.close()
    await drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("start-up says to run user invite; the owner's mailed link works; the same keys from CLI and console", async () => {
    const server = await startServer(env)
    try {
      const out = server.stdout()
      expect(out).toContain("npm run cli -- user invite --workspace W --email E --role owner")
      expect(keyIn(out)).toBeUndefined()
      expect(out).not.toMatch(SETUP_LINE)

      // The server keeps running: PostgreSQL takes the CLI beside it.
      const created = await runProcess("cli", ["workspace", "create", "Acme"], env)
      const workspaceId = /workspace ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? ""
      const invited = await runProcess(
        "cli",
        ["user", "invite", "--workspace", workspaceId, "--email", "ops@example.com", "--role", "owner"],
        { ...env, SMTP_URL: smtp.url }
      )
      expect(invited.code).toBe(0)
      expect(invited.stdout).toContain("E-mailed to ops@example.com.")
      const token = tokenIn(invited.stdout)
      const [message] = await until(
        () => smtp.received,
        (r) => r.length === 1
      )
      expect(message?.parsed.text ?? "").toContain(`/invitations/${token}`)
      expect(await opens(server.origin, token)).toBe(200)
      const cliPlaintext =
        keyIn(
          (await runProcess("cli", ["key", "create", "--workspace", workspaceId, "--scopes", "all"], env))
            .stdout
        ) ?? ""

      const people = await peopleRuntime(PgStorageLive({ url: env.DATABASE_URL ?? "" }))
      let consolePlaintext = ""
      try {
        expect(await people.run(describeLink(token))).toMatchObject({ kind: "invitation", role: "owner" })
        consolePlaintext = (
          await keysSideBySide(people, { token, tenantId: workspaceId, cliPlaintext, expires: null })
        ).consolePlaintext
      } finally {
        await people.close()
      }
      for (const key of [cliPlaintext, consolePlaintext])
        expect((await forms(server.origin, key)).status).toBe(200)

      const listed = await runProcess("cli", ["user", "list", "--workspace", workspaceId], env)
      expect(listed.stdout).toBe("ops@example.com  owner  Owner\n")
    } finally {
      await stop(server)
    }
  }, 600_000)
})
