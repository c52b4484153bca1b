import { loadOnce, type StandardSchemaV1 } from '../client/index.js'

/** A named field's check: `text` a non-empty string, `positive` a number above zero; `?` optional. */
export type FieldKind = 'text' | 'text?' | 'positive'

/** What a catalogue row describes of its input. */
export interface InputRow {
  readonly id: string
  readonly body: 'json' | 'multipart'
  readonly listing?: boolean
  readonly fields?: Readonly<Record<string, FieldKind>>
}

type Value<K> = K extends 'positive' ? number : string
type Named<S> = { -readonly [K in keyof S as S[K] extends `${string}?` ? never : K]: Value<S[K]> } & {
  -readonly [K in keyof S as S[K] extends `${string}?` ? K : never]?: Value<S[K]>
}

/** The input a row takes: its named fields checked, a file tool's file, a listing's ids, any other field passed through. */
export type InputOfRow<R> = (R extends { fields: infer S } ? Named<S> : unknown) &
  (R extends { body: 'multipart' } ? { file: Blob } : unknown) &
  (R extends { listing: true } ? { objectId?: string; collectionId?: string } : unknown) & { [field: string]: unknown }

/** The checks themselves (zod/mini), a chunk of their own; the same promise for every caller. */
export const loadChecks = loadOnce(() => import('./schemas.js'))

/** A row's `input`: a Standard Schema whose validation waits for the checks' chunk the first time. */
export function lazyInput(row: InputRow): StandardSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: async (value) => (await loadChecks()).schemaOf(row)['~standard'].validate(value),
    },
  }
}

