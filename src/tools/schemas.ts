import * as z from 'zod/mini'
import type { InputRow } from './lazyInput.js'

// Messages are validation codes (see VALIDATION_MESSAGES): the client turns them into text.
// Plain refinements rather than zod's named checks: the same rules for less bundle.

/** A missing value is `required`; any other of the wrong type gets `code`. */
const missingOr = (code: string) => ({
  error: (problem: { input: unknown }) => (problem.input === undefined ? 'required' : code),
})

/** A required non-empty string. */
export const text = () => z.string(missingOr('not-a-string')).check(z.refine((value) => value.length > 0, 'required'))

/** A required number above zero. */
export const positive = () => z.number(missingOr('not-a-number')).check(z.refine((value) => value > 0, 'not-positive'))

/** The file of a file tool. */
export const file = () =>
  z.custom<Blob>((value) => value instanceof Blob, missingOr('not-a-file'))

const object = { error: 'not-an-object' } as const

/** Any JSON body: the spec names no fields, so all pass through. */
export const open = () => z.looseObject({}, object)

/** Named fields checked, all others passed through. */
export const fields = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.looseObject(shape, object)

/** A file tool's input: the file, plus options sent as JSON in the `data` part. */
export const upload = <Shape extends z.core.$ZodLooseShape>(shape: Shape = {} as Shape) =>
  z.looseObject({ file: file(), ...shape }, object)

/** A listing tool's input: exactly one of `objectId` / `collectionId`. */
export const listing = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z
    .looseObject({ objectId: z.optional(text()), collectionId: z.optional(text()), ...shape }, object)
    .check(
      z.refine((value: Record<string, unknown>) => given(value) > 0, { error: 'listing-missing', path: ['objectId'] }),
      z.refine((value: Record<string, unknown>) => given(value) < 2, { error: 'listing-both', path: ['collectionId'] }),
    )

/** How many of `objectId` / `collectionId` an input gives. */
const given = (value: Record<string, unknown>) =>
  Number(value.objectId !== undefined) + Number(value.collectionId !== undefined)

const built = new Map<string, z.ZodMiniType>()

/** A catalogue row's zod/mini schema, built from its fields once. */
export function schemaOf(row: InputRow): z.ZodMiniType {
  let schema = built.get(row.id)
  if (!schema) {
    const shape = Object.fromEntries(
      Object.entries(row.fields ?? {}).map(([name, kind]) => [name, kind === 'positive' ? positive() : kind === 'text?' ? z.optional(text()) : text()]),
    )
    schema = row.body === 'multipart' ? upload(shape) : row.listing ? listing(shape) : row.fields ? fields(shape) : open()
    built.set(row.id, schema)
  }
  return schema
}
