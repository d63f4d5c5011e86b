// People's use cases under test: the memory storage, real ids, argon2id with cheap parameters (the
// real binding, so verify and burn do real work), a workspace with its first owner, and a passkey
// ceremony double that checks the challenge it issued and the credential a response names.
import { Argon2PasswordHashing, IdGenLive, MemoryStorageLive } from "@folio/adapters-storage"
import {
  type ConsoleActor,
  createTenant,
  IdGen,
  MembershipRepository,
  PasskeyCeremony,
  PasswordHashing,
  type Role,
  type UserRecord,
  UserRepository
} from "@folio/domain"
import { Effect, Layer, Option } from "effect"

/** Cheap argon2id (1 MiB, one pass): the real algorithm at test speed. */
export const CheapHashingLive = Argon2PasswordHashing({ memoryCost: 1024, timeCost: 1, parallelism: 1 })

export const PeopleTestLive = Layer.mergeAll(MemoryStorageLive, IdGenLive, CheapHashingLive)

/** Counts the calls each PasswordHashing member receives, around the real one. */
export const countingHashing = () => {
  const calls = { hash: 0, verify: 0, burn: 0 }
  const count = (member: keyof typeof calls) =>
    Effect.sync(() => {
      calls[member] += 1
    })
  const layer = Layer.effect(
    PasswordHashing,
    Effect.gen(function* () {
      const inner = yield* Effect.provide(Effect.service(PasswordHashing), CheapHashingLive)
      return PasswordHashing.of({
        hash: (p) => Effect.andThen(count("hash"), inner.hash(p)),
        verify: (h, p) => Effect.andThen(count("verify"), inner.verify(h, p)),
        burn: (p) => Effect.andThen(count("burn"), inner.burn(p))
      })
    })
  )
  return { calls, layer }
}

export const PASSWORD = "correct horse battery"

/** A person with a password (and no workspace). */
export const createPerson = (email: string, password: string | null = PASSWORD, displayName = "Someone") =>
  Effect.gen(function* () {
    const hashing = yield* PasswordHashing
    const user: UserRecord = {
      id: yield* (yield* IdGen).uuidV7,
      email,
      displayName,
      passwordHash: password === null ? null : yield* hashing.hash(password),
      createdAt: new Date(0)
    }
    expectTrue(yield* (yield* UserRepository).create(user))
    return user
  })

export const addMember = (tenantId: string, user: UserRecord, role: Role) =>
  Effect.flatMap(Effect.service(MembershipRepository), (m) =>
    m.add({ tenantId, userId: user.id, role, createdAt: new Date(0) })
  )

/** A workspace and its owner. */
export const workspaceWithOwner = (name = "Acme", email = "owner@example.com") =>
  Effect.gen(function* () {
    const tenant = yield* createTenant(name)
    const owner = yield* createPerson(email)
    yield* addMember(tenant.id, owner, "owner")
    return { tenant, owner }
  })

export const actorOf = (user: UserRecord, tenantId: string, role: Role): ConsoleActor => ({
  userId: user.id,
  email: user.email,
  sessionId: `session-of-${user.id}`,
  tenantId,
  role,
  ip: "192.0.2.10"
})

const expectTrue = (value: boolean) => {
  if (!value) throw new Error("expected the write to succeed")
}

/**
 * A PasskeyCeremony double that behaves like the real relying party where the domain relies on it:
 * it issues fresh challenges and accepts only a response that signs the challenge it issued, for a
 * credential the response names (`{ credentialId, challenge, counter }`). The real library is
 * tested through Chromium's virtual authenticator.
 */
export const FakeCeremonyLive = Layer.effect(
  PasskeyCeremony,
  Effect.gen(function* () {
    const ids = yield* IdGen
    const issued = new Set<string>()
    const challenge = Effect.map(ids.uuid, (c) => {
      issued.add(c)
      return c
    })
    const fields = (response: unknown) => {
      const r = response as { credentialId?: unknown; challenge?: unknown; counter?: unknown } | null
      return typeof r?.credentialId === "string" && typeof r.challenge === "string"
        ? Option.some({
            credentialId: r.credentialId,
            challenge: r.challenge,
            counter: typeof r.counter === "number" ? r.counter : 0
          })
        : Option.none()
    }
    return PasskeyCeremony.of({
      registrationOptions: (input) =>
        Effect.map(challenge, (c) => ({
          challenge: c,
          options: {
            challenge: c,
            user: { id: input.userId },
            exclude: input.exclude.map((e) => e.credentialId)
          }
        })),
      verifyRegistration: (response, expected) =>
        Effect.sync(() =>
          Option.flatMap(fields(response), (f) =>
            f.challenge === expected && issued.has(expected)
              ? Option.some({
                  credentialId: f.credentialId,
                  publicKey: `pk-${f.credentialId}`,
                  counter: 0,
                  transports: ["internal"]
                })
              : Option.none()
          )
        ),
      authenticationOptions: Effect.map(challenge, (c) => ({ challenge: c, options: { challenge: c } })),
      credentialIdOf: (response) => Option.map(fields(response), (f) => f.credentialId),
      verifyAuthentication: (response, expected, credential) =>
        Effect.sync(() =>
          Option.flatMap(fields(response), (f) =>
            f.challenge === expected &&
            issued.has(expected) &&
            f.credentialId === credential.credentialId &&
            credential.publicKey === `pk-${f.credentialId}` &&
            f.counter > credential.counter
              ? Option.some(f.counter)
              : Option.none()
          )
        )
    })
  })
).pipe(Layer.provide(IdGenLive))
