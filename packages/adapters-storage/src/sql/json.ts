// JSON values as query parameters: always sent as text and cast to jsonb, so arrays are never
// mistaken for Postgres arrays and `undefined` becomes SQL null.
export const jsonParam = (value: unknown): string | null => {
  if (value === undefined || value === null) return null
  return JSON.stringify(value)
}
