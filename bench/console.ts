// The console's numbers, measured on the built server over PostgreSQL, each against a reference in
// the same run: a signed-in console page against /healthz; a password sign-in against one argon2id
// verification in this process (what the path adds to the hash it must pay for); a request with a
// console-made key against /healthz (its last use is recorded by the usage flush, not per request);
// and the time from "Revoke" to the key's first 401 against the issue's 5 s.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Argon2PasswordHashingLive } from "@folio/adapters-storage"
import { PasswordHashing } from "@folio/domain"
import { Effect } from "effect"
import { createTempDatabase } from "../test/storage/targets.js"
import { ConsoleClient, csrfOf } from "../test/support/console.js"
import { cli, provision, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

const PASSWORD = "bench password 0123"
const REVOKE_BUDGET_MS = 5_000

const sample = async (n: number, f: () => Promise<unknown>) => {
  const ms: Array<number> = []
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    await f()
    ms.push(performance.now() - t0)
  }
  return summarize(ms)
}

const ok = async (response: Response, expected: number, what: string) => {
  await response.arrayBuffer()
  if (response.status !== expected) throw new Error(`${what} answered ${response.status}`)
}

export const run = async () => {
  const db = await createTempDatabase(benchDatabaseUrl())
  const dataDir = mkdtempSync(join(tmpdir(), "folio-bench-console-"))
  try {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      SHARING_REQUESTS_PER_KEY: "1000000",
      SHARING_REQUESTS_PER_IP: "1000000"
    }
    const { ws } = await provision(env, "bench", "sharing")
    const invited = await cli(env, [
      "user",
      "invite",
      "--workspace",
      ws,
      "--email",
      "owner@bench.test",
      "--role",
      "owner"
    ])
    const link = /https?:\/\/\S+\/invitations\/\S+/.exec(invited)?.[0]
    if (link === undefined) throw new Error("user invite printed no link")
    const server = await startServer(env)
    try {
      const client = new ConsoleClient(server.origin)
      const path = new URL(link).pathname
      const accept = await client.page(path)
      await ok(
        await client.post(path, { csrf: accept.csrf, displayName: "Owner", password: PASSWORD }),
        303,
        "accept"
      )

      const healthz = () => fetch(`${server.origin}/healthz`).then((r) => ok(r, 200, "healthz"))
      await sample(50, healthz)
      const health = await sample(300, healthz)
      const keysPage = await sample(300, async () => ok(await client.get("/console/keys"), 200, "keys page"))

      // Sign-in: a fresh client each time (a new pre-session cookie, as a browser would have).
      const signIn = async () => {
        const fresh = new ConsoleClient(server.origin)
        const { csrf } = await fresh.page("/sign-in")
        await ok(
          await fresh.post("/sign-in", { csrf, email: "owner@bench.test", password: PASSWORD }),
          303,
          "sign-in"
        )
      }
      const signIns = await sample(30, signIn)
      const hashing = await Effect.runPromise(
        Effect.gen(function* () {
          const hasher = yield* PasswordHashing
          const stored = yield* hasher.hash(PASSWORD)
          const ms: Array<number> = []
          for (let i = 0; i < 30; i++) {
            const t0 = performance.now()
            yield* hasher.verify(stored, PASSWORD)
            ms.push(performance.now() - t0)
          }
          return summarize(ms)
        }).pipe(Effect.provide(Argon2PasswordHashingLive))
      )

      const createKey = async (name: string) => {
        const page = await client.page("/console/keys")
        const response = await client.post("/console/keys", {
          csrf: page.csrf,
          name,
          service: "sharing",
          scopes: ["read"],
          expiresAt: ""
        })
        const body = await response.text()
        const key = /<code id="new-key">([^<]+)<\/code>/.exec(body)?.[1]
        if (response.status !== 201 || key === undefined)
          throw new Error(`key creation answered ${response.status}`)
        return key
      }
      const key = await createKey("bench")
      const me = () =>
        fetch(`${server.origin}/share/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
          ok(r, 200, "GET /me")
        )
      await sample(50, me)
      const keyed = await sample(300, me)

      // Revocation: the key is warm in the server's key cache, then revoked in the console.
      const revocations: Array<number> = []
      for (let trial = 0; trial < 5; trial++) {
        const name = `revoke-${trial}`
        const plaintext = await createKey(name)
        const use = () =>
          fetch(`${server.origin}/share/api/v1/me`, { headers: { authorization: `Bearer ${plaintext}` } })
        await ok(await use(), 200, "fresh key")
        const page = await client.page("/console/keys")
        // Each revoke button is a small form: its action, then the button named "Revoke <key name>".
        const action = [
          ...page.html.matchAll(
            /action="(\/console\/keys\/[0-9a-f-]{36}\/revoke)"[\s\S]*?aria-label="Revoke ([^"]+)"/g
          )
        ].find((m) => m[2] === name)?.[1]
        if (action === undefined) throw new Error("no revoke button for the new key")
        const t0 = performance.now()
        await ok(await client.post(action, { csrf: csrfOf(page.html) }), 303, "revoke")
        for (;;) {
          const r = await use()
          await r.arrayBuffer()
          if (r.status === 401) break
          if (performance.now() - t0 > 2 * REVOKE_BUDGET_MS)
            throw new Error("revoked key still accepted after 10 s")
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        revocations.push(performance.now() - t0)
      }
      const revoke = summarize(revocations)

      const rows = [
        {
          measure: "GET /console/keys (signed in), median ms",
          value: keysPage.median,
          reference: health.median,
          ratio: keysPage.median / health.median,
          against: "GET /healthz"
        },
        {
          measure: "password sign-in (page + post), median ms",
          value: signIns.median,
          reference: hashing.median,
          ratio: signIns.median / hashing.median,
          against: "one argon2id verify in-process"
        },
        {
          measure: "GET /share/api/v1/me with a console key, median ms",
          value: keyed.median,
          reference: health.median,
          ratio: keyed.median / health.median,
          against: "GET /healthz"
        },
        {
          measure: "revoke to first 401, worst of 5, ms",
          value: Math.max(...revocations),
          reference: REVOKE_BUDGET_MS,
          ratio: Math.max(...revocations) / REVOKE_BUDGET_MS,
          against: "the 5 s key cache budget"
        }
      ]
      printTable(rows)
      for (const r of rows) process.stdout.write(`ratio ${r.measure}: ${r.ratio.toFixed(2)} (${r.against})\n`)
      writeResult("console", { health, keysPage, signIns, hashing, keyed, revoke, revocations })
    } finally {
      await stop(server.child)
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
    await db.drop()
  }
}
