// Contract of ArtifactDeployments' numbers, run by register-contracts.ts against every storage target: a
// number is a claim, taken once a deployment with it landed, and taken over from a writer that died
// holding it (its lease ran out); reads per tenant and by id alone; discarded claims.
import {
  ArtifactDeployments,
  DEPLOYMENT_CLAIM_LEASE_MS,
  type DeploymentRecord,
  ResourceRepository,
  type TenantRecord
} from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { at, nextResource, resource, uuid } from "./fixtures.js"

export interface DeploymentsHarness {
  readonly target: string
  readonly run: <A, E>(effect: Effect.Effect<A, E, ArtifactDeployments | ResourceRepository>) => Promise<A>
  readonly newWorkspace: () => Promise<TenantRecord>
}

export const registerArtifactDeploymentContracts = ({ target, run, newWorkspace }: DeploymentsHarness) => {
  const t0 = at("2026-06-01T12:00:00.000Z").getTime()
  const deployment = (tenantId: string, resourceId: string, number: number, ms = 0): DeploymentRecord => ({
    id: uuid(),
    tenantId,
    resourceId,
    number,
    baseDeploymentId: null,
    files: [{ path: "index.html", sha256: "a".repeat(64), size: 1 }],
    entryPath: "index.html",
    siteBytes: 1,
    createdAt: new Date(t0 + ms)
  })
  const insert = (d: DeploymentRecord) => run(Effect.flatMap(ArtifactDeployments, (s) => s.insert(d)))

  describe(`ArtifactDeployments [${target}]`, () => {
    it("takes a number once a deployment with it landed, and takes over a claim whose writer died", async () => {
      const ws = await newWorkspace()
      const first = deployment(ws.id, uuid(), 1)
      const artifact = resource(ws.id, "artifact", {
        id: first.resourceId,
        data: {
          deploymentId: first.id,
          deploymentNumber: 1,
          entryPath: "index.html",
          fileCount: 1,
          siteBytes: 1
        }
      })
      expect(await insert(first)).toBe("inserted")
      await run(Effect.flatMap(ResourceRepository, (r) => r.insert(artifact)))
      // Number 1 is current: a writer that read an older state finds it taken.
      expect(await insert(deployment(ws.id, artifact.id, 1, 1000))).toBe("taken")

      // A writer claimed 2 and died before its resource write: after the lease, 2 is free again.
      const dead = deployment(ws.id, artifact.id, 2)
      expect(await insert(dead)).toBe("inserted")
      const next = deployment(ws.id, artifact.id, 2, DEPLOYMENT_CLAIM_LEASE_MS + 1)
      expect(await insert(next)).toBe("inserted")
      expect(
        Option.isNone(await run(Effect.flatMap(ArtifactDeployments, (s) => s.get(ws.id, dead.id))))
      ).toBe(true)
      // Once 2 landed, it is taken for good, lease or not.
      const landed = nextResource(artifact, {
        data: { ...artifact.data, deploymentId: next.id, deploymentNumber: 2 }
      })
      expect(await run(Effect.flatMap(ResourceRepository, (r) => r.update(ws.id, landed)))).toBe("updated")
      expect(await insert(deployment(ws.id, artifact.id, 2, 10 * DEPLOYMENT_CLAIM_LEASE_MS))).toBe("taken")
    })

    it("reads a deployment for its tenant or by id alone, and a discarded claim frees its number", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const d = deployment(ws.id, uuid(), 1)
      expect(await insert(d)).toBe("inserted")
      const get = (tenantId: string, id: string) =>
        run(Effect.flatMap(ArtifactDeployments, (s) => s.get(tenantId, id)))
      const anyTenant = (id: string) => run(Effect.flatMap(ArtifactDeployments, (s) => s.getAnyTenant(id)))
      expect(Option.getOrThrow(await get(ws.id, d.id))).toEqual(d)
      expect(Option.isNone(await get(other.id, d.id))).toBe(true)
      expect(Option.getOrThrow(await anyTenant(d.id))).toEqual(d)
      expect(Option.isNone(await anyTenant(uuid()))).toBe(true)

      // Its resource write did not land: discarded, and the number is free at once, lease or not.
      await run(Effect.flatMap(ArtifactDeployments, (s) => s.discard(d.id)))
      expect(Option.isNone(await anyTenant(d.id))).toBe(true)
      expect(await insert(deployment(ws.id, d.resourceId, 1, 1000))).toBe("inserted")
    })
  })
}
