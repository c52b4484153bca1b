// PNG written by hand: the pixels go in stored (uncompressed) deflate blocks, so no
// compressor is needed and the same code runs in Node and in the browser.

type Rgb = readonly [red: number, green: number, blue: number]

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
/** The largest payload of one stored deflate block. */
const STORED_BLOCK_MAX = 0xffff

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let crc = index
  for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  return crc >>> 0
})

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function adler32(bytes: Uint8Array): number {
  let low = 1
  let high = 0
  for (const byte of bytes) {
    low = (low + byte) % 65521
    high = (high + low) % 65521
  }
  return ((high << 16) | low) >>> 0
}

const uint32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff]

/** A zlib stream holding `data` in stored deflate blocks. */
function zlibStored(data: Uint8Array): number[] {
  const out = [0x78, 0x01]
  for (let start = 0; start < data.length; start += STORED_BLOCK_MAX) {
    const block = data.subarray(start, start + STORED_BLOCK_MAX)
    const final = start + STORED_BLOCK_MAX >= data.length ? 1 : 0
    out.push(final, block.length & 0xff, block.length >>> 8, ~block.length & 0xff, (~block.length >>> 8) & 0xff)
    for (const byte of block) out.push(byte)
  }
  out.push(...uint32(adler32(data)))
  return out
}

function chunk(type: string, data: ArrayLike<number>): number[] {
  const typed = new Uint8Array(4 + data.length)
  typed.set([...type].map((char) => char.charCodeAt(0)))
  typed.set(Array.from(data), 4)
  return [...uint32(data.length), ...typed, ...uint32(crc32(typed))]
}

/** An 8-bit RGB PNG whose pixel at (x, y) is `pixel(x, y)`. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Uint8Array<ArrayBuffer> {
  // Each scanline starts with its filter type, 0 (none).
  const raw = new Uint8Array(height * (1 + width * 3))
  let at = 0
  for (let y = 0; y < height; y++) {
    raw[at++] = 0
    for (let x = 0; x < width; x++) {
      const [red, green, blue] = pixel(x, y)
      raw[at++] = red
      raw[at++] = green
      raw[at++] = blue
    }
  }
  const header = [...uint32(width), ...uint32(height), 8, 2, 0, 0, 0] // depth 8, RGB, no interlace
  return new Uint8Array([
    ...SIGNATURE,
    ...chunk('IHDR', header),
    ...chunk('IDAT', zlibStored(raw)),
    ...chunk('IEND', []),
  ])
}

/** Width and height of the generated pictures. */
export const PICTURE_SIZE = 64

/** An "enhanced photo": a house against a sky, 64×64. */
export function photoPng(): Uint8Array<ArrayBuffer> {
  return encodePng(PICTURE_SIZE, PICTURE_SIZE, (x, y) => {
    const roofTop = 18
    const inRoof = y >= roofTop && y < 32 && Math.abs(x - 32) <= y - roofTop + 4
    const inWalls = y >= 32 && y < 52 && x >= 18 && x < 46
    const inDoor = y >= 40 && y < 52 && x >= 29 && x < 35
    if (inDoor) return [92, 58, 38]
    if (inWalls) return [238, 226, 204]
    if (inRoof) return [178, 64, 52]
    if (y >= 52) return [70, 150, 70]
    return [120 + y, 170 + y, 250] // sky, lighter towards the horizon
  })
}

/** A floor plan: walls, an inner wall with a doorway, on white, 64×64. */
export function floorplanPng(): Uint8Array<ArrayBuffer> {
  return encodePng(PICTURE_SIZE, PICTURE_SIZE, (x, y) => {
    const outerWall = (x >= 6 && x <= 57 && (y === 6 || y === 7 || y === 56 || y === 57)) ||
      (y >= 6 && y <= 57 && (x === 6 || x === 7 || x === 56 || x === 57))
    const innerWall = (x === 32 || x === 33) && y >= 6 && y <= 57 && !(y >= 26 && y <= 36)
    return outerWall || innerWall ? [40, 40, 48] : [255, 255, 255]
  })
}
