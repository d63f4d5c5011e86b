// The public respondent routes' budget: they carry no key, so they are counted per client address,
// in buckets of their own in the shared RateLimitStore (beside the keyed budgets of identity).

/** The respondent bucket of a client address. */
export const respondentBucket = (ip: string): string => `respondent-ip:${ip}`
/** Default budget of the public respondent routes per client address and minute. */
export const RESPONDENT_REQUESTS_PER_MINUTE = 300
