// Upgrading a database that already holds API keys: 0005_api_key_services makes every key issued
// before it a forms key, so it keeps opening the forms API and nothing else.
import { NodeServices } from "@effect/platform-node"
import { PgClient, PgMigrator } from "@effect/sql-pg"
import { IdGenLive, PgStorageLive } from "@folio/adapters-storage"
import {
  API_KEY_RANDOM_BYTES,
  ApiKeyRepository,
  formatApiKey,
  hashApiKey,
  makeAuthenticate
} from "@folio/domain"
import { Effect, Layer, Option, Redacted, Result } from "effect"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import foundation from "../../packages/adapters-storage/src/sql/migrations/0001_foundation.js"
import respondents from "../../packages/adapters-storage/src/sql/migrations/0002_respondents.js"
import answerStats from "../../packages/adapters-storage/src/sql/migrations/0003_answer_stats.js"
import responseVersions from "../../packages/adapters-storage/src/sql/migrations/0004_response_versions.js"
import { createTempDatabase, TEST_DATABASE_URL } from "./targets.js"

/** The migrations that had shipped before keys carried a service. */
const beforeServices = PgMigrator.fromRecord({
  "0001_foundation": foundation,
  "0002_respondents": respondents,
  "0003_answer_stats": answerStats,
  "0004_response_versions": responseVersions
})

describe.skipIf(TEST_DATABASE_URL === undefined)("0005_api_key_services on a database with keys", () => {
  let db: Awaited<ReturnType<typeof createTempDatabase>>
  const workspaceId = "00000000-0000-4000-8000-0000000000a1"
  const keyId = "00000000-0000-7000-8000-0000000000a2"
  const key = formatApiKey(Uint8Array.from({ length: API_KEY_RANDOM_BYTES }, (_, i) => i * 7))

  beforeAll(async () => {
    db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    await Effect.runPromise(
      PgMigrator.run({ loader: beforeServices }).pipe(
        Effect.provide(Layer.merge(PgClient.layer({ url: Redacted.make(db.url) }), NodeServices.layer))
      )
    )
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      await client.query("insert into workspaces (id, name, created_at) values ($1, 'Old', now())", [
        workspaceId
      ])
      await client.query(
        `insert into api_keys (id, workspace_id, name, prefix, hash, scopes, created_at)
         values ($1, $2, 'old', $3, $4, '["forms:read"]'::jsonb, now())`,
        [keyId, workspaceId, key.prefix, hashApiKey(key.plaintext)]
      )
    } finally {
      await client.end()
    }
  })
  afterAll(async () => {
    await db?.drop()
  })

  it("makes the existing key a forms key: it opens the forms API and not the sharing API", async () => {
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const stored = yield* (yield* ApiKeyRepository).findByPrefix(key.prefix)
        const forms = yield* Effect.result((yield* makeAuthenticate("forms"))(key.plaintext, "192.0.2.9"))
        const sharing = yield* Effect.result((yield* makeAuthenticate("sharing"))(key.plaintext, "192.0.2.9"))
        return { stored, forms, sharing }
      }).pipe(Effect.provide(Layer.merge(PgStorageLive({ url: db.url }), IdGenLive)))
    )
    expect(Option.map(outcome.stored, (k) => [k.id, k.tenantId, k.service])).toEqual(
      Option.some([keyId, workspaceId, "forms"])
    )
    expect(Result.isSuccess(outcome.forms) && outcome.forms.success.principal).toEqual({
      tenant: workspaceId,
      service: "forms",
      scopes: ["forms:read"],
      keyId
    })
    expect(Result.isFailure(outcome.sharing) && outcome.sharing.failure._tag).toBe("Unauthorized")
  })
})
