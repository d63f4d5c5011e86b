// Contract of WebhookStore, run by register-contracts.ts against every storage target: events fan
// out to the endpoints subscribed to them, in order, with one delivery job per enabled endpoint (a
// disabled one holds them, within a bound, until delivery resumes); attempts move the delivery and
// the endpoint's failure count (disabling it at the limit); due endpoints; removal; expiries
// announced once however many instances sweep at the same moment.
import {
  JobQueue,
  ResourceRepository,
  type WebhookEndpointRecord,
  WebhookStore,
  type WebhookPolicy
} from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { resource, uuid } from "./fixtures.js"

const policy: WebhookPolicy = {
  retryDelaysMs: [1000],
  disableAfterFailures: 3,
  timeoutMs: 1000,
  holdMs: 60_000
}

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

export const registerWebhookStoreContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  describe(`WebhookStore [${target}]`, () => {
    const tenant = async () => (await newWorkspace()).id

    it("fans each resource event out to the subscribed endpoints, in order, one job per enabled endpoint", async () => {
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
      // The disabled endpoint holds its event (delivery paused), with no job until it is enabled.
      const held = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(off.id, at)))
      expect(held._tag === "Due" && held.event.type).toBe("resource.created")
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

    /** Resources created at the given times (each writes its resource.created event then). */
    const created = async (t: string, ...times: ReadonlyArray<number>) => {
      const rows = times.map((ms) =>
        resource(t, "link", { createdAt: new Date(ms), updatedAt: new Date(ms) })
      )
      await run(Effect.flatMap(ResourceRepository, (repo) => Effect.forEach(rows, (r) => repo.insert(r))))
      return rows.map((r) => r.id)
    }
    const heads = async (endpointId: string, at: Date) => {
      const types: Array<string> = []
      for (;;) {
        const head = await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(endpointId, at)))
        if (head._tag !== "Due") return { types, last: head }
        types.push((head.event.payload as { resource: { id: string } }).resource.id)
        await run(
          Effect.flatMap(WebhookStore, (s) =>
            s.recordAttempt(
              {
                attempt: {
                  id: uuid(),
                  tenantId: head.event.tenantId,
                  endpointId,
                  deliveryId: head.deliveryId,
                  eventId: head.event.id,
                  eventType: head.event.type,
                  attemptedAt: at,
                  ok: true,
                  statusCode: 200,
                  latencyMs: 1,
                  error: null,
                  responseExcerpt: null
                }
              },
              policy
            )
          )
        )
      }
    }

    it("holds a disabled endpoint's events, and on resume gives up those past the bound and makes the rest due now", async () => {
      const t = await tenant()
      const hook = endpoint(t, ["resource.created"], false)
      const bystander = endpoint(t, ["resource.created"], false)
      await run(
        Effect.flatMap(WebhookStore, (s) => Effect.forEach([hook, bystander], (e) => s.insert(e, 20)))
      )
      const now = Date.now()
      const [old, ...recent] = await created(t, now - 120_000, now - 30_000, now - 20_000)
      const jobs = await run(
        Effect.flatMap(JobQueue, (q) => q.list(t, { limit: 50, type: "webhook_delivery" }))
      )
      expect(jobs.items).toEqual([])
      const at = new Date(now)
      await run(
        Effect.flatMap(WebhookStore, (s) => s.resumeDeliveries(t, hook.id, at, new Date(now - policy.holdMs)))
      )
      // Another account's resume touches nothing of this one.
      await run(Effect.flatMap(WebhookStore, (s) => s.resumeDeliveries(uuid(), bystander.id, at, at)))
      const delivered = await heads(hook.id, at)
      expect(delivered.types).toEqual(recent)
      expect(delivered.last._tag).toBe("None")
      const untouched = await heads(bystander.id, at)
      expect(untouched.types).toEqual([old, ...recent])
    })

    it("gives up, in the sweep, held deliveries past the bound of disabled endpoints only", async () => {
      const t = await tenant()
      const off = endpoint(t, ["resource.created"], false)
      const on = endpoint(t, ["resource.created"])
      await run(Effect.flatMap(WebhookStore, (s) => Effect.forEach([off, on], (e) => s.insert(e, 20))))
      const now = Date.now()
      const [, , recent] = await created(t, now - 120_000, now - 90_000, now - 10_000)
      const heldSince = new Date(now - policy.holdMs)
      const sweeps = await run(
        Effect.flatMap(WebhookStore, (s) =>
          Effect.all(
            [s.giveUpHeld(heldSince, new Date(now), 1000), s.giveUpHeld(heldSince, new Date(now), 1000)],
            {
              concurrency: "unbounded"
            }
          )
        )
      )
      // Only this account's two old events for the disabled endpoint (other tests' rows may be
      // given up too, but never twice).
      expect(sweeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2)
      const kept = await heads(off.id, new Date(now))
      expect(kept.types).toEqual([recent])
      const enabledKeepsAll = await heads(on.id, new Date(now))
      expect(enabledKeepsAll.types.length).toBe(3)
    })

    it("removes an endpoint with its deliveries and attempts, only for its own account, freeing a slot", async () => {
      const t = await tenant()
      const hooks = [endpoint(t, ["resource.created"]), endpoint(t, ["resource.created"])]
      await run(Effect.flatMap(WebhookStore, (s) => Effect.forEach(hooks, (e) => s.insert(e, 2))))
      expect(
        await run(Effect.flatMap(WebhookStore, (s) => s.insert(endpoint(t, ["resource.created"]), 2)))
      ).toBe(false)
      await created(t, Date.now(), Date.now())
      const [gone, kept] = hooks as [WebhookEndpointRecord, WebhookEndpointRecord]
      // One delivered (an attempt recorded), then one more pending: all of it goes with the endpoint.
      await heads(gone.id, new Date(Date.now() + 1000))
      await created(t, Date.now())
      expect(await run(Effect.flatMap(WebhookStore, (s) => s.remove(uuid(), gone.id)))).toBe(false)
      const removed = await run(
        Effect.flatMap(WebhookStore, (s) =>
          Effect.all([s.remove(t, gone.id), s.remove(t, gone.id)], { concurrency: "unbounded" })
        )
      )
      expect(removed.filter(Boolean).length).toBe(1)
      expect(Option.isNone(await run(Effect.flatMap(WebhookStore, (s) => s.get(t, gone.id))))).toBe(true)
      expect(await run(Effect.flatMap(WebhookStore, (s) => s.attempts(t, gone.id, 10)))).toEqual([])
      expect((await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(gone.id, new Date()))))._tag).toBe(
        "None"
      )
      expect(
        (await run(Effect.flatMap(WebhookStore, (s) => s.nextDelivery(kept.id, new Date(Date.now() + 1000)))))
          ._tag
      ).toBe("Due")
      expect(
        await run(Effect.flatMap(WebhookStore, (s) => s.insert(endpoint(t, ["resource.created"]), 2)))
      ).toBe(true)
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
