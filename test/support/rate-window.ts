// Budgets are counted in fixed wall-clock minutes (the buffered rate-limit store's windows), so a
// test that spends one and expects a 429 must not straddle two windows: it waits for a fresh one
// when too little of the current window is left.
export const RATE_WINDOW_MS = 60_000

/**
 * Resolves at once when `needMs` of the current window remain, else once the next window starts;
 * `windowMs` for budgets counted in longer windows (password attempts: 10 minutes). The default
 * leaves twice what the longest guarded sequence takes on a slow machine (two-instances: seven
 * requests 250 ms apart), and no more: the wait costs a test up to `needMs`, `needMs / windowMs`
 * of the time.
 */
export const freshRateWindow = async (needMs = 5_000, windowMs = RATE_WINDOW_MS): Promise<void> => {
  const left = windowMs - (Date.now() % windowMs)
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50))
}
