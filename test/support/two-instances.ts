// Two app instances on one fresh PostgreSQL database, as a scale-out deployment runs them: what one
// instance writes or announces, the other must see. Only where TEST_DATABASE_URL names a server.
import { PgStorageLive } from "@folio/adapters-storage"
import { Option, Redacted } from "effect"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { type RunningApp, startApp } from "./app.js"

export interface TwoInstances {
  readonly a: RunningApp
  readonly b: RunningApp
  readonly close: () => Promise<void>
}

export const startTwoInstances = async (): Promise<TwoInstances> => {
  const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
  const config = { databaseUrl: Option.some(Redacted.make(db.url)) }
  const a = await startApp({ storage: PgStorageLive({ url: db.url }), config })
  const b = await startApp({ storage: PgStorageLive({ url: db.url }), config })
  return {
    a,
    b,
    close: async () => {
      await a.close()
      await b.close()
      await db.drop()
    }
  }
}
