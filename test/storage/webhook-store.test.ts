// The WebhookStore contract against memory, PGlite and PostgreSQL: events fan out to the enabled
// endpoints subscribed to them, in order, with one delivery job per endpoint; attempts move the
// delivery and the endpoint's failure count (disabling it at the limit); due endpoints; expiries
// announced once however many instances sweep at the same moment.
import {
  JobQueue,
  ResourceRepository,
  TenantRepository,
  type WebhookEndpointRecord,
  WebhookStore,
  type WebhookPolicy
} from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { resource, uuid, workspace } from "./fixtures.js"
import { type StorageTarget, storageTargets } from "./targets.js"

type Opened = Awaited<ReturnType<StorageTarget["open"]>>
type Ports = WebhookStore | ResourceRepository | TenantRepository | JobQueue

const policy: WebhookPolicy = { retryDelaysMs: [1000], disableAfterFailures: 3, timeoutMs: 1000 }

const endpoint = (
  tenantId: string,
  events: WebhookEndpointRecord["events"],
  enabled = true
): WebhookEndpointRecord => ({
  id: uuid(),
  tenantId,
  name: "hook",
  url: "https://hooks.example.com/in",
  events,
  enabled,
  signingSecret: "whsec_x",
  failureCount: 0,
  disabledReason: null,
  rowVersion: 1,
  createdAt: new Date(),
  updatedAt: new Date()
})

for (const target of storageTargets) {
  describe.skipIf(target.skip)(`WebhookStore [${target.name}]`, () => {
    let opened: Opened | undefined
    const run = <A, E>(effect: Effect.Effect<A, E, Ports>): Promise<A> => {
      if (opened === undefined) throw new Error("storage not opened")
      return opened.runtime.runPromise(effect as Effect.Effect<A, E, never>)
    }
    const tenant = async () => {
      const ws = workspace()
      await run(Effect.flatMap(TenantRepository, (r) => r.create(ws)))
      return ws.id
    }
    beforeAll(async () => {
      opened = await target.open()
    }, 120_000)
    afterAll(async () => {
      await opened?.close()
    })

    it("fans each resource event out to the subscribed, enabled endpoints, in order, one job per endpoint", async () => {
      const t = await tenant()
      const created = endpoint(t, ["resource.created", "resource.deleted"])
      const updatedOnly = endpoint(t, ["resource.updated"])
      const off = endpoint(t, ["resource.created"], false)
      await run(
        Effect.flatMap(WebhookStore, (s) =>
          Effect.forEach([created, updatedOnly, off], (e) => s.insert(e, 20))
        )
      )
      const r = resource(t, "link")
      await run(
        Effect.gen(function* () {
          const repo = yield* ResourceRepository
          yield* repo.insert(r)
          yield* repo.update(t, { ...r, title: "t2", rowVersion: 2, updatedAt: new Date() })
          yield* repo.softDelete(t, r.id, new Date())
        })
      )
      const at = new Date(Date.now() + 1000)
      const head = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(created.id, at)))
      expect(head._tag).toBe("Due")
      if (head._tag !== "Due") return
      expect(head.event.type).toBe("resource.created")
      expect(head.event.payload).toMatchObject({ resource: { id: r.id, slug: r.slug, type: "link" } })
      expect((await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(off.id, at))))._tag).toBe("None")
      const forUpdated = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(updatedOnly.id, at)))
      expect(forUpdated._tag === "Due" && forUpdated.event.type).toBe("resource.updated")
      const jobs = await run(
        Effect.flatMap(JobQueue, (q) => q.list(t, { limit: 50, type: "webhook_delivery" }))
      )
      expect(jobs.items.map((j) => j.resourceId).sort()).toEqual([created.id, updatedOnly.id].sort())

      // Delivered: the next in order comes up.
      await run(
        Effect.flatMap(WebhookStore, (s) =>
          s.recordAttempt(
            {
              attempt: {
                id: uuid(),
                tenantId: t,
                endpointId: created.id,
                deliveryId: head.deliveryId,
                eventId: head.event.id,
                eventType: head.event.type,
                attemptedAt: new Date(),
                ok: true,
                statusCode: 200,
                latencyMs: 5,
                error: null,
                responseExcerpt: null
              }
            },
            policy
          )
        )
      )
      const second = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(created.id, at)))
      expect(second._tag === "Due" && second.event.type).toBe("resource.deleted")
    })

    it("keeps a failed delivery at the head until its retry time, counts failures and disables at the limit", async () => {
      const t = await tenant()
      const hook = endpoint(t, ["resource.created"])
      await run(Effect.flatMap(WebhookStore, (s) => s.insert(hook, 20)))
      for (let i = 0; i < 2; i++)
        await run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(resource(t, "link"))))
      const fail = async (retryAt: Date | undefined) => {
        const head = await run(
          Effect.flatMap(WebhookStore, (s) => s.nextDelivery(hook.id, new Date(Date.now() + 60_000)))
        )
        if (head._tag !== "Due") throw new Error(`no due delivery: ${head._tag}`)
        return run(
          Effect.flatMap(WebhookStore, (s) =>
            s.recordAttempt(
              {
                attempt: {
                  id: uuid(),
                  tenantId: t,
                  endpointId: hook.id,
                  deliveryId: head.deliveryId,
                  eventId: head.event.id,
                  eventType: head.event.type,
                  attemptedAt: new Date(),
                  ok: false,
                  statusCode: 500,
                  latencyMs: 5,
                  error: "status 500",
                  responseExcerpt: "no"
                },
                retryAt
              },
              policy
            )
          )
        )
      }
      const later = new Date(Date.now() + 30_000)
      expect(await fail(later)).toBe(true)
      const waiting = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(hook.id, new Date())))
      expect(waiting).toEqual({ _tag: "Waiting", until: later })
      expect(await fail(undefined)).toBe(true) // given up: the second delivery is next
      expect(await fail(undefined)).toBe(false) // the third failure in a row disables it
      const stored = Option.getOrThrow(await run(Effect.flatMap(WebhookStore, (s) => s.get(t, hook.id))))
      expect(stored).toMatchObject({
        enabled: false,
        failureCount: 3,
        disabledReason: "disabled after 3 failed deliveries in a row"
      })
      const attempts = await run(Effect.flatMap(WebhookStore, (s) => s.attempts(t, hook.id, 10)))
      expect(attempts.map((a) => a.error)).toEqual(["status 500", "status 500", "status 500"])
      expect(
        await run(Effect.flatMap(WebhookStore, (s) => s.dueEndpoints(new Date(Date.now() + 60_000), 100)))
      ).not.toContainEqual(expect.objectContaining({ endpointId: hook.id }))
    })

    it("announces an expiry once, however many sweeps run at once, and again after a renewal", async () => {
      const t = await tenant()
      const hook = endpoint(t, ["resource.expired"])
      await run(Effect.flatMap(WebhookStore, (s) => s.insert(hook, 20)))
      const r = resource(t, "link", { expiresAt: new Date(Date.now() - 1000) })
      await run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
      const counts = await run(
        Effect.flatMap(WebhookStore, (s) =>
          Effect.all(
            [
              s.announceExpiries(new Date(), 1000),
              s.announceExpiries(new Date(), 1000),
              s.announceExpiries(new Date(), 1000)
            ],
            {
              concurrency: "unbounded"
            }
          )
        )
      )
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1)
      // Renewed and expired again: announced again.
      await run(
        Effect.flatMap(ResourceRepository, (repo) =>
          repo.update(t, { ...r, expiresAt: new Date(Date.now() - 10), rowVersion: 2, updatedAt: new Date() })
        )
      )
      expect(
        await run(Effect.flatMap(WebhookStore, (s) => s.announceExpiries(new Date(), 1000)))
      ).toBeGreaterThanOrEqual(1)
    })

    it("refuses an endpoint past the account's limit", async () => {
      const t = await tenant()
      const results = await run(
        Effect.flatMap(WebhookStore, (s) =>
          Effect.all(
            Array.from({ length: 5 }, () => s.insert(endpoint(t, ["resource.created"]), 3)),
            { concurrency: "unbounded" }
          )
        )
      )
      expect(results.filter(Boolean).length).toBe(3)
    })
  })
}
