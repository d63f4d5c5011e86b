// Port: the deployments of HTML artifacts. A deployment is immutable once written, and invisible
// until its artifact resource names it: the resource's own CAS update is what makes a deployment
// current, so a deployment whose resource write did not land is only an unreferenced row. Numbers are
// unique per artifact, so inserting the next number is a claim: one writer at a time holds it between
// its insert and its resource write (or discard).
import { type Effect, Context, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"

/** One file of a deployment: its path and the SHA-256 (hex) naming its bytes in the blob store. */
export interface DeployedFile {
  readonly path: string
  readonly sha256: string
  readonly size: number
}

export interface DeploymentRecord {
  /** UUID v4 (random: it is also the deployment's host name, which must not be guessable in order). */
  readonly id: string
  readonly tenantId: string
  readonly resourceId: string
  /** 1, 2, 3, ... per artifact. */
  readonly number: number
  /** The deployment this one patched (null for a full deployment). */
  readonly baseDeploymentId: string | null
  readonly files: ReadonlyArray<DeployedFile>
  readonly entryPath: string
  readonly siteBytes: number
  readonly createdAt: Date
}

/**
 * How long an unreferenced deployment holds its number. A writer that died between its insert and its
 * resource write would otherwise keep every later deployment of the artifact out; after this, the
 * next writer takes the number over. Far above the time to publish any site's files.
 */
export const DEPLOYMENT_CLAIM_LEASE_MS = 10 * 60 * 1000

export interface ArtifactDeploymentsService {
  /**
   * Writes the deployment, claiming its number. "taken" when a deployment made current (now or
   * before) has that number: the caller read a stale artifact. A claim still in flight is waited out
   * first (taken once it lands, free again if it is discarded or its lease runs out).
   */
  readonly insert: (deployment: DeploymentRecord) => Effect.Effect<"inserted" | "taken", StorageError>
  /** A deployment of the tenant's. */
  readonly get: (tenantId: string, id: string) => Effect.Effect<Option.Option<DeploymentRecord>, StorageError>
  /** A deployment by id alone: serving its origin, whose host names it. */
  readonly getAnyTenant: (id: string) => Effect.Effect<Option.Option<DeploymentRecord>, StorageError>
  /** Removes a deployment no resource names (its resource write did not land). */
  readonly discard: (id: string) => Effect.Effect<void, StorageError>
}

export class ArtifactDeployments extends Context.Service<ArtifactDeployments, ArtifactDeploymentsService>()(
  "@folio/domain/ArtifactDeployments"
) {}
