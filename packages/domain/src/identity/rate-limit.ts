// Rate-limit policy math: fixed one-minute windows, a budget per API key and a budget of
// authentication attempts per client IP, as the spec's Limits table sets them.
export const RATE_WINDOW_MS = 60_000
export const KEY_REQUESTS_PER_MINUTE = 120
export const IP_AUTH_ATTEMPTS_PER_MINUTE = 600

export interface RateDecision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Whole seconds until the window resets (at least 1 while it runs). */
  readonly resetSeconds: number
}

export const decideRate = (count: number, limit: number, resetAtMs: number, nowMs: number): RateDecision => ({
  allowed: count <= limit,
  limit,
  remaining: Math.max(0, limit - count),
  resetSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000))
})

export const keyBucket = (keyId: string): string => `key:${keyId}`
export const ipBucket = (ip: string): string => `auth-ip:${ip}`
