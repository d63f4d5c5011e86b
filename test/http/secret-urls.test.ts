// redactSecrets, the one redaction of what is written about a request: secret path segments and
// query values go, everything else stays as it was.
import { REDACTED, redactSecrets } from "@folio/adapters-http/shared"
import { describe, expect, it } from "vitest"

const token = "AbC_def-0123456789abcdefghijklmnopqrstuvwxy"

describe("redactSecrets", () => {
  it("replaces an upload token, and sig, token and presigned values, wherever they stand", () => {
    expect(redactSecrets(`/u/${token}`)).toBe(`/u/${REDACTED}`)
    expect(redactSecrets(`https://folio.example/u/${token}?sent=1`)).toBe(
      `https://folio.example/u/${REDACTED}?sent=1`
    )
    expect(redactSecrets(`/blobs/t/r/f?exp=17&fn=a.pdf&sig=${"f".repeat(64)}`)).toBe(
      `/blobs/t/r/f?exp=17&fn=a.pdf&sig=${REDACTED}`
    )
    expect(redactSecrets("/_bidama/unlock?token=abc.def&x=1#top")).toBe(
      `/_bidama/unlock?token=${REDACTED}&x=1#top`
    )
    expect(redactSecrets("https://b.s3/k?X-Amz-Credential=AK%2F1&x-amz-signature=ff")).toBe(
      `https://b.s3/k?X-Amz-Credential=${REDACTED}&x-amz-signature=${REDACTED}`
    )
    const id = "0190f0aa-0000-7000-8000-000000000000"
    expect(redactSecrets(`/f/study/withdraw/${id}/${"a".repeat(64)}`)).toBe(
      `/f/study/withdraw/${id}/${REDACTED}`
    )
    // A whole JSON log line: the value stops at the closing quote.
    const line = JSON.stringify({ annotations: { "http.url": `/u/${token}`, "url.full": "/x?sig=abc" } })
    expect(redactSecrets(line)).toBe(
      JSON.stringify({ annotations: { "http.url": `/u/${REDACTED}`, "url.full": `/x?sig=${REDACTED}` } })
    )
  })

  it("leaves everything else alone", () => {
    for (const text of [
      "/s/my-link?utm_source=mail&signature_page=2",
      "/share/api/v1/upload-requests/0190f0aa-0000-7000-8000-000000000000",
      "/u/",
      "listening on 127.0.0.1:8080",
      "/f/survey?design=sigma",
      "/f/withdraw/responses"
    ])
      expect(redactSecrets(text)).toBe(text)
  })
})
