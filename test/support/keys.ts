// Workspaces and keys for HTTP tests, made through the same use cases as the CLI.
import { createTenant, issueApiKey, revokeApiKey, type ServiceName } from "@folio/domain"
import { Effect } from "effect"
import type { RunningApp } from "./app.js"

/** A new workspace and a key of it; a forms key unless another service is named. */
export const newWorkspaceKey = async (
  app: RunningApp,
  scopes: ReadonlyArray<string>,
  service: ServiceName = "forms"
) =>
  app.run(
    Effect.gen(function* () {
      const workspace = yield* createTenant("Test workspace")
      const key = yield* issueApiKey({ tenantId: workspace.id, service, name: "test", scopes })
      return { workspaceId: workspace.id, keyId: key.record.id, key: key.plaintext }
    })
  )

export const revoke = (app: RunningApp, workspaceId: string, keyId: string) =>
  app.run(revokeApiKey(workspaceId, keyId))

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
