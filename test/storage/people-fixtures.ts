// Record builders for the people contract suites (accounts, sessions, passkeys, links, audit events).
import { createHash, randomBytes } from "node:crypto"
import type {
  AuditEventRecord,
  OneTimeTokenRecord,
  PasskeyRecord,
  SessionRecord,
  UserRecord
} from "@folio/domain"
import { at, uuid, uuidV7 } from "./fixtures.js"

/** A fresh token hash, as the domain stores one (lowercase hex SHA-256 of random bytes). */
export const tokenHash = (): string => createHash("sha256").update(randomBytes(32)).digest("hex")

/** A unique normalised e-mail; `local` leads it, so tests can order by it. */
export const email = (local = "person"): string => `${local}.${randomBytes(4).toString("hex")}@example.test`

export const user = (overrides: Partial<UserRecord> = {}): UserRecord => ({
  id: uuid(),
  email: email(),
  displayName: "Ada Lovelace",
  passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
  createdAt: at("2026-03-01T09:00:00.000Z"),
  ...overrides
})

export const session = (userId: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  id: uuid(),
  tokenHash: tokenHash(),
  userId,
  csrfToken: randomBytes(32).toString("base64url"),
  tenantId: null,
  createdAt: at("2026-03-01T09:00:00.000Z"),
  lastSeenAt: at("2026-03-01T09:00:00.000Z"),
  expiresAt: at("2026-03-08T09:00:00.000Z"),
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  ...overrides
})

export const passkey = (userId: string, overrides: Partial<PasskeyRecord> = {}): PasskeyRecord => ({
  id: uuid(),
  userId,
  credentialId: randomBytes(16).toString("base64url"),
  publicKey: randomBytes(77).toString("base64url"),
  counter: 0,
  transports: ["internal", "hybrid"],
  name: "MacBook",
  createdAt: at("2026-03-01T09:00:00.000Z"),
  lastUsedAt: null,
  ...overrides
})

export const oneTimeToken = (overrides: Partial<OneTimeTokenRecord> = {}): OneTimeTokenRecord => ({
  id: uuid(),
  kind: "invitation",
  tokenHash: tokenHash(),
  tenantId: null,
  email: null,
  role: null,
  userId: null,
  data: {},
  createdAt: at("2026-03-01T09:00:00.000Z"),
  expiresAt: at("2026-03-08T09:00:00.000Z"),
  usedAt: null,
  ...overrides
})

/** An event at `ms` (its uuid v7 id of that instant, so ids order as times do). */
export const auditEvent = (
  tenantId: string,
  ms: number,
  overrides: Partial<AuditEventRecord> = {}
): AuditEventRecord => ({
  id: uuidV7(ms),
  tenantId,
  action: "key.created",
  actorUserId: uuid(),
  actorEmail: "owner@example.test",
  target: uuid(),
  ip: "198.51.100.4",
  details: { service: "forms", scopes: "forms:read", count: 2, owner: true, note: null },
  at: new Date(ms),
  ...overrides
})
