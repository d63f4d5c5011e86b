// Each artifact deployment on its own origin, `{deploymentId}.{ARTIFACT_HOST}` (host-based: the Host
// header names the deployment). Its files are served with their types by extension (mime-types), a
// CSP that lets the site run its own script but nothing from elsewhere, and an ETag from the bytes'
// digest. Only the current deployment of a live, public or unlisted artifact is served; an older
// one says it was replaced. A password-protected artifact is unlocked on the app's page, which hands
// the deployment origin a one-minute token at `/_bidama/unlock` (a reserved path) that becomes an
// unlock cookie of that origin alone: the app's cookies never reach a site, nor a site's the app.
import {
  ArtifactDeployments,
  artifactObjectKey,
  ArtifactsFeature,
  BlobStore,
  deploymentOrigin,
  deploymentServing,
  isResourceSlug,
  ResourceRepository,
  siteFileFor,
  isUuid,
  SuspendedAccounts,
  noindexFor
} from "@folio/domain"
import { Clock, Effect, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import mime from "mime-types"
import { PublicOrigin, secureCookiesFor } from "../../public-origin.js"
import { BlobSigningSecret } from "../../blobs/index.js"
import { cookiesOf } from "./public-visit.js"
import { expiringTokens } from "./signed-token.js"

/** The policy of every artifact response: the site's own script runs; nothing loads from elsewhere but media. */
export const ARTIFACT_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** The deployment origin's own unlock cookie, and the handoff token the app's page gives it. */
export const ARTIFACT_UNLOCK_COOKIE = "_bidama_unlock"
const UNLOCK_SECONDS = 24 * 60 * 60
const HANDOFF_SECONDS = 60
const unlocks = expiringTokens("artifact-unlock")
const handoffs = expiringTokens("artifact-handoff")

const text = (status: number, body: string, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.text(body, {
    status,
    headers: { "cache-control": "no-store", "x-content-type-options": "nosniff", ...headers }
  })

/**
 * The deployment a Host names on the artifacts' host, if it names one: such a request is that
 * site's, never the app's (the app's guard and the redirect's fast path both ask this).
 */
export const deploymentOfHost = (host: string | undefined, artifactHost: string): string | undefined => {
  const suffix = `.${artifactHost}`
  const name = (host ?? "").toLowerCase().replace(/:\d+$/, "")
  if (!name.endsWith(suffix)) return undefined
  const label = name.slice(0, -suffix.length)
  return isUuid(label) ? label : undefined
}

/**
 * The artifact origin: a handler for requests whose Host is `{uuid}.{host}` (undefined for any
 * other request, which goes to the app), and the handoff URL the app's share link redirects to.
 */
export const makeArtifactSite = Effect.gen(function* () {
  const feature = yield* ArtifactsFeature
  const deployments = yield* ArtifactDeployments
  const resources = yield* ResourceRepository
  const suspended = yield* SuspendedAccounts
  const blobs = yield* BlobStore
  const origin = yield* PublicOrigin
  const secret = `artifact-site:${yield* BlobSigningSecret}`
  const secure = secureCookiesFor(origin)

  /** The deployment a Host names, if it names one. */
  const deploymentOf = (host: string | undefined) => deploymentOfHost(host, feature.host)

  /** Where the share link of an artifact sends a visitor: its current origin, unlocked when it has a password. */
  const entryUrl = (
    r: { readonly id: string; readonly passwordHash: string | null },
    deploymentId: string,
    nowSeconds: number
  ) => {
    const site = deploymentOrigin(origin, feature.host, deploymentId)
    if (r.passwordHash === null) return `${site}/`
    const token = handoffs.make(secret, `${r.id}\n${r.passwordHash}`, nowSeconds + HANDOFF_SECONDS)
    return `${site}/_bidama/unlock?token=${encodeURIComponent(token)}`
  }

  const serve = (request: HttpServerRequest.HttpServerRequest, deploymentId: string) =>
    Effect.gen(function* () {
      if (!feature.enabled) return text(503, "HTML artifacts are turned off on this server.")
      if (request.method !== "GET" && request.method !== "HEAD")
        return text(405, "Method not allowed.", { allow: "GET, HEAD" })
      const found = yield* deployments.getAnyTenant(deploymentId)
      if (Option.isNone(found)) return text(404, "Not found.")
      const deployment = found.value
      const live = Option.getOrUndefined(yield* resources.get(deployment.tenantId, deployment.resourceId))
      const now = new Date(yield* Clock.currentTimeMillis)
      const serving = deploymentServing(live, deployment, now, suspended)
      if (serving === "not_found" || live === undefined || live.type !== "artifact")
        return text(404, "Not found.")
      const r = live
      const shareUrl = `${origin}/s/${isResourceSlug(r.slug) ? r.slug : ""}`
      if (serving === "replaced") return text(410, `This version was replaced by a newer one: ${shareUrl}`)
      if (serving === "unavailable") return text(410, "This site is not available.")
      const url = new URL(request.url, "http://site")
      const nowSeconds = Math.floor(now.getTime() / 1000)
      if (r.passwordHash !== null) {
        const subject = `${r.id}\n${r.passwordHash}`
        if (url.pathname === "/_bidama/unlock") {
          if (
            handoffs.check(secret, subject, url.searchParams.get("token") ?? undefined, nowSeconds) ===
            undefined
          )
            return HttpServerResponse.empty({
              status: 303,
              headers: { location: shareUrl, "cache-control": "no-store" }
            })
          const cookie = unlocks.make(secret, subject, nowSeconds + UNLOCK_SECONDS)
          return HttpServerResponse.empty({
            status: 303,
            headers: { location: "/", "cache-control": "no-store" },
            cookies: cookiesOf([
              {
                name: ARTIFACT_UNLOCK_COOKIE,
                value: cookie,
                maxAgeSeconds: UNLOCK_SECONDS,
                path: "/",
                secure
              }
            ])
          })
        }
        if (unlocks.check(secret, subject, request.cookies[ARTIFACT_UNLOCK_COOKIE], nowSeconds) === undefined)
          return HttpServerResponse.empty({
            status: 303,
            headers: { location: shareUrl, "cache-control": "no-store" }
          })
      }
      const file = siteFileFor(deployment.files, deployment.entryPath, url.pathname)
      const missing = file === undefined ? deployment.files.find((f) => f.path === "404.html") : undefined
      const chosen = file ?? missing
      if (chosen === undefined) return text(404, "Not found.")
      const etag = `"${chosen.sha256}"`
      const type = mime.contentType(chosen.path.split("/").pop() ?? "") || "application/octet-stream"
      const headers = {
        "content-security-policy": ARTIFACT_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "cross-origin-opener-policy": "same-origin",
        "cache-control": "no-cache",
        etag,
        ...(noindexFor(r) ? { "x-robots-tag": "noindex, nofollow" } : {})
      }
      if (file !== undefined && request.headers["if-none-match"] === etag)
        return HttpServerResponse.empty({ status: 304, headers })
      const opened = yield* blobs.openRead(artifactObjectKey(r, chosen.sha256))
      if (Option.isNone(opened)) return text(404, "Not found.")
      return HttpServerResponse.stream(opened.value.body, {
        status: file === undefined ? 404 : 200,
        contentType: type,
        contentLength: opened.value.size,
        headers
      })
    }).pipe(Effect.catchTag("StorageError", () => Effect.succeed(text(503, "Try again in a moment."))))

  return { deploymentOf, serve, entryUrl }
})
