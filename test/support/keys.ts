// Workspaces and keys for HTTP tests, made through the same use cases as the CLI.
import { createWorkspace, issueApiKey, revokeApiKey } from "@folio/domain"
import { Effect } from "effect"
import type { RunningApp } from "./app.js"

export const newWorkspaceKey = async (app: RunningApp, scopes: ReadonlyArray<string>) =>
  app.run(
    Effect.gen(function* () {
      const workspace = yield* createWorkspace("Test workspace")
      const key = yield* issueApiKey({ workspaceId: workspace.id, name: "test", scopes })
      return { workspaceId: workspace.id, keyId: key.record.id, key: key.plaintext }
    })
  )

export const revoke = (app: RunningApp, workspaceId: string, keyId: string) =>
  app.run(revokeApiKey(workspaceId, keyId))

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
