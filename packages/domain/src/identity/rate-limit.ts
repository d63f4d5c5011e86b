// Rate-limit policy math: fixed one-minute windows, a budget per API key and a budget of
// authentication attempts per client IP, as the spec's Limits table sets them.
import type { RateDecision } from "../kernel/errors.js"

export type { RateDecision }

export const RATE_WINDOW_MS = 60_000
export const KEY_REQUESTS_PER_MINUTE = 120
export const IP_AUTH_ATTEMPTS_PER_MINUTE = 600

export const decideRate = (count: number, limit: number, resetAtMs: number, nowMs: number): RateDecision => ({
  allowed: count <= limit,
  limit,
  remaining: Math.max(0, limit - count),
  resetSeconds: Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000))
})

/**
 * Of two budgets a request was charged to, the one closest to running out: a spent one first (the
 * one that stays spent longer), else the one with fewer requests left (the sooner reset on a tie).
 * It is the one a client must pace itself by, so it is the one the answer reports.
 */
export const tighterRate = (a: RateDecision, b: RateDecision): RateDecision => {
  if (a.allowed !== b.allowed) return a.allowed ? b : a
  if (!a.allowed) return a.resetSeconds >= b.resetSeconds ? a : b
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b
  return a.resetSeconds <= b.resetSeconds ? a : b
}

export const keyBucket = (keyId: string): string => `key:${keyId}`
export const ipBucket = (ip: string): string => `auth-ip:${ip}`
