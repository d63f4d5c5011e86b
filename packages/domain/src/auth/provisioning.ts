// Use cases for workspaces and API keys: used by the CLI and the first-start bootstrap. A key's
// plaintext exists only in the result of `issueApiKey`; storage keeps its hash.
import { Clock, Effect, Option } from "effect"
import { Invalid, NotFound, type StorageError } from "../kernel/errors.js"
import { IdGen } from "../ports/id-gen.js"
import {
  type ApiKeyRecord,
  ApiKeyRepository,
  type WorkspaceRecord,
  WorkspaceRepository
} from "../ports/workspaces.js"
import { API_KEY_RANDOM_BYTES, formatApiKey, hashApiKey } from "./api-key.js"
import { FORMS_SCOPES, isScope } from "./scopes.js"

export interface IssuedApiKey {
  readonly record: ApiKeyRecord
  /** Shown once; never stored. */
  readonly plaintext: string
}

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

export const createWorkspace = (
  name: string
): Effect.Effect<WorkspaceRecord, Invalid | StorageError, WorkspaceRepository | IdGen> =>
  Effect.gen(function* () {
    const trimmed = name.trim()
    if (trimmed.length === 0 || trimmed.length > 200) {
      return yield* new Invalid({
        message: "workspace name must be 1 to 200 characters",
        issues: [{ path: ["name"], rule: "length" }]
      })
    }
    const workspace: WorkspaceRecord = {
      id: yield* IdGen.pipe(Effect.flatMap((ids) => ids.uuidV7)),
      name: trimmed,
      features: {},
      createdAt: yield* now
    }
    yield* WorkspaceRepository.pipe(Effect.flatMap((repo) => repo.create(workspace)))
    return workspace
  })

/** Parses a comma-separated scope list; `all` stands for every forms scope. */
export const parseScopeList = (text: string): Effect.Effect<ReadonlyArray<string>, Invalid> => {
  const parts = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
  if (parts.length === 1 && parts[0] === "all") return Effect.succeed([...FORMS_SCOPES])
  const unknown = parts.findIndex((s) => !isScope(s))
  if (parts.length === 0 || unknown >= 0) {
    return Effect.fail(
      new Invalid({
        message: `scopes must be a comma-separated subset of: ${FORMS_SCOPES.join(", ")} (or "all")`,
        issues: [{ path: ["scopes", Math.max(unknown, 0)], rule: parts.length === 0 ? "required" : "enum" }]
      })
    )
  }
  return Effect.succeed([...new Set(parts)])
}

export const issueApiKey = (input: {
  readonly workspaceId: string
  readonly name: string
  readonly scopes: ReadonlyArray<string>
}): Effect.Effect<IssuedApiKey, NotFound | StorageError, WorkspaceRepository | ApiKeyRepository | IdGen> =>
  Effect.gen(function* () {
    const workspaces = yield* WorkspaceRepository
    const keys = yield* ApiKeyRepository
    const ids = yield* IdGen
    if (Option.isNone(yield* workspaces.get(input.workspaceId))) {
      return yield* new NotFound({ message: "workspace not found" })
    }
    const { plaintext, prefix } = formatApiKey(yield* ids.randomBytes(API_KEY_RANDOM_BYTES))
    const record: ApiKeyRecord = {
      id: yield* ids.uuidV7,
      workspaceId: input.workspaceId,
      name: input.name,
      prefix,
      hash: hashApiKey(plaintext),
      scopes: input.scopes,
      createdAt: yield* now,
      revokedAt: null,
      lastUsedAt: null
    }
    yield* keys.create(record)
    return { record, plaintext }
  })

export const revokeApiKey = (
  workspaceId: string,
  keyId: string
): Effect.Effect<void, NotFound | StorageError, ApiKeyRepository> =>
  Effect.gen(function* () {
    const keys = yield* ApiKeyRepository
    const revoked = yield* keys.revoke(workspaceId, keyId, yield* now)
    if (!revoked) return yield* new NotFound({ message: "no active key with that id in the workspace" })
  })

/**
 * On the first start of an empty database: one workspace and one key holding every scope. Returns
 * the key when it bootstrapped, nothing when workspaces already exist.
 */
export const bootstrapIfEmpty = (): Effect.Effect<
  Option.Option<{ readonly workspace: WorkspaceRecord; readonly key: IssuedApiKey }>,
  Invalid | NotFound | StorageError,
  WorkspaceRepository | ApiKeyRepository | IdGen
> =>
  Effect.gen(function* () {
    const workspaces = yield* WorkspaceRepository
    if ((yield* workspaces.count) > 0) return Option.none()
    const workspace = yield* createWorkspace("Default workspace")
    const key = yield* issueApiKey({
      workspaceId: workspace.id,
      name: "bootstrap",
      scopes: [...FORMS_SCOPES]
    })
    return Option.some({ workspace, key })
  })
