// Fingerprints live in the run core (src/client/runs): one way to hash base URL, key and person.
export { belongsTo, fingerprint, personOf } from '../tools/internal.js'
