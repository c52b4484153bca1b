import type { ToolId } from '../tools/index.js'

type Pascal<Id extends string> = Id extends `${infer Head}/${infer Tail}`
  ? `${Capitalize<Head>}${Pascal<Tail>}`
  : Capitalize<Id>

/** `valuation/rent` → `useValuationRent`. */
export type ToolHookName<T extends ToolId> = `use${Pascal<T>}`

export function toolHookName<T extends ToolId>(tool: T): ToolHookName<T> {
  return `use${tool
    .split('/')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')}` as ToolHookName<T>
}
