// A stranger crowding a proxy's webhook route, in a process of its own: `count` connections with
// well-formed forged headers (any id, the current timestamp, a random `v1,` signature), each
// sending a byte of its body every `everyMs` and opened again as soon as it is answered or cut.
// Arguments: the webhook URL, count, everyMs. Prints `{"opened":n}` once the first `count` have
// sent their headers; then, for each `stats` line on stdin, `{"answers":{status:count}}`. Ends
// when its stdin closes, and after two minutes in any case.
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { createInterface } from 'node:readline'

const [url, count, everyMs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])]
const answers = {}
let opened = 0

function crowd() {
  const headers = {
    'webhook-id': `msg_${randomBytes(8).toString('hex')}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${randomBytes(32).toString('base64')}`,
    'content-type': 'application/json',
    'content-length': '4096',
  }
  const client = request(url, { method: 'POST', headers })
  let over = false
  const again = () => {
    if (over) return
    over = true
    clearInterval(trickle)
    client.destroy()
    setImmediate(crowd)
  }
  client.on('response', (response) => {
    answers[response.statusCode] = (answers[response.statusCode] ?? 0) + 1
    response.resume()
    again()
  })
  client.on('error', again)
  client.on('close', again)
  client.write('{', () => {
    if (++opened === count) console.log(JSON.stringify({ opened }))
  })
  const trickle = setInterval(() => client.write(' '), everyMs)
}

for (let i = 0; i < count; i++) crowd()
createInterface({ input: process.stdin })
  .on('line', (line) => line === 'stats' && console.log(JSON.stringify({ answers })))
  .on('close', () => process.exit(0))
setTimeout(() => process.exit(0), 120_000).unref()
