// A respondent in tests: start a response on a published form's public routes and save answers
// partially, as the public page does, returning what later requests need.
export const startPartialResponse = async (
  origin: string,
  slug: string,
  answers: Readonly<Record<string, unknown>>
): Promise<{ responseId: string; token: string }> => {
  const started = await fetch(`${origin}/f/${slug}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}"
  })
  const { responseId, token } = ((await started.json()) as { data: { responseId: string; token: string } })
    .data
  const saved = await fetch(`${origin}/f/${slug}/responses/${responseId}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, answers })
  })
  if (saved.status !== 200) throw new Error(`partial save answered ${saved.status}`)
  return { responseId, token }
}
