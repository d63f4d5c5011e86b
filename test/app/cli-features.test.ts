// `npm run cli -- workspace features`: the built CLI switches a workspace's forms features, and the
// built server's 422 gate follows (a ranking block refused, accepted once enabled, refused again
// once disabled). On PostgreSQL the server keeps running while the CLI changes the flag; the
// embedded database is single-process, so there the server is stopped around each CLI call.
import { rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, migratedDataDir, keyIn, runProcess, type Started, startServer } from "./process.js"

beforeAll(build, 240_000)

const rankingForm = {
  title: "Priorities",
  definition: {
    schemaVersion: 1,
    blocks: [
      {
        id: "blk_00000001",
        type: "ranking",
        label: "Rank these",
        options: {
          choices: [
            { id: "a", label: "A" },
            { id: "b", label: "B" }
          ]
        }
      }
    ]
  }
}

const stores = [
  { name: "embedded database", live: false, skip: false },
  { name: "PostgreSQL", live: true, skip: TEST_DATABASE_URL === undefined }
]

for (const store of stores) {
  describe.skipIf(store.skip)(`workspace features from the CLI [${store.name}]`, () => {
    const dataDir = migratedDataDir("folio-cli-features-")
    let env: Record<string, string> = { DATA_DIR: dataDir }
    let drop = async () => {}
    let server: Started | undefined
    let workspaceId = ""
    let key = ""

    const stop = async () => {
      if (server === undefined) return
      server.child.kill("SIGTERM")
      await server.exited
      server = undefined
    }
    /** Runs the CLI; the embedded database is free only while the server is stopped. */
    const cli = async (args: ReadonlyArray<string>) => {
      if (!store.live) await stop()
      return runProcess("cli", args, env)
    }
    const createRankingForm = async () => {
      // Started only when a request needs it, so consecutive CLI calls cost no restart.
      if (server === undefined) server = await startServer(env)
      const response = await fetch(`${server.origin}/forms/api/v1/forms`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(rankingForm)
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }

    beforeAll(async () => {
      if (store.live) {
        const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
        env = { DATA_DIR: dataDir, DATABASE_URL: db.url }
        drop = db.drop
      }
      const created = await runProcess("cli", ["workspace", "create", "Gates"], env)
      workspaceId = /workspace ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? ""
      key =
        keyIn(
          (await runProcess("cli", ["key", "create", "--workspace", workspaceId, "--scopes", "all"], env))
            .stdout
        ) ?? ""
      server = await startServer(env)
    }, 120_000)
    afterAll(async () => {
      await stop()
      await drop()
      rmSync(dataDir, { recursive: true, force: true })
    })

    it("a gated request answers 422, 201 once the CLI enables the feature, 422 once it disables it", async () => {
      expect((await createRankingForm()).status).toBe(201)
      const off = await cli(["workspace", "features", workspaceId, "--disable", "ranking"])
      expect(off.code).toBe(0)
      expect(off.stdout).toContain("ranking  off")
      expect(off.stdout).toContain("partialSubmissions  on")
      const refused = await createRankingForm()
      expect(refused.status).toBe(422)
      expect(refused.body).toMatchObject({
        ok: false,
        error: {
          code: "unprocessable",
          details: { issues: [{ path: ["definition"], rule: "featureDisabled:ranking" }] }
        }
      })

      const on = await cli([
        "workspace",
        "features",
        workspaceId,
        "--enable",
        "ranking",
        "--disable",
        "partial_submissions"
      ])
      expect(on.code).toBe(0)
      expect(on.stdout).toContain("ranking  on")
      expect(on.stdout).toContain("partialSubmissions  off")
      expect((await createRankingForm()).status).toBe(201)

      const again = await cli(["workspace", "features", workspaceId, "--disable", "ranking"])
      expect(again.stdout).toContain("ranking  off")
      // The other flag set before is kept: a change names only what it changes.
      expect(again.stdout).toContain("partialSubmissions  off")
      expect((await createRankingForm()).status).toBe(422)
    }, 180_000)

    // The refusals come from the CLI's own checks, whatever the store: shown once, on PostgreSQL when
    // it is there (the embedded database's server restarts make this slow), else on the embedded one.
    it.skipIf(!store.live && TEST_DATABASE_URL !== undefined)(
      "refuses an unknown feature name with the names there are, storing nothing",
      async () => {
        const unknown = await cli(["workspace", "features", workspaceId, "--enable", "ranking,rankings"])
        expect(unknown.code).not.toBe(0)
        expect(unknown.stderr).toContain('unknown feature "rankings"')
        expect(unknown.stderr).toContain("partialSubmissions")
        // "ranking" was named beside the unknown one and is still off.
        const shown = await cli(["workspace", "features", workspaceId])
        expect(shown.code).toBe(0)
        expect(shown.stdout).toContain("ranking  off")
        expect((await createRankingForm()).status).toBe(422)
        const both = await cli([
          "workspace",
          "features",
          workspaceId,
          "--enable",
          "matrix",
          "--disable",
          "matrix"
        ])
        expect(both.code).not.toBe(0)
        expect(both.stderr).toContain('"matrix" is both enabled and disabled')
        const missing = await cli([
          "workspace",
          "features",
          "00000000-0000-4000-8000-000000000000",
          "--enable",
          "ranking"
        ])
        expect(missing.stderr).toContain("workspace not found")
        expect(missing.code).not.toBe(0)
      },
      180_000
    )
  })
}
