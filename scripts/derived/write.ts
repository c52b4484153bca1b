// Writes the derived files as it loads: the module runner that loads it closes once it has, and
// the client's chunks are imported along the way.
import { writeDerived } from './index.js'

export const written = await writeDerived()
