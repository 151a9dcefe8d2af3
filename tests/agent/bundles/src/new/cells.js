// The work of one cell: a checksum over a few thousand values. The new
// build checks each value against a second hash: four times the rounds.
export function checksum(seed, rounds) {
  let h = seed | 0;
  for (let i = 0; i < rounds; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) + i;
    h ^= h >>> 13;
  }
  return h >>> 0;
}

export function padHex(value, width) {
  let s = value.toString(16);
  while (s.length < width) s = "0" + s;
  return s;
}

export function formatCell(row, col) {
  const value = checksum(row * 31 + col, 80000);
  return col === 0 ? "#" + row : padHex(value, 8);
}
