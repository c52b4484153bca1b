// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { toToolsError } from '../src/client/errors.js'

describe('a chunk of code the connection failed to bring', () => {
  it.each([
    ['Chromium', 'Failed to fetch dynamically imported module: https://partner.test/assets/jobs-1.js'],
    ['Firefox', 'error loading dynamically imported module: https://partner.test/assets/jobs-1.js'],
    ['Safari', 'Importing a module script failed.'],
    ['Vite', 'Unable to preload CSS for /assets/index-1.css'],
  ])('is a network error in %s’s words, never an unexpected one', (_, message) => {
    const error = toToolsError(new TypeError(message), 'pdf/create')
    expect(error).toMatchObject({ kind: 'network', tool: 'pdf/create', message: 'Part of the page could not be loaded.' })
  })

  it('leaves any other failure unexpected', () => {
    expect(toToolsError(new TypeError('x is not a function'))).toMatchObject({ kind: 'unexpected' })
  })
})
