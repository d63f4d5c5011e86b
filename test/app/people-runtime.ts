// The console's use cases run in the test process against the store a CLI process wrote (the
// embedded data directory while no server holds it, or PostgreSQL): a person accepts a printed link
// and creates a key as the console would, beside a key the CLI created.
import { SmtpMailerLive } from "@folio/adapters-integrations"
import { Argon2PasswordHashingLive, IdGenLive } from "@folio/adapters-storage"
import {
  acceptInvitation,
  ApiKeyRepository,
  type ConsoleActor,
  createKey,
  FORMS_SCOPE_SET,
  hashApiKey,
  inviteMember,
  makeAuthenticate,
  parseApiKey
} from "@folio/domain"
import { Effect, Layer, ManagedRuntime } from "effect"
import { expect } from "vitest"

// biome-ignore lint/suspicious/noExplicitAny: any storage layer of the app's (PGlite, PostgreSQL)
type AnyStorage = Layer.Layer<any, any, never>

export interface PeopleRuntime {
  // biome-ignore lint/suspicious/noExplicitAny: the runtime of whichever storage layer was given
  readonly run: <A>(effect: Effect.Effect<A, unknown, any>) => Promise<A>
  readonly close: () => Promise<void>
}

/** The storage's ports, ids, argon2id and, given an SMTP URL, the real mail transport. */
export const peopleRuntime = async (storage: AnyStorage, smtpUrl?: string): Promise<PeopleRuntime> => {
  const mailer =
    smtpUrl === undefined
      ? Layer.empty
      : SmtpMailerLive({ url: smtpUrl, from: "Folio <no-reply@example.com>" })
  const runtime = ManagedRuntime.make(Layer.mergeAll(storage, IdGenLive, Argon2PasswordHashingLive, mailer))
  return {
    run: (effect) => runtime.runPromise(effect),
    close: () => runtime.dispose()
  }
}

/**
 * Accepts the link as a new owner, creates a key with the console's `createKey` (the CLI key's
 * scopes and expiry) and checks both keys alike: the same format, a stored
 * SHA-256 of the plaintext, the same fields set the same way (but `createdBy`), and the same
 * principal from `authenticate`.
 */
export const keysSideBySide = async (
  people: PeopleRuntime,
  input: { token: string; tenantId: string; cliPlaintext: string; expires: string | null }
): Promise<{ consolePlaintext: string; actor: ConsoleActor }> =>
  people.run(
    Effect.gen(function* () {
      const { user, started } = yield* acceptInvitation({
        token: input.token,
        signedIn: null,
        displayName: "Owner",
        password: "correct horse battery",
        ip: "127.0.0.1",
        userAgent: "vitest"
      })
      const actor: ConsoleActor = {
        userId: user.id,
        email: user.email,
        sessionId: started?.session.id ?? "",
        tenantId: input.tenantId,
        role: "owner",
        ip: "127.0.0.1"
      }
      const cliPrefix = parseApiKey(input.cliPlaintext)?.prefix
      const keys = yield* ApiKeyRepository
      const cliScopes = (yield* keys.list(input.tenantId)).find((k) => k.prefix === cliPrefix)?.scopes ?? []
      const fromConsole = yield* createKey(actor, {
        scopeSet: FORMS_SCOPE_SET,
        name: "from the console",
        scopes: cliScopes,
        expiresAt: input.expires === null ? null : new Date(`${input.expires}T00:00:00.000Z`)
      })
      const stored = yield* keys.list(input.tenantId)
      const cli = stored.find((k) => k.prefix === cliPrefix)
      const console = stored.find((k) => k.id === fromConsole.record.id)
      expect(cli).toBeDefined()
      expect(console).toBeDefined()
      if (cli === undefined || console === undefined) return { consolePlaintext: "", actor }
      for (const [key, plaintext] of [
        [cli, input.cliPlaintext],
        [console, fromConsole.plaintext]
      ] as const) {
        expect(plaintext).toMatch(/^folio_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}$/)
        expect(key.hash).toBe(hashApiKey(plaintext))
        expect(key.hash).not.toContain(plaintext.slice(19))
      }
      const shape = (k: typeof cli) => ({
        fields: Object.keys(k).sort(),
        tenantId: k.tenantId,
        service: k.service,
        scopes: [...k.scopes].sort(),
        revokedAt: k.revokedAt,
        lastUsedAt: k.lastUsedAt,
        tenantDisabled: k.tenantDisabled
      })
      expect(shape(console)).toEqual(shape(cli))
      expect(cli.createdBy).toBeNull()
      expect(console.createdBy).toBe(user.id)
      if (input.expires !== null) expect(console.expiresAt).toEqual(cli.expiresAt)

      const authenticate = yield* makeAuthenticate("forms")
      const a = yield* authenticate(input.cliPlaintext, "127.0.0.1")
      const b = yield* authenticate(fromConsole.plaintext, "127.0.0.1")
      expect({ ...b.principal, keyId: "" }).toEqual({ ...a.principal, keyId: "" })
      return { consolePlaintext: fromConsole.plaintext, actor }
    })
  )

/** The console's invitation (the members page's use case) by the signed-in owner: its link and whether it was mailed. */
export const consoleInvites = (people: PeopleRuntime, actor: ConsoleActor, email: string) =>
  people.run(inviteMember(actor, { email, role: "admin" }))
