// A classic form that uses every block type of the spec, with branching, a random group and a
// matrix, for the public page's tests: what the page must render, and answers that complete it.
export const blk = (name: string) => `blk_${name.padEnd(8, "0")}`

export const everyBlockDefinition = {
  schemaVersion: 1,
  blocks: [
    {
      id: blk("intro"),
      type: "statement",
      label: "Welcome",
      content: [{ text: "Hello " }, { text: "there", bold: true, color: "#b00020" }]
    },
    { id: blk("name"), type: "short_text", label: "Your name", required: true, options: { maxLength: 80 } },
    {
      id: blk("hello"),
      type: "statement",
      label: "",
      content: [{ text: "Nice to meet you, " }, { fieldRef: blk("name") }, { text: "." }]
    },
    { id: blk("bio"), type: "long_text", label: "About you", description: "A few words" },
    { id: blk("phone"), type: "short_text", label: "Phone", options: { inputMode: "tel" } },
    { id: blk("site"), type: "short_text", label: "Website", options: { inputMode: "url" } },
    { id: blk("email"), type: "email", label: "Email", required: true },
    {
      id: blk("color"),
      type: "multiple_choice",
      label: "Favourite colour",
      required: true,
      options: {
        choices: [
          { id: "red", label: "Red" },
          { id: "green", label: "Green" },
          { id: "blue", label: "Blue" }
        ],
        allowOther: true
      }
    },
    {
      id: blk("why"),
      type: "short_text",
      label: "Why green?",
      required: true
    },
    {
      id: blk("pets"),
      type: "checkboxes",
      label: "Pets",
      options: {
        choices: [
          { id: "cat", label: "Cat" },
          { id: "dog", label: "Dog" },
          { id: "fish", label: "Fish" }
        ],
        minSelected: 1,
        maxSelected: 2
      }
    },
    {
      id: blk("country"),
      type: "dropdown",
      label: "Country",
      options: { choices: [], dataset: "countries" }
    },
    {
      id: blk("size"),
      type: "dropdown",
      label: "Size",
      options: {
        choices: [
          { id: "s", label: "Small" },
          { id: "m", label: "Medium" },
          { id: "l", label: "Large" }
        ]
      }
    },
    {
      id: blk("rank"),
      type: "ranking",
      label: "Rank these",
      options: {
        choices: [
          { id: "a", label: "Alpha" },
          { id: "b", label: "Beta" },
          { id: "c", label: "Gamma" }
        ]
      }
    },
    {
      id: blk("mood"),
      type: "rating",
      label: "Mood",
      options: { scale: 5, shape: "star", lowLabel: "Low", highLabel: "High" }
    },
    { id: blk("energy"), type: "rating", label: "Energy", options: { scale: 5 } },
    { id: blk("day"), type: "date", label: "A day", options: { min: "2020-01-01", max: "2030-12-31" } },
    { id: blk("when"), type: "datetime", label: "A moment" },
    { id: blk("time"), type: "time", label: "A time" },
    { id: blk("trip"), type: "date_range", label: "Trip" },
    {
      id: blk("count"),
      type: "number",
      label: "How many",
      options: { min: 0, max: 100, integer: true, suffix: "items" }
    },
    { id: blk("page2"), type: "page_break" },
    {
      id: blk("mrow1"),
      type: "multiple_choice",
      label: "Rate the service",
      options: {
        choices: [
          { id: "bad", label: "Bad" },
          { id: "ok", label: "OK" },
          { id: "good", label: "Good" }
        ],
        matrixGroupId: "mtx_service",
        rowLabel: "Speed"
      }
    },
    {
      id: blk("mrow2"),
      type: "multiple_choice",
      label: "Rate the service",
      options: {
        choices: [
          { id: "bad", label: "Bad" },
          { id: "ok", label: "OK" },
          { id: "good", label: "Good" }
        ],
        matrixGroupId: "mtx_service",
        rowLabel: "Kindness"
      }
    },
    { id: blk("addr"), type: "address", label: "Address" },
    { id: blk("divider"), type: "divider" },
    { id: blk("file"), type: "file_upload", label: "A file", options: { maxFiles: 2, maxSizeMb: 1 } },
    { id: blk("sign"), type: "signature", label: "Signature" },
    {
      id: blk("consent"),
      type: "privacy_consent",
      label: "Consent",
      options: {
        items: ["Name", "Email"],
        purpose: "To reply to you",
        retentionPeriod: "One year",
        refusalNotice: "You may refuse."
      }
    },
    {
      id: blk("total"),
      type: "calculated_field",
      label: "Total score",
      options: { expression: `{${blk("mood")}} + {${blk("energy")}}` }
    },
    {
      id: blk("source"),
      type: "hidden_field",
      label: "Source",
      options: { param: "src", defaultValue: "direct" }
    }
  ],
  logic: [
    {
      id: "lgc_green1",
      from: blk("color"),
      conditions: [{ blk: blk("color"), op: "eq", value: "green" }],
      actions: [{ type: "show", target: blk("why") }]
    }
  ],
  randomGroups: [{ id: "rng_ratings", blockIds: [blk("mood"), blk("energy")], mode: "reverse" }]
}
