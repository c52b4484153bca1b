// What the components need of the layers below that is not public API.
export { failedJobError } from '../tools/internal.js'
