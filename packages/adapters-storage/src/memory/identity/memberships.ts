// In-memory MembershipRepository: the twin of sql/identity/memberships.ts. Each change runs in one
// synchronous step, so the last-owner check and the write cannot interleave with another change.
import { type MembershipChange, MembershipRepository, type MembershipRecord } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore, type MemoryTables } from "../store.js"

const keyOf = (tenantId: string, userId: string) => `${tenantId}/${userId}`

const ownersOf = (tables: MemoryTables, tenantId: string) =>
  [...tables.people.memberships.values()].filter((m) => m.tenantId === tenantId && m.role === "owner").length

/** Whether taking `membership` out of the owners would leave its workspace none. */
const isLastOwner = (tables: MemoryTables, membership: MembershipRecord) =>
  membership.role === "owner" && ownersOf(tables, membership.tenantId) <= 1

export const makeMembershipRepository = Effect.map(Effect.service(MemoryStore), (tables) => {
  const { memberships, users } = tables.people
  return MembershipRepository.of({
    add: (membership) =>
      Effect.sync(() => {
        const key = keyOf(membership.tenantId, membership.userId)
        if (memberships.has(key)) return false
        memberships.set(key, membership)
        return true
      }),
    addWithNewUser: (user, membership) =>
      Effect.sync(() => {
        for (const other of users.values()) if (other.email === user.email) return false
        users.set(user.id, user)
        memberships.set(keyOf(membership.tenantId, membership.userId), membership)
        return true
      }),
    get: (tenantId, userId) =>
      Effect.sync(() => Option.fromNullishOr(memberships.get(keyOf(tenantId, userId)))),
    listByTenant: (tenantId) =>
      Effect.sync(() =>
        [...memberships.values()]
          .filter((m) => m.tenantId === tenantId)
          .flatMap((m) => {
            const user = users.get(m.userId)
            return user === undefined ? [] : [{ ...m, email: user.email, displayName: user.displayName }]
          })
          .sort(
            (a, b) =>
              Number(b.role === "owner") - Number(a.role === "owner") ||
              (a.email < b.email ? -1 : a.email > b.email ? 1 : 0)
          )
      ),
    listByUser: (userId) =>
      Effect.sync(() =>
        [...memberships.values()]
          .filter((m) => m.userId === userId)
          .flatMap((m) => {
            const tenant = tables.tenants.get(m.tenantId)
            return tenant === undefined
              ? []
              : [{ ...m, tenantName: tenant.name, tenantDisabled: tenant.disabledAt !== null }]
          })
          .sort((a, b) =>
            a.tenantName < b.tenantName
              ? -1
              : a.tenantName > b.tenantName
                ? 1
                : a.tenantId < b.tenantId
                  ? -1
                  : 1
          )
      ),
    setRole: (tenantId, userId, role) =>
      Effect.sync((): MembershipChange => {
        const key = keyOf(tenantId, userId)
        const membership = memberships.get(key)
        if (membership === undefined) return "not_found"
        if (role !== "owner" && isLastOwner(tables, membership)) return "last_owner"
        memberships.set(key, { ...membership, role })
        return "changed"
      }),
    remove: (tenantId, userId) =>
      Effect.sync((): MembershipChange => {
        const key = keyOf(tenantId, userId)
        const membership = memberships.get(key)
        if (membership === undefined) return "not_found"
        if (isLastOwner(tables, membership)) return "last_owner"
        memberships.delete(key)
        return "changed"
      })
  })
})

export const MemoryMembershipRepositoryLive = Layer.effect(MembershipRepository, makeMembershipRepository)
