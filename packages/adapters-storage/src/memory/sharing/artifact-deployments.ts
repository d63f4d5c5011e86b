// In-memory ArtifactDeployments: the twin of sql/sharing/artifact-deployments.ts. One number per artifact, as
// the SQL table's unique key, taken over once its lease ran out; memory serves single-process tests,
// so a claim in flight is not waited out: while it holds the number, the number is taken.
import { ArtifactDeployments, DEPLOYMENT_CLAIM_LEASE_MS } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const MemoryArtifactDeploymentsLive = Layer.effect(
  ArtifactDeployments,
  Effect.map(Effect.service(MemoryStore), ({ deployments, resources }) =>
    ArtifactDeployments.of({
      insert: (d) =>
        Effect.sync(() => {
          const holder = [...deployments.values()].find(
            (held) => held.resourceId === d.resourceId && held.number === d.number && held.id !== d.id
          )
          if (holder !== undefined) {
            const artifact = resources.get(d.resourceId)
            const landed =
              artifact === undefined ||
              artifact.deletedAt !== null ||
              artifact.type !== "artifact" ||
              artifact.data.deploymentNumber >= d.number
            if (landed || holder.createdAt.getTime() > d.createdAt.getTime() - DEPLOYMENT_CLAIM_LEASE_MS)
              return "taken" as const
            deployments.delete(holder.id)
          }
          deployments.set(d.id, d)
          return "inserted" as const
        }),
      get: (tenantId, id) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(deployments.get(id)), (d) => d.tenantId === tenantId)
        ),
      getAnyTenant: (id) => Effect.sync(() => Option.fromNullishOr(deployments.get(id))),
      discard: (id) => Effect.sync(() => void deployments.delete(id))
    })
  )
)
