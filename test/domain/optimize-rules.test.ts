// Which originals `optimize-original` works on, and when its result replaces them.
import { IMAGE_MEDIA_TYPES, MIN_JPEG_SAVING, optimizableType, worthReplacing } from "@folio/domain"
import { describe, expect, it } from "vitest"

describe("optimizableType", () => {
  it("re-encodes JPEGs and converts HEIC/HEIF", () => {
    expect(optimizableType("image/jpeg")).toBe("jpeg")
    expect(optimizableType("image/heic")).toBe("heif")
    expect(optimizableType("image/heif")).toBe("heif")
    expect(optimizableType("Image/HEIC")).toBe("heif")
  })

  it("leaves AVIF (shown by browsers, already small) and everything else alone", () => {
    for (const type of [
      "image/avif",
      "image/png",
      "image/webp",
      "image/gif",
      "application/pdf",
      "text/plain",
      ""
    ])
      expect(optimizableType(type), type).toBeUndefined()
  })

  it("every optimizable type can be uploaded as an image", () => {
    expect(IMAGE_MEDIA_TYPES).toEqual(expect.arrayContaining(["image/jpeg", "image/heic", "image/heif"]))
  })
})

describe("worthReplacing", () => {
  it("replaces a JPEG only when it saves at least 5%", () => {
    expect(MIN_JPEG_SAVING).toBe(0.05)
    expect(worthReplacing(1000, 950, "jpeg")).toBe(true)
    expect(worthReplacing(1000, 951, "jpeg")).toBe(false)
    expect(worthReplacing(1000, 400, "jpeg")).toBe(true)
    expect(worthReplacing(1000, 1000, "jpeg")).toBe(false)
    expect(worthReplacing(1000, 1200, "jpeg")).toBe(false)
  })

  it("always replaces a HEIF by its JPEG, even a larger one", () => {
    expect(worthReplacing(1000, 400, "heif")).toBe(true)
    expect(worthReplacing(1000, 3000, "heif")).toBe(true)
  })

  it("never replaces anything by nothing", () => {
    expect(worthReplacing(1000, 0, "jpeg")).toBe(false)
    expect(worthReplacing(1000, 0, "heif")).toBe(false)
  })
})
